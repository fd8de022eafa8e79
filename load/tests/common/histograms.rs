//! The document's histograms (HdrHistogram's interchange encoding, base64), decoded, and the
//! figures beside each read from it as the load generator reads them.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hdrhistogram::Histogram;
use hdrhistogram::serialization::Deserializer;
use serde_json::Value;

/// The percentiles of a latency summary, as its JSON names them, in per mille.
const PERCENTILES: [(&str, u64); 9] = [
    ("p50", 500),
    ("p66", 660),
    ("p75", 750),
    ("p80", 800),
    ("p90", 900),
    ("p95", 950),
    ("p98", 980),
    ("p99", 990),
    ("p99_9", 999),
];

/// The nearest rank's value: the highest value of the bucket that holds the ⌈p × n / 1000⌉th
/// value in ascending order (the load README's rule, in integers: no floating point quantile).
pub fn value_at_per_mille(histogram: &Histogram<u64>, per_mille: u64) -> u64 {
    let rank = (per_mille * histogram.len()).div_ceil(1000).max(1);
    let mut seen = 0;
    for bucket in histogram.iter_recorded() {
        seen += bucket.count_at_value();
        if seen >= rank {
            return bucket.value_iterated_to();
        }
    }
    panic!("rank {rank} of {} values", histogram.len())
}

pub fn decode(text: &Value) -> Histogram<u64> {
    let text = text.as_str().expect("a histogram is a string");
    let bytes = STANDARD.decode(text).expect("a histogram is base64");
    Deserializer::new()
        .deserialize(&mut bytes.as_slice())
        .expect("a histogram is in the V2 compressed encoding")
}

/// `summary`'s percentiles (`latency_us`'s form) are `histogram`'s, capped at its max.
pub fn assert_percentiles_from(summary: &Value, histogram: &Value, what: &str) {
    let histogram = decode(histogram);
    let max = summary["max"].as_u64().unwrap();
    if histogram.is_empty() {
        assert_eq!(max, 0, "{what}: an empty histogram, a summary of nothing");
        return;
    }
    for (name, per_mille) in PERCENTILES {
        assert_eq!(
            summary[name].as_u64(),
            Some(value_at_per_mille(&histogram, per_mille).min(max)),
            "{what} {name}"
        );
    }
    assert!(histogram.max() >= max && histogram.min() <= summary["min"].as_u64().unwrap());
}

/// Every histogram of the document decodes, and every summary beside one is read from it: the
/// run's latency (corrected and, with `--rate`, not), each phase's median and each URL's.
pub fn assert_histograms_agree(doc: &Value) {
    assert_percentiles_from(
        &doc["latency_us"],
        &doc["latency_histogram_us"],
        "latency_us",
    );
    let completed = doc["requests_completed"].as_u64().unwrap();
    assert_eq!(decode(&doc["latency_histogram_us"]).len(), completed);
    match (
        &doc["latency_uncorrected_us"],
        &doc["latency_uncorrected_histogram_us"],
    ) {
        (Value::Null, Value::Null) => {}
        (summary, histogram) => {
            assert_percentiles_from(summary, histogram, "latency_uncorrected_us");
            assert_eq!(decode(histogram).len(), completed);
        }
    }
    for phase in ["connect", "processing", "waiting"] {
        let summary = &doc["connection_times_us"][phase];
        let histogram = decode(&doc["connection_histograms_us"][phase]);
        let (min, max) = (
            summary["min"].as_u64().unwrap(),
            summary["max"].as_u64().unwrap(),
        );
        let median = if histogram.is_empty() {
            0
        } else {
            value_at_per_mille(&histogram, 500).clamp(min, max)
        };
        assert_eq!(summary["median"].as_u64(), Some(median), "{phase}");
    }
    for url in doc["by_url"].as_array().unwrap() {
        let what = format!("by_url {}", url["path"]);
        assert_percentiles_from(&url["latency_us"], &url["latency_histogram_us"], &what);
        assert_eq!(
            Some(decode(&url["latency_histogram_us"]).len()),
            url["requests_completed"].as_u64(),
            "{what}"
        );
    }
}
