//! `--source-addresses`: connections come from the listed local addresses, in turn; a
//! source that is not this machine's, or of the wrong family, is one clear error.

mod common;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{IpAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::thread;

use common::run_load;

/// Serves `connections` connections, one response each, and counts them by peer address.
fn count_peers(connections: usize) -> (String, thread::JoinHandle<BTreeMap<IpAddr, usize>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let peers = Arc::new(Mutex::new(BTreeMap::new()));
    let handle = thread::spawn(move || {
        for _ in 0..connections {
            let (mut stream, peer) = listener.accept().unwrap();
            *peers.lock().unwrap().entry(peer.ip()).or_insert(0) += 1;
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap() == 1 {
                head.push(byte[0]);
            }
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        }
        peers.lock().unwrap().clone()
    });
    (url, handle)
}

#[test]
fn connections_are_spread_over_the_source_addresses() {
    let (url, server) = count_peers(30);
    let run = run_load(&[
        "-n",
        "30",
        "-c",
        "1",
        "--source-addresses",
        "127.0.0.2-127.0.0.4",
        "--json",
        "-",
        &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.json()["requests_completed"], 30);
    let peers: Vec<(String, usize)> = server
        .join()
        .unwrap()
        .into_iter()
        .map(|(ip, count)| (ip.to_string(), count))
        .collect();
    let expected: Vec<(String, usize)> = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
        .iter()
        .map(|ip| (ip.to_string(), 10))
        .collect();
    assert_eq!(peers, expected);
}

#[test]
fn a_source_that_is_not_local_is_one_clear_error() {
    let run = run_load(&["--source-addresses", "192.0.2.1", "http://127.0.0.1:9/"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot use source address 192.0.2.1"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_source_of_the_wrong_family_is_one_clear_error() {
    let run = run_load(&["--source-addresses", "::1", "http://127.0.0.1:9/"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("not of the same IP family"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_malformed_list_is_a_usage_error() {
    let run = run_load(&[
        "--source-addresses",
        "127.0.0.9-127.0.0.1",
        "http://127.0.0.1:9/",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("empty range"), "{}", run.stderr);
}
