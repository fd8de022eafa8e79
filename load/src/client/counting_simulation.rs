//! The closed loop's counting (`counting.rs`) under a synthetic clock: `c` connections, each
//! request taking a given service time, driven as the worker drives it (tick, may_start/start,
//! end), so that warm-up, `-n` and `-t` are checked exactly, without a socket or a real clock.

use std::time::{Duration, Instant};

use proptest::collection::vec;
use proptest::prelude::*;

use super::counting::Counting;

/// One request's end: when (in µs from the start), and whether it was counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct End {
    at_us: u64,
    counted: bool,
}

/// Runs the closed loop with `connections`, request `k` taking `service_us[k % len]` µs
/// (at least 1), until the schedule is finished; returns every request's end in order.
fn simulate(
    connections: usize,
    warmup_us: u64,
    duration_us: Option<u64>,
    budget: Option<u64>,
    service_us: &[u64],
) -> Vec<End> {
    let t0 = Instant::now();
    let at = |us: u64| t0 + Duration::from_micros(us);
    let warmup_end = at(warmup_us);
    let deadline = duration_us.map(|d| at(warmup_us + d));
    let mut schedule = Counting::new(warmup_end, deadline, budget);
    let mut next_service = service_us.iter().cycle().map(|&s| s.max(1));
    // When each connection's request in flight ends.
    let mut in_flight: Vec<Option<u64>> = vec![None; connections];
    let mut ends = Vec::new();
    let mut now = 0;
    schedule.tick(at(now));
    for slot in &mut in_flight {
        if schedule.may_start(at(now)) {
            schedule.start();
            *slot = Some(now + next_service.next().unwrap());
        }
    }
    for _ in 0..100_000 {
        schedule.tick(at(now));
        if schedule.finished(at(now)) {
            return ends;
        }
        // The worker wakes at the next end or at the deadline, whichever is first.
        let next_end = in_flight.iter().flatten().min().copied();
        let wake = match (next_end, duration_us) {
            (Some(end), Some(d)) => end.min(warmup_us + d),
            (Some(end), None) => end,
            (None, Some(d)) => warmup_us + d,
            (None, None) => panic!("nothing in flight and not finished at {now} µs"),
        };
        now = wake;
        schedule.tick(at(now));
        for slot in &mut in_flight {
            if *slot == Some(now) {
                let counted = schedule.end(at(now));
                ends.push(End {
                    at_us: now,
                    counted,
                });
                *slot = None;
                if schedule.may_start(at(now)) {
                    schedule.start();
                    *slot = Some(now + next_service.next().unwrap());
                }
            }
        }
    }
    panic!("the schedule never finished");
}

fn counted(ends: &[End]) -> usize {
    ends.iter().filter(|e| e.counted).count()
}

#[test]
fn budget_alone_is_exact() {
    // 3 connections, -n 10, no warm-up: exactly 10 requests, all counted.
    let ends = simulate(3, 0, None, Some(10), &[100, 250, 70]);
    assert_eq!(ends.len(), 10);
    assert_eq!(counted(&ends), 10);
}

#[test]
fn warm_up_is_excluded_and_the_budget_exact_after_it() {
    // 2 connections of 100 µs each, warm-up 1000 µs, -n 5: requests ending at 100 …
    // 900 µs are the warm-up's (9 per connection); those ending at 1000 µs and after count.
    let ends = simulate(2, 1000, None, Some(5), &[100]);
    let warm: Vec<_> = ends.iter().filter(|e| e.at_us < 1000).collect();
    assert_eq!(warm.len(), 18);
    assert!(warm.iter().all(|e| !e.counted));
    let measured: Vec<_> = ends.iter().filter(|e| e.at_us >= 1000).collect();
    assert!(measured.iter().all(|e| e.counted), "{measured:?}");
    assert_eq!(measured.len(), 5);
    assert_eq!(
        measured.iter().map(|e| e.at_us).collect::<Vec<_>>(),
        [1000, 1000, 1100, 1100, 1200]
    );
}

#[test]
fn deadline_cuts_requests_in_flight() {
    // 1 connection, 300 µs requests, -t 1000 µs after a 500 µs warm-up: the ends at 600,
    // 900 and 1200 µs count (in [500, 1500)); the one at 1500 µs, the deadline, does not,
    // and no request ends after it.
    let ends = simulate(1, 500, Some(1000), None, &[300]);
    let at: Vec<(u64, bool)> = ends.iter().map(|e| (e.at_us, e.counted)).collect();
    assert_eq!(
        at,
        [
            (300, false),
            (600, true),
            (900, true),
            (1200, true),
            (1500, false)
        ]
    );
    // Requests of 400 µs: the one due at 1700 µs is still in flight at the deadline.
    let ends = simulate(1, 500, Some(1000), None, &[400]);
    let at: Vec<(u64, bool)> = ends.iter().map(|e| (e.at_us, e.counted)).collect();
    assert_eq!(at, [(400, false), (800, true), (1200, true)]);
}

#[test]
fn budget_or_deadline_whichever_first() {
    // -n 3 reached at 300 µs, long before the deadline.
    let ends = simulate(1, 0, Some(10_000), Some(3), &[100]);
    assert_eq!((ends.len(), counted(&ends)), (3, 3));
    // The deadline at 250 µs comes first: 2 of the 100 allowed.
    let ends = simulate(1, 0, Some(250), Some(100), &[100]);
    assert_eq!(counted(&ends), 2);
}

#[test]
fn more_connections_than_requests() {
    // -c 8 -n 3: only 3 requests are ever started.
    let ends = simulate(8, 0, None, Some(3), &[100, 50]);
    assert_eq!((ends.len(), counted(&ends)), (3, 3));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Whatever the connections, service times, warm-up, `-n` and `-t`: nothing that ends
    /// in the warm-up or at or after the deadline counts; every other end counts until the
    /// budget is reached; without a deadline exactly `-n` count; and the budget is never
    /// exceeded by requests started after the warm-up.
    #[test]
    fn counts_exactly_what_the_options_say(
        connections in 1usize..6,
        warmup_us in prop_oneof![Just(0u64), 1u64..2000],
        (budget, duration_us) in prop_oneof![
            (0u64..40, proptest::option::of(1u64..3000)).prop_map(|(n, d)| (Some(n), d)),
            (1u64..3000).prop_map(|d| (None, Some(d))),
        ],
        service_us in vec(1u64..400, 1..6),
    ) {
        let ends = simulate(connections, warmup_us, duration_us, budget, &service_us);
        let deadline = duration_us.map(|d| warmup_us + d);
        let in_window = |e: &End| e.at_us >= warmup_us && deadline.is_none_or(|d| e.at_us < d);
        let mut so_far = 0u64;
        for end in &ends {
            let expected = in_window(end) && budget.is_none_or(|n| so_far < n);
            prop_assert_eq!(end.counted, expected, "{:?} in {:?}", end, ends);
            so_far += u64::from(end.counted);
        }
        if let (Some(n), None) = (budget, deadline) {
            prop_assert_eq!(so_far, n);
        }
        // Ends within the window that did not count: only the requests already in flight
        // when the warm-up ended, beyond the budget. (Those cut by the deadline are not
        // wasted by the schedule.)
        let wasted = ends.iter().filter(|e| in_window(e) && !e.counted).count() as u64;
        if let Some(n) = budget {
            prop_assert!(wasted <= (connections as u64).saturating_sub(n), "{ends:?}");
        }
    }
}
