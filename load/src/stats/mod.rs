//! Statistics: what each thread records, merged once at the end, and its summary.

pub mod by_target;
pub mod interchange;
pub mod latency;
pub mod nearest_rank;
pub mod phases;
pub mod recorder;
