//! The reported latency is the server's: against a server that answers after exactly 20 ms,
//! the median is 20–21 ms; and p99.9 is the nearest rank, not the next one up.

mod common;

use std::time::{Duration, Instant};

use common::{Reply, TestServer, assert_contract, ok, run_load};

/// Sleeps until `until`, to within microseconds: the kernel's sleep (which may oversleep by
/// its timer slack and the scheduler's delay) for all but the last millisecond, then a busy wait
/// (not `yield_now`, which on a busy machine hands the CPU away for a whole time slice).
fn sleep_until(until: Instant) {
    let coarse = until.saturating_duration_since(Instant::now());
    if let Some(coarse) = coarse.checked_sub(Duration::from_millis(1)) {
        std::thread::sleep(coarse);
    }
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// One run of `-n 100 -c 1 -k`: its `latency_us`. One connection: one server thread and the
/// client's, so that a 2-core machine has a core left for whatever else runs.
fn measure(url: &str) -> serde_json::Value {
    let run = run_load(&["-n", "100", "-c", "1", "-k", "--json", "-", url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 100);
    let latency = doc["latency_us"].clone();
    // Whatever the machine's load, no response comes sooner than the server sends it.
    assert!(latency["min"].as_u64().unwrap() >= 20_000, "{latency}");
    latency
}

#[test]
fn median_of_a_20_ms_server() {
    let delay = Duration::from_millis(20);
    let server = TestServer::start(move |_| {
        sleep_until(Instant::now() + delay);
        Reply::Respond(ok("slow"))
    });
    let url = server.url("/");
    // A machine busier than its cores delays every wake-up by up to a scheduler tick (4 ms
    // at 250 Hz), the client's as much as the server's: a run may be retried twice, but a
    // client that adds latency of its own fails all three.
    let mut runs = Vec::new();
    for _ in 0..3 {
        let latency = measure(&url);
        let p50 = latency["p50"].as_u64().unwrap();
        if (20_000..=21_000).contains(&p50) {
            return;
        }
        runs.push(latency);
    }
    panic!("median not within 20–21 ms in 3 runs: {runs:#?}");
}

/// 1000 requests, one of them 100 ms slow: p99.9 is the 999th latency (1000 × 0.999 is
/// whole), a fast one, not the slow 1000th that a floating point 99.9 / 100 picked.
#[test]
fn p99_9_of_a_thousand_is_the_999th_value() {
    let slow = Duration::from_millis(100);
    let server = TestServer::start(move |request| {
        if request.number == 0 {
            sleep_until(Instant::now() + slow);
        }
        Reply::Respond(ok("rank"))
    });
    let url = server.url("/");
    let run = run_load(&["-n", "1000", "-c", "1", "-k", "--json", "-", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    let latency = &doc["latency_us"];
    assert!(latency["max"].as_u64().unwrap() >= 100_000, "{latency}");
    assert!(latency["p99_9"].as_u64().unwrap() < 100_000, "{latency}");
}
