//! Errors that end a run, each with a message that says what to do.
//!
//! Bad arguments never get here: clap reports them and exits with status 2.

use std::io;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot resolve {host}:{port}: {source}; check the host in the URL")]
    Resolve {
        host: String,
        port: u16,
        source: io::Error,
    },
    #[error("cannot set up the signal handlers: {0}")]
    Signals(io::Error),
    #[error("the event loop failed: {0}")]
    EventLoop(io::Error),
    #[error(
        "cannot write the JSON to {path}: {source}; check that its directory exists and is writable"
    )]
    WriteJson { path: String, source: io::Error },
    #[error("cannot write the report to stdout: {0}")]
    Stdout(io::Error),
    /// The run went through (the report and JSON are written) but nothing answered.
    #[error("no response from {target}: {first_error}")]
    NoResponse { target: String, first_error: String },
}
