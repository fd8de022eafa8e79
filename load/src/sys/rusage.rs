//! The client's own CPU time.

use std::time::Duration;

fn usage(who: libc::c_int) -> libc::rusage {
    // SAFETY: getrusage fills the zeroed struct; RUSAGE_SELF and RUSAGE_THREAD cannot fail.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &mut usage);
        usage
    }
}

fn to_duration(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// User and system CPU time of this process (all threads) so far.
pub fn cpu_times() -> (Duration, Duration) {
    let usage = usage(libc::RUSAGE_SELF);
    (to_duration(usage.ru_utime), to_duration(usage.ru_stime))
}

/// User plus system CPU time of the calling thread so far, to the nanosecond.
///
/// The thread's CPU clock, not `getrusage(RUSAGE_THREAD)`: the latter splits the time into user
/// and system from tick samples and keeps each part monotonic, so that the difference of two
/// readings can exceed the time between them (a 6 ms run once read 231 % busy).
pub fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime fills the timespec; the thread CPU clock always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    Duration::new(
        now.tv_sec.max(0) as u64,
        now.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_thread_has_cpu_time() {
        // Busy until its clock shows 10 ms, however long a loaded machine takes to give them
        // (a fixed 30 ms of wall time got under 10 ms of CPU on a busy 2-core machine); a
        // clock that does not move fails at the deadline.
        let before = thread_cpu_time();
        let start = std::time::Instant::now();
        let mut x = 0u64;
        while thread_cpu_time() - before < Duration::from_millis(10)
            && start.elapsed() < Duration::from_secs(10)
        {
            for _ in 0..10_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(1));
            }
        }
        let used = thread_cpu_time() - before;
        assert!(used >= Duration::from_millis(10), "{used:?}");
        assert!(cpu_times().0 + cpu_times().1 >= used);
    }
}
