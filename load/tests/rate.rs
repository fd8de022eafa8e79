//! `--rate`: the open loop keeps its rate, counts latency from when each request was due, and
//! so charges a stalling server for every request it held back (coordinated omission).

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::{Reply, TestServer, assert_contract, ok, run_load};
use serde_json::Value;

fn rate_run(args: &[&str]) -> Value {
    let run = run_load(args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    doc
}

#[test]
fn keeps_a_modest_rate_and_reports_it() {
    let server = TestServer::start(|_| Reply::Respond(ok("paced")));
    let url = server.url("/");
    let doc = rate_run(&[
        "--rate", "500", "-t", "2", "-c", "4", "-k", "--json", "-", &url,
    ]);
    let rate = &doc["rate"];
    assert_eq!(rate["target_per_s"], 500.0);
    let achieved = rate["achieved_per_s"].as_f64().unwrap();
    assert!((495.0..=505.0).contains(&achieved), "{rate}");
    let scheduled = rate["scheduled_requests"].as_u64().unwrap();
    assert!((998..=1001).contains(&scheduled), "{rate}");
    assert!(rate["unsent_requests"].as_u64().unwrap() <= 1, "{rate}");
    let completed = doc["requests_completed"].as_u64().unwrap();
    assert!((995..=1001).contains(&completed), "{doc}");
    assert_eq!(doc["options"]["rate_per_s"], 500.0);
    // Corrected latency counts from the due time: never less than from the send.
    let corrected = &doc["latency_us"];
    let uncorrected = &doc["latency_uncorrected_us"];
    for key in ["p50", "p99", "max"] {
        assert!(
            corrected[key].as_u64() >= uncorrected[key].as_u64(),
            "{key}: {doc}"
        );
    }
}

#[test]
fn n_counts_exactly_in_the_open_loop() {
    let server = TestServer::start(|_| Reply::Respond(ok("paced")));
    let url = server.url("/");
    let started = Instant::now();
    let doc = rate_run(&[
        "--rate", "1000", "-n", "300", "-c", "3", "-k", "--json", "-", &url,
    ]);
    assert_eq!(doc["requests_completed"], 300);
    assert_eq!(doc["rate"]["scheduled_requests"], 300);
    assert_eq!(server.requests(), 300);
    // 300 requests at 1000 a second take 0.3 s, not as fast as the server answers.
    assert!(started.elapsed() >= Duration::from_millis(290));
}

/// wrk2's lesson: a server that stalls for 200 ms holds back every request due meanwhile.
/// The closed loop (and the uncorrected latency) sees one slow request per connection; the
/// corrected latency sees all the requests that were due during the stall.
#[test]
fn a_stall_shows_in_the_corrected_latency() {
    let served = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&served);
    let server = TestServer::start(move |_| {
        if counter.fetch_add(1, Ordering::Relaxed) == 200 {
            std::thread::sleep(Duration::from_millis(200));
        }
        Reply::Respond(ok("x"))
    });
    let url = server.url("/");
    // One connection, 1000 requests a second, 1 s: the stall holds back ~200 due requests.
    let doc = rate_run(&[
        "--rate", "1000", "-t", "1", "-c", "1", "-k", "--json", "-", &url,
    ]);
    let corrected = &doc["latency_us"];
    let uncorrected = &doc["latency_uncorrected_us"];
    let p90_corrected = corrected["p90"].as_u64().unwrap();
    let p90_uncorrected = uncorrected["p90"].as_u64().unwrap();
    // About 20 % of the requests waited for the stall: the corrected p90 is tens of ms.
    assert!(p90_corrected >= 20_000, "{doc}");
    // From the send, only the stalled request itself was slow.
    assert!(p90_uncorrected < 20_000, "{doc}");
    assert!(uncorrected["max"].as_u64().unwrap() >= 200_000, "{doc}");
    assert!(doc["rate"]["late_starts"].as_u64().unwrap() >= 150, "{doc}");
}

#[test]
fn an_unkept_rate_is_reported_not_hidden() {
    // One connection to a server that takes 10 ms: at most ~100 a second, against 1000.
    let server = TestServer::start(|_| {
        std::thread::sleep(Duration::from_millis(10));
        Reply::Respond(ok("slow"))
    });
    let url = server.url("/");
    let run = run_load(&["--rate", "1000", "-t", "1", "-c", "1", "-k", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("WARNING: the rate was not kept"),
        "{}",
        run.stdout
    );
    let doc = rate_run(&[
        "--rate", "1000", "-t", "1", "-c", "1", "-k", "--json", "-", &url,
    ]);
    let rate = &doc["rate"];
    assert!(rate["achieved_per_s"].as_f64().unwrap() < 200.0, "{rate}");
    assert!(rate["unsent_requests"].as_u64().unwrap() >= 700, "{rate}");
}

#[test]
fn closed_loop_documents_have_no_rate() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let doc = rate_run(&["-n", "10", "--json", "-", &server.url("/")]);
    assert!(doc["rate"].is_null());
    assert!(doc["latency_uncorrected_us"].is_null());
    assert!(doc["options"]["rate_per_s"].is_null());
}

#[test]
fn the_warmup_is_paced_but_not_counted() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let url = server.url("/");
    let doc = rate_run(&[
        "--rate", "400", "--warmup", "0.5", "-t", "1", "-c", "2", "-k", "--json", "-", &url,
    ]);
    let scheduled = doc["rate"]["scheduled_requests"].as_u64().unwrap();
    assert!((399..=401).contains(&scheduled), "{doc}");
    // The warm-up's 200 requests reached the server but are not in the counts.
    assert!(server.requests() >= 590, "{}", server.requests());
    let completed = doc["requests_completed"].as_u64().unwrap();
    assert!((395..=401).contains(&completed), "{doc}");
}
