//! Percentiles by nearest rank, the quantile an exact decimal (per mille, in integers).
//!
//! The p ‰ percentile of n values is the value of rank ⌈p × n / 1000⌉ (at least 1) in
//! ascending order: the smallest value with at least p ‰ of the values at or below it
//! (Hyndman & Fan's definition 1, "nearest rank"). From a histogram it is the highest value of
//! the bucket holding that rank (wrk's and HdrHistogram's convention), which the caller caps at
//! the largest value recorded.
//!
//! HdrHistogram's `value_at_quantile(percent / 100.0)` computes the rank in floating point,
//! where `99.9 / 100.0` is 0.9990000000000001: whenever n × 0.999 is whole (n = 1000, 9000,
//! …) it read the next rank up. The merge of several clients' documents (`src/merge/`) uses
//! this same rule, so the generator's and the merged percentiles agree.

use hdrhistogram::Histogram;

/// The 1-based rank of the `per_mille` ‰ percentile among `count` values: ⌈p × n / 1000⌉,
/// at least 1, at most `count` (for `per_mille` ≤ 1000).
pub fn rank(per_mille: u16, count: u64) -> u64 {
    let scaled = u128::from(per_mille) * u128::from(count);
    // ⌈x / 1000⌉ ≤ count for per_mille ≤ 1000, so it fits a u64.
    (scaled.div_ceil(1000) as u64).max(1)
}

/// The values at `per_mille` (ascending) of `histogram`, in one walk of its buckets: for each,
/// the highest value equivalent to the bucket that holds its rank; all 0 when empty.
pub fn values_at<const N: usize>(histogram: &Histogram<u64>, per_mille: [u16; N]) -> [u64; N] {
    assert!(
        per_mille.is_sorted() && per_mille.iter().all(|&p| p <= 1000),
        "per mille ascending, at most 1000: {per_mille:?}"
    );
    let count = histogram.len();
    let mut values = [0; N];
    if count == 0 {
        return values;
    }
    let mut buckets = histogram.iter_recorded();
    let mut seen = 0;
    let mut value = 0;
    for (slot, &p) in values.iter_mut().zip(&per_mille) {
        let wanted = rank(p, count);
        while seen < wanted {
            let bucket = buckets
                .next()
                .expect("the buckets' counts add up to the histogram's length");
            seen += bucket.count_at_value();
            value = bucket.value_iterated_to();
        }
        *slot = value;
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::recorder::{HIGHEST_US, LOWEST_US, SIGNIFICANT_DIGITS};

    fn histogram_of(values: impl IntoIterator<Item = u64>) -> Histogram<u64> {
        let mut h = Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS).unwrap();
        for v in values {
            h.record(v).unwrap();
        }
        h
    }

    #[test]
    fn ranks_are_exact() {
        assert_eq!(rank(999, 1000), 999);
        assert_eq!(rank(999, 9000), 8991);
        assert_eq!(rank(999, 9001), 8992);
        assert_eq!(rank(500, 1000), 500);
        assert_eq!(rank(500, 1001), 501);
        assert_eq!(rank(990, 100), 99);
        assert_eq!(rank(500, 1), 1);
        assert_eq!(rank(0, 10), 1, "at least the first value");
        assert_eq!(rank(1000, 7), 7);
        assert_eq!(rank(999, u64::MAX), u64::MAX - u64::MAX / 1000);
    }

    #[test]
    fn values_at_ranks_of_one_to_n() {
        // Below 2048 µs each value has its own bucket; 8984..=8991 is one bucket of 8.
        let h = histogram_of(1..=1000);
        assert_eq!(values_at(&h, [500, 999, 1000]), [500, 999, 1000]);
        let h = histogram_of(1..=9000);
        assert_eq!(values_at(&h, [999]), [8991]);
        assert_eq!(h.highest_equivalent(8984), 8991);
    }

    #[test]
    fn the_same_bucket_serves_several_ranks() {
        let mut h = histogram_of([7]);
        h.record_n(40, 98).unwrap();
        h.record(1000).unwrap();
        assert_eq!(values_at(&h, [0, 10, 20, 990, 999]), [7, 7, 40, 40, 1000]);
        assert_eq!(values_at(&histogram_of([]), [500, 999]), [0, 0]);
    }

    #[test]
    #[should_panic(expected = "ascending")]
    fn per_mille_must_ascend() {
        values_at(&histogram_of([1]), [999, 500]);
    }
}
