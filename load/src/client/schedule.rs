//! When requests are sent: each connection's next as soon as its previous one has ended (the
//! closed loop of ab and wrk), or at a fixed rate on whichever connection is free (`--rate`,
//! the open loop of wrk2); in both, which ones count (`counting.rs`). The worker asks the
//! schedule what a free connection does next, which sends are due, and how long it may sleep.

use std::io;
use std::os::fd::RawFd;
use std::time::Instant;

use super::counting::Counting;
use super::open_loop::OpenLoop;
use super::pacing::{Pacer, PacingStats};

#[derive(Debug)]
pub struct Schedule {
    counting: Counting,
    pacing: Pacing,
}

#[derive(Debug)]
enum Pacing {
    /// Each connection sends its next request as soon as the previous one has ended.
    Closed,
    /// Requests are due at a fixed rate, whatever the server does.
    Open(OpenLoop),
}

/// What a connection does when it has no request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Start the next request now.
    Begin,
    /// Wait, idle, to be given the next request due (`Schedule::take_due`).
    Wait,
    /// Close: no more requests may start.
    Close,
}

impl Schedule {
    /// The open loop when `pacer` is given. Its timer's slack is the calling thread's: call it
    /// on the thread that runs the loop.
    pub fn new(counting: Counting, pacer: Option<Pacer>) -> io::Result<Schedule> {
        let pacing = match pacer {
            Some(pacer) => Pacing::Open(OpenLoop::new(pacer, counting.warmup_end())?),
            None => Pacing::Closed,
        };
        Ok(Schedule { counting, pacing })
    }

    /// Moves the clock on; returns whether requests ending now are measured.
    pub fn tick(&mut self, now: Instant) -> bool {
        self.counting.tick(now)
    }

    pub fn measuring(&self) -> bool {
        self.counting.measuring()
    }

    /// Nothing left to do: the deadline has passed, or no request is in flight and no more
    /// may start.
    pub fn finished(&self, now: Instant) -> bool {
        self.counting.finished(now)
    }

    /// A request starts.
    pub fn start(&mut self) {
        self.counting.start();
    }

    /// A request ended at `now`; returns whether it counts in the results.
    pub fn end(&mut self, now: Instant) -> bool {
        self.counting.end(now)
    }

    /// Connection `i` has no request now: what it does next.
    pub fn release(&mut self, i: usize, now: Instant) -> Next {
        match &mut self.pacing {
            Pacing::Closed if self.counting.may_start(now) => Next::Begin,
            Pacing::Closed => Next::Close,
            Pacing::Open(open) => {
                open.release(i);
                Next::Wait
            }
        }
    }

    /// The open loop: the next request due by `now`, with the connection idle longest to send
    /// it on. A request due while every connection is busy waits for one; its latency still
    /// counts from when it was due. Never any in the closed loop.
    pub fn take_due(&mut self, now: Instant) -> Option<(usize, Instant)> {
        match &mut self.pacing {
            Pacing::Open(open) if self.counting.may_start(now) => open.take_due(now),
            _ => None,
        }
    }

    /// Until when the thread, about to sleep until `wake` for its own reasons, may sleep: not
    /// past the deadline, nor past the next send due (see `OpenLoop::wake`).
    pub fn wake(&mut self, now: Instant, wake: Instant) -> io::Result<Instant> {
        let wake = self
            .counting
            .deadline()
            .map_or(wake, |deadline| wake.min(deadline));
        match &mut self.pacing {
            Pacing::Open(open) if self.counting.may_start(now) => open.wake(now, wake),
            _ => Ok(wake),
        }
    }

    /// The timer that wakes the thread for a send, if the schedule has one: the worker
    /// watches it and calls `on_timer` when it fires.
    pub fn timer(&self) -> Option<RawFd> {
        match &self.pacing {
            Pacing::Open(open) => Some(open.timer()),
            Pacing::Closed => None,
        }
    }

    pub fn on_timer(&mut self) {
        if let Pacing::Open(open) = &mut self.pacing {
            open.on_timer();
        }
    }

    /// Latency counts from when a request was due rather than sent (the open loop), so the
    /// latency from the send is recorded as well.
    pub fn counts_from_due_time(&self) -> bool {
        matches!(self.pacing, Pacing::Open(_))
    }

    /// The open loop: how the sends kept to the pace, the thread having ended at `ended`.
    pub fn pacing_stats(&self, ended: Instant) -> Option<PacingStats> {
        let Pacing::Open(open) = &self.pacing else {
            return None;
        };
        let end = self
            .counting
            .deadline()
            .map_or(ended, |deadline| deadline.min(ended));
        Some(open.stats(end, self.counting.budget()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closed_loop_begins_at_once_until_no_more_may_start() {
        let t0 = Instant::now();
        let mut schedule = Schedule::new(Counting::new(t0, None, Some(1)), None).unwrap();
        schedule.tick(t0);
        assert_eq!(schedule.release(0, t0), Next::Begin);
        schedule.start();
        assert_eq!(schedule.release(1, t0), Next::Close, "the budget is taken");
        assert_eq!(schedule.take_due(t0), None);
        assert_eq!(schedule.timer(), None);
        assert!(!schedule.counts_from_due_time());
        assert_eq!(schedule.pacing_stats(t0), None);
    }

    #[test]
    fn the_open_loop_sends_what_is_due_on_idle_connections() {
        let t0 = Instant::now();
        let counting = Counting::new(t0, None, Some(2));
        let mut schedule = Schedule::new(counting, Some(Pacer::new(t0, 1000.0))).unwrap();
        schedule.tick(t0);
        assert_eq!(schedule.release(0, t0), Next::Wait);
        assert_eq!(schedule.release(1, t0), Next::Wait);
        assert!(schedule.timer().is_some());
        assert!(schedule.counts_from_due_time());
        let later = t0 + std::time::Duration::from_millis(5);
        for expected in [(0, t0), (1, t0 + std::time::Duration::from_millis(1))] {
            assert_eq!(schedule.take_due(later), Some(expected));
            schedule.start();
        }
        assert!(schedule.end(later));
        assert_eq!(schedule.release(0, later), Next::Wait);
        assert_eq!(schedule.take_due(later), None, "the budget is taken");
        let stats = schedule.pacing_stats(later).unwrap();
        assert_eq!((stats.sent, stats.scheduled), (2, 2));
    }
}
