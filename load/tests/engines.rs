//! The io_uring engine: the same results as epoll's, bodies spread over several provided
//! buffers, many connections, waits that gather responses no longer than `--batch-wait`
//! says, and a clear refusal where it does not apply.
//! (`make test` also runs every other integration test under it: `LAYERBENCH_LOAD_IO`.)

mod common;

use common::{Reply, TestServer, assert_contract, closed_port, ok, run_load, url_list};
use serde_json::json;
use std::thread;
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

/// Latency percentiles of the `--urls` run's URL `index`, microseconds.
fn url_latency(doc: &serde_json::Value, index: usize, key: &str) -> u64 {
    doc["by_url"][index]["latency_us"][key].as_u64().unwrap()
}

#[test]
fn a_batched_wait_holds_responses_back_no_longer_than_asked() {
    // Nine quick requests to one slow (300 ms) on two connections: while one connection
    // waits for a slow response, each wait cannot have all it asks for (both connections'
    // sends and responses) and returns when the batch wait (20 ms) is over, not with the
    // quick response nor with the slow one.
    let server = TestServer::start(|request| {
        if request.head.starts_with("GET /slow ") {
            thread::sleep(Duration::from_millis(300));
        }
        Reply::Respond(ok("x"))
    });
    let urls = url_list(
        "batch-wait",
        &[
            format!("9 {}", server.url("/quick")),
            format!("1 {}", server.url("/slow")),
        ],
    );
    let run = run_load(&[
        "--io",
        "io_uring",
        "--batch-wait",
        "20000",
        "-c",
        "2",
        "-k",
        "-t",
        "2",
        "--json",
        "-",
        "--urls",
        urls.as_str(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["options"]["batch_wait_us"], 20_000);
    assert_eq!(doc["requests_failed"], 0);
    let (quick_p50, quick_max) = (url_latency(&doc, 0, "p50"), url_latency(&doc, 0, "max"));
    assert!(
        quick_p50 >= 19_000,
        "quick responses were not held back: {quick_p50} us"
    );
    assert!(
        quick_max < 100_000,
        "a quick response waited for a slow one: {quick_max} us"
    );
    assert!(url_latency(&doc, 1, "min") >= 300_000);
}

#[test]
fn a_batched_wait_does_not_hold_back_a_lone_connection() {
    // One connection has one response to wait for: the wait returns with it, not after the
    // batch wait (100 ms, which would make 50 requests last 5 s).
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let url = server.url("/");
    let run = run_load(&[
        "--io",
        "io_uring",
        "--batch-wait",
        "100000",
        "-c",
        "1",
        "-k",
        "-n",
        "50",
        "--json",
        "-",
        &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["requests_completed"], 50);
    let p99 = doc["latency_us"]["p99"].as_u64().unwrap();
    assert!(p99 < 50_000, "{p99} us");
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
    let run = run_load(&["--batch-wait", "300", "-n", "1", "http://127.0.0.1:9/"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "layerbench-load: --batch-wait gathers io_uring's completions; add --io io_uring\n"
    );
    let run = run_load(&["--io", "kqueue", "http://127.0.0.1:9/"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("kqueue"), "{}", run.stderr);
}
