//! Time limits, warm-up and signals.

mod common;

use std::time::{Duration, Instant};

use common::{Reply, TestServer, assert_contract, finish, ok, response, run_load, spawn};
use serde_json::json;

#[test]
fn time_limit_is_honoured() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let url = server.url("/");
    let run = run_load(&["-t", "0.5", "-c", "2", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    let elapsed = doc["elapsed_s"].as_f64().unwrap();
    assert!((0.45..=0.55).contains(&elapsed), "elapsed_s {elapsed}");
    assert!(run.wall >= Duration::from_millis(450) && run.wall < Duration::from_secs(5));
    assert_eq!(doc["options"]["requests"], serde_json::Value::Null);
    assert_eq!(doc["options"]["duration_s"], 0.5);
    assert!(doc["requests_completed"].as_u64().unwrap() > 10);
}

#[test]
fn requests_end_before_the_time_limit() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let url = server.url("/");
    let run = run_load(&["-t", "20", "-n", "50", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.json()["requests_completed"], 50);
    assert!(run.wall < Duration::from_secs(5));
}

#[test]
fn warmup_requests_are_not_counted() {
    // The first 50 requests (all in the warm-up) answer 503.
    let server = TestServer::start(|request| match request.number {
        0..50 => Reply::Respond(response("503 Service Unavailable", "", "warming")),
        _ => Reply::Respond(ok("ready")),
    });
    let url = server.url("/");
    let run = run_load(&[
        "-t", "1", "--warmup", "0.5", "-c", "1", "-k", "--json", "-", &url,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["options"]["warmup_s"], 0.5);
    let completed = doc["requests_completed"].as_u64().unwrap();
    assert!(completed > 0);
    assert_eq!(doc["status_counts"], json!({"200": completed}));
    assert_eq!(doc["non_2xx_responses"], 0);
    assert!(
        server.requests() > completed + 50,
        "warm-up requests were sent"
    );
    let elapsed = doc["elapsed_s"].as_f64().unwrap();
    assert!(
        (0.95..=1.05).contains(&elapsed),
        "elapsed_s {elapsed} excludes the warm-up"
    );
    assert_eq!(doc["document_length_bytes"], 5);
}

#[test]
fn signals_stop_promptly_and_report() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let url = server.url("/");
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let started = Instant::now();
        let child = spawn(&["-t", "30", "-c", "2", "-k", "--json", "-", &url]);
        std::thread::sleep(Duration::from_millis(400));
        let signalled = Instant::now();
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let run = finish(child, started);
        let after = signalled.elapsed();
        assert!(
            after < Duration::from_secs(2),
            "took {after:?} after signal {signal}"
        );
        assert_eq!(run.code, Some(0), "signal {signal}: {}", run.stderr);
        let doc = run.json();
        assert!(doc["requests_completed"].as_u64().unwrap() > 0);
        let elapsed = doc["elapsed_s"].as_f64().unwrap();
        assert!(elapsed > 0.1 && elapsed < 2.0, "elapsed_s {elapsed}");
    }
}
