//! What a client's document must hold for the merge: version 3 (every histogram), every
//! figure the merge reads, and histograms that decode. Each refusal is one line naming the
//! client.

use serde_json::Value;

use super::histograms;
use super::{Client, MergeError};
use crate::report::json::SCHEMA_VERSION;

/// The figures of a client's document that the merge reads (besides version and clients).
pub const READ: [&str; 28] = [
    "generator",
    "options",
    "server_software",
    "document_length_bytes",
    "elapsed_s",
    "requests_completed",
    "requests_failed",
    "non_2xx_responses",
    "keep_alive_requests",
    "stale_connection_retries",
    "failures",
    "status_counts",
    "errors_by_kind",
    "total_transferred_bytes",
    "html_transferred_bytes",
    "latency_us",
    "latency_histogram_us",
    "client_cpu_s",
    "connection_times_us",
    "connection_histograms_us",
    "sent_bytes",
    "client_busiest_thread_cpu_fraction",
    "client_io_engine",
    "rate",
    "latency_uncorrected_us",
    "latency_uncorrected_histogram_us",
    "tls",
    "by_url",
];

/// Client `number`'s document is one the merge can read.
pub fn check(number: usize, client: &Client) -> Result<(), MergeError> {
    let who = format!("client {number}'s result ({})", client.name);
    let Some(document) = client.document.as_object() else {
        return Err(MergeError::Input(format!(
            "{who} is not a JSON object: not a layerbench-load document"
        )));
    };
    let version = document.get("version").unwrap_or(&Value::Null);
    if version.as_f64() != Some(f64::from(SCHEMA_VERSION)) {
        return Err(MergeError::Input(format!(
            "{who} is JSON version {}, without every histogram of version {SCHEMA_VERSION}: its \
             percentiles cannot be merged exactly; install layerbench and its layerbench-load of \
             one release (pip install --force-reinstall layerbench, or cargo install --path load \
             from its clone)",
            histograms::short(version)
        )));
    }
    let missing: Vec<String> = READ
        .iter()
        .filter(|name| !document.contains_key(**name))
        .map(|name| format!("'{name}'"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Input(format!(
            "{who} has no {}: not a layerbench-load document of version {SCHEMA_VERSION}",
            missing.join(", ")
        )));
    }
    for text in encoded(&client.document) {
        if !text.is_null() {
            histograms::decode(text)
                .map_err(|error| MergeError::Input(format!("{who}: {error}")))?;
        }
    }
    Ok(())
}

/// Every encoded histogram of a document (null where it has none).
fn encoded(document: &Value) -> Vec<&Value> {
    let mut texts = vec![
        &document["latency_histogram_us"],
        &document["latency_uncorrected_histogram_us"],
    ];
    if let Some(urls) = document["by_url"].as_array() {
        texts.extend(urls.iter().map(|url| &url["latency_histogram_us"]));
    }
    if let Some(phases) = document["connection_histograms_us"].as_object() {
        texts.extend(phases.values());
    }
    texts
}
