//! Bytes that answer no request (there is no pipelining here) are protocol violations: the
//! request they come with is an `exceptions` failure of kind `unsolicited_bytes`, never a
//! success, and the connection is not used again.

mod common;

use std::time::Duration;

use common::{Reply, TestServer, assert_contract, ok, run_load};
use serde_json::json;

/// `-n 6 -c 2` (and `-k` if `keep_alive`) against `url`: every request is such a failure.
fn assert_all_unsolicited(url: &str, keep_alive: bool) {
    let mut args = vec!["-n", "6", "-c", "2", "--json", "-", url];
    if keep_alive {
        args.push("-k");
    }
    let run = run_load(&args);
    assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 0, "{args:?}: {doc}");
    assert_eq!(doc["failures"]["exceptions"], 6, "{args:?}: {doc}");
    assert_eq!(
        doc["errors_by_kind"],
        json!({"unsolicited_bytes": 6}),
        "{args:?}: {doc}"
    );
    assert!(
        run.stderr
            .contains("exceptions: bytes that answer no request")
            && run.stderr.ends_with("(unsolicited_bytes)\n"),
        "{args:?}: {}",
        run.stderr
    );
}

#[test]
fn a_server_answering_twice() {
    let server = TestServer::start(|_| Reply::Respond([ok("once"), ok("twice")].concat()));
    for keep_alive in [false, true] {
        assert_all_unsolicited(&server.url("/"), keep_alive);
    }
}

#[test]
fn a_content_length_too_short_then_garbage() {
    let server = TestServer::start(|_| {
        Reply::Respond(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokGARBAGE".to_vec())
    });
    for keep_alive in [false, true] {
        assert_all_unsolicited(&server.url("/"), keep_alive);
    }
}

/// The text report names the failures: ab's Exceptions, and the kind among the errors.
#[test]
fn the_text_report_names_them() {
    let server = TestServer::start(|_| Reply::Respond([ok("once"), ok("twice")].concat()));
    let run = run_load(&["-n", "4", "-k", &server.url("/")]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    for line in [
        "Failed requests:        4",
        "(Connect: 0, Receive: 0, Length: 0, Exceptions: 4)",
        "unsolicited_bytes: 4",
    ] {
        assert!(run.stdout.contains(line), "{line}: {}", run.stdout);
    }
}

/// An answer that comes while a kept-alive connection has no request (the open loop leaves
/// it idle between due times) is found before the next request is written: that request
/// fails, and the next goes out on a new connection. (`--rate` is epoll's.)
#[test]
fn an_answer_before_the_request_on_an_idle_connection() {
    let server = TestServer::start(|_| {
        Reply::RespondThenUnsolicited(ok("asked"), Duration::from_millis(10), ok("unasked"))
    });
    let url = server.url("/");
    // Due at 0, 100 and 200 ms.
    let args = [
        "--rate", "10", "-n", "3", "-c", "1", "-k", "--json", "-", &url,
    ];
    let run = run_load(&args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 2, "{doc}");
    assert_eq!(doc["failures"]["exceptions"], 1, "{doc}");
    assert_eq!(
        doc["errors_by_kind"],
        json!({"unsolicited_bytes": 1}),
        "{doc}"
    );
    assert_eq!(server.connections(), 2, "the connection was not used again");
}
