//! One thread's open loop (`--rate`): its pacer, its idle connections, and the timer that
//! wakes the thread for the next send.

use std::collections::VecDeque;
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::time::{Duration, Instant};

use super::pacing::{Pacer, PacingStats};
use crate::sys::timer::Timer;

/// A send due sooner than this is waited for by polling without sleeping: a sleep and its
/// wake-up would take longer.
const SPIN_BELOW: Duration = Duration::from_micros(30);

#[derive(Debug)]
pub struct OpenLoop {
    pacer: Pacer,
    stats: PacingStats,
    /// Connections with no request, oldest first: each request goes to the connection that
    /// has waited longest, so that the load spreads over all of them as in wrk2.
    idle: VecDeque<usize>,
    timer: Timer,
    /// The due time the timer is set for.
    armed_for: Option<Instant>,
    /// Sends due before this are the warm-up's: their lateness is not recorded.
    warmup_end: Instant,
}

impl OpenLoop {
    /// Creates the timer, whose slack is the calling thread's: call it on the thread that
    /// runs the loop. No connection is idle until released.
    pub fn new(pacer: Pacer, warmup_end: Instant) -> io::Result<OpenLoop> {
        Ok(OpenLoop {
            pacer,
            stats: PacingStats::default(),
            idle: VecDeque::new(),
            timer: Timer::new()?,
            armed_for: None,
            warmup_end,
        })
    }

    /// Connection `i` has no request: it waits for the next one due, behind those idle longer.
    pub fn release(&mut self, i: usize) {
        self.idle.push_back(i);
    }

    /// The next request, if it is due by `now` and a connection is idle: takes both, records
    /// how late the send is, and returns the connection and when the request was due.
    pub fn take_due(&mut self, now: Instant) -> Option<(usize, Instant)> {
        let due = self.pacer.next_due();
        if due > now {
            return None;
        }
        let i = self.idle.pop_front()?;
        self.pacer.take();
        if due >= self.warmup_end {
            self.stats.record_send(now.saturating_duration_since(due));
        }
        Some((i, due))
    }

    /// When the thread, about to sleep until `wake`, must be up again for the next send: the
    /// timer is armed for it if it comes sooner (epoll's own timeout counts milliseconds), and
    /// a send very near is polled for without sleeping (`now`). Nothing is sent, and so waited
    /// for, while every connection is busy.
    pub fn wake(&mut self, now: Instant, wake: Instant) -> io::Result<Instant> {
        if self.idle.is_empty() {
            return Ok(wake);
        }
        let due = self.pacer.next_due();
        let until = due.saturating_duration_since(now);
        if until < SPIN_BELOW {
            return Ok(now);
        }
        if due < wake && self.armed_for != Some(due) {
            self.timer.arm(until)?;
            self.armed_for = Some(due);
        }
        Ok(wake)
    }

    /// The timer fired: it is disarmed until the next wait arms it again.
    pub fn on_timer(&mut self) {
        self.timer.clear();
        self.armed_for = None;
    }

    pub fn timer(&self) -> RawFd {
        self.timer.as_raw_fd()
    }

    /// How the sends kept to the pace, the run having been measured until `end`, with this
    /// thread's share of `-n` (`budget`).
    pub fn stats(&self, end: Instant, budget: Option<u64>) -> PacingStats {
        let due = self.pacer.due_between(self.warmup_end, end);
        PacingStats {
            scheduled: budget.map_or(due, |budget| due.min(budget)),
            ..self.stats
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(t0: Instant, n: u64) -> Instant {
        t0 + Duration::from_millis(n)
    }

    #[test]
    fn a_due_request_goes_to_the_connection_idle_longest() {
        let t0 = Instant::now();
        let mut open = OpenLoop::new(Pacer::new(t0, 1000.0), t0).unwrap();
        assert_eq!(open.take_due(t0), None, "no connection idle yet");
        open.release(2);
        open.release(0);
        assert_eq!(open.take_due(t0), Some((2, t0)));
        assert_eq!(open.take_due(t0), None, "the next is due at 1 ms");
        assert_eq!(open.take_due(ms(t0, 5)), Some((0, ms(t0, 1))));
        assert_eq!(open.take_due(ms(t0, 5)), None, "every connection is busy");
        open.release(1);
        assert_eq!(open.take_due(ms(t0, 5)), Some((1, ms(t0, 2))));
    }

    #[test]
    fn lateness_is_recorded_after_the_warmup_only() {
        let t0 = Instant::now();
        let mut open = OpenLoop::new(Pacer::new(t0, 1000.0), ms(t0, 1)).unwrap();
        for _ in 0..3 {
            open.release(0);
            // Due at 0, 1 and 2 ms, all sent at 4 ms.
            assert!(open.take_due(ms(t0, 4)).is_some());
        }
        let stats = open.stats(ms(t0, 10), None);
        assert_eq!(stats.sent, 2, "the send due at 0 was the warm-up's");
        assert_eq!(stats.late_starts, 2);
        assert_eq!(stats.max_lateness_us, 3_000);
        assert_eq!(stats.scheduled, 9, "due at 1, 2, ... 9 ms");
        assert_eq!(open.stats(ms(t0, 10), Some(4)).scheduled, 4);
    }

    #[test]
    fn wakes_for_the_next_send_only_with_an_idle_connection() {
        let t0 = Instant::now();
        let mut open =
            OpenLoop::new(Pacer::new(t0 + Duration::from_millis(10), 100.0), t0).unwrap();
        let later = ms(t0, 50);
        assert_eq!(open.wake(t0, later).unwrap(), later, "no idle connection");
        open.release(0);
        assert_eq!(
            open.wake(t0, later).unwrap(),
            later,
            "the timer wakes the loop"
        );
        assert_eq!(open.armed_for, Some(ms(t0, 10)));
        let near = ms(t0, 10) - SPIN_BELOW / 2;
        assert_eq!(
            open.wake(near, later).unwrap(),
            near,
            "polled for, not slept for"
        );
        open.on_timer();
        assert_eq!(open.armed_for, None);
    }
}
