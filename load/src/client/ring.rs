//! The io_uring engine's ring: one per thread, with a ring of provided receive buffers.
//!
//! Sends, connect polls and cancellations are queued as submissions; one `io_uring_enter`
//! per loop iteration submits them all and waits for completions. Each socket has one
//! multishot receive armed for its lifetime: the kernel picks a buffer from the provided
//! ring for every arrival, and the buffer goes back to the ring (a store to shared memory,
//! no system call) once its bytes are read. A request thus costs no system call of its own.
//!
//! With `--batch-wait`, a wait asks for a completion from every operation in flight (each
//! connect, send and armed receive) and, past the batch wait, returns on the first: one
//! wake-up then takes the responses that arrived within it instead of one or two (kernel
//! 6.12's minimum wait). A response waits in the kernel at most that long, and when all that
//! can come is in (a lone connection's response), not at all.
//!
//! Submissions carry the connection's index, the socket's generation and the operation in
//! their user data, so that completions for a socket already closed are recognised and
//! only give their buffer back.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::io;
use std::mem::ManuallyDrop;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::{Duration, Instant};

use io_uring::types::{BufRingEntry, Fd, SubmitArgs, Timespec};
use io_uring::{IoUring, cqueue, opcode, squeue};

/// Submission queue entries (the completion queue has twice as many).
const ENTRIES: u32 = 4096;
/// Provided receive buffers per thread, and the size of each.
const BUFFERS: u16 = 512;
const BUFFER_BYTES: usize = 16 * 1024;
/// The provided buffers' group id (one group per ring).
const GROUP: u16 = 0;
/// The oldest kernel with multishot receive.
const MINIMUM_KERNEL: (u32, u32) = (6, 0);
/// The oldest kernel that bounds a wait for several completions by a minimum wait.
const BATCH_WAIT_KERNEL: (u32, u32) = (6, 12);
/// How long the ring's drop waits for cancelled operations at the end of a run.
const DRAIN_LIMIT: Duration = Duration::from_secs(2);

/// What a submission was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// A poll for writability: the non-blocking connect finished (or failed).
    Connect,
    Send,
    Receive,
    Cancel,
}

impl Operation {
    fn code(self) -> u64 {
        match self {
            Operation::Connect => 0,
            Operation::Send => 1,
            Operation::Receive => 2,
            Operation::Cancel => 3,
        }
    }

    fn from_code(code: u64) -> Operation {
        match code {
            0 => Operation::Connect,
            1 => Operation::Send,
            2 => Operation::Receive,
            _ => Operation::Cancel,
        }
    }
}

/// Which socket an operation belongs to: the connection's index and the socket's
/// generation (a connection opens many sockets over a run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    pub index: u32,
    pub generation: u32,
}

/// A completion, decoded.
#[derive(Debug, Clone, Copy)]
pub struct Completion {
    pub owner: Owner,
    pub operation: Operation,
    /// The system call's result: bytes, or a negated errno.
    pub result: i32,
    /// The receive buffer the kernel filled, if any.
    pub buffer: Option<u16>,
    /// The multishot operation goes on (more completions will follow).
    pub more: bool,
}

fn user_data(owner: Owner, operation: Operation) -> u64 {
    (u64::from(owner.index) << 32)
        | (u64::from(owner.generation & 0x00ff_ffff) << 8)
        | operation.code()
}

fn decode(user_data: u64) -> (Owner, Operation) {
    let owner = Owner {
        index: (user_data >> 32) as u32,
        generation: ((user_data >> 8) & 0x00ff_ffff) as u32,
    };
    (owner, Operation::from_code(user_data & 0xff))
}

/// The provided buffers: their memory and the ring through which they are handed to the
/// kernel. Both are freed only after every operation that may use them has completed.
struct BufferRing {
    entries: *mut BufRingEntry,
    memory: *mut u8,
    /// Buffers handed back since the kernel last saw the tail.
    tail: u16,
}

impl BufferRing {
    fn entries_layout() -> Layout {
        Layout::from_size_align(usize::from(BUFFERS) * size_of::<BufRingEntry>(), 4096)
            .expect("a valid layout")
    }

    fn memory_layout() -> Layout {
        Layout::from_size_align(usize::from(BUFFERS) * BUFFER_BYTES, 4096).expect("a valid layout")
    }

    fn new() -> io::Result<BufferRing> {
        // SAFETY: both layouts have a non-zero size.
        let entries = unsafe { alloc_zeroed(Self::entries_layout()) }.cast::<BufRingEntry>();
        // SAFETY: as above.
        let memory = unsafe { alloc_zeroed(Self::memory_layout()) };
        if entries.is_null() || memory.is_null() {
            return Err(io::ErrorKind::OutOfMemory.into());
        }
        let mut ring = BufferRing {
            entries,
            memory,
            tail: 0,
        };
        for id in 0..BUFFERS {
            ring.give_back(id);
        }
        Ok(ring)
    }

    /// The bytes the kernel wrote into buffer `id`.
    fn bytes(&self, id: u16, len: usize) -> &[u8] {
        assert!(id < BUFFERS && len <= BUFFER_BYTES, "a buffer of this ring");
        // SAFETY: the buffer lies inside `memory`, and the kernel is done with it: its
        // completion was reaped and it has not been handed back yet.
        unsafe { std::slice::from_raw_parts(self.memory.add(usize::from(id) * BUFFER_BYTES), len) }
    }

    /// Hands buffer `id` back to the kernel.
    fn give_back(&mut self, id: u16) {
        let slot = usize::from(self.tail & (BUFFERS - 1));
        // SAFETY: `slot` is inside the entries array; the kernel reads entries only up to
        // the published tail, and this one is past it.
        let entry = unsafe { &mut *self.entries.add(slot) };
        // SAFETY: the buffer's address is inside `memory`.
        entry.set_addr(unsafe { self.memory.add(usize::from(id) * BUFFER_BYTES) } as u64);
        entry.set_len(BUFFER_BYTES as u32);
        entry.set_bid(id);
        self.tail = self.tail.wrapping_add(1);
        // SAFETY: the tail field overlays the first entry's reserved field, which
        // `set_addr`/`set_len`/`set_bid` do not touch; the kernel reads it atomically.
        let tail = unsafe { &*BufRingEntry::tail(self.entries).cast::<AtomicU16>() };
        tail.store(self.tail, Ordering::Release);
    }
}

impl Drop for BufferRing {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with these layouts.
        unsafe {
            dealloc(self.entries.cast(), Self::entries_layout());
            dealloc(self.memory, Self::memory_layout());
        }
    }
}

pub struct Ring {
    uring: IoUring,
    /// Freed on drop only once no operation can write into them.
    buffers: ManuallyDrop<BufferRing>,
    /// Operations submitted whose last completion has not arrived.
    in_flight: usize,
    /// The generation the next socket gets.
    next_generation: u32,
    /// Entries queued so far, and how many of them the kernel has been handed: an entry
    /// names its socket by descriptor, so it must be submitted before that descriptor
    /// closes (or its number, reused, would name another socket).
    queued: u64,
    submitted: u64,
    /// The run's requests, one after another: every send writes bytes from within them.
    /// They outlive the ring, which belongs to a worker that borrows them (and drains
    /// itself on drop).
    requests: *const u8,
    requests_len: usize,
    /// `--batch-wait`, microseconds: how long a wait may hold completions back to gather
    /// more of them.
    batch_wait_us: Option<u32>,
}

impl std::fmt::Debug for Ring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ring")
            .field("in_flight", &self.in_flight)
            .finish_non_exhaustive()
    }
}

impl Ring {
    /// A ring whose sends write from `requests`, which must outlive it (see `Ring`'s drop),
    /// and whose waits gather completions for up to `batch_wait_us` (or return on the first).
    pub fn new(requests: &[u8], batch_wait_us: Option<u32>) -> io::Result<Ring> {
        let uring = build()?;
        if batch_wait_us.is_some() && !uring.params().is_feature_min_timeout() {
            return Err(io::Error::other(no_batch_wait()));
        }
        let buffers = BufferRing::new()?;
        // SAFETY: the entries are page-aligned and outlive every operation that uses
        // them (see `Ring`'s drop).
        unsafe {
            uring.submitter().register_buf_ring_with_flags(
                buffers.entries as u64,
                BUFFERS,
                GROUP,
                0,
            )?;
        }
        Ok(Ring {
            uring,
            buffers: ManuallyDrop::new(buffers),
            in_flight: 0,
            next_generation: 0,
            queued: 0,
            submitted: 0,
            requests: requests.as_ptr(),
            requests_len: requests.len(),
            batch_wait_us,
        })
    }

    /// Whether this kernel and its settings allow the engine (the reason when not), and
    /// whether it can also keep `--batch-wait` (the reason when not).
    pub fn available() -> Result<Result<(), String>, String> {
        let release = kernel_release();
        if !release_at_least(&release, MINIMUM_KERNEL) {
            return Err(format!(
                "kernel {release} has no multishot receive (needs {}.{})",
                MINIMUM_KERNEL.0, MINIMUM_KERNEL.1
            ));
        }
        let probe = Ring::new(b"probe", None).map_err(|error| error.to_string())?;
        Ok(if probe.uring.params().is_feature_min_timeout() {
            Ok(())
        } else {
            Err(no_batch_wait())
        })
    }

    /// Queues `entry`; `counted` ones are waited for before the buffers are freed.
    /// Returns the entry's sequence number (see [`Ring::submit_through`]).
    fn push(&mut self, entry: &squeue::Entry, counted: bool) -> io::Result<u64> {
        loop {
            // SAFETY: every pointer an entry carries (the request, a buffer of the ring)
            // stays valid until the operation completes: see `Ring`'s drop.
            if unsafe { self.uring.submission().push(entry) }.is_ok() {
                self.in_flight += usize::from(counted);
                self.queued += 1;
                return Ok(self.queued);
            }
            self.submit()?;
        }
    }

    fn submit(&mut self) -> io::Result<()> {
        let queued = self.queued;
        self.uring.submit()?;
        self.submitted = queued;
        Ok(())
    }

    /// Hands the kernel every entry up to sequence number `sequence`, if it does not have
    /// it yet: called before a socket's descriptor closes.
    pub fn submit_through(&mut self, sequence: u64) -> io::Result<()> {
        if sequence > self.submitted {
            self.submit()?;
        }
        Ok(())
    }

    /// Polls for the end of a non-blocking connect. The operations return their entry's
    /// sequence number.
    pub fn poll_connect(&mut self, fd: RawFd, owner: Owner) -> io::Result<u64> {
        let entry = opcode::PollAdd::new(Fd(fd), libc::POLLOUT as u32)
            .build()
            .user_data(user_data(owner, Operation::Connect));
        self.push(&entry, true)
    }

    /// Sends `bytes`, which must lie within the run's requests.
    pub fn send(&mut self, fd: RawFd, owner: Owner, bytes: &[u8]) -> io::Result<u64> {
        let requests = self.requests..self.requests.wrapping_add(self.requests_len);
        let sent = bytes.as_ptr_range();
        if sent.start < requests.start || sent.end > requests.end {
            return Err(io::Error::other(
                "the io_uring engine sends only the run's requests",
            ));
        }
        let entry = opcode::Send::new(Fd(fd), bytes.as_ptr(), bytes.len() as u32)
            .flags(libc::MSG_NOSIGNAL)
            .build()
            .user_data(user_data(owner, Operation::Send));
        self.push(&entry, true)
    }

    /// Arms the socket's multishot receive.
    pub fn receive(&mut self, fd: RawFd, owner: Owner) -> io::Result<u64> {
        let entry = opcode::RecvMulti::new(Fd(fd), GROUP)
            .build()
            .user_data(user_data(owner, Operation::Receive));
        self.push(&entry, true)
    }

    /// Cancels the socket's operation; its completion comes back as `-ECANCELED` (or as
    /// its result, if it finished first).
    pub fn cancel(&mut self, owner: Owner, operation: Operation) {
        let entry = opcode::AsyncCancel::new(user_data(owner, operation))
            .build()
            .user_data(user_data(owner, Operation::Cancel))
            .flags(squeue::Flags::SKIP_SUCCESS);
        // Not counted: it touches no memory of ours, and completes silently when it works.
        // A full queue whose submit fails leaves the operation to complete on its own.
        let _ = self.push(&entry, false);
    }

    pub fn buffer(&self, id: u16, len: usize) -> &[u8] {
        self.buffers.bytes(id, len)
    }

    pub fn give_back(&mut self, id: u16) {
        self.buffers.give_back(id);
    }

    /// Submits what is queued and waits up to `wait` for completions (gathered for up to
    /// the batch wait, if any), which replace `completions`' contents.
    pub fn wait(&mut self, wait: Duration, completions: &mut Vec<Completion>) -> io::Result<()> {
        let timespec = Timespec::from(wait);
        let (want, wait_us) = match self.batch_wait_us {
            // No wait at all (input is left to read): reap what is in, without the batch
            // wait's minimum.
            _ if wait.is_zero() => (1, 0),
            Some(wait_us) => (self.in_flight.max(1), wait_us),
            None => (1, 0),
        };
        let args = SubmitArgs::new().timespec(&timespec).min_wait_usec(wait_us);
        let queued = self.queued;
        let result = self.uring.submitter().submit_with_args(want, &args);
        // Submission happens before the wait, which is what may fail.
        if self.uring.submission().is_empty() {
            self.submitted = queued;
        }
        match result {
            Ok(_) => {}
            Err(error)
                if matches!(
                    error.raw_os_error(),
                    Some(libc::ETIME | libc::EINTR | libc::EBUSY)
                ) => {}
            Err(error) => return Err(error),
        }
        self.reap(completions);
        Ok(())
    }

    fn reap(&mut self, completions: &mut Vec<Completion>) {
        completions.clear();
        for entry in self.uring.completion() {
            let (owner, operation) = decode(entry.user_data());
            let more = cqueue::more(entry.flags());
            if !more && operation != Operation::Cancel {
                self.in_flight = self.in_flight.saturating_sub(1);
            }
            completions.push(Completion {
                owner,
                operation,
                result: entry.result(),
                buffer: cqueue::buffer_select(entry.flags()),
                more,
            });
        }
    }

    /// A generation for a new socket of connection `index`.
    pub fn owner(&mut self, index: usize) -> Owner {
        self.next_generation = (self.next_generation + 1) & 0x00ff_ffff;
        Owner {
            index: u32::try_from(index).expect("fewer than 2^32 connections"),
            generation: self.next_generation,
        }
    }
}

impl Drop for Ring {
    /// Waits until every operation has completed (the sockets, all closed by now, had
    /// theirs cancelled), so that no kernel write lands in freed memory. Gives up after
    /// [`DRAIN_LIMIT`], and then leaks the buffers rather than free them under the kernel.
    fn drop(&mut self) {
        self.batch_wait_us = None;
        let limit = Instant::now() + DRAIN_LIMIT;
        let mut completions = Vec::new();
        while self.in_flight > 0 && Instant::now() < limit {
            if self
                .wait(Duration::from_millis(10), &mut completions)
                .is_err()
            {
                break;
            }
            for id in completions.iter().filter_map(|c| c.buffer) {
                self.give_back(id);
            }
        }
        if self.in_flight == 0 {
            // SAFETY: no operation is in flight, and the buffers are not used again.
            unsafe { ManuallyDrop::drop(&mut self.buffers) };
        }
    }
}

fn build() -> io::Result<IoUring> {
    // Task work deferred to our own io_uring_enter: completions are processed in a batch
    // when the loop asks for them, not by interrupting it (kernel 6.1).
    let deferred = IoUring::builder()
        .setup_single_issuer()
        .setup_defer_taskrun()
        .setup_cqsize(ENTRIES * 2)
        .build(ENTRIES);
    match deferred {
        Ok(uring) => Ok(uring),
        Err(error) if error.raw_os_error() == Some(libc::EINVAL) => {
            IoUring::builder().setup_cqsize(ENTRIES * 2).build(ENTRIES)
        }
        Err(error) => Err(error),
    }
}

/// Why `--batch-wait` cannot be kept on this kernel.
fn no_batch_wait() -> String {
    format!(
        "kernel {} cannot bound a wait for several completions (needs {}.{})",
        kernel_release(),
        BATCH_WAIT_KERNEL.0,
        BATCH_WAIT_KERNEL.1
    )
}

fn kernel_release() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|release| release.trim().to_string())
        .unwrap_or_default()
}

/// `6.1.0-18-amd64` is at least (6, 0).
fn release_at_least(release: &str, (major, minor): (u32, u32)) -> bool {
    let mut numbers = release
        .split(|c: char| !c.is_ascii_digit())
        .map(|part| part.parse::<u32>().unwrap_or(0));
    let found = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
    found >= (major, minor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_data_round_trips() {
        for (index, generation, operation) in [
            (0, 0, Operation::Connect),
            (9_999, 1, Operation::Send),
            (u32::MAX, 0x00ff_ffff, Operation::Receive),
            (3, 77, Operation::Cancel),
        ] {
            let owner = Owner { index, generation };
            assert_eq!(decode(user_data(owner, operation)), (owner, operation));
        }
    }

    #[test]
    fn kernel_releases_compare_by_major_and_minor() {
        assert!(release_at_least("6.1.0-18-amd64", (6, 0)));
        assert!(release_at_least("6.18.0", (6, 0)));
        assert!(!release_at_least("5.19.17", (6, 0)));
        assert!(!release_at_least("", (6, 0)));
    }
}
