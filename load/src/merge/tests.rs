//! The merge of documents built here: known values dealt to clients, the merged percentiles
//! those of the union.

use serde_json::{Value, json};

use super::{Client, MergeError, merge};
use crate::stats::interchange::encode;
use crate::stats::recorder::{HIGHEST_US, LOWEST_US, SIGNIFICANT_DIGITS};
use hdrhistogram::Histogram;

fn histogram_of(values: &[u64]) -> Histogram<u64> {
    let mut h = Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS).unwrap();
    for &v in values {
        h.record(v).unwrap();
    }
    h
}

/// A latency summary of `values` as the load generator writes one (percentiles left to the
/// merge, which reads them from the histograms), and its histogram.
fn summary(values: &[u64]) -> (Value, Value) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<u64>() as f64 / n;
    let squares: f64 = values.iter().map(|&v| (v as f64 - mean).powi(2)).sum();
    let stdev = if values.len() > 1 {
        (squares / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    let min = values.iter().min().copied().unwrap_or(0);
    let max = values.iter().max().copied().unwrap_or(0);
    (
        json!({"min": min, "mean": mean, "stdev": stdev, "max": max, "median": min}),
        Value::String(encode(&histogram_of(values))),
    )
}

/// A closed-loop client's document of `values`' latencies, one URL.
fn client(values: &[u64], elapsed_s: f64) -> Client {
    let (latency, histogram) = summary(values);
    let phase = json!({"min": 1, "mean": 1.0, "stdev": 0.0, "median": 1, "max": 1});
    let ones = Value::String(encode(&histogram_of(&vec![1; values.len()])));
    let document = json!({
        "version": 3,
        "generator": {"name": "layerbench-load", "version": "0.1.0"},
        "options": {"url": "http://h/", "concurrency": 2, "threads": 1, "requests": values.len()},
        "server_software": null, "document_length_bytes": 5, "elapsed_s": elapsed_s,
        "requests_completed": values.len(), "requests_failed": 0, "non_2xx_responses": 0,
        "keep_alive_requests": values.len(), "stale_connection_retries": 0,
        "failures": {"connect": 0, "receive": 0, "length": 0, "exceptions": 0},
        "status_counts": {"200": values.len()}, "errors_by_kind": {},
        "total_transferred_bytes": 100 * values.len(), "html_transferred_bytes": 5 * values.len(),
        "requests_per_s": 0.0, "transfer_rate_bytes_per_s": 0.0,
        "latency_us": latency, "latency_histogram_us": histogram.clone(),
        "client_cpu_s": {"user": 0.25, "system": 0.5},
        "connection_times_us": {"connect": phase, "processing": phase, "waiting": phase,
                                "total": phase},
        "connection_histograms_us": {"connect": ones, "processing": ones, "waiting": ones},
        "sent_bytes": 50 * values.len(), "client_busiest_thread_cpu_fraction": 0.5,
        "client_io_engine": "epoll", "rate": null, "latency_uncorrected_us": null,
        "latency_uncorrected_histogram_us": null, "tls": null,
        "by_url": [{"path": "/", "weight": 1, "requests_completed": values.len(),
                    "requests_failed": 0, "document_length_bytes": 5,
                    "latency_us": summary(values).0, "latency_histogram_us": histogram}],
        "clients": [],
    });
    Client {
        name: "test".to_string(),
        document,
    }
}

fn merged(clients: &[Client]) -> Value {
    serde_json::to_value(merge(clients).unwrap()).unwrap()
}

/// 1..=n µs dealt to three clients: p50 the ⌈n / 2⌉th value, p99.9 the ⌈0.999 n⌉th (the top
/// of its bucket), not the next one up.
#[test]
fn merged_percentiles_of_one_to_n_are_the_nearest_ranks() {
    for (count, p50, p99, p99_9) in [(1000, 500, 990, 999), (9000, 4503, 8911, 8991)] {
        let parts: Vec<Vec<u64>> = (1..=3)
            .map(|first| (first..=count).step_by(3).collect())
            .collect();
        let clients: Vec<Client> = parts.iter().map(|part| client(part, 1.0)).collect();
        let doc = merged(&clients);
        let latency = &doc["latency_us"];
        assert_eq!(
            [&latency["p50"], &latency["p99"], &latency["p99_9"]],
            [&json!(p50), &json!(p99), &json!(p99_9)],
            "{count}"
        );
        assert_eq!(
            (latency["min"].as_u64(), latency["max"].as_u64()),
            (Some(1), Some(count))
        );
        let mean = (count + 1) as f64 / 2.0;
        assert!((latency["mean"].as_f64().unwrap() - mean).abs() < 1e-9);
        // The sample deviation of 1..=n: √(n (n + 1) / 12).
        let stdev = ((count * (count + 1)) as f64 / 12.0).sqrt();
        assert!((latency["stdev"].as_f64().unwrap() - stdev).abs() < 1e-6 * stdev);
        assert_eq!(doc["by_url"][0]["latency_us"]["p99_9"], json!(p99_9));
        assert_eq!(doc["connection_times_us"]["total"]["median"], json!(p50));
        assert_eq!(doc["requests_completed"], json!(count));
    }
}

#[test]
fn counts_add_and_rates_use_the_longest_client() {
    let clients = [client(&[10, 20], 2.0), client(&[30, 40, 50, 60], 4.0)];
    let doc = merged(&clients);
    assert_eq!(doc["elapsed_s"], json!(4.0));
    assert_eq!(doc["requests_per_s"], json!(1.5));
    assert_eq!(doc["transfer_rate_bytes_per_s"], json!(150.0));
    assert_eq!(doc["status_counts"], json!({"200": 6}));
    assert_eq!(doc["options"]["concurrency"], json!(4));
    assert_eq!(doc["options"]["requests"], json!(6));
    assert_eq!(doc["client_cpu_s"], json!({"user": 0.5, "system": 1.0}));
    assert_eq!(doc["clients"].as_array().unwrap().len(), 2);
    assert_eq!(doc["rate"], Value::Null);
}

#[test]
fn what_cannot_be_merged_exactly_is_refused() {
    let message = |clients: &[Client]| match merge(clients) {
        Err(MergeError::Input(message)) => message,
        other => panic!("not refused: {other:?}"),
    };
    assert_eq!(message(&[]), "no client's result to merge");
    let mut old = client(&[1], 1.0);
    old.document["version"] = json!(2);
    assert!(
        message(&[client(&[1], 1.0), old])
            .starts_with("client 2's result (test) is JSON version 2,")
    );
    let mut partial = client(&[1], 1.0);
    partial
        .document
        .as_object_mut()
        .unwrap()
        .remove("connection_times_us");
    assert!(message(&[partial]).contains("has no 'connection_times_us'"));
    let mut garbled = client(&[1], 1.0);
    garbled.document["latency_histogram_us"] = json!("not a histogram");
    assert!(message(&[garbled]).starts_with("client 1's result (test): not a histogram in V2"));
    let mut open = client(&[1], 1.0);
    open.document["rate"] = json!({"target_per_s": 10.0});
    assert!(message(&[client(&[1], 1.0), open]).contains("open loops and closed loops"));
    let mut other = client(&[1], 1.0);
    let coarse = Histogram::<u64>::new_with_bounds(1, 1_000_000, 2).unwrap();
    other.document["latency_histogram_us"] = json!(encode(&coarse));
    assert!(message(&[client(&[1], 1.0), other]).contains("histograms of different settings"));
}
