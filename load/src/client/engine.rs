//! Which engine drives a thread's sockets: epoll's readiness, or io_uring's completions.

use super::ring::Ring;
use crate::error::Error;

/// `--io`: the engine a run uses.
///
/// epoll is the default: on the 2-vCPU machines this project measures on, io_uring's batched
/// submissions cost no less CPU per request (the kernel's TCP work, not system call entry,
/// dominates there; see load/README.md), and epoll serves every kind of run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum IoEngine {
    Epoll,
    #[value(name = "io_uring")]
    IoUring,
}

impl IoEngine {
    pub fn name(self) -> &'static str {
        match self {
            IoEngine::Epoll => "epoll",
            IoEngine::IoUring => "io_uring",
        }
    }
}

/// Checks that `engine` can run: io_uring drives plain `http://` runs in the closed loop (TLS
/// and `--rate` are epoll's), on a kernel that has multishot receive and lets us use it, and
/// `--batch-wait` (microseconds) is io_uring's, on a kernel that can bound it.
pub fn check(
    engine: IoEngine,
    plain_closed_loop: bool,
    batch_wait_us: Option<u32>,
) -> Result<IoEngine, Error> {
    match engine {
        IoEngine::Epoll if batch_wait_us.is_some() => Err(Error::BatchWaitNeedsIoUring),
        IoEngine::Epoll => Ok(engine),
        IoEngine::IoUring if !plain_closed_loop => Err(Error::IoUringUnsuitable),
        IoEngine::IoUring => {
            let batch_wait = Ring::available().map_err(Error::IoUringUnavailable)?;
            if batch_wait_us.is_some() {
                batch_wait.map_err(Error::BatchWaitUnavailable)?;
            }
            Ok(engine)
        }
    }
}
