//! The results of a run: plain figures, each with its unit in its name, that every
//! exporter (text, JSON) reads. Their serde form is the JSON document's body, field for field
//! and in order (the contract: `schema/load-result.schema.json`; `report/json.rs` adds the
//! version and the options).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::client::RunOutput;
use crate::client::pacing::LATE_THRESHOLD;
use crate::stats::interchange;
use crate::stats::latency::LatencySummary;
use crate::stats::phases::{PhaseSummary, summarize};
use crate::stats::recorder::Failures;
use crate::targets::Target;

#[derive(Debug, Clone, Serialize)]
pub struct Results {
    /// `Server` header of the first response.
    pub server_software: Option<String>,
    /// Body length of the first 2xx response.
    pub document_length_bytes: Option<u64>,
    /// The measured interval, after the warm-up.
    #[serde(serialize_with = "crate::json_float::finite")]
    pub elapsed_s: f64,
    /// Responses received in full, any status (length failures included, as in ab).
    pub requests_completed: u64,
    /// All failures, of every class.
    pub requests_failed: u64,
    pub non_2xx_responses: u64,
    pub keep_alive_requests: u64,
    pub stale_connection_retries: u64,
    pub failures: Failures,
    /// Responses by status code (JSON keys are strings: `"200"`).
    pub status_counts: BTreeMap<u16, u64>,
    /// Failures by kind: an errno name, `timeout`, `malformed_response`, ...
    pub errors_by_kind: BTreeMap<String, u64>,
    pub total_transferred_bytes: u64,
    pub html_transferred_bytes: u64,
    /// Completed requests per second of the measured interval; 0 when nothing was measured.
    #[serde(serialize_with = "crate::json_float::finite")]
    pub requests_per_s: f64,
    #[serde(serialize_with = "crate::json_float::finite")]
    pub transfer_rate_bytes_per_s: f64,
    pub latency_us: LatencySummary,
    /// The histogram `latency_us` was read from, in HdrHistogram's interchange encoding (V2
    /// compressed, base64; values in µs): histograms of several runs add up exactly.
    pub latency_histogram_us: String,
    pub client_cpu_s: CpuSeconds,
    /// ab's Connection Times of the completed responses, in microseconds.
    pub connection_times_us: ConnectionTimes,
    /// The histograms of `connection_times_us`' connect, processing and waiting (total's is
    /// `latency_histogram_us`), encoded as it is.
    pub connection_histograms_us: ConnectionHistograms,
    /// Bytes of requests written (heads and bodies): ab's "Total body sent".
    pub sent_bytes: u64,
    /// The highest ratio of an event-loop thread's CPU time to its wall time.
    #[serde(serialize_with = "crate::json_float::finite")]
    pub client_busiest_thread_cpu_fraction: f64,
    /// `epoll` or `io_uring`.
    pub client_io_engine: &'static str,
    /// With `--rate`: how the open loop kept to its rate.
    pub rate: Option<RateResults>,
    /// With `--rate`: latency from the actual send (`latency_us` counts from the due time).
    pub latency_uncorrected_us: Option<LatencySummary>,
    /// With `--rate`: the histogram `latency_uncorrected_us` was read from, encoded as
    /// `latency_histogram_us` is.
    pub latency_uncorrected_histogram_us: Option<String>,
    /// With `https://`: what the handshakes agreed, and how many there were.
    pub tls: Option<TlsResults>,
    /// `--urls`: each URL's figures, in the order of the list (empty for one URL).
    pub by_url: Vec<UrlResults>,
    /// Responses received, the warm-up's included: 0 means the server never answered.
    #[serde(skip)]
    pub responses_seen: u64,
    /// A TCP connection was made at least once, the warm-up's included: false means the
    /// server was never reached (refused, unreachable, or its connects timed out).
    #[serde(skip)]
    pub reached_the_server: bool,
    /// The first failure, described for the user.
    #[serde(skip)]
    pub first_error: Option<String>,
}

/// The client process's CPU time, user and system.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct CpuSeconds {
    #[serde(serialize_with = "crate::json_float::finite")]
    pub user: f64,
    #[serde(serialize_with = "crate::json_float::finite")]
    pub system: f64,
}

/// One URL of a `--urls` run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UrlResults {
    pub path: String,
    pub weight: u32,
    /// Responses received in full, any status.
    pub requests_completed: u64,
    pub requests_failed: u64,
    /// Body length of the first 2xx response to this URL.
    pub document_length_bytes: Option<u64>,
    pub latency_us: LatencySummary,
    /// The histogram `latency_us` was read from, encoded as the run's `latency_histogram_us`.
    pub latency_histogram_us: String,
}

/// The TLS figures of an `https://` run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TlsResults {
    /// `TLSv1.3`, from the first handshake (`None` if none completed).
    pub protocol: Option<String>,
    pub cipher_suite: Option<String>,
    /// Handshakes of the requests counted: with a new session, and resuming one.
    pub handshakes_full: u64,
    pub handshakes_resumed: u64,
}

/// The open loop's figures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RateResults {
    #[serde(serialize_with = "crate::json_float::finite")]
    pub target_per_s: f64,
    /// Requests sent per second in the measured interval.
    #[serde(serialize_with = "crate::json_float::finite")]
    pub achieved_per_s: f64,
    /// Requests due in the measured interval (within `-n`).
    pub scheduled_requests: u64,
    /// Of those, not sent by the end: every connection was busy.
    pub unsent_requests: u64,
    /// Requests sent more than `late_threshold_us` after they were due.
    pub late_starts: u64,
    pub late_threshold_us: u64,
    pub max_lateness_us: u64,
}

/// Below this fraction of its target, a rate was not kept: the report says so.
pub const RATE_KEPT_FRACTION: f64 = 0.99;

impl RateResults {
    pub fn kept(&self) -> bool {
        self.achieved_per_s >= self.target_per_s * RATE_KEPT_FRACTION
    }
}

/// ab's "Connection Times (ms)" table, in microseconds (see `stats::phases`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ConnectionTimes {
    pub connect: PhaseSummary,
    pub processing: PhaseSummary,
    pub waiting: PhaseSummary,
    pub total: PhaseSummary,
}

/// The phases' histograms, in HdrHistogram's interchange encoding (see `stats::interchange`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ConnectionHistograms {
    pub connect: String,
    pub processing: String,
    pub waiting: String,
}

/// Above this fraction of its wall time on the CPU, a client thread may be the bottleneck.
pub const CLIENT_BOUND_CPU_FRACTION: f64 = 0.9;

impl Results {
    pub fn new(
        output: RunOutput,
        targets: &[Target],
        target_rate_per_s: Option<f64>,
        uses_tls: bool,
        cpu_user_s: f64,
        cpu_system_s: f64,
    ) -> Results {
        let recorder = &output.recorder;
        let elapsed_s = output.elapsed.as_secs_f64();
        let rate = target_rate_per_s
            .zip(output.pacing)
            .map(|(target_per_s, pacing)| RateResults {
                target_per_s,
                achieved_per_s: per_second(pacing.sent, elapsed_s),
                scheduled_requests: pacing.scheduled,
                unsent_requests: pacing.unsent(),
                late_starts: pacing.late_starts,
                late_threshold_us: LATE_THRESHOLD.as_micros() as u64,
                max_lateness_us: pacing.max_lateness_us,
            });
        let latency_uncorrected_us = rate.map(|_| {
            LatencySummary::new(
                &recorder.uncorrected_moments,
                &recorder.uncorrected_histogram,
            )
        });
        let latency_uncorrected_histogram_us = rate
            .as_ref()
            .map(|_| interchange::encode(&recorder.uncorrected_histogram));
        let tls = uses_tls.then(|| TlsResults {
            protocol: output.first_handshake.as_ref().map(|h| h.protocol.clone()),
            cipher_suite: output
                .first_handshake
                .as_ref()
                .map(|h| h.cipher_suite.clone()),
            handshakes_full: recorder.tls_handshakes_full,
            handshakes_resumed: recorder.tls_handshakes_resumed,
        });
        let by_url = recorder
            .by_target
            .tallies
            .iter()
            .zip(targets)
            .zip(&output.document_lengths_bytes)
            .map(|((tally, target), length)| UrlResults {
                path: target.path.clone(),
                weight: target.weight,
                requests_completed: tally.completed,
                requests_failed: tally.failed,
                document_length_bytes: *length,
                latency_us: LatencySummary::new(&tally.moments, &tally.histogram),
                latency_histogram_us: interchange::encode(&tally.histogram),
            })
            .collect();
        Results {
            by_url,
            tls,
            server_software: output.server_software,
            document_length_bytes: output.document_lengths_bytes.first().copied().flatten(),
            elapsed_s,
            requests_completed: recorder.completed,
            requests_failed: recorder.failures.total(),
            requests_per_s: per_second(recorder.completed, elapsed_s),
            transfer_rate_bytes_per_s: per_second(recorder.wire_bytes, elapsed_s),
            non_2xx_responses: recorder.non_2xx,
            keep_alive_requests: recorder.keep_alive,
            stale_connection_retries: recorder.stale_retries,
            failures: recorder.failures,
            status_counts: recorder.status_counts(),
            errors_by_kind: recorder.errors_by_kind.clone(),
            total_transferred_bytes: recorder.wire_bytes,
            html_transferred_bytes: recorder.body_bytes,
            latency_us: LatencySummary::new(&recorder.moments, &recorder.histogram),
            latency_histogram_us: interchange::encode(&recorder.histogram),
            client_cpu_s: CpuSeconds {
                user: cpu_user_s,
                system: cpu_system_s,
            },
            responses_seen: output.responses_seen,
            reached_the_server: output.reached_the_server,
            first_error: output.first_error,
            connection_times_us: ConnectionTimes {
                connect: recorder.phases.connect.summary(),
                processing: recorder.phases.processing.summary(),
                waiting: recorder.phases.waiting.summary(),
                total: summarize(&recorder.moments, &recorder.histogram),
            },
            connection_histograms_us: ConnectionHistograms {
                connect: interchange::encode(recorder.phases.connect.histogram()),
                processing: interchange::encode(recorder.phases.processing.histogram()),
                waiting: interchange::encode(recorder.phases.waiting.histogram()),
            },
            sent_bytes: recorder.sent_bytes,
            client_busiest_thread_cpu_fraction: output.busiest_thread_cpu_fraction,
            rate,
            latency_uncorrected_us,
            latency_uncorrected_histogram_us,
            client_io_engine: output.io_engine.name(),
        }
    }

    /// The client's threads were busy most of the time: the server may be faster than this.
    pub fn client_bound(&self) -> bool {
        self.client_busiest_thread_cpu_fraction >= CLIENT_BOUND_CPU_FRACTION
    }
}

/// `count` per second of `elapsed_s`; 0 when nothing was measured.
fn per_second(count: u64, elapsed_s: f64) -> f64 {
    if elapsed_s > 0.0 {
        count as f64 / elapsed_s
    } else {
        0.0
    }
}
