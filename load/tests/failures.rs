//! Failures are counted in ab's classes, never hang the run, and never panic.

mod common;

use std::time::{Duration, Instant};

use common::{Reply, TestServer, assert_contract, closed_port, ok, run_load};
use serde_json::json;

#[test]
fn garbage_is_a_malformed_response() {
    let server =
        TestServer::start(|_| Reply::RespondAndClose(b"garbage\r\n\r\nmore garbage".to_vec()));
    let url = server.url("/");
    let run = run_load(&["-n", "20", "-c", "2", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(1), "no response was valid: {}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 0);
    assert_eq!(doc["failures"]["exceptions"], 20);
    assert_eq!(doc["errors_by_kind"], json!({"malformed_response": 20}));
    assert!(run.stderr.contains("malformed_response"), "{}", run.stderr);
}

#[test]
fn garbage_mixed_with_good_responses() {
    let server = TestServer::start(|request| match request.number % 3 {
        0 => Reply::RespondAndClose(b"HTTP/1.1 200 OK\r\nContent-Length: nope\r\n\r\n".to_vec()),
        1 => Reply::RespondAndClose(vec![0xff; 100]),
        _ => Reply::Respond(ok("fine")),
    });
    let url = server.url("/");
    let run = run_load(&["-n", "90", "-c", "3", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 30);
    assert_eq!(doc["failures"]["exceptions"], 60);
    assert_eq!(doc["requests_failed"], 60);
}

#[test]
fn nothing_listening() {
    let port = closed_port();
    let url = format!("http://127.0.0.1:{port}/");
    let path = common::TempFile::new("nothing-listening", "json");
    let run = run_load(&[
        "-n",
        "10",
        "-c",
        "2",
        "-q",
        "--json",
        path.to_str().unwrap(),
        &url,
    ]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        format!(
            "layerbench-load: no response from 127.0.0.1:{port}: connect: Connection refused (ECONNREFUSED)\n"
        )
    );
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_contract(&doc);
    assert_eq!(doc["failures"]["connect"], 10);
    assert_eq!(doc["errors_by_kind"], json!({"ECONNREFUSED": 10}));
    assert_eq!(doc["latency_us"]["max"], 0);
    assert_eq!(doc["requests_per_s"], 0.0);
    assert!(run.wall < Duration::from_secs(5));
}

#[test]
fn silent_server_times_out() {
    let server = TestServer::start(|_| Reply::Silence(Duration::from_secs(3)));
    let url = server.url("/");
    let run = run_load(&["-n", "2", "-c", "1", "-s", "0.3", "--json", "-", &url]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["failures"]["receive"], 2);
    assert_eq!(doc["errors_by_kind"], json!({"timeout": 2}));
    assert!(run.wall < Duration::from_secs(2), "took {:?}", run.wall);
    assert!(
        run.stderr
            .contains("receive: no complete response within the timeout"),
        "{}",
        run.stderr
    );
}

#[test]
fn stale_keep_alive_connection_is_retried() {
    // Keeps-alive by its headers, yet closes a connection, unanswered, when a second request
    // comes on it (an idle timeout that struck as the request was sent): each such request is
    // sent again on a new connection, where it is answered.
    let server = TestServer::start(|request| {
        if request.on_connection == 0 {
            Reply::Respond(ok("hi"))
        } else {
            Reply::Silence(Duration::ZERO)
        }
    });
    let url = server.url("/");
    let run = run_load(&["-n", "20", "-c", "1", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 20);
    assert_eq!(doc["requests_failed"], 0, "{doc}");
    assert_eq!(doc["stale_connection_retries"], 19, "{doc}");
}

#[test]
fn keep_alive_connection_half_closed_after_its_response_is_not_reused() {
    // Keeps-alive by its headers, yet shuts its side down right after each response and
    // discards whatever comes next (Apache's lingering close when it drops a keep-alive
    // connection). The close often arrives with the response: a request sent on that
    // connection would wait for its timeout.
    let server =
        TestServer::start(|_| Reply::RespondThenLingeringClose(ok("hi"), Duration::from_secs(5)));
    let url = server.url("/");
    let started = Instant::now();
    let run = run_load(&["-n", "400", "-c", "4", "-k", "-s", "3", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 400, "{doc}");
    assert_eq!(doc["requests_failed"], 0, "{doc}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["ftp://127.0.0.1/"][..],
        &["-f", "TLS1", "https://127.0.0.1/"],
        &["127.0.0.1:80/"],
        &["-c", "0", "http://127.0.0.1/"],
        &["-t", "abc", "http://127.0.0.1/"],
        &["--no-such-flag", "http://127.0.0.1/"],
    ] {
        let run = run_load(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    let run = run_load(&["-f", "SSL3", "https://127.0.0.1/"]);
    assert!(run.stderr.contains("SSL3 is obsolete"), "{}", run.stderr);
}
