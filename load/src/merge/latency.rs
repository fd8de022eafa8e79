//! One latency figure of several clients' documents as one: their histograms added bucket by
//! bucket and the percentiles (or the median) read from the sum by the load generator's own
//! rule (`stats/nearest_rank.rs`); min and max the extremes, the mean weighted by each
//! client's count and the sample standard deviation pooled exactly from each client's count,
//! mean and deviation. A client's count is its histogram's total: the values its summary was
//! read from.

use hdrhistogram::Histogram;
use serde::Serialize;
use serde_json::Value;

use super::MergeError;
use super::histograms;
use super::python_numbers::Number;
use crate::stats::interchange;
use crate::stats::latency::PERCENTILES_PER_MILLE;
use crate::stats::nearest_rank::values_at;

/// `latency_us`: every request of every client.
#[derive(Debug, Serialize)]
pub struct LatencySummary {
    pub min: i64,
    pub mean: f64,
    pub stdev: f64,
    pub max: i64,
    pub p50: i64,
    pub p66: i64,
    pub p75: i64,
    pub p80: i64,
    pub p90: i64,
    pub p95: i64,
    pub p98: i64,
    pub p99: i64,
    pub p99_9: i64,
}

/// A phase of `connection_times_us`, and its `total` (the latency's, its median the p50).
#[derive(Debug, Serialize)]
pub struct PhaseSummary {
    pub min: i64,
    pub mean: f64,
    pub stdev: f64,
    pub median: i64,
    pub max: i64,
}

impl PhaseSummary {
    pub fn total_of(latency: &LatencySummary) -> PhaseSummary {
        PhaseSummary {
            min: latency.min,
            mean: latency.mean,
            stdev: latency.stdev,
            median: latency.p50,
            max: latency.max,
        }
    }
}

/// The pooled figures of the union.
struct Pooled {
    min: i64,
    mean: f64,
    stdev: f64,
    max: i64,
}

/// A `latency_us` of every request of every client, and its histogram encoded.
pub fn merged_latency(
    summaries: &[&Value],
    encoded: &[&Value],
) -> Result<(LatencySummary, String), MergeError> {
    let (merged, pooled) = added(summaries, encoded)?;
    let pooled = pooled.unwrap_or(Pooled {
        min: 0,
        mean: 0.0,
        stdev: 0.0,
        max: 0,
    });
    // Each percentile is capped at the largest value recorded (a bucket's top can exceed it);
    // an empty histogram reads 0 everywhere.
    let [p50, p66, p75, p80, p90, p95, p98, p99, p99_9] =
        values_at(&merged, PERCENTILES_PER_MILLE).map(|value| capped(value, pooled.max));
    let summary = LatencySummary {
        min: pooled.min,
        mean: pooled.mean,
        stdev: pooled.stdev,
        max: pooled.max,
        p50,
        p66,
        p75,
        p80,
        p90,
        p95,
        p98,
        p99,
        p99_9,
    };
    Ok((summary, interchange::encode(&merged)))
}

/// A phase of every client's responses, and its histogram encoded; the median is clamped to
/// min and max as the load generator clamps it.
pub fn merged_phase(
    summaries: &[&Value],
    encoded: &[&Value],
) -> Result<(PhaseSummary, String), MergeError> {
    let (merged, pooled) = added(summaries, encoded)?;
    let summary = match pooled {
        None => PhaseSummary {
            min: 0,
            mean: 0.0,
            stdev: 0.0,
            median: 0,
            max: 0,
        },
        Some(pooled) => {
            let [median] = values_at(&merged, [500]);
            let median = i64::try_from(median).unwrap_or(i64::MAX);
            PhaseSummary {
                min: pooled.min,
                mean: pooled.mean,
                stdev: pooled.stdev,
                median: median.max(pooled.min).min(pooled.max),
                max: pooled.max,
            }
        }
    };
    Ok((summary, interchange::encode(&merged)))
}

fn capped(value: u64, max: i64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX).min(max)
}

/// The histograms decoded and added, and the pooled figures (None when nothing was counted).
fn added(
    summaries: &[&Value],
    encoded: &[&Value],
) -> Result<(Histogram<u64>, Option<Pooled>), MergeError> {
    let decoded = encoded
        .iter()
        .map(|text| histograms::decode(text).map_err(MergeError::mismatch))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = histograms::add(&decoded)?;
    let counts: Vec<u64> = decoded.iter().map(Histogram::len).collect();
    Ok((merged, pooled(summaries, &counts)?))
}

/// min, mean, stdev and max of the union, in the Python merge's order of operations.
fn pooled(summaries: &[&Value], counts: &[u64]) -> Result<Option<Pooled>, MergeError> {
    let mut measured = Vec::new();
    for (summary, &count) in summaries.iter().zip(counts) {
        if count > 0 {
            measured.push((Figures::of(summary)?, count as f64));
        }
    }
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return Ok(None);
    }
    let total = total as f64;
    let mut weighted = 0.0;
    for (figures, n) in &measured {
        weighted += figures.mean * n;
    }
    let mean = weighted / total;
    // Σx² of each client from its sample deviation and mean: (n - 1) s² + n m².
    let mut squares = 0.0;
    for (figures, n) in &measured {
        squares += (n - 1.0) * (figures.stdev * figures.stdev) + n * (figures.mean * figures.mean);
    }
    let variance = if total > 1.0 {
        (squares - total * mean * mean) / (total - 1.0)
    } else {
        0.0
    };
    // Python's max(variance, 0.0): the first unless the second is greater.
    let variance = if 0.0 > variance { 0.0 } else { variance };
    Ok(Some(Pooled {
        min: measured.iter().map(|(f, _)| f.min).min().unwrap_or(0),
        mean,
        stdev: variance.sqrt(),
        max: measured.iter().map(|(f, _)| f.max).max().unwrap_or(0),
    }))
}

/// A client's summary: what the pooling reads of it.
struct Figures {
    min: i64,
    mean: f64,
    stdev: f64,
    max: i64,
}

impl Figures {
    fn of(summary: &Value) -> Result<Figures, MergeError> {
        let figure = |name: &str| {
            let value = summary.get(name).ok_or_else(|| {
                MergeError::mismatch(format!("a latency summary has no '{name}'"))
            })?;
            Number::of(value, name)
        };
        Ok(Figures {
            min: figure("min")?.truncated(),
            mean: figure("mean")?.as_f64(),
            stdev: figure("stdev")?.as_f64(),
            max: figure("max")?.truncated(),
        })
    }
}
