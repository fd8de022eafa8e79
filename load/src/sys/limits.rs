//! Raising the open-file limit so that `-c` connections fit.

/// Raises the soft RLIMIT_NOFILE towards the hard limit so that `needed` descriptors fit.
/// Best effort: if it cannot, connections beyond the limit fail with EMFILE and are counted.
pub fn raise_open_files(needed: u64) {
    // SAFETY: plain getrlimit/setrlimit on a zeroed struct.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 || limit.rlim_cur >= needed {
            return;
        }
        limit.rlim_cur = if limit.rlim_max == libc::RLIM_INFINITY {
            needed
        } else {
            needed.min(limit.rlim_max)
        };
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
}
