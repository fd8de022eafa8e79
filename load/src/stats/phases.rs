//! ab's "Connection Times": where each request's time went, in microseconds.
//!
//! As in ab's `support/ab.c` (`struct data`, `output_results`):
//! - connect: from the start of the request to the connection established (0 on a reused
//!   keep-alive connection; ab's `ctime`);
//! - waiting: from the request written in full to the first byte of the response
//!   (ab's `waittime`);
//! - processing: total minus connect, i.e. writing, waiting and reading (ab's `time - ctime`);
//! - total: the request's latency (ab's `time`).
//!
//! ab keeps every request and sorts them for an exact median; here each phase has a running
//! sum (exact min, mean, sd, max) and an HdrHistogram (median to 3 significant digits): the
//! nearest rank ⌈n / 2⌉, the lower of the two middle values of an even count.

use hdrhistogram::Histogram;

use super::latency::Moments;
use super::nearest_rank;
use super::recorder::{HIGHEST_US, LOWEST_US, SIGNIFICANT_DIGITS};

/// One request's phases, as measured by its connection.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    pub connect_us: u64,
    pub waiting_us: u64,
}

/// min, mean[+/-sd], median, max of one phase, in microseconds; all 0 when empty.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct PhaseSummary {
    pub min: u64,
    #[serde(serialize_with = "crate::json_float::finite")]
    pub mean: f64,
    #[serde(serialize_with = "crate::json_float::finite")]
    pub stdev: f64,
    pub median: u64,
    pub max: u64,
}

/// The values of one phase: exact running sums and a histogram for the median.
#[derive(Debug, Clone)]
pub struct Distribution {
    histogram: Histogram<u64>,
    moments: Moments,
}

impl Default for Distribution {
    fn default() -> Self {
        Distribution {
            histogram: Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS)
                .expect("constant histogram bounds are valid"),
            moments: Moments::default(),
        }
    }
}

impl Distribution {
    pub fn record(&mut self, us: u64) {
        let us = us.min(HIGHEST_US);
        self.histogram.saturating_record(us);
        self.moments.add(us);
    }

    pub fn merge(&mut self, other: &Distribution) {
        self.histogram
            .add(&other.histogram)
            .expect("histograms with the same bounds merge");
        self.moments.merge(&other.moments);
    }

    pub fn summary(&self) -> PhaseSummary {
        summarize(&self.moments, &self.histogram)
    }

    /// The histogram the median is read from.
    pub fn histogram(&self) -> &Histogram<u64> {
        &self.histogram
    }
}

/// The summary of running sums and a histogram of the same values.
pub fn summarize(moments: &Moments, histogram: &Histogram<u64>) -> PhaseSummary {
    if moments.count == 0 {
        return PhaseSummary::default();
    }
    PhaseSummary {
        min: moments.min,
        mean: moments.mean(),
        stdev: moments.stdev(),
        // A bucket's highest equivalent value can exceed the largest value recorded.
        median: nearest_rank::values_at(histogram, [500])[0].clamp(moments.min, moments.max),
        max: moments.max,
    }
}

/// Connect, processing and waiting times of one thread's responses (total is the latency).
#[derive(Debug, Clone, Default)]
pub struct Phases {
    pub connect: Distribution,
    pub processing: Distribution,
    pub waiting: Distribution,
}

impl Phases {
    pub fn record(&mut self, times: PhaseTimes, total_us: u64) {
        self.connect.record(times.connect_us);
        self.processing
            .record(total_us.saturating_sub(times.connect_us));
        self.waiting.record(times.waiting_us);
    }

    pub fn merge(&mut self, other: &Phases) {
        self.connect.merge(&other.connect);
        self.processing.merge(&other.processing);
        self.waiting.merge(&other.waiting);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processing_is_total_minus_connect() {
        let mut phases = Phases::default();
        phases.record(
            PhaseTimes {
                connect_us: 300,
                waiting_us: 900,
            },
            1500,
        );
        phases.record(
            PhaseTimes {
                connect_us: 0,
                waiting_us: 400,
            },
            500,
        );
        let connect = phases.connect.summary();
        assert_eq!((connect.min, connect.max, connect.mean), (0, 300, 150.0));
        let processing = phases.processing.summary();
        assert_eq!((processing.min, processing.max), (500, 1200));
        assert_eq!(phases.waiting.summary().mean, 650.0);
    }

    #[test]
    fn median_and_merge() {
        let mut a = Distribution::default();
        let mut b = Distribution::default();
        for us in 1..=50 {
            a.record(us * 10);
        }
        for us in 51..=101 {
            b.record(us * 10);
        }
        a.merge(&b);
        let s = a.summary();
        assert_eq!((s.min, s.median, s.max), (10, 510, 1010));
        assert!((s.stdev - 293.0).abs() < 1.0, "{}", s.stdev);
        assert_eq!(Distribution::default().summary(), PhaseSummary::default());
    }
}
