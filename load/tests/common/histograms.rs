//! The document's histograms (HdrHistogram's interchange encoding, base64), decoded, and the
//! figures beside each read from it as the load generator reads them.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hdrhistogram::Histogram;
use hdrhistogram::serialization::Deserializer;
use serde_json::Value;

/// The percentiles of a latency summary, as its JSON names them (the quantile is the percent
/// over 100, computed as the generator computes it: 99.9 / 100 is a hair above 0.999).
const PERCENTILES: [(&str, f64); 9] = [
    ("p50", 50.0),
    ("p66", 66.0),
    ("p75", 75.0),
    ("p80", 80.0),
    ("p90", 90.0),
    ("p95", 95.0),
    ("p98", 98.0),
    ("p99", 99.0),
    ("p99_9", 99.9),
];

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
    for (name, percent) in PERCENTILES {
        assert_eq!(
            summary[name].as_u64(),
            Some(histogram.value_at_quantile(percent / 100.0).min(max)),
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
            histogram.value_at_quantile(0.5).clamp(min, max)
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
