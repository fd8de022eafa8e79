//! Responses whose framing lies or breaks: each a failure of the right class and kind,
//! never a success and never a hang.

mod common;

use std::time::Duration;

use common::{Reply, TestServer, assert_contract, ok, run_load};
use serde_json::json;

/// Runs `-n 12 -c 2` (with `-k` when asked) against a server that always answers `bytes`
/// by `reply`, and checks that every request failed in `class` with `kind`.
fn assert_all_fail(
    reply: fn(Vec<u8>) -> Reply,
    bytes: &[u8],
    keep_alive: bool,
    class: &str,
    kind: &str,
) {
    let bytes = bytes.to_vec();
    let server = TestServer::start(move |_| reply(bytes.clone()));
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
    assert_eq!(doc["failures"][class], 12, "{doc}");
    assert_eq!(doc["errors_by_kind"], json!({ kind: 12 }), "{doc}");
    assert!(run.stderr.contains(kind), "{}", run.stderr);
    assert!(run.wall < Duration::from_secs(4), "took {:?}", run.wall);
}

#[test]
fn content_length_longer_than_the_body_then_close() {
    let lie = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly 15 bytes..";
    for keep_alive in [false, true] {
        assert_all_fail(
            Reply::RespondAndClose,
            lie,
            keep_alive,
            "receive",
            "connection_closed",
        );
    }
}

#[test]
fn content_length_longer_than_the_body_then_silence() {
    let lie = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly 15 bytes..".to_vec();
    let sent = lie.len() as u64;
    let server =
        TestServer::start(move |_| Reply::RespondThenSilence(lie.clone(), Duration::from_secs(5)));
    let url = server.url("/");
    let run = run_load(&["-n", "3", "-c", "1", "-k", "-s", "0.3", "--json", "-", &url]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["failures"]["receive"], 3, "{doc}");
    assert_eq!(doc["errors_by_kind"], json!({"timeout": 3}));
    // 3 × 0.3 s, and not the server's 5 s.
    assert!(run.wall < Duration::from_secs(3), "took {:?}", run.wall);
    // What arrived is still counted as transferred.
    assert_eq!(doc["total_transferred_bytes"], 3 * sent);
}

#[test]
fn connection_closed_mid_chunked_body() {
    let cut = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nonly-part";
    assert_all_fail(
        Reply::RespondAndClose,
        cut,
        true,
        "receive",
        "connection_closed",
    );
    let between_chunks = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n";
    assert_all_fail(
        Reply::RespondAndClose,
        between_chunks,
        false,
        "receive",
        "connection_closed",
    );
}

#[test]
fn malformed_chunked_encoding() {
    let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    let bad_hex = format!("{head}zz\r\nabc\r\n0\r\n\r\n");
    let no_crlf_after_chunk = format!("{head}2\r\nabc\r\n0\r\n\r\n");
    let size_overflows_u64 = format!("{head}10000000000000000\r\nabc\r\n0\r\n\r\n");
    let size_line_too_long = format!("{head}{}1\r\na\r\n0\r\n\r\n", "0".repeat(70_000));
    for body in [
        bad_hex,
        no_crlf_after_chunk,
        size_overflows_u64,
        size_line_too_long,
    ] {
        // The server keeps the connection open: the client must close it, not wait.
        assert_all_fail(
            Reply::Respond,
            body.as_bytes(),
            true,
            "exceptions",
            "malformed_response",
        );
    }
}

/// A response with `count` headers whose lines (CRLF included) are `line_bytes` long.
fn with_headers(count: usize, line_bytes: usize) -> Vec<u8> {
    let mut bytes = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n".to_vec();
    for i in 0..count {
        let name = format!("X-Filler-{i:04}: ");
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend(std::iter::repeat_n(b'a', line_bytes - name.len() - 2));
        bytes.extend_from_slice(b"\r\n");
    }
    bytes.extend_from_slice(b"\r\nok");
    bytes
}

/// The limits: a header line of at most 64 KiB, a head of at most 1 MiB.
#[test]
fn header_limits() {
    let fits = [with_headers(1, 64 * 1024), with_headers(15, 64 * 1024)];
    for bytes in fits {
        let server = TestServer::start(move |_| Reply::Respond(bytes.clone()));
        let url = server.url("/");
        let run = run_load(&["-n", "4", "-c", "2", "-k", "--json", "-", &url]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let doc = run.json();
        assert_eq!(doc["requests_completed"], 4, "{doc}");
        assert_eq!(doc["requests_failed"], 0, "{doc}");
    }
    let too_long_line = with_headers(1, 64 * 1024 + 2);
    let too_long_head = with_headers(17, 64 * 1024);
    let huge = with_headers(1, 8 * 1024 * 1024);
    for bytes in [too_long_line, too_long_head, huge] {
        assert_all_fail(
            Reply::Respond,
            &bytes,
            true,
            "exceptions",
            "malformed_response",
        );
    }
}

#[test]
fn wrong_length_against_the_first_response_without_keep_alive() {
    let server = TestServer::start(|request| {
        Reply::RespondAndClose(ok(if request.number == 0 {
            "first"
        } else {
            "longer body"
        }))
    });
    let url = server.url("/");
    let run = run_load(&["-n", "10", "-c", "1", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 10);
    assert_eq!(doc["document_length_bytes"], 5);
    assert_eq!(
        doc["failures"],
        json!({"connect": 0, "receive": 0, "length": 9, "exceptions": 0})
    );
    assert_eq!(doc["errors_by_kind"], json!({"length_mismatch": 9}));
}
