//! Latency summary: exact min, max, mean and standard deviation from running sums, and
//! percentiles from the HdrHistogram (each the highest value equivalent to the quantile's
//! bucket, as wrk and HdrHistogram report them).

use hdrhistogram::Histogram;

/// Running sums, exact and mergeable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moments {
    pub count: u64,
    pub sum: u64,
    pub sum_of_squares: u128,
    pub min: u64,
    pub max: u64,
}

impl Default for Moments {
    fn default() -> Self {
        Moments {
            count: 0,
            sum: 0,
            sum_of_squares: 0,
            min: u64::MAX,
            max: 0,
        }
    }
}

impl Moments {
    pub fn add(&mut self, value: u64) {
        self.count += 1;
        self.sum += value;
        self.sum_of_squares += u128::from(value) * u128::from(value);
        self.min = self.min.min(value);
        self.max = self.max.max(value);
    }

    pub fn merge(&mut self, other: &Moments) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_of_squares += other.sum_of_squares;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    pub fn mean(&self) -> f64 {
        match self.count {
            0 => 0.0,
            n => self.sum as f64 / n as f64,
        }
    }

    /// Sample standard deviation (n - 1 in the denominator); 0 below two values.
    pub fn stdev(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let n = self.count as f64;
        let mean = self.mean();
        let variance = (self.sum_of_squares as f64 - n * mean * mean) / (n - 1.0);
        variance.max(0.0).sqrt()
    }
}

/// The latency figures of a run, in microseconds; all 0 when nothing was recorded.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LatencySummary {
    pub min: u64,
    pub mean: f64,
    pub stdev: f64,
    pub max: u64,
    pub p50: u64,
    pub p66: u64,
    pub p75: u64,
    pub p80: u64,
    pub p90: u64,
    pub p95: u64,
    pub p98: u64,
    pub p99: u64,
    pub p99_9: u64,
}

impl LatencySummary {
    pub fn new(moments: &Moments, histogram: &Histogram<u64>) -> LatencySummary {
        if moments.count == 0 {
            return LatencySummary::default();
        }
        // A bucket's highest equivalent value can exceed the largest value recorded.
        let at = |percent: f64| {
            histogram
                .value_at_quantile(percent / 100.0)
                .min(moments.max)
        };
        LatencySummary {
            min: moments.min,
            mean: moments.mean(),
            stdev: moments.stdev(),
            max: moments.max,
            p50: at(50.0),
            p66: at(66.0),
            p75: at(75.0),
            p80: at(80.0),
            p90: at(90.0),
            p95: at(95.0),
            p98: at(98.0),
            p99: at(99.0),
            p99_9: at(99.9),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::recorder::{HIGHEST_US, LOWEST_US, SIGNIFICANT_DIGITS};

    fn histogram() -> Histogram<u64> {
        Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS).unwrap()
    }

    #[test]
    fn moments_are_exact() {
        let mut m = Moments::default();
        for v in [2, 4, 4, 4, 5, 5, 7, 9] {
            m.add(v);
        }
        assert_eq!((m.min, m.max, m.mean()), (2, 9, 5.0));
        // Sample variance of the classic example: 32 / 7.
        assert!((m.stdev() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        let mut halves = Moments::default();
        let mut other = Moments::default();
        for v in [2, 4, 4, 4] {
            halves.add(v);
        }
        for v in [5, 5, 7, 9] {
            other.add(v);
        }
        halves.merge(&other);
        assert_eq!(halves, m);
    }

    #[test]
    fn empty_is_all_zero() {
        let summary = LatencySummary::new(&Moments::default(), &histogram());
        assert_eq!(summary, LatencySummary::default());
        assert_eq!(Moments::default().stdev(), 0.0);
    }

    #[test]
    fn percentiles_of_one_to_a_thousand() {
        let mut h = histogram();
        let mut m = Moments::default();
        for v in 1..=1000 {
            h.record(v).unwrap();
            m.add(v);
        }
        let s = LatencySummary::new(&m, &h);
        assert_eq!((s.min, s.max, s.mean), (1, 1000, 500.5));
        assert_eq!((s.p50, s.p90, s.p99), (500, 900, 990));
        assert!((999..=1000).contains(&s.p99_9), "{}", s.p99_9);
    }

    #[test]
    fn percentiles_never_exceed_the_maximum() {
        let mut h = histogram();
        let mut m = Moments::default();
        for v in [123_456, 123_457] {
            h.record(v).unwrap();
            m.add(v);
        }
        let s = LatencySummary::new(&m, &h);
        assert!(s.p99_9 <= s.max && s.p50 >= s.min);
    }
}
