//! Counts are exact with -n, whatever the server's framing and connection handling.

mod common;

use common::{Reply, TestServer, assert_contract, ok, response, run_load};
use serde_json::json;

#[test]
fn exact_count_with_keep_alive() {
    let server = TestServer::start(|_| Reply::Respond(ok("Hello, world!")));
    let url = server.url("/hello.txt");
    let run = run_load(&["-n", "1000", "-c", "10", "-k", "-q", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(
        doc["requests_completed"],
        1000,
        "server log:\n{}",
        server.log_tail()
    );
    assert_eq!(doc["status_counts"], json!({"200": 1000}));
    assert_eq!(doc["requests_failed"], 0);
    assert_eq!(doc["keep_alive_requests"], 1000);
    assert_eq!(doc["document_length_bytes"], 13);
    assert_eq!(doc["html_transferred_bytes"], 13_000);
    assert_eq!(doc["server_software"], "test-server");
    assert_eq!(doc["options"]["requests"], 1000);
    assert_eq!(doc["options"]["concurrency"], 10);
    assert_eq!(server.requests(), 1000);
    assert!(
        server.connections() <= 10,
        "{} connections",
        server.connections()
    );
    let latency = &doc["latency_us"];
    assert!(latency["min"].as_u64().unwrap() >= 1);
    assert!(latency["p50"].as_u64().unwrap() <= latency["max"].as_u64().unwrap());
    assert!(doc["requests_per_s"].as_f64().unwrap() > 0.0);
    // The request as sent.
    let first = server.log.lock().unwrap()[0].clone();
    assert!(first.starts_with("GET /hello.txt HTTP/1.1\r\n"), "{first}");
    assert!(
        first.contains(&format!("\r\nHost: {}\r\n", server.address)),
        "{first}"
    );
    assert!(
        first.contains("\r\nUser-Agent: layerbench-load/"),
        "{first}"
    );
    assert!(first.contains("\r\nAccept: */*\r\n"), "{first}");
    assert!(!first.contains("Connection: close"), "{first}");
}

#[test]
fn exact_count_across_threads() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let url = server.url("/");
    let run = run_load(&[
        "-n",
        "999",
        "-c",
        "7",
        "--threads",
        "3",
        "-k",
        "--json",
        "-",
        &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 999);
    assert_eq!(doc["options"]["threads"], 3);
    assert_eq!(server.requests(), 999);
}

#[test]
fn without_keep_alive_every_request_has_its_connection() {
    let server = TestServer::start(|request| {
        let close = request.head.contains("\r\nConnection: close\r\n");
        Reply::RespondAndClose(ok(if close { "closed" } else { "NO CLOSE ASKED" }))
    });
    let url = server.url("/");
    let run = run_load(&["-n", "100", "-c", "4", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 100);
    assert_eq!(doc["requests_failed"], 0, "{}", server.log_tail());
    assert_eq!(doc["keep_alive_requests"], 0);
    assert_eq!(doc["document_length_bytes"], 6);
    assert_eq!(server.connections(), 100);
}

#[test]
fn server_closing_every_connection_is_not_a_failure() {
    // gunicorn's sync workers: `Connection: close` on every response.
    let server = TestServer::start(|_| {
        Reply::RespondAndClose(response("200 OK", "Connection: close\r\n", "bye"))
    });
    let url = server.url("/");
    let run = run_load(&["-n", "200", "-c", "5", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 200);
    assert_eq!(doc["requests_failed"], 0);
    assert_eq!(doc["keep_alive_requests"], 0);
    assert_eq!(doc["stale_connection_retries"], 0);
    assert_eq!(server.connections(), 200);
}

#[test]
fn chunked_responses() {
    let body = "HTTP/1.1 200 OK\r\nServer: chunky\r\nTransfer-Encoding: chunked\r\n\r\n\
                5;ext=1\r\nHello\r\n8\r\n, world!\r\n0\r\nX-Trailer: t\r\n\r\n";
    let server = TestServer::start(move |_| Reply::Respond(body.as_bytes().to_vec()));
    let url = server.url("/chunked");
    let run = run_load(&["-n", "50", "-c", "2", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 50);
    assert_eq!(doc["requests_failed"], 0);
    assert_eq!(doc["document_length_bytes"], 13);
    assert_eq!(doc["html_transferred_bytes"], 50 * 13);
    assert_eq!(doc["total_transferred_bytes"], 50 * body.len() as u64);
    assert_eq!(doc["keep_alive_requests"], 50);
    assert_eq!(doc["server_software"], "chunky");
}

#[test]
fn http10_body_until_close() {
    let server = TestServer::start(|_| {
        Reply::RespondAndClose(b"HTTP/1.0 200 OK\r\nServer: old\r\n\r\nuntil close".to_vec())
    });
    let url = server.url("/");
    let run = run_load(&["-n", "20", "-c", "2", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 20);
    assert_eq!(doc["requests_failed"], 0);
    assert_eq!(doc["document_length_bytes"], 11);
}

#[test]
fn varying_length_counts_length_failures() {
    // Bodies of 1 and 2 bytes in turn: the first 2xx (1 byte) is the Document Length.
    let server = TestServer::start(|request| {
        Reply::Respond(ok(if request.number % 2 == 0 { "a" } else { "bb" }))
    });
    let url = server.url("/");
    let run = run_load(&["-n", "100", "-c", "1", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 100);
    assert_eq!(doc["document_length_bytes"], 1);
    assert_eq!(doc["failures"]["length"], 50);
    assert_eq!(doc["requests_failed"], 50);
    assert_eq!(doc["errors_by_kind"], json!({"length_mismatch": 50}));
}

#[test]
fn server_errors_are_non_2xx_not_failures() {
    let server =
        TestServer::start(|_| Reply::Respond(response("500 Internal Server Error", "", "oops")));
    let url = server.url("/");
    let run = run_load(&["-n", "30", "-c", "3", "-k", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("Non-2xx responses:      30\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Failed requests:        0\n"),
        "{}",
        run.stdout
    );
    let run = run_load(&["-n", "30", "-c", "3", "-k", "--json", "-", &url]);
    let doc = run.json();
    assert_eq!(doc["non_2xx_responses"], 30);
    assert_eq!(doc["requests_failed"], 0);
    assert_eq!(doc["status_counts"], json!({"500": 30}));
    assert_eq!(doc["document_length_bytes"], serde_json::Value::Null);
}

#[test]
fn text_report_has_abs_labels() {
    let server = TestServer::start(|_| Reply::Respond(ok("Hello, world!")));
    let url = server.url("/hello.txt");
    let run = run_load(&["-n", "10", "-c", "2", "-k", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let labels = [
        "Server Software:        test-server\n",
        &format!("Server Port:            {}\n", server.address.port()),
        "Document Path:          /hello.txt\n",
        "Document Length:        13 bytes\n",
        "Concurrency Level:      2\n",
        "Complete requests:      10\n",
        "Failed requests:        0\n",
        "Keep-Alive requests:    10\n",
        "HTML transferred:       130 bytes\n",
        "Requests per second:",
        "[ms] (mean, across all concurrent requests)",
        "Percentage of the requests served within a certain time (ms)\n",
        "(longest request)\n",
        "Status codes:           200: 10\n",
    ];
    for label in labels {
        assert!(
            run.stdout.contains(label),
            "missing {label:?} in:\n{}",
            run.stdout
        );
    }
    let quiet = run_load(&["-q", "-n", "1", &url]);
    assert_eq!((quiet.code, quiet.stdout.as_str()), (Some(0), ""));
}
