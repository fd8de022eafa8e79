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
    #[error(
        "source address {source_address} and server {server} are not of the same IP family; \
         give source addresses of the server's family"
    )]
    SourceFamily {
        source_address: std::net::IpAddr,
        server: std::net::SocketAddr,
    },
    #[error(
        "cannot use source address {source_address}: {error}; give addresses of this machine \
         (all of 127.0.0.0/8 is local)"
    )]
    SourceAddress {
        source_address: std::net::IpAddr,
        error: io::Error,
    },
    #[error("{0}")]
    Tls(crate::tls::TlsError),
    #[error(
        "--io io_uring drives plain http:// runs in the closed loop; leave out --io \
         (epoll) with https:// or --rate"
    )]
    IoUringUnsuitable,
    #[error("--batch-wait gathers io_uring's completions; add --io io_uring")]
    BatchWaitNeedsIoUring,
    #[error("--batch-wait cannot be kept here: {0}; leave out --batch-wait")]
    BatchWaitUnavailable(String),
    #[error("io_uring is not available here: {0}; leave out --io (epoll)")]
    IoUringUnavailable(String),
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
