//! The few operating-system calls std does not wrap: signals, rusage, limits, errno names.

pub mod errno;
pub mod limits;
pub mod rusage;
pub mod signals;
pub mod timer;
