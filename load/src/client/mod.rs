//! The run: one event loop per thread, each with its share of the connections and of `-n`,
//! merged once at the end.

pub mod connection;
pub mod counting;
#[cfg(test)]
mod counting_simulation;
pub mod dial;
pub mod engine;
pub mod open_loop;
pub mod pacing;
pub mod progress;
pub mod ring;
pub mod ring_socket;
pub mod schedule;
pub mod transport;
pub mod worker;

use std::io;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::{Duration, Instant};

use crate::plan::Plan;
use crate::stats::recorder::Recorder;
use counting::Counting;
use engine::IoEngine;
use pacing::{Pacer, PacingStats};
use progress::ProgressCounter;
use schedule::Schedule;
use transport::Handshake;
use worker::{Shared, ThreadResult, Worker};

/// What the threads did, merged.
#[derive(Debug)]
pub struct RunOutput {
    pub recorder: Recorder,
    /// From the end of the warm-up to the end of the run (at most the time limit).
    pub elapsed: Duration,
    pub responses_seen: u64,
    /// A TCP connection was made at least once, the warm-up's included.
    pub reached_the_server: bool,
    pub server_software: Option<String>,
    /// Each URL's Document Length (ab's, the body length of its first 2xx response), in the
    /// order of the list; the first is the run's.
    pub document_lengths_bytes: Vec<Option<u64>>,
    pub first_error: Option<String>,
    /// The highest ratio of a thread's CPU time to its wall time: near 1, the client was busy
    /// all the time and may be what limits the measurement.
    pub busiest_thread_cpu_fraction: f64,
    /// With `--rate`: how the sends kept to the schedule.
    pub pacing: Option<PacingStats>,
    /// The run's first TLS handshake: the protocol and suite the server agreed to.
    pub first_handshake: Option<Handshake>,
    pub io_engine: IoEngine,
}

pub fn run(plan: &Plan) -> io::Result<RunOutput> {
    let shared = Shared {
        dialer: dial::Dialer::new(
            plan.address,
            plan.source_addresses.clone(),
            plan.tls.clone(),
        ),
        targets: plan.targets.clone(),
        keep_alive: plan.keep_alive,
        timeout: plan.timeout,
        document_lengths: plan
            .targets
            .targets()
            .iter()
            .map(|_| OnceLock::new())
            .collect(),
        variable_length: plan.variable_length,
        bodiless_responses: plan.bodiless_responses,
        show_first_response: AtomicBool::new(plan.verbose),
    };
    let counters: Vec<ProgressCounter> = plan
        .shares
        .iter()
        .map(|_| ProgressCounter::default())
        .collect();
    let done = AtomicBool::new(false);
    let start = Instant::now();
    let warmup_end = start + plan.warmup;
    let deadline = plan.duration.map(|duration| warmup_end + duration);
    let total_connections: usize = plan.shares.iter().map(|share| share.connections).sum();
    let threads = plan.shares.len();
    let results: Vec<io::Result<ThreadResult>> = thread::scope(|scope| {
        let progress = plan
            .progress
            .then(|| scope.spawn(|| progress::show(&counters, warmup_end, &done)));
        let handles: Vec<_> = plan
            .shares
            .iter()
            .zip(&counters)
            .enumerate()
            .map(|(index, (share, counter))| {
                let shared = &shared;
                let counting = Counting::new(warmup_end, deadline, share.requests);
                // Each thread paces its share of the rate, its schedule offset from the
                // others' so that their sends interleave instead of coinciding.
                let pacer = plan.rate_per_s.map(|rate| {
                    let mine = rate * share.connections as f64 / total_connections as f64;
                    let offset = Duration::from_secs_f64(index as f64 / threads as f64 / mine);
                    Pacer::new(start + offset, mine)
                });
                thread::Builder::new()
                    .name("layerbench-load-worker".to_string())
                    .spawn_scoped(scope, move || {
                        let cursor = shared.targets.cursor(index, threads);
                        let schedule = Schedule::new(counting, pacer)?;
                        let mut worker = Worker::new(shared, share.connections, schedule, cursor)?
                            .with_progress(counter);
                        if plan.io_engine == IoEngine::IoUring {
                            worker = worker.with_ring(plan.batch_wait_us)?;
                        }
                        worker.run()
                    })
            })
            .collect();
        let results = handles
            .into_iter()
            .map(|handle| {
                handle?
                    .join()
                    .unwrap_or_else(|_| Err(io::Error::other("a worker thread panicked")))
            })
            .collect();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(progress) = progress {
            progress.thread().unpark();
        }
        results
    });
    let threads = results.into_iter().collect::<io::Result<Vec<_>>>()?;
    Ok(RunOutput {
        io_engine: plan.io_engine,
        document_lengths_bytes: shared
            .document_lengths
            .iter()
            .map(|length| length.get().copied())
            .collect(),
        ..merge(threads, warmup_end, deadline)
    })
}

fn merge(threads: Vec<ThreadResult>, warmup_end: Instant, deadline: Option<Instant>) -> RunOutput {
    let mut recorder = Recorder::default();
    let mut ended = warmup_end;
    let mut first_response: Option<(Instant, Option<String>)> = None;
    let mut first_error: Option<(Instant, String)> = None;
    let mut responses_seen = 0;
    let mut reached_the_server = false;
    let mut busiest_thread_cpu_fraction: f64 = 0.0;
    let mut pacing: Option<PacingStats> = None;
    let mut first_handshake: Option<(Instant, Handshake)> = None;
    for thread in threads {
        if let Some(handshake) = thread.first_handshake
            && first_handshake
                .as_ref()
                .is_none_or(|first| handshake.0 < first.0)
        {
            first_handshake = Some(handshake);
        }
        if let Some(stats) = &thread.pacing {
            pacing.get_or_insert_with(PacingStats::default).merge(stats);
        }
        if !thread.wall.is_zero() {
            let fraction = thread.cpu.as_secs_f64() / thread.wall.as_secs_f64();
            busiest_thread_cpu_fraction = busiest_thread_cpu_fraction.max(fraction);
        }
        recorder.merge(&thread.recorder);
        ended = ended.max(thread.ended);
        responses_seen += thread.responses_seen;
        reached_the_server |= thread.reached_the_server;
        if let Some(response) = thread.first_response
            && first_response
                .as_ref()
                .is_none_or(|first| response.0 < first.0)
        {
            first_response = Some(response);
        }
        if let Some(error) = thread.first_error
            && first_error.as_ref().is_none_or(|first| error.0 < first.0)
        {
            first_error = Some(error);
        }
    }
    if let Some(deadline) = deadline {
        ended = ended.min(deadline);
    }
    RunOutput {
        recorder,
        elapsed: ended.saturating_duration_since(warmup_end),
        responses_seen,
        reached_the_server,
        server_software: first_response.and_then(|(_, server)| server),
        document_lengths_bytes: Vec::new(),
        first_error: first_error.map(|(_, description)| description),
        busiest_thread_cpu_fraction,
        pacing,
        first_handshake: first_handshake.map(|(_, handshake)| handshake),
        io_engine: IoEngine::Epoll,
    }
}
