//! The progress line on stderr: elapsed time, requests ended and the current rate, once a
//! second, while stderr is a terminal.
//!
//! Each worker publishes its count to its own cache line (a relaxed store per loop
//! iteration); one thread reads them once a second. Nothing is shared on the hot path.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::stats::recorder::Recorder;

const INTERVAL: Duration = Duration::from_secs(1);

/// One thread's count of requests ended and counted (responses and failures), on a cache
/// line of its own.
#[derive(Debug, Default)]
#[repr(align(128))]
pub struct ProgressCounter {
    ended: AtomicU64,
}

impl ProgressCounter {
    pub fn publish(&self, recorder: &Recorder) {
        let failures = &recorder.failures;
        // A length failure is also a completed response: not counted twice.
        let ended = recorder.completed + failures.connect + failures.receive + failures.exceptions;
        self.ended.store(ended, Ordering::Relaxed);
    }

    fn read(&self) -> u64 {
        self.ended.load(Ordering::Relaxed)
    }
}

/// Whether to show progress: asked for, and stderr is a terminal.
pub fn wanted(asked: bool) -> bool {
    asked && io::stderr().is_terminal()
}

/// `[3.0s] 12345 requests, 4100 req/s` (or `warm-up` before the measurement begins).
pub fn line(since_measuring: Option<Duration>, ended: u64, per_s: f64) -> String {
    match since_measuring {
        None => "[warm-up]".to_string(),
        Some(elapsed) => format!(
            "[{:.0}s] {ended} requests, {per_s:.0} req/s",
            elapsed.as_secs_f64()
        ),
    }
}

/// Prints the line every second until `done` is set (the caller unparks this thread then);
/// clears it at the end so that the report starts on a clean line.
pub fn show(counters: &[ProgressCounter], warmup_end: Instant, done: &AtomicBool) {
    let mut last = (Instant::now(), 0u64);
    let mut stderr = io::stderr();
    while !done.load(Ordering::Relaxed) {
        let wake = last.0 + INTERVAL;
        thread::park_timeout(wake.saturating_duration_since(Instant::now()));
        let now = Instant::now();
        if done.load(Ordering::Relaxed) || now < wake {
            continue;
        }
        let ended: u64 = counters.iter().map(ProgressCounter::read).sum();
        let per_s = (ended - last.1.min(ended)) as f64 / (now - last.0).as_secs_f64();
        let since = now.checked_duration_since(warmup_end);
        let _ = write!(stderr, "\r{}\x1b[K", line(since, ended, per_s));
        let _ = stderr.flush();
        last = (now, ended);
    }
    let _ = write!(stderr, "\r\x1b[K");
    let _ = stderr.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        assert_eq!(line(None, 5, 10.0), "[warm-up]");
        assert_eq!(
            line(Some(Duration::from_millis(3020)), 12345, 4100.4),
            "[3s] 12345 requests, 4100 req/s"
        );
    }

    #[test]
    fn counts_each_request_once() {
        let mut recorder = Recorder::default();
        recorder.completed = 10;
        recorder.failures.length = 2;
        recorder.failures.connect = 3;
        let counter = ProgressCounter::default();
        counter.publish(&recorder);
        assert_eq!(counter.read(), 13);
        assert_eq!(std::mem::align_of::<ProgressCounter>(), 128);
    }
}
