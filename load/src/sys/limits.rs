//! Raising the open-file limit so that `-c` connections fit.

/// The open-file limit could not be raised far enough for the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenFilesShortfall {
    pub needed: u64,
    /// The soft limit in force after trying.
    pub limit: u64,
    /// The hard limit, which only root can raise.
    pub hard_limit: u64,
}

impl std::fmt::Display for OpenFilesShortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "warning: {} open files are needed but the limit is {} (hard limit {}); \
             connections beyond it fail with EMFILE (raise it with `ulimit -n {}` as root)",
            self.needed, self.limit, self.hard_limit, self.needed
        )
    }
}

/// Raises the soft RLIMIT_NOFILE towards the hard limit so that `needed` descriptors fit.
/// Returns the shortfall when the limit stays below `needed`; the run goes on regardless and
/// connections beyond the limit fail with EMFILE, counted as connect failures.
pub fn raise_open_files(needed: u64) -> Result<(), OpenFilesShortfall> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct we own.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Ok(()); // Nothing known; the connects will say so.
    }
    if limit.rlim_cur >= needed {
        return Ok(());
    }
    let wanted = if limit.rlim_max == libc::RLIM_INFINITY {
        needed
    } else {
        needed.min(limit.rlim_max)
    };
    let raised = libc::rlimit {
        rlim_cur: wanted,
        rlim_max: limit.rlim_max,
    };
    // SAFETY: setrlimit reads the struct we own.
    let current = if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
        wanted
    } else {
        limit.rlim_cur
    };
    if current >= needed {
        Ok(())
    } else {
        Err(OpenFilesShortfall {
            needed,
            limit: current,
            hard_limit: limit.rlim_max,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_need_is_met() {
        assert_eq!(raise_open_files(16), Ok(()));
    }

    #[test]
    fn an_impossible_need_is_reported() {
        let shortfall = raise_open_files(u64::MAX - 1).unwrap_err();
        assert!(shortfall.limit < shortfall.needed);
        assert!(shortfall.to_string().contains("EMFILE"));
    }
}
