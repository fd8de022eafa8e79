//! The run: one event loop per thread, each with its share of the connections and of `-n`,
//! merged once at the end.

pub mod connection;
pub mod schedule;
#[cfg(test)]
mod schedule_simulation;
pub mod worker;

use std::io;
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use crate::plan::Plan;
use crate::stats::recorder::Recorder;
use schedule::ClosedLoop;
use worker::{Shared, ThreadResult, Worker};

/// What the threads did, merged.
#[derive(Debug)]
pub struct RunOutput {
    pub recorder: Recorder,
    /// From the end of the warm-up to the end of the run (at most the time limit).
    pub elapsed: Duration,
    pub responses_seen: u64,
    pub server_software: Option<String>,
    pub document_length_bytes: Option<u64>,
    pub first_error: Option<String>,
}

pub fn run(plan: &Plan) -> io::Result<RunOutput> {
    let shared = Shared {
        address: plan.address,
        request: plan.request.clone(),
        keep_alive: plan.keep_alive,
        timeout: plan.timeout,
        document_length: OnceLock::new(),
    };
    let start = Instant::now();
    let warmup_end = start + plan.warmup;
    let deadline = plan.duration.map(|duration| warmup_end + duration);
    let results: Vec<io::Result<ThreadResult>> = thread::scope(|scope| {
        let handles: Vec<_> = plan
            .shares
            .iter()
            .map(|share| {
                let shared = &shared;
                let schedule = ClosedLoop::new(warmup_end, deadline, share.requests);
                thread::Builder::new()
                    .name("layerbench-load-worker".to_string())
                    .spawn_scoped(scope, move || {
                        Worker::new(shared, share.connections, schedule)?.run()
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle?
                    .join()
                    .unwrap_or_else(|_| Err(io::Error::other("a worker thread panicked")))
            })
            .collect()
    });
    let threads = results.into_iter().collect::<io::Result<Vec<_>>>()?;
    Ok(merge(
        threads,
        warmup_end,
        deadline,
        shared.document_length.get().copied(),
    ))
}

fn merge(
    threads: Vec<ThreadResult>,
    warmup_end: Instant,
    deadline: Option<Instant>,
    document_length_bytes: Option<u64>,
) -> RunOutput {
    let mut recorder = Recorder::default();
    let mut ended = warmup_end;
    let mut first_response: Option<(Instant, Option<String>)> = None;
    let mut first_error: Option<(Instant, String)> = None;
    let mut responses_seen = 0;
    for thread in threads {
        recorder.merge(&thread.recorder);
        ended = ended.max(thread.ended);
        responses_seen += thread.responses_seen;
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
        server_software: first_response.and_then(|(_, server)| server),
        document_length_bytes,
        first_error: first_error.map(|(_, description)| description),
    }
}
