//! Servers that stall (never accept, never read, never answer, trickle, or never stop
//! sending): the run still ends by -s or -t, and each stalled request is a failure.

mod common;

use std::time::Duration;

use common::{FullBacklog, MuteServer, Reply, TestServer, assert_contract, run_load};
use serde_json::json;

/// `-n 2 -c 1 -s 0.3` against `url`: both requests time out in `class`, well within 2 s.
fn assert_times_out(url: &str, class: &str) -> serde_json::Value {
    let run = run_load(&["-n", "2", "-c", "1", "-s", "0.3", "--json", "-", url]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 0, "{doc}");
    assert_eq!(doc["failures"][class], 2, "{doc}");
    assert_eq!(doc["errors_by_kind"], json!({"timeout": 2}), "{doc}");
    assert!(
        run.stderr.starts_with("layerbench-load: no response from ")
            && run.stderr.contains(&format!("{class}: ")),
        "{}",
        run.stderr
    );
    assert!(
        (Duration::from_millis(550)..Duration::from_secs(2)).contains(&run.wall),
        "took {:?}",
        run.wall
    );
    doc
}

#[test]
fn server_that_never_accepts() {
    let server = FullBacklog::start();
    assert_times_out(&server.url(), "connect");
}

#[test]
fn server_that_accepts_and_never_reads() {
    let server = MuteServer::start();
    assert_times_out(&server.url(), "receive");
    assert_eq!(
        server.connections.load(std::sync::atomic::Ordering::SeqCst),
        2
    );
}

#[test]
fn server_that_trickles_its_response() {
    // 1 byte every 20 ms: the whole response would take over a second.
    let server = TestServer::start(|_| Reply::Trickle {
        bytes: common::ok(&"x".repeat(40)),
        every: Duration::from_millis(20),
    });
    let doc = assert_times_out(&server.url("/"), "receive");
    assert!(
        doc["total_transferred_bytes"].as_u64().unwrap() >= 10,
        "{doc}"
    );
}

#[test]
fn server_that_never_stops_sending() {
    // A body until close, sent as fast as the client reads, for longer than the timeout.
    let server = TestServer::start(|_| {
        Reply::Flood(b"HTTP/1.0 200 OK\r\n\r\n".to_vec(), Duration::from_secs(5))
    });
    assert_times_out(&server.url("/"), "receive");
}

#[test]
fn time_limit_ends_requests_in_flight() {
    let silent = TestServer::start(|_| Reply::Silence(Duration::from_secs(5)));
    let flood = TestServer::start(|_| {
        Reply::Flood(b"HTTP/1.0 200 OK\r\n\r\n".to_vec(), Duration::from_secs(5))
    });
    for url in [silent.url("/"), flood.url("/")] {
        let run = run_load(&["-t", "0.5", "-c", "2", "-s", "30", "--json", "-", &url]);
        assert_eq!(run.code, Some(1), "{url}: {}", run.stderr);
        let doc = run.json();
        assert_contract(&doc);
        // Nothing ended before the deadline, and nothing after it counts.
        assert_eq!(doc["requests_completed"], 0, "{doc}");
        assert_eq!(doc["requests_failed"], 0, "{doc}");
        assert!(
            run.wall < Duration::from_secs(2),
            "{url}: took {:?}",
            run.wall
        );
        assert_eq!(
            run.stderr,
            format!(
                "layerbench-load: no response from {}: no request completed\n",
                url.trim_start_matches("http://").trim_end_matches('/')
            )
        );
    }
}

/// A response whose body never ends, in chunks of one byte: the server writes faster than the
/// client parses, so the reads never find the socket empty, and must still give way to `-s`
/// and `-t` on time.
fn endless_drip() -> TestServer {
    TestServer::start(|_| Reply::TinyChunks(Duration::from_secs(20)))
}

#[test]
fn endless_drip_times_out_each_request_on_time() {
    let server = endless_drip();
    let url = server.url("/");
    let run = run_load(&["-n", "6", "-c", "2", "-s", "1", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 0, "{doc}");
    assert_eq!(doc["failures"]["receive"], 6, "{doc}");
    assert_eq!(doc["errors_by_kind"], json!({"timeout": 6}), "{doc}");
    // Three rounds of two connections, 1 s each.
    assert!(
        (Duration::from_millis(2900)..Duration::from_millis(4500)).contains(&run.wall),
        "took {:?}",
        run.wall
    );
}

#[test]
fn endless_drip_ends_at_the_time_limit() {
    let server = endless_drip();
    let url = server.url("/");
    let run = run_load(&["-t", "1", "-c", "2", "-s", "30", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 0, "{doc}");
    assert_eq!(doc["requests_failed"], 0, "{doc}");
    assert!(
        run.wall < Duration::from_millis(2500),
        "took {:?}",
        run.wall
    );
}
