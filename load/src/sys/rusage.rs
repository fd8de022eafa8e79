//! The client's own CPU time.

use std::time::Duration;

/// User and system CPU time of this process (all threads) so far.
pub fn cpu_times() -> (Duration, Duration) {
    // SAFETY: getrusage fills the zeroed struct; RUSAGE_SELF cannot fail.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let to_duration = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    (to_duration(usage.ru_utime), to_duration(usage.ru_stime))
}
