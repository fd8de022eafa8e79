//! A timerfd for the open loop: wakes the event loop at a due time with nanosecond precision
//! (epoll's own timeout counts whole milliseconds), and the thread's timer slack set to the
//! minimum so that the kernel does not defer the wake-up by its default 50 µs.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

#[derive(Debug)]
pub struct Timer {
    fd: OwnedFd,
}

impl Timer {
    pub fn new() -> io::Result<Timer> {
        // SAFETY: plain system calls; the fd is owned from here on.
        let fd = unsafe {
            libc::timerfd_create(
                libc::CLOCK_MONOTONIC,
                libc::TFD_NONBLOCK | libc::TFD_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: PR_SET_TIMERSLACK takes a value, applies to the calling thread only.
        unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
        // SAFETY: fd is a new descriptor that nothing else owns.
        Ok(Timer {
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
        })
    }

    /// Fires once, `after` from now (at least 1 ns: zero would disarm it).
    pub fn arm(&self, after: Duration) -> io::Result<()> {
        let after = after.max(Duration::from_nanos(1));
        let spec = libc::itimerspec {
            it_interval: libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            },
            it_value: libc::timespec {
                tv_sec: after.as_secs() as libc::time_t,
                tv_nsec: libc::c_long::from(after.subsec_nanos() as i32),
            },
        };
        // SAFETY: spec is a valid itimerspec; the old value is not wanted.
        let result =
            unsafe { libc::timerfd_settime(self.fd.as_raw_fd(), 0, &spec, std::ptr::null_mut()) };
        if result == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    /// Consumes the expirations, so that the next one is a new event.
    pub fn clear(&self) {
        let mut expirations = [0u8; 8];
        // SAFETY: reads at most 8 bytes into a buffer of 8; EAGAIN (not expired) is fine.
        unsafe {
            libc::read(
                self.fd.as_raw_fd(),
                expirations.as_mut_ptr().cast(),
                expirations.len(),
            )
        };
    }
}

impl AsRawFd for Timer {
    fn as_raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}
