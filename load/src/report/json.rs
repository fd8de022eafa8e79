//! The JSON document: the contract described by `schema/load-result.schema.json`.
//!
//! History of `version`: 1, the first; fields added since, without a version change:
//! `connection_times_us`, `sent_bytes`, `client_busiest_thread_cpu_fraction`, `client_io_engine`, and in
//! `options`: `headers`, `body_bytes`, `content_type`, `variable_length` (and `method` may
//! be other than GET); `rate`, `latency_uncorrected_us` and `options.rate_per_s` (the open
//! loop; null in the closed loop); `tls` (null for http://), `options.tls_verify`,
//! `options.tls_protocol` and `options.source_addresses`; `by_url` and `options.urls`
//! (`--urls`; `by_url` is empty for a run of one URL); `options.batch_wait_us`.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};

use serde::Serialize;

use crate::cli::{JsonTarget, Options};
use crate::error::Error;
use crate::results::{RateResults, Results, TlsResults, UrlResults};
use crate::stats::latency::LatencySummary;
use crate::stats::phases::PhaseSummary;
use crate::tls::Trust;

pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Serialize)]
pub struct Document<'a> {
    pub version: u32,
    pub generator: Generator,
    pub options: OptionsDocument<'a>,
    pub server_software: Option<&'a str>,
    pub document_length_bytes: Option<u64>,
    pub elapsed_s: f64,
    pub requests_completed: u64,
    pub requests_failed: u64,
    pub non_2xx_responses: u64,
    pub keep_alive_requests: u64,
    pub stale_connection_retries: u64,
    pub failures: FailuresDocument,
    pub status_counts: BTreeMap<String, u64>,
    pub errors_by_kind: &'a BTreeMap<String, u64>,
    pub total_transferred_bytes: u64,
    pub html_transferred_bytes: u64,
    pub requests_per_s: f64,
    pub transfer_rate_bytes_per_s: f64,
    pub latency_us: LatencyDocument,
    pub client_cpu_s: CpuDocument,
    pub connection_times_us: ConnectionTimesDocument,
    pub sent_bytes: u64,
    pub client_busiest_thread_cpu_fraction: f64,
    /// `epoll` or `io_uring`.
    pub client_io_engine: &'static str,
    pub rate: Option<RateDocument>,
    pub latency_uncorrected_us: Option<LatencyDocument>,
    pub tls: Option<&'a TlsResults>,
    pub by_url: Vec<UrlDocument<'a>>,
}

#[derive(Debug, Serialize)]
pub struct UrlDocument<'a> {
    pub path: &'a str,
    pub weight: u32,
    pub requests_completed: u64,
    pub requests_failed: u64,
    pub document_length_bytes: Option<u64>,
    pub latency_us: LatencyDocument,
}

impl<'a> From<&'a UrlResults> for UrlDocument<'a> {
    fn from(url: &'a UrlResults) -> UrlDocument<'a> {
        UrlDocument {
            path: &url.path,
            weight: url.weight,
            requests_completed: url.requests_completed,
            requests_failed: url.requests_failed,
            document_length_bytes: url.document_length_bytes,
            latency_us: LatencyDocument::from(&url.latency_us),
        }
    }
}

/// One line of `--urls`.
#[derive(Debug, Serialize)]
pub struct WeightedUrlDocument<'a> {
    pub weight: u32,
    pub url: &'a str,
}

#[derive(Debug, Serialize)]
pub struct RateDocument {
    pub target_per_s: f64,
    pub achieved_per_s: f64,
    pub scheduled_requests: u64,
    pub unsent_requests: u64,
    pub late_starts: u64,
    pub late_threshold_us: u64,
    pub max_lateness_us: u64,
}

impl From<&RateResults> for RateDocument {
    fn from(rate: &RateResults) -> RateDocument {
        RateDocument {
            target_per_s: finite(rate.target_per_s),
            achieved_per_s: finite(rate.achieved_per_s),
            scheduled_requests: rate.scheduled_requests,
            unsent_requests: rate.unsent_requests,
            late_starts: rate.late_starts,
            late_threshold_us: rate.late_threshold_us,
            max_lateness_us: rate.max_lateness_us,
        }
    }
}

impl From<&LatencySummary> for LatencyDocument {
    fn from(l: &LatencySummary) -> LatencyDocument {
        LatencyDocument {
            min: l.min,
            mean: finite(l.mean),
            stdev: finite(l.stdev),
            max: l.max,
            p50: l.p50,
            p66: l.p66,
            p75: l.p75,
            p80: l.p80,
            p90: l.p90,
            p95: l.p95,
            p98: l.p98,
            p99: l.p99,
            p99_9: l.p99_9,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct Generator {
    pub name: &'static str,
    pub version: &'static str,
}

#[derive(Debug, Serialize)]
pub struct OptionsDocument<'a> {
    pub url: &'a str,
    pub method: &'a str,
    pub concurrency: usize,
    pub threads: usize,
    pub keep_alive: bool,
    pub requests: Option<u64>,
    pub duration_s: Option<f64>,
    pub warmup_s: f64,
    pub timeout_s: f64,
    pub headers: Vec<String>,
    pub body_bytes: usize,
    pub content_type: Option<&'a str>,
    pub variable_length: bool,
    pub rate_per_s: Option<f64>,
    pub batch_wait_us: Option<u32>,
    pub source_addresses: Vec<String>,
    /// Whether the server's certificate was checked (https:// only).
    pub tls_verify: bool,
    /// ab's `-f`: `ALL`, `TLS1.2` or `TLS1.3`.
    pub tls_protocol: &'static str,
    /// Every URL of the run with its weight (the URL alone, weighing 1, without `--urls`).
    pub urls: Vec<WeightedUrlDocument<'a>>,
}

#[derive(Debug, Serialize)]
pub struct FailuresDocument {
    pub connect: u64,
    pub receive: u64,
    pub length: u64,
    pub exceptions: u64,
}

#[derive(Debug, Serialize)]
pub struct LatencyDocument {
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

#[derive(Debug, Serialize)]
pub struct ConnectionTimesDocument {
    pub connect: PhaseDocument,
    pub processing: PhaseDocument,
    pub waiting: PhaseDocument,
    pub total: PhaseDocument,
}

#[derive(Debug, Serialize)]
pub struct PhaseDocument {
    pub min: u64,
    pub mean: f64,
    pub stdev: f64,
    pub median: u64,
    pub max: u64,
}

impl From<&PhaseSummary> for PhaseDocument {
    fn from(phase: &PhaseSummary) -> PhaseDocument {
        PhaseDocument {
            min: phase.min,
            mean: finite(phase.mean),
            stdev: finite(phase.stdev),
            median: phase.median,
            max: phase.max,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct CpuDocument {
    pub user: f64,
    pub system: f64,
}

/// JSON has no NaN or infinity.
fn finite(value: f64) -> f64 {
    if value.is_finite() { value } else { 0.0 }
}

impl<'a> Document<'a> {
    pub fn new(options: &'a Options, results: &'a Results) -> Document<'a> {
        let l = &results.latency_us;
        let f = &results.failures;
        Document {
            version: SCHEMA_VERSION,
            generator: Generator {
                name: env!("CARGO_PKG_NAME"),
                version: env!("CARGO_PKG_VERSION"),
            },
            options: OptionsDocument {
                url: &options.url.text,
                method: &options.method,
                concurrency: options.concurrency,
                threads: options.threads,
                keep_alive: options.keep_alive,
                requests: options.requests,
                duration_s: options.duration.map(|d| d.as_secs_f64()),
                warmup_s: options.warmup.as_secs_f64(),
                timeout_s: options.timeout.as_secs_f64(),
                headers: options.headers.iter().map(ToString::to_string).collect(),
                body_bytes: options.body.as_ref().map_or(0, |body| body.bytes.len()),
                content_type: options.body.as_ref().map(|body| body.content_type.as_str()),
                variable_length: options.variable_length,
                rate_per_s: options.rate_per_s,
                batch_wait_us: options.batch_wait_us,
                source_addresses: options
                    .source_addresses
                    .iter()
                    .map(ToString::to_string)
                    .collect(),
                tls_verify: options.tls.trust != Trust::Anything,
                tls_protocol: options.tls.versions.name(),
                urls: options
                    .urls
                    .iter()
                    .map(|weighted| WeightedUrlDocument {
                        weight: weighted.weight,
                        url: &weighted.url.text,
                    })
                    .collect(),
            },
            server_software: results.server_software.as_deref(),
            document_length_bytes: results.document_length_bytes,
            elapsed_s: finite(results.elapsed_s),
            requests_completed: results.requests_completed,
            requests_failed: results.requests_failed(),
            non_2xx_responses: results.non_2xx_responses,
            keep_alive_requests: results.keep_alive_requests,
            stale_connection_retries: results.stale_connection_retries,
            failures: FailuresDocument {
                connect: f.connect,
                receive: f.receive,
                length: f.length,
                exceptions: f.exceptions,
            },
            status_counts: results
                .status_counts
                .iter()
                .map(|(status, count)| (status.to_string(), *count))
                .collect(),
            errors_by_kind: &results.errors_by_kind,
            total_transferred_bytes: results.total_transferred_bytes,
            html_transferred_bytes: results.html_transferred_bytes,
            requests_per_s: finite(results.requests_per_s()),
            transfer_rate_bytes_per_s: finite(results.transfer_rate_bytes_per_s()),
            latency_us: LatencyDocument::from(l),
            client_cpu_s: CpuDocument {
                user: finite(results.client_cpu_user_s),
                system: finite(results.client_cpu_system_s),
            },
            connection_times_us: ConnectionTimesDocument {
                connect: (&results.connection_times_us.connect).into(),
                processing: (&results.connection_times_us.processing).into(),
                waiting: (&results.connection_times_us.waiting).into(),
                total: (&results.connection_times_us.total).into(),
            },
            sent_bytes: results.sent_bytes,
            client_busiest_thread_cpu_fraction: finite(results.client_busiest_thread_cpu_fraction),
            client_io_engine: results.client_io_engine,
            rate: results.rate.as_ref().map(RateDocument::from),
            latency_uncorrected_us: results
                .latency_uncorrected_us
                .as_ref()
                .map(LatencyDocument::from),
            tls: results.tls.as_ref(),
            by_url: results.by_url.iter().map(UrlDocument::from).collect(),
        }
    }
}

/// Writes the document, pretty-printed, to stdout or to a file (whole or not at all: it is
/// written beside the file and renamed over it).
pub fn write(target: &JsonTarget, options: &Options, results: &Results) -> Result<(), Error> {
    let document = Document::new(options, results);
    let mut text = serde_json::to_vec_pretty(&document).expect("the document serializes");
    text.push(b'\n');
    match target {
        JsonTarget::Stdout => io::stdout().lock().write_all(&text).map_err(Error::Stdout),
        JsonTarget::File(path) => {
            let partial = format!("{path}.partial");
            fs::write(&partial, &text)
                .and_then(|()| fs::rename(&partial, path))
                .map_err(|source| {
                    let _ = fs::remove_file(&partial);
                    Error::WriteJson {
                        path: path.clone(),
                        source,
                    }
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::text::tests::sample;

    #[test]
    fn field_names_and_order() {
        let (options, results) = sample();
        let value = serde_json::to_value(Document::new(&options, &results)).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        // serde_json's map is sorted unless preserve_order: compare as sets.
        let mut expected = vec![
            "version",
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
            "requests_per_s",
            "transfer_rate_bytes_per_s",
            "latency_us",
            "client_cpu_s",
            "connection_times_us",
            "sent_bytes",
            "client_busiest_thread_cpu_fraction",
            "client_io_engine",
            "rate",
            "latency_uncorrected_us",
            "tls",
            "by_url",
        ];
        expected.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(keys, expected);
        assert_eq!(value["version"], 1);
        assert_eq!(value["status_counts"]["500"], 2);
        assert_eq!(value["options"]["requests"], 1000);
        assert_eq!(value["options"]["duration_s"], serde_json::Value::Null);
        assert_eq!(value["requests_per_s"], 2000.0);
        assert_eq!(value["latency_us"]["p99_9"], 9000);
        assert_eq!(value["requests_failed"], 1);
        assert_eq!(value["options"]["method"], "GET");
        assert_eq!(value["options"]["headers"], serde_json::json!([]));
        assert_eq!(value["options"]["content_type"], serde_json::Value::Null);
        assert_eq!(value["connection_times_us"]["processing"]["median"], 4_400);
        assert_eq!(value["connection_times_us"]["total"]["max"], 12_400);
        assert_eq!(value["sent_bytes"], 90_000);
    }
}
