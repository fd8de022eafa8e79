//! A `--urls` run's figures for each URL: requests that ended, failed, and their latency.

use hdrhistogram::Histogram;

use super::latency::Moments;
use super::recorder::{HIGHEST_US, LOWEST_US, SIGNIFICANT_DIGITS};

/// One URL's requests.
#[derive(Debug, Clone)]
pub struct TargetTally {
    /// Responses received in full, any status (as `Recorder::completed`).
    pub completed: u64,
    /// Requests that failed, length failures included.
    pub failed: u64,
    pub histogram: Histogram<u64>,
    pub moments: Moments,
}

impl Default for TargetTally {
    fn default() -> Self {
        TargetTally {
            completed: 0,
            failed: 0,
            histogram: Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS)
                .expect("constant histogram bounds are valid"),
            moments: Moments::default(),
        }
    }
}

/// Tallies by URL, in the order of the list; empty for a run of one URL, which the run's own
/// figures already describe.
#[derive(Debug, Clone, Default)]
pub struct ByTarget {
    pub tallies: Vec<TargetTally>,
}

impl ByTarget {
    pub fn new(targets: usize) -> ByTarget {
        ByTarget {
            tallies: if targets > 1 {
                vec![TargetTally::default(); targets]
            } else {
                Vec::new()
            },
        }
    }

    /// A response to target `index`, `failed` when its length did not match.
    pub fn record_response(&mut self, index: usize, latency_us: u64, failed: bool) {
        if let Some(tally) = self.tallies.get_mut(index) {
            let latency = latency_us.clamp(LOWEST_US, HIGHEST_US);
            tally.histogram.saturating_record(latency);
            tally.moments.add(latency);
            tally.completed += 1;
            tally.failed += u64::from(failed);
        }
    }

    pub fn record_failure(&mut self, index: usize) {
        if let Some(tally) = self.tallies.get_mut(index) {
            tally.failed += 1;
        }
    }

    pub fn merge(&mut self, other: &ByTarget) {
        if self.tallies.is_empty() {
            self.tallies.clone_from(&other.tallies);
            return;
        }
        for (mine, theirs) in self.tallies.iter_mut().zip(&other.tallies) {
            mine.completed += theirs.completed;
            mine.failed += theirs.failed;
            mine.histogram
                .add(&theirs.histogram)
                .expect("histograms with the same bounds merge");
            mine.moments.merge(&theirs.moments);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_url_keeps_nothing_apart() {
        let mut one = ByTarget::new(1);
        one.record_response(0, 100, false);
        one.record_failure(0);
        assert!(one.tallies.is_empty());
    }

    #[test]
    fn tallies_by_url_merge() {
        let mut a = ByTarget::new(2);
        a.record_response(0, 100, false);
        a.record_response(1, 5000, true);
        let mut b = ByTarget::new(2);
        b.record_response(0, 300, false);
        b.record_failure(1);
        let mut total = ByTarget::default();
        total.merge(&a);
        total.merge(&b);
        let [first, second] = &total.tallies[..] else {
            panic!("two tallies")
        };
        assert_eq!((first.completed, first.failed), (2, 0));
        assert_eq!((second.completed, second.failed), (1, 2));
        assert_eq!(first.moments.mean(), 200.0);
        assert_eq!(
            second.histogram.max(),
            second.histogram.highest_equivalent(5000)
        );
    }
}
