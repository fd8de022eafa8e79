//! One thread's counters and latency histogram. Nothing here is shared between threads:
//! each event loop owns a [`Recorder`], and [`Recorder::merge`] adds them up at the end.

use std::collections::BTreeMap;

use hdrhistogram::Histogram;

use super::by_target::ByTarget;
use super::latency::Moments;
use super::phases::{PhaseTimes, Phases};

/// Latencies are recorded in microseconds, from 1 µs to one hour, to 3 significant digits.
pub const LOWEST_US: u64 = 1;
pub const HIGHEST_US: u64 = 3_600_000_000;
pub const SIGNIFICANT_DIGITS: u8 = 3;

/// ApacheBench's classes of failed requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureClass {
    /// The connection could not be made.
    Connect,
    /// The connection broke or timed out before the response was complete.
    Receive,
    /// A 2xx body whose length differs from the first 2xx body's (the Document Length).
    Length,
    /// Anything else; here, a response that is not valid HTTP/1.x.
    Exceptions,
}

impl FailureClass {
    pub fn label(self) -> &'static str {
        match self {
            FailureClass::Connect => "connect",
            FailureClass::Receive => "receive",
            FailureClass::Length => "length",
            FailureClass::Exceptions => "exceptions",
        }
    }
}

/// Failed requests by class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Failures {
    pub connect: u64,
    pub receive: u64,
    pub length: u64,
    pub exceptions: u64,
}

impl Failures {
    pub fn total(&self) -> u64 {
        self.connect + self.receive + self.length + self.exceptions
    }

    fn add(&mut self, class: FailureClass) {
        match class {
            FailureClass::Connect => self.connect += 1,
            FailureClass::Receive => self.receive += 1,
            FailureClass::Length => self.length += 1,
            FailureClass::Exceptions => self.exceptions += 1,
        }
    }
}

/// A response received in full.
#[derive(Debug, Clone, Copy)]
pub struct ResponseRecord {
    pub latency_us: u64,
    pub status: u16,
    /// Bytes on the wire: status line, headers, body and its framing.
    pub wire_bytes: u64,
    pub body_bytes: u64,
    /// The connection stayed open for the next request.
    pub kept_alive: bool,
    /// The body length differs from the Document Length (a 2xx only).
    pub length_mismatch: bool,
}

/// The key under which length failures appear in `errors_by_kind`.
pub const LENGTH_MISMATCH_KIND: &str = "length_mismatch";

#[derive(Debug, Clone)]
pub struct Recorder {
    pub histogram: Histogram<u64>,
    pub moments: Moments,
    pub completed: u64,
    pub non_2xx: u64,
    pub keep_alive: u64,
    pub stale_retries: u64,
    pub failures: Failures,
    /// Indexed by status code (100..=999).
    status_counts: Vec<u64>,
    pub errors_by_kind: BTreeMap<String, u64>,
    pub wire_bytes: u64,
    pub body_bytes: u64,
    /// ab's Connection Times of the responses.
    pub phases: Phases,
    /// Bytes of requests written (heads and bodies), for the requests counted.
    pub sent_bytes: u64,
    /// With `--rate`: latency from the actual send (`histogram` counts from the due time).
    pub uncorrected_histogram: Histogram<u64>,
    pub uncorrected_moments: Moments,
    /// TLS handshakes made by the requests counted: full, and resumed sessions.
    pub tls_handshakes_full: u64,
    pub tls_handshakes_resumed: u64,
    /// `--urls`: the figures of each URL (none kept for a run of one URL).
    pub by_target: ByTarget,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder {
            histogram: Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS)
                .expect("constant histogram bounds are valid"),
            moments: Moments::default(),
            completed: 0,
            non_2xx: 0,
            keep_alive: 0,
            stale_retries: 0,
            failures: Failures::default(),
            status_counts: vec![0; 1000],
            errors_by_kind: BTreeMap::new(),
            wire_bytes: 0,
            body_bytes: 0,
            phases: Phases::default(),
            sent_bytes: 0,
            uncorrected_histogram: Histogram::new_with_bounds(
                LOWEST_US,
                HIGHEST_US,
                SIGNIFICANT_DIGITS,
            )
            .expect("constant histogram bounds are valid"),
            uncorrected_moments: Moments::default(),
            tls_handshakes_full: 0,
            tls_handshakes_resumed: 0,
            by_target: ByTarget::default(),
        }
    }
}

impl Recorder {
    /// A recorder for a run of `targets` URLs, which keeps each URL's figures apart when
    /// there is more than one.
    pub fn for_targets(targets: usize) -> Recorder {
        Recorder {
            by_target: ByTarget::new(targets),
            ..Recorder::default()
        }
    }

    pub fn record_handshake(&mut self, resumed: bool) {
        if resumed {
            self.tls_handshakes_resumed += 1;
        } else {
            self.tls_handshakes_full += 1;
        }
    }

    pub fn record_response(&mut self, response: &ResponseRecord) {
        let latency = response.latency_us.clamp(LOWEST_US, HIGHEST_US);
        self.histogram.saturating_record(latency);
        self.moments.add(latency);
        self.completed += 1;
        self.status_counts[usize::from(response.status).min(999)] += 1;
        if !(200..300).contains(&response.status) {
            self.non_2xx += 1;
        }
        if response.kept_alive {
            self.keep_alive += 1;
        }
        if response.length_mismatch {
            self.record_failure(FailureClass::Length, LENGTH_MISMATCH_KIND);
        }
        self.wire_bytes += response.wire_bytes;
        self.body_bytes += response.body_bytes;
    }

    /// A failed request, counted under its class and under `kind` in `errors_by_kind`.
    pub fn record_failure(&mut self, class: FailureClass, kind: &str) {
        self.failures.add(class);
        match self.errors_by_kind.get_mut(kind) {
            Some(count) => *count += 1,
            None => {
                self.errors_by_kind.insert(kind.to_string(), 1);
            }
        }
    }

    pub fn record_received(&mut self, wire_bytes: u64) {
        self.wire_bytes += wire_bytes;
    }

    /// The phases of a response recorded with [`Recorder::record_response`].
    pub fn record_phases(&mut self, times: PhaseTimes, latency_us: u64) {
        self.phases.record(times, latency_us);
    }

    /// With `--rate`: a response's latency from when it was actually sent.
    pub fn record_uncorrected(&mut self, latency_us: u64) {
        let latency = latency_us.clamp(LOWEST_US, HIGHEST_US);
        self.uncorrected_histogram.saturating_record(latency);
        self.uncorrected_moments.add(latency);
    }

    /// Bytes a counted request wrote, whatever its outcome.
    pub fn record_sent(&mut self, bytes: u64) {
        self.sent_bytes += bytes;
    }

    /// Counts by status code, for the statuses seen.
    pub fn status_counts(&self) -> BTreeMap<u16, u64> {
        (0u16..)
            .zip(&self.status_counts)
            .filter(|&(_, &count)| count > 0)
            .map(|(status, &count)| (status, count))
            .collect()
    }

    pub fn merge(&mut self, other: &Recorder) {
        self.histogram
            .add(&other.histogram)
            .expect("histograms with the same bounds merge");
        self.moments.merge(&other.moments);
        self.completed += other.completed;
        self.non_2xx += other.non_2xx;
        self.keep_alive += other.keep_alive;
        self.stale_retries += other.stale_retries;
        self.failures.connect += other.failures.connect;
        self.failures.receive += other.failures.receive;
        self.failures.length += other.failures.length;
        self.failures.exceptions += other.failures.exceptions;
        for (mine, theirs) in self.status_counts.iter_mut().zip(&other.status_counts) {
            *mine += theirs;
        }
        for (kind, count) in &other.errors_by_kind {
            *self.errors_by_kind.entry(kind.clone()).or_default() += count;
        }
        self.wire_bytes += other.wire_bytes;
        self.body_bytes += other.body_bytes;
        self.phases.merge(&other.phases);
        self.sent_bytes += other.sent_bytes;
        self.uncorrected_histogram
            .add(&other.uncorrected_histogram)
            .expect("histograms with the same bounds merge");
        self.uncorrected_moments.merge(&other.uncorrected_moments);
        self.tls_handshakes_full += other.tls_handshakes_full;
        self.tls_handshakes_resumed += other.tls_handshakes_resumed;
        self.by_target.merge(&other.by_target);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(latency_us: u64, status: u16) -> ResponseRecord {
        ResponseRecord {
            latency_us,
            status,
            wire_bytes: 100,
            body_bytes: 10,
            kept_alive: true,
            length_mismatch: false,
        }
    }

    #[test]
    fn records_and_merges() {
        let mut a = Recorder::default();
        a.record_response(&response(100, 200));
        a.record_response(&response(0, 404));
        a.record_failure(FailureClass::Connect, "ECONNREFUSED");
        let mut b = Recorder::default();
        b.record_response(&ResponseRecord {
            length_mismatch: true,
            kept_alive: false,
            ..response(300, 200)
        });
        b.record_failure(FailureClass::Connect, "ECONNREFUSED");
        b.record_received(7);
        a.merge(&b);
        assert_eq!(a.completed, 3);
        assert_eq!(a.non_2xx, 1);
        assert_eq!(a.keep_alive, 2);
        assert_eq!(a.histogram.len(), 3);
        assert_eq!(
            a.histogram.min(),
            1,
            "0 µs is clamped to the histogram's lowest value"
        );
        assert_eq!(a.status_counts(), BTreeMap::from([(200, 2), (404, 1)]));
        assert_eq!(a.failures.total(), 3);
        assert_eq!(a.failures.length, 1);
        assert_eq!(a.errors_by_kind["ECONNREFUSED"], 2);
        assert_eq!(a.errors_by_kind[LENGTH_MISMATCH_KIND], 1);
        assert_eq!((a.wire_bytes, a.body_bytes), (307, 30));
    }
}
