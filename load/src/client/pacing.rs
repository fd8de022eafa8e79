//! The open loop's clock (wrk2's model): requests are due at a fixed rate, whatever the server
//! does. Request k of a thread is due at `origin + k / rate`; it is sent on the next idle
//! connection at or after that time, and its latency counts from when it was due, so that a
//! server that stalls is charged for every request it held back (coordinated omission).
//!
//! Due times are computed from `k`, never by adding intervals, so they do not drift.

use std::time::{Duration, Instant};

/// A send more than this late is a late start (reported: the client fell behind the rate).
pub const LATE_THRESHOLD: Duration = Duration::from_millis(1);

#[derive(Debug, Clone)]
pub struct Pacer {
    origin: Instant,
    interval_ns: f64,
    /// Index of the next request to send.
    next: u64,
}

impl Pacer {
    /// `rate_per_s` > 0 (checked by the plan).
    pub fn new(origin: Instant, rate_per_s: f64) -> Pacer {
        Pacer {
            origin,
            interval_ns: 1e9 / rate_per_s,
            next: 0,
        }
    }

    fn due_of(&self, k: u64) -> Instant {
        self.origin + Duration::from_nanos((k as f64 * self.interval_ns) as u64)
    }

    /// When the next request is due.
    pub fn next_due(&self) -> Instant {
        self.due_of(self.next)
    }

    /// Takes the next request; returns when it was due.
    pub fn take(&mut self) -> Instant {
        let due = self.next_due();
        self.next += 1;
        due
    }

    /// How many requests fall due in `[from, until)`.
    pub fn due_between(&self, from: Instant, until: Instant) -> u64 {
        self.index_at(until).saturating_sub(self.index_at(from))
    }

    /// The number of requests due strictly before `moment`.
    fn index_at(&self, moment: Instant) -> u64 {
        let Some(since) = moment.checked_duration_since(self.origin) else {
            return 0;
        };
        let mut k = (since.as_nanos() as f64 / self.interval_ns).ceil() as u64;
        // Float rounding: settle on the exact boundary against due_of, which defines it.
        while k > 0 && self.due_of(k - 1) >= moment {
            k -= 1;
        }
        while self.due_of(k) < moment {
            k += 1;
        }
        k
    }
}

/// How the sends kept to the schedule, for one thread or merged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PacingStats {
    /// Requests due in the measured interval (within `-n`).
    pub scheduled: u64,
    /// Of those, sent.
    pub sent: u64,
    pub late_starts: u64,
    pub max_lateness_us: u64,
}

impl PacingStats {
    pub fn record_send(&mut self, lateness: Duration) {
        self.sent += 1;
        if lateness > LATE_THRESHOLD {
            self.late_starts += 1;
        }
        let micros = u64::try_from(lateness.as_micros()).unwrap_or(u64::MAX);
        self.max_lateness_us = self.max_lateness_us.max(micros);
    }

    pub fn merge(&mut self, other: &PacingStats) {
        self.scheduled += other.scheduled;
        self.sent += other.sent;
        self.late_starts += other.late_starts;
        self.max_lateness_us = self.max_lateness_us.max(other.max_lateness_us);
    }

    pub fn unsent(&self) -> u64 {
        self.scheduled.saturating_sub(self.sent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_times_are_exact_multiples_of_the_interval() {
        let t0 = Instant::now();
        let mut pacer = Pacer::new(t0, 4.0);
        let dues: Vec<Duration> = (0..5).map(|_| pacer.take() - t0).collect();
        assert_eq!(
            dues,
            [0, 250, 500, 750, 1000].map(Duration::from_millis).to_vec()
        );
    }

    #[test]
    fn no_drift_over_a_million_requests() {
        let t0 = Instant::now();
        let mut pacer = Pacer::new(t0, 3.0); // an interval that is not a whole number of ns
        for _ in 0..1_000_000 {
            pacer.take();
        }
        let due = pacer.next_due() - t0;
        let exact = Duration::from_nanos(1_000_000 * 1_000_000_000 / 3);
        assert!(
            due.abs_diff(exact) <= Duration::from_nanos(1),
            "{due:?} vs {exact:?}"
        );
    }

    #[test]
    fn counts_requests_due_in_an_interval() {
        let t0 = Instant::now();
        let pacer = Pacer::new(t0, 1000.0); // one a millisecond: at 0, 1, 2, ... ms
        let ms = |n| t0 + Duration::from_millis(n);
        assert_eq!(pacer.due_between(t0, ms(10)), 10);
        assert_eq!(pacer.due_between(ms(2), ms(3)), 1);
        assert_eq!(pacer.due_between(ms(2) + Duration::from_nanos(1), ms(3)), 0);
        assert_eq!(pacer.due_between(ms(5), ms(5)), 0);
        assert_eq!(pacer.due_between(ms(1000), ms(11_000)), 10_000);
    }

    #[test]
    fn late_starts_and_their_worst() {
        let mut stats = PacingStats::default();
        stats.record_send(Duration::from_micros(10));
        stats.record_send(LATE_THRESHOLD);
        stats.record_send(Duration::from_micros(4_500));
        assert_eq!(stats.sent, 3);
        assert_eq!(stats.late_starts, 1);
        assert_eq!(stats.max_lateness_us, 4_500);
        let mut total = PacingStats {
            scheduled: 5,
            ..PacingStats::default()
        };
        total.merge(&stats);
        assert_eq!(total.unsent(), 2);
    }
}
