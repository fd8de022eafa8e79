//! The io_uring engine: the same results as epoll's, bodies spread over several provided
//! buffers, many connections, and a clear refusal where it does not apply.
//! (`make test` also runs every other integration test under it: `LAYERBENCH_LOAD_IO`.)

mod common;

use common::{Reply, TestServer, assert_contract, closed_port, ok, run_load};
use serde_json::json;
use std::time::Duration;

#[test]
fn io_uring_counts_exactly_what_epoll_counts() {
    let server = TestServer::start(|_| Reply::Respond(ok("Hello, world!")));
    let url = server.url("/");
    for engine in ["epoll", "io_uring"] {
        let run = run_load(&[
            "--io", engine, "-n", "2000", "-c", "20", "-k", "--json", "-", &url,
        ]);
        assert_eq!(run.code, Some(0), "{engine}: {}", run.stderr);
        let doc = run.json();
        assert_contract(&doc);
        assert_eq!(doc["client_io_engine"], engine);
        assert_eq!(doc["requests_completed"], 2000, "{engine}");
        assert_eq!(doc["keep_alive_requests"], 2000, "{engine}");
        assert_eq!(doc["html_transferred_bytes"], 26_000, "{engine}");
        assert_eq!(doc["requests_failed"], 0, "{engine}");
    }
}

#[test]
fn io_uring_reads_bodies_larger_than_its_buffers() {
    // 200,000 bytes: more than a dozen of the ring's 16 KiB buffers per response.
    let body = "x".repeat(200_000);
    let server = TestServer::start(move |_| Reply::Respond(ok(&body)));
    let url = server.url("/big");
    let run = run_load(&[
        "--io", "io_uring", "-n", "200", "-c", "4", "-k", "--json", "-", &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 200);
    assert_eq!(doc["failures"]["length"], 0);
    assert_eq!(doc["html_transferred_bytes"], 200 * 200_000);
}

#[test]
fn io_uring_without_keep_alive_opens_a_connection_per_request() {
    let server = TestServer::start(|_| Reply::Respond(ok("hi")));
    let url = server.url("/");
    let run = run_load(&[
        "--io", "io_uring", "-n", "600", "-c", "300", "--json", "-", &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 600);
    assert_eq!(doc["status_counts"], json!({"200": 600}));
    assert_eq!(doc["keep_alive_requests"], 0);
    assert_eq!(server.connections(), 600);
}

#[test]
fn io_uring_refused_connects_each_end_promptly() {
    // Each refused socket is closed and the next one often gets its descriptor number: an
    // operation queued for the old socket but not yet submitted must not act on the new
    // one (a receive once took the new socket's ECONNREFUSED, and its connect never ended).
    let port = closed_port();
    let url = format!("http://127.0.0.1:{port}/");
    let run = run_load(&[
        "--io", "io_uring", "-n", "1500", "-c", "8", "-s", "20", "-q", "--json", "-", &url,
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["failures"]["connect"], 1500);
    assert_eq!(doc["errors_by_kind"], json!({"ECONNREFUSED": 1500}));
    // 1500 connects, 10 ms apart on each of 8 connections: about 2 s, far below the 20 s
    // timeout that a stuck connect would wait for.
    assert!(run.wall < Duration::from_secs(10), "{:?}", run.wall);
}

#[test]
fn io_uring_refuses_what_it_does_not_drive() {
    let run = run_load(&[
        "--io",
        "io_uring",
        "--rate",
        "100",
        "-n",
        "1",
        "http://127.0.0.1:9/",
    ]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "layerbench-load: --io io_uring drives plain http:// runs in the closed loop; leave out \
         --io (epoll) with https:// or --rate\n"
    );
    let run = run_load(&["--io", "kqueue", "http://127.0.0.1:9/"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("kqueue"), "{}", run.stderr);
}
