//! The JSON document: the contract described by `schema/load-result.schema.json`, written by
//! serde from the results types themselves (`results.rs`, whose field names are the JSON's),
//! after the version, the generator and the options. The tests take the keys from the schema.
//!
//! History of `version`: 1, the first; fields added since, without a version change:
//! `connection_times_us`, `sent_bytes`, `client_busiest_thread_cpu_fraction`, `client_io_engine`, and in
//! `options`: `headers`, `body_bytes`, `content_type`, `variable_length` (and `method` may
//! be other than GET); `rate`, `latency_uncorrected_us` and `options.rate_per_s` (the open
//! loop; null in the closed loop); `tls` (null for http://), `options.tls_verify`,
//! `options.tls_protocol` and `options.source_addresses`; `by_url` and `options.urls`
//! (`--urls`; `by_url` is empty for a run of one URL); `options.batch_wait_us`.
//! 2: `latency_histogram_us`, the latency histogram in HdrHistogram's interchange encoding
//! (V2 compressed, base64), so that the runs of several clients add up exactly. A reader of
//! version 1 documents reads version 2's other fields unchanged.
//! 3: every latency histogram encoded so: `latency_uncorrected_histogram_us` (with `--rate`,
//! else null), `connection_histograms_us` (connect, processing, waiting) and each `by_url`
//! entry's `latency_histogram_us`; and `clients`, empty here: the merge of several clients'
//! documents into one document of this schema (`layerbench-load merge`) lists them there. Version 2's other
//! fields are unchanged.

use std::fs;
use std::io::{self, Write};

use serde::Serialize;

use crate::cli::{JsonTarget, Options};
use crate::error::Error;
use crate::results::Results;
use crate::tls::Trust;

pub const SCHEMA_VERSION: u32 = 3;

/// The version, the generator and the options, then the results' own fields (`Results`'s
/// serde form), then `clients`: none, this document is one client's run.
#[derive(Debug, Serialize)]
pub struct Document<'a> {
    pub version: u32,
    pub generator: Generator,
    pub options: OptionsDocument<'a>,
    #[serde(flatten)]
    pub results: &'a Results,
    /// The documents a merged document was made of (`merge` writes them); always empty here.
    pub clients: [(); 0],
}

#[derive(Debug, Serialize)]
pub struct Generator {
    pub name: &'static str,
    pub version: &'static str,
}

/// The run's options as given (threads: as used).
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

/// One line of `--urls`.
#[derive(Debug, Serialize)]
pub struct WeightedUrlDocument<'a> {
    pub weight: u32,
    pub url: &'a str,
}

impl<'a> OptionsDocument<'a> {
    pub fn new(options: &'a Options) -> OptionsDocument<'a> {
        OptionsDocument {
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
        }
    }
}

impl<'a> Document<'a> {
    pub fn new(options: &'a Options, results: &'a Results) -> Document<'a> {
        Document {
            version: SCHEMA_VERSION,
            generator: Generator {
                name: env!("CARGO_PKG_NAME"),
                version: env!("CARGO_PKG_VERSION"),
            },
            options: OptionsDocument::new(options),
            results,
            clients: [],
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
    use crate::results::{RateResults, TlsResults, UrlResults};
    use serde_json::Value;

    const SCHEMA: &str = include_str!("../../schema/load-result.schema.json");

    /// The keys of every object in `value` are those its schema declares (and checks the
    /// objects inside, through `properties` and `items`).
    fn assert_keys_declared(value: &Value, schema: &Value, path: &str) {
        if let (Some(object), Some(declared)) = (
            value.as_object(),
            schema.get("properties").and_then(Value::as_object),
        ) {
            let keys: Vec<&String> = object.keys().collect();
            let declared: Vec<&String> = declared.keys().collect();
            // serde_json's map is sorted (no preserve_order): compared as sets.
            assert_eq!(keys, declared, "keys of {path}");
            for (name, item) in object {
                assert_keys_declared(item, &schema["properties"][name], &format!("{path}/{name}"));
            }
        }
        for (index, item) in value.as_array().into_iter().flatten().enumerate() {
            assert_keys_declared(item, &schema["items"], &format!("{path}/{index}"));
        }
    }

    #[test]
    fn field_names_are_the_schemas() {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap();
        let (options, mut results) = sample();
        let value = serde_json::to_value(Document::new(&options, &results)).unwrap();
        assert_keys_declared(&value, &schema, "");
        // The optional parts too: the open loop's, TLS's and --urls' figures.
        results.rate = Some(RateResults {
            target_per_s: 1000.0,
            achieved_per_s: 990.0,
            scheduled_requests: 500,
            unsent_requests: 5,
            late_starts: 2,
            late_threshold_us: 1000,
            max_lateness_us: 3000,
        });
        results.latency_uncorrected_us = Some(results.latency_us);
        results.latency_uncorrected_histogram_us = Some(String::new());
        results.tls = Some(TlsResults {
            protocol: Some("TLSv1.3".to_string()),
            cipher_suite: Some("TLS13_AES_256_GCM_SHA384".to_string()),
            handshakes_full: 1,
            handshakes_resumed: 9,
        });
        results.by_url = vec![UrlResults {
            path: "/hello.txt".to_string(),
            weight: 1,
            requests_completed: 1000,
            requests_failed: 1,
            document_length_bytes: Some(13),
            latency_us: results.latency_us,
            latency_histogram_us: String::new(),
        }];
        let value = serde_json::to_value(Document::new(&options, &results)).unwrap();
        assert_keys_declared(&value, &schema, "");
        for name in ["rate", "latency_uncorrected_us", "tls"] {
            assert!(value[name].is_object(), "{name}");
        }
        assert!(value["latency_uncorrected_histogram_us"].is_string());
        assert_eq!(value["by_url"][0]["latency_us"]["p99"], 7_000);
    }

    #[test]
    fn values() {
        let (options, results) = sample();
        let value = serde_json::to_value(Document::new(&options, &results)).unwrap();
        assert_eq!(value["version"], 3);
        assert_eq!(value["clients"], serde_json::json!([]));
        assert_eq!(value["generator"]["name"], "layerbench-load");
        assert_eq!(value["status_counts"]["500"], 2);
        assert_eq!(value["options"]["requests"], 1000);
        assert_eq!(value["options"]["duration_s"], Value::Null);
        assert_eq!(value["requests_per_s"], 2000.0);
        assert_eq!(value["latency_us"]["p99_9"], 9000);
        assert_eq!(value["requests_failed"], 1);
        assert_eq!(value["options"]["method"], "GET");
        assert_eq!(value["options"]["headers"], serde_json::json!([]));
        assert_eq!(value["options"]["content_type"], Value::Null);
        assert_eq!(value["connection_times_us"]["processing"]["median"], 4_400);
        assert_eq!(value["connection_times_us"]["total"]["max"], 12_400);
        assert_eq!(value["sent_bytes"], 90_000);
        assert_eq!(
            value["client_cpu_s"],
            serde_json::json!({"user": 0.1, "system": 0.2})
        );
        assert_eq!(value["client_io_engine"], "io_uring");
        for skipped in ["responses_seen", "reached_the_server", "first_error"] {
            assert!(
                value.get(skipped).is_none(),
                "{skipped} is not in the contract"
            );
        }
    }

    #[test]
    fn json_has_no_nan_nor_infinity() {
        let (options, mut results) = sample();
        results.latency_us.mean = f64::NAN;
        results.connection_times_us.waiting.stdev = f64::INFINITY;
        results.client_busiest_thread_cpu_fraction = f64::NAN;
        let value = serde_json::to_value(Document::new(&options, &results)).unwrap();
        assert_eq!(value["latency_us"]["mean"], 0.0);
        assert_eq!(value["connection_times_us"]["waiting"]["stdev"], 0.0);
        assert_eq!(value["client_busiest_thread_cpu_fraction"], 0.0);
    }
}
