//! SIGINT, SIGTERM and SIGHUP (a closed terminal, a dropped SSH session) set a stop flag that
//! every event loop checks once per iteration: the run ends early and still reports.
//!
//! The handler is installed with `SA_RESETHAND`: a second Ctrl-C kills the process at once.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_signal: libc::c_int) {
    STOP.store(true, Ordering::Relaxed);
}

/// Installs the handler for SIGINT, SIGTERM and SIGHUP.
pub fn install() -> std::io::Result<()> {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction is valid; the handler only stores to an atomic, which is
        // async-signal-safe.
        let result = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if result != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Whether a stop was asked for.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}
