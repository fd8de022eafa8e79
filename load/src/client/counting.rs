//! Which requests count, and whether another may start: the warm-up, `-n` and `-t`, the same
//! in the closed and the open loop (`schedule.rs` decides when requests are sent).
//!
//! Requests that end during the warm-up are not counted; with `-n`, each thread counts its
//! share of the requests (responses and failures alike), and starts no more than that share
//! needs; with `-t`, nothing ending after the deadline counts.

use std::time::Instant;

#[derive(Debug, Clone)]
pub struct Counting {
    warmup_end: Instant,
    deadline: Option<Instant>,
    /// This thread's share of `-n`.
    budget: Option<u64>,
    measuring: bool,
    /// Requests ended and counted since the warm-up.
    counted: u64,
    /// Requests started and not yet ended.
    outstanding: u64,
}

impl Counting {
    pub fn new(warmup_end: Instant, deadline: Option<Instant>, budget: Option<u64>) -> Self {
        Counting {
            warmup_end,
            deadline,
            budget,
            measuring: false,
            counted: 0,
            outstanding: 0,
        }
    }

    /// Moves the clock on; returns whether requests ending now are measured.
    pub fn tick(&mut self, now: Instant) -> bool {
        if !self.measuring && now >= self.warmup_end {
            self.measuring = true;
        }
        self.measuring
    }

    pub fn measuring(&self) -> bool {
        self.measuring
    }

    fn past_deadline(&self, now: Instant) -> bool {
        self.deadline.is_some_and(|deadline| now >= deadline)
    }

    /// Whether a connection may start a request now.
    pub fn may_start(&self, now: Instant) -> bool {
        if self.past_deadline(now) {
            return false;
        }
        match self.budget {
            Some(budget) if self.measuring => self.counted + self.outstanding < budget,
            // During the warm-up the count has not begun.
            Some(budget) => budget > 0,
            None => true,
        }
    }

    pub fn start(&mut self) {
        self.outstanding += 1;
    }

    /// A request ended at `now`; returns whether it counts in the results.
    pub fn end(&mut self, now: Instant) -> bool {
        self.outstanding = self.outstanding.saturating_sub(1);
        if !self.measuring || self.past_deadline(now) {
            return false;
        }
        if self.budget.is_some_and(|budget| self.counted >= budget) {
            return false;
        }
        self.counted += 1;
        true
    }

    /// Nothing left to do: the deadline has passed, or no request is in flight and no more
    /// may start.
    pub fn finished(&self, now: Instant) -> bool {
        self.past_deadline(now) || (self.outstanding == 0 && !self.may_start(now))
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    pub fn warmup_end(&self) -> Instant {
        self.warmup_end
    }

    /// This thread's share of `-n`.
    pub fn budget(&self) -> Option<u64> {
        self.budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(start: Instant, ms: u64) -> Instant {
        start + Duration::from_millis(ms)
    }

    #[test]
    fn counts_exactly_the_budget() {
        let t0 = Instant::now();
        let mut s = Counting::new(t0, None, Some(3));
        s.tick(t0);
        let mut counted = 0;
        while s.may_start(t0) {
            s.start();
            counted += u32::from(s.end(t0));
        }
        assert_eq!(counted, 3);
        assert!(s.finished(t0));
    }

    #[test]
    fn concurrent_starts_stop_at_the_budget() {
        let t0 = Instant::now();
        let mut s = Counting::new(t0, None, Some(2));
        s.tick(t0);
        let started = (0..5)
            .filter(|_| s.may_start(t0) && (s.start(), true).1)
            .count();
        assert_eq!(started, 2);
        assert!(!s.finished(t0));
        assert!(s.end(t0) && s.end(t0));
        assert!(s.finished(t0));
    }

    #[test]
    fn warmup_is_not_counted() {
        let t0 = Instant::now();
        let mut s = Counting::new(at(t0, 100), None, Some(2));
        assert!(!s.tick(at(t0, 50)));
        for _ in 0..4 {
            assert!(s.may_start(at(t0, 50)));
            s.start();
        }
        assert!(!s.end(at(t0, 60)), "ended in the warm-up");
        assert!(s.tick(at(t0, 100)));
        // Three still in flight, but only two count.
        assert!(!s.may_start(at(t0, 100)));
        assert!(s.end(at(t0, 110)) && s.end(at(t0, 110)));
        assert!(!s.end(at(t0, 110)));
        assert!(s.finished(at(t0, 110)));
    }

    #[test]
    fn deadline_ends_the_run() {
        let t0 = Instant::now();
        let mut s = Counting::new(t0, Some(at(t0, 100)), None);
        s.tick(t0);
        assert!(s.may_start(at(t0, 99)));
        s.start();
        assert!(!s.finished(at(t0, 99)));
        assert!(!s.may_start(at(t0, 100)));
        assert!(s.finished(at(t0, 100)));
        assert!(!s.end(at(t0, 101)), "ended after the deadline");
    }

    #[test]
    fn empty_share_finishes_at_once() {
        let t0 = Instant::now();
        let s = Counting::new(t0, None, Some(0));
        assert!(s.finished(t0));
    }
}
