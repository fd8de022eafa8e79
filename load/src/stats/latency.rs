//! Latency summary: exact min, max, mean and standard deviation from running sums, and
//! percentiles from the HdrHistogram by nearest rank (`nearest_rank.rs`: each the highest
//! value equivalent to the bucket of the rank ⌈p × n⌉, as wrk and HdrHistogram report them).

use hdrhistogram::Histogram;

use super::nearest_rank;

/// The percentiles of a summary in per mille, in its fields' order: p50 … p99_9.
pub const PERCENTILES_PER_MILLE: [u16; 9] = [500, 660, 750, 800, 900, 950, 980, 990, 999];

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
    ///
    /// The variance is (n Σx² − (Σx)²) / (n (n − 1)) with the numerator exact in integers:
    /// in floating point, the difference of two sums near 10^19 (1000 s latencies) loses
    /// a spread of a few µs entirely.
    pub fn stdev(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let n = u128::from(self.count);
        let sum = u128::from(self.sum);
        // n Σx² ≥ (Σx)² (Cauchy–Schwarz), and (Σx)² fits: Σx is a u64.
        let variance = match n.checked_mul(self.sum_of_squares) {
            Some(scaled) => (scaled - sum * sum) as f64 / (n * (n - 1)) as f64,
            None => {
                let (n, mean) = (self.count as f64, self.mean());
                (self.sum_of_squares as f64 - n * mean * mean) / (n - 1.0)
            }
        };
        variance.max(0.0).sqrt()
    }
}

/// The latency figures of a run, in microseconds; all 0 when nothing was recorded.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct LatencySummary {
    pub min: u64,
    #[serde(serialize_with = "crate::json_float::finite")]
    pub mean: f64,
    #[serde(serialize_with = "crate::json_float::finite")]
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
        let [p50, p66, p75, p80, p90, p95, p98, p99, p99_9] =
            nearest_rank::values_at(histogram, PERCENTILES_PER_MILLE)
                .map(|value| value.min(moments.max));
        LatencySummary {
            min: moments.min,
            mean: moments.mean(),
            stdev: moments.stdev(),
            max: moments.max,
            p50,
            p66,
            p75,
            p80,
            p90,
            p95,
            p98,
            p99,
            p99_9,
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
        // The 999th value: 1000 × 0.999 is whole, and no floating point rounds it up.
        assert_eq!(s.p99_9, 999);
    }

    /// 9000 × 0.999 = 8991 is whole too: the 8991st value, the top of its bucket of 8
    /// (8984..=8991), not the next bucket's 8999.
    #[test]
    fn p99_9_of_one_to_nine_thousand_is_the_8991st_value() {
        let values: Vec<u64> = (1..=9000).collect();
        let s = summary(&values);
        assert_eq!(s.p99_9, 8991);
        assert_eq!((s.p50, s.p99), (4503, 8911));
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

    fn summary(values: &[u64]) -> LatencySummary {
        let mut h = histogram();
        let mut m = Moments::default();
        for &v in values {
            h.record(v).unwrap();
            m.add(v);
        }
        LatencySummary::new(&m, &h)
    }

    /// Below 2048 µs every value has its own bucket: each percentile is the nearest rank,
    /// the smallest value with at least that share of the values at or below it.
    #[test]
    fn percentiles_are_nearest_ranks() {
        let values: Vec<u64> = (1..=100).collect();
        let s = summary(&values);
        assert_eq!(
            [
                s.p50, s.p66, s.p75, s.p80, s.p90, s.p95, s.p98, s.p99, s.p99_9
            ],
            [50, 66, 75, 80, 90, 95, 98, 99, 100]
        );
        assert_eq!((s.min, s.max, s.mean), (1, 100, 50.5));
        // Sample standard deviation of 1..=n: sqrt(n (n + 1) / 12).
        assert!(
            (s.stdev - (100.0f64 * 101.0 / 12.0).sqrt()).abs() < 1e-9,
            "{}",
            s.stdev
        );
        // Order does not matter; neither do repeats beyond their count.
        let mut shuffled: Vec<u64> = (1..=100).map(|i| (i * 37) % 100 + 1).collect();
        shuffled.sort_unstable_by_key(|v| v % 7);
        assert_eq!(summary(&shuffled), s);
    }

    #[test]
    fn one_value() {
        let s = summary(&[1234]);
        assert_eq!((s.min, s.max, s.mean, s.stdev), (1234, 1234, 1234.0, 0.0));
        assert_eq!((s.p50, s.p99_9), (1234, 1234));
    }

    /// Above 2048 µs a bucket holds several values (3 significant digits): a percentile is
    /// its bucket's highest value, within 0.1 % above the nearest rank, never above the max.
    #[test]
    fn percentiles_of_bucketed_values() {
        let mut values = vec![20_000; 50];
        values.extend([30_000; 49]);
        values.push(45_000);
        let s = summary(&values);
        let h = histogram();
        assert_eq!(s.p50, h.highest_equivalent(20_000));
        assert!((20_000..=20_020).contains(&s.p50), "{}", s.p50);
        assert_eq!(s.p66, h.highest_equivalent(30_000));
        assert_eq!(s.p99, h.highest_equivalent(30_000));
        assert_eq!(s.p99_9, 45_000, "capped at the maximum");
        assert_eq!((s.min, s.max), (20_000, 45_000));
        assert_eq!(
            s.mean,
            (50.0 * 20_000.0 + 49.0 * 30_000.0 + 45_000.0) / 100.0
        );
    }

    /// Large values with a small spread (a slow server, 1000 s ± 5 µs): the variance of a
    /// few µs must not drown in the rounding of sums near 10^19.
    #[test]
    fn stdev_of_large_values_is_exact() {
        let values: Vec<u64> = (0..10).map(|k| 1_000_000_000 + k).collect();
        let mut m = Moments::default();
        for &v in &values {
            m.add(v);
        }
        // Sample variance of 0..=9: 82.5 / 9.
        let expected = (82.5f64 / 9.0).sqrt();
        assert!(
            (m.stdev() - expected).abs() < 1e-9,
            "{} != {expected}",
            m.stdev()
        );
        assert_eq!(m.mean(), 1_000_000_004.5);
    }
}
