//! Servers that reset connections (SO_LINGER 0: the close sends an RST): receive failures
//! of kind ECONNRESET, whether or not part of the response came first.

mod common;

use common::{Reply, TestServer, assert_contract, ok, run_load};
use serde_json::json;

fn assert_all_reset(server: &TestServer, keep_alive: bool) -> serde_json::Value {
    let url = server.url("/");
    let mut args = vec!["-n", "12", "-c", "2", "-s", "5", "--json", "-", &url];
    if keep_alive {
        args.insert(0, "-k");
    }
    let run = run_load(&args);
    assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 0, "{doc}");
    assert_eq!(doc["failures"]["receive"], 12, "{doc}");
    assert_eq!(doc["errors_by_kind"], json!({"ECONNRESET": 12}), "{doc}");
    assert!(run.stderr.contains("(ECONNRESET)"), "{}", run.stderr);
    doc
}

#[test]
fn reset_instead_of_a_response() {
    let server = TestServer::start(|_| Reply::RespondAndReset(Vec::new()));
    for keep_alive in [false, true] {
        assert_all_reset(&server, keep_alive);
    }
}

#[test]
fn reset_in_the_middle_of_a_response() {
    let server = TestServer::start(|_| {
        Reply::RespondAndReset(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".to_vec())
    });
    for keep_alive in [false, true] {
        assert_all_reset(&server, keep_alive);
    }
}

#[test]
fn reset_after_good_responses_on_a_kept_alive_connection() {
    // Two good responses per connection, then a reset instead of the third: the first
    // request of a reused connection that breaks is retried once, on a new connection,
    // and the retry gets a good response.
    let server = TestServer::start(|request| match request.on_connection {
        0 | 1 => Reply::Respond(ok("fine")),
        _ => Reply::RespondAndReset(Vec::new()),
    });
    let url = server.url("/");
    let run = run_load(&["-n", "30", "-c", "1", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 30, "{doc}");
    assert_eq!(doc["requests_failed"], 0, "{doc}");
    assert_eq!(doc["stale_connection_retries"], 14, "{doc}");
}
