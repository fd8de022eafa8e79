//! Several clients' runs at the same time, as one load document of one client's schema
//! (`schema/load-result.schema.json`), the clients' own documents listed in its `clients`.
//!
//! - Counts, bytes and CPU seconds are summed; failures, statuses and errors by kind, key by
//!   key.
//! - `elapsed_s` is the longest client's: the documents hold no clock time at which each
//!   started, so their union window is not known; the clients are started together. The
//!   rates (`requests_per_s`, `transfer_rate_bytes_per_s`, the open loop's `achieved_per_s`)
//!   are the summed counts over it.
//! - Every histogram (the latency's, the uncorrected latency's, each phase's, each URL's) is
//!   the clients' added bucket by bucket, and its percentiles or median are read from the sum
//!   (`latency.rs`): those of every request of every client, never an average of percentiles.
//! - `by_url` is merged by path, in the order the paths first appear.
//! - `options` are the first client's with `concurrency`, `threads` and `requests` summed;
//!   `generator`, `client_io_engine` and the first response's figures (server, document
//!   length, TLS protocol) the first client's that has them.

use serde::Serialize;
use serde_json::Value;

use super::latency::{LatencySummary, PhaseSummary, merged_latency, merged_phase};
use super::ordered::Ordered;
use super::python_numbers::{self, sum, sum_ints, truthy};
use super::{Client, MergeError};
use crate::report::json::SCHEMA_VERSION;

/// The merged document, its fields in the schema's order.
#[derive(Debug, Serialize)]
pub struct Merged {
    version: u32,
    generator: Value,
    options: Value,
    server_software: Value,
    document_length_bytes: Value,
    elapsed_s: Value,
    requests_completed: i64,
    requests_failed: i64,
    non_2xx_responses: i64,
    keep_alive_requests: i64,
    stale_connection_retries: i64,
    failures: Ordered,
    status_counts: Ordered,
    errors_by_kind: Ordered,
    total_transferred_bytes: i64,
    html_transferred_bytes: i64,
    requests_per_s: f64,
    transfer_rate_bytes_per_s: f64,
    latency_us: LatencySummary,
    latency_histogram_us: String,
    client_cpu_s: CpuSeconds,
    connection_times_us: ConnectionTimes,
    connection_histograms_us: ConnectionHistograms,
    sent_bytes: i64,
    client_busiest_thread_cpu_fraction: Value,
    client_io_engine: Value,
    rate: Option<Rate>,
    latency_uncorrected_us: Option<LatencySummary>,
    latency_uncorrected_histogram_us: Option<String>,
    tls: Option<Tls>,
    by_url: Vec<UrlFigures>,
    clients: Vec<Value>,
}

#[derive(Debug, Serialize)]
struct CpuSeconds {
    user: Value,
    system: Value,
}

#[derive(Debug, Serialize)]
struct ConnectionTimes {
    connect: PhaseSummary,
    processing: PhaseSummary,
    waiting: PhaseSummary,
    total: PhaseSummary,
}

#[derive(Debug, Serialize)]
struct ConnectionHistograms {
    connect: String,
    processing: String,
    waiting: String,
}

#[derive(Debug, Serialize)]
struct Rate {
    target_per_s: Value,
    achieved_per_s: f64,
    scheduled_requests: Value,
    unsent_requests: Value,
    late_starts: Value,
    late_threshold_us: Value,
    max_lateness_us: Value,
}

#[derive(Debug, Serialize)]
struct Tls {
    protocol: Value,
    cipher_suite: Value,
    handshakes_full: Value,
    handshakes_resumed: Value,
}

#[derive(Debug, Serialize)]
struct UrlFigures {
    path: Value,
    weight: Value,
    requests_completed: i64,
    requests_failed: i64,
    document_length_bytes: Value,
    latency_us: LatencySummary,
    latency_histogram_us: String,
}

/// The clients' documents (checked) as one.
pub fn merged(clients: &[Client]) -> Result<Merged, MergeError> {
    let documents: Vec<&Value> = clients.iter().map(|client| &client.document).collect();
    let docs = documents.as_slice();
    let elapsed_s = python_numbers::max(field(docs, "elapsed_s")?, "elapsed_s")?;
    let elapsed = python_numbers::Number::of(&elapsed_s, "elapsed_s")?.as_f64();
    let completed = sum_ints(field(docs, "requests_completed")?, "requests_completed")?;
    let transferred = sum_ints(
        field(docs, "total_transferred_bytes")?,
        "total_transferred_bytes",
    )?;
    let (latency_us, latency_histogram_us) = merged_latency(
        &field(docs, "latency_us")?,
        &field(docs, "latency_histogram_us")?,
    )?;
    let uncorrected = open_loop(docs)?;
    let phase = |name: &str| {
        let times = field(docs, "connection_times_us")?;
        let histograms = field(docs, "connection_histograms_us")?;
        merged_phase(&member(&times, name)?, &member(&histograms, name)?)
    };
    let (connect, connect_histogram) = phase("connect")?;
    let (processing, processing_histogram) = phase("processing")?;
    let (waiting, waiting_histogram) = phase("waiting")?;
    let cpu = field(docs, "client_cpu_s")?;
    let first = docs[0];
    let rate = match uncorrected {
        Some(_) => Some(rate(docs, elapsed)?),
        None => None,
    };
    let (latency_uncorrected_us, latency_uncorrected_histogram_us) = match uncorrected {
        Some((summary, histogram)) => (Some(summary), Some(histogram)),
        None => (None, None),
    };
    Ok(Merged {
        version: SCHEMA_VERSION,
        generator: first["generator"].clone(),
        options: options(docs)?,
        server_software: first_present(&field(docs, "server_software")?),
        document_length_bytes: first_present(&field(docs, "document_length_bytes")?),
        elapsed_s,
        requests_completed: completed,
        requests_failed: sum_ints(field(docs, "requests_failed")?, "requests_failed")?,
        non_2xx_responses: sum_ints(field(docs, "non_2xx_responses")?, "non_2xx_responses")?,
        keep_alive_requests: sum_ints(field(docs, "keep_alive_requests")?, "keep_alive_requests")?,
        stale_connection_retries: sum_ints(
            field(docs, "stale_connection_retries")?,
            "stale_connection_retries",
        )?,
        failures: counts(&field(docs, "failures")?, "failures")?,
        status_counts: counts(&field(docs, "status_counts")?, "status_counts")?,
        errors_by_kind: counts(&field(docs, "errors_by_kind")?, "errors_by_kind")?,
        total_transferred_bytes: transferred,
        html_transferred_bytes: sum_ints(
            field(docs, "html_transferred_bytes")?,
            "html_transferred_bytes",
        )?,
        requests_per_s: per_second(completed as f64, elapsed),
        transfer_rate_bytes_per_s: per_second(transferred as f64, elapsed),
        connection_times_us: ConnectionTimes {
            connect,
            processing,
            waiting,
            total: PhaseSummary::total_of(&latency_us),
        },
        latency_us,
        latency_histogram_us,
        client_cpu_s: CpuSeconds {
            user: sum(member(&cpu, "user")?, "client_cpu_s.user")?,
            system: sum(member(&cpu, "system")?, "client_cpu_s.system")?,
        },
        connection_histograms_us: ConnectionHistograms {
            connect: connect_histogram,
            processing: processing_histogram,
            waiting: waiting_histogram,
        },
        sent_bytes: sum_ints(field(docs, "sent_bytes")?, "sent_bytes")?,
        client_busiest_thread_cpu_fraction: python_numbers::max(
            field(docs, "client_busiest_thread_cpu_fraction")?,
            "client_busiest_thread_cpu_fraction",
        )?,
        client_io_engine: first["client_io_engine"].clone(),
        rate,
        latency_uncorrected_us,
        latency_uncorrected_histogram_us,
        tls: tls(&field(docs, "tls")?)?,
        by_url: by_url(docs)?,
        clients: docs.iter().map(|d| (*d).clone()).collect(),
    })
}

/// `name` of every document (each has it: checked).
fn field<'a>(documents: &[&'a Value], name: &str) -> Result<Vec<&'a Value>, MergeError> {
    member(documents, name)
}

/// `name` of every object of `values`; an error names it when one lacks it.
fn member<'a>(values: &[&'a Value], name: &str) -> Result<Vec<&'a Value>, MergeError> {
    values
        .iter()
        .map(|value| {
            value
                .get(name)
                .ok_or_else(|| MergeError::mismatch(format!("no '{name}' in {}", kind(value))))
        })
        .collect()
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "an object",
        Value::Array(_) => "a list",
        _ => "a value that is not an object",
    }
}

/// The first value that is not null, else null.
fn first_present(values: &[&Value]) -> Value {
    values
        .iter()
        .find(|value| !value.is_null())
        .map_or(Value::Null, |value| (*value).clone())
}

fn per_second(count: f64, elapsed_s: f64) -> f64 {
    if elapsed_s > 0.0 {
        count / elapsed_s
    } else {
        0.0
    }
}

/// Maps of counts added key by key (a zero kept), keys in the order they first appear.
fn counts(maps: &[&Value], what: &str) -> Result<Ordered, MergeError> {
    let mut keys: Vec<String> = Vec::new();
    let mut terms: Vec<Vec<&Value>> = Vec::new();
    for map in maps {
        let map = map
            .as_object()
            .ok_or_else(|| MergeError::mismatch(format!("{what} is not an object")))?;
        for (key, count) in map {
            match keys.iter().position(|known| known == key) {
                Some(at) => terms[at].push(count),
                None => {
                    keys.push(key.clone());
                    terms.push(vec![count]);
                }
            }
        }
    }
    let mut total = Ordered::default();
    for (key, values) in keys.into_iter().zip(terms) {
        total.push(key, sum(values, what)?);
    }
    Ok(total)
}

fn options(documents: &[&Value]) -> Result<Value, MergeError> {
    let each = field(documents, "options")?;
    let mut merged = each[0].clone();
    let object = merged
        .as_object_mut()
        .ok_or_else(|| MergeError::mismatch("options is not an object".to_string()))?;
    let requests = member(&each, "requests")?;
    object.insert(
        "concurrency".into(),
        sum(member(&each, "concurrency")?, "concurrency")?,
    );
    object.insert("threads".into(), sum(member(&each, "threads")?, "threads")?);
    let requests = if requests.iter().any(|r| r.is_null()) {
        Value::Null
    } else {
        sum(requests, "requests")?
    };
    object.insert("requests".into(), requests);
    Ok(merged)
}

/// The uncorrected latency merged, for clients that all ran the open loop (`--rate`); None
/// for clients that all ran the closed loop. A mix is not one load.
fn open_loop(documents: &[&Value]) -> Result<Option<(LatencySummary, String)>, MergeError> {
    let open: Vec<bool> = documents.iter().map(|d| !d["rate"].is_null()).collect();
    if !open.contains(&true) {
        return Ok(None);
    }
    if open.contains(&false) {
        return Err(MergeError::Input(
            "the clients ran open loops and closed loops (--rate and not): their latencies are \
             not measured alike and do not merge"
                .to_string(),
        ));
    }
    merged_latency(
        &field(documents, "latency_uncorrected_us")?,
        &field(documents, "latency_uncorrected_histogram_us")?,
    )
    .map(Some)
}

fn rate(documents: &[&Value], elapsed_s: f64) -> Result<Rate, MergeError> {
    let rates = field(documents, "rate")?;
    // Each client's requests sent: its achieved rate over its own interval.
    let mut sent = 0.0;
    for (rate, document) in rates.iter().zip(documents) {
        let achieved = python_numbers::Number::of(&rate["achieved_per_s"], "achieved_per_s")?;
        let elapsed = python_numbers::Number::of(&document["elapsed_s"], "elapsed_s")?;
        sent += achieved.as_f64() * elapsed.as_f64();
    }
    Ok(Rate {
        target_per_s: sum(member(&rates, "target_per_s")?, "target_per_s")?,
        // Python's round(): half to even.
        achieved_per_s: per_second(sent.round_ties_even(), elapsed_s),
        scheduled_requests: sum(member(&rates, "scheduled_requests")?, "scheduled_requests")?,
        unsent_requests: sum(member(&rates, "unsent_requests")?, "unsent_requests")?,
        late_starts: sum(member(&rates, "late_starts")?, "late_starts")?,
        late_threshold_us: python_numbers::max(
            member(&rates, "late_threshold_us")?,
            "late_threshold_us",
        )?,
        max_lateness_us: python_numbers::max(
            member(&rates, "max_lateness_us")?,
            "max_lateness_us",
        )?,
    })
}

fn tls(each: &[&Value]) -> Result<Option<Tls>, MergeError> {
    let each: Vec<&Value> = each.iter().copied().filter(|t| !t.is_null()).collect();
    if each.is_empty() {
        return Ok(None);
    }
    let first_truthy = |name: &str| -> Result<Value, MergeError> {
        Ok(member(&each, name)?
            .into_iter()
            .find(|value| truthy(value))
            .cloned()
            .unwrap_or(Value::Null))
    };
    Ok(Some(Tls {
        protocol: first_truthy("protocol")?,
        cipher_suite: first_truthy("cipher_suite")?,
        handshakes_full: sum(member(&each, "handshakes_full")?, "handshakes_full")?,
        handshakes_resumed: sum(member(&each, "handshakes_resumed")?, "handshakes_resumed")?,
    }))
}

/// Each path's figures over the clients that requested it, in the order paths appear.
fn by_url(documents: &[&Value]) -> Result<Vec<UrlFigures>, MergeError> {
    let mut paths: Vec<&Value> = Vec::new();
    let mut urls: Vec<Vec<&Value>> = Vec::new();
    for document in documents {
        let list = document["by_url"]
            .as_array()
            .ok_or_else(|| MergeError::mismatch("by_url is not a list".to_string()))?;
        for url in list {
            let path = url
                .get("path")
                .ok_or_else(|| MergeError::mismatch("a by_url entry has no 'path'".to_string()))?;
            match paths.iter().position(|known| *known == path) {
                Some(at) => urls[at].push(url),
                None => {
                    paths.push(path);
                    urls.push(vec![url]);
                }
            }
        }
    }
    let mut merged = Vec::new();
    for (path, urls) in paths.into_iter().zip(urls) {
        let (latency_us, latency_histogram_us) = merged_latency(
            &member(&urls, "latency_us")?,
            &member(&urls, "latency_histogram_us")?,
        )?;
        merged.push(UrlFigures {
            path: path.clone(),
            weight: member(&urls, "weight")?[0].clone(),
            requests_completed: sum_ints(
                member(&urls, "requests_completed")?,
                "requests_completed",
            )?,
            requests_failed: sum_ints(member(&urls, "requests_failed")?, "requests_failed")?,
            document_length_bytes: first_present(&member(&urls, "document_length_bytes")?),
            latency_us,
            latency_histogram_us,
        });
    }
    Ok(merged)
}
