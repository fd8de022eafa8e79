//! One thread's event loop: its own epoll instance (or io_uring), connections, schedule and
//! recorder.
//! Nothing is shared with other threads on the hot path: the stop flag is read once per
//! loop iteration, and the Document Length once per thread.

use std::cell::RefCell;
use std::io;
use std::rc::Rc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mio::unix::SourceFd;
use mio::{Events, Interest, Poll, Token};

use super::connection::{Connection, Outcome, Phase, Reactor};
use super::dial::Dialer;
use super::pacing::PacingStats;
use super::progress::ProgressCounter;
use super::ring::{Completion, Ring};
use super::schedule::{Next, Schedule};
use super::transport::Handshake;
use crate::report::verbose;
use crate::stats::recorder::{FailureClass, Recorder, ResponseRecord};
use crate::sys::{rusage, signals};
use crate::targets::{Cursor, Targets};

/// Longest wait for events, so that a stop request is seen promptly.
const MAX_WAIT: Duration = Duration::from_millis(50);
/// Pause after a failed connect, so that a dead server does not spin the CPU.
const CONNECT_BACKOFF: Duration = Duration::from_millis(10);
/// One read buffer per thread, reused for every read.
const READ_BUFFER_BYTES: usize = 64 * 1024;
/// The schedule's timer event (connections use their index).
const TIMER: Token = Token(usize::MAX);

/// What every thread of a run shares, read-only (the Document Length is set once).
#[derive(Debug)]
pub struct Shared {
    pub dialer: Dialer,
    pub targets: Targets,
    pub keep_alive: bool,
    pub timeout: Duration,
    /// Body length of the first 2xx response to each URL of the run, whichever thread saw it.
    pub document_lengths: Vec<OnceLock<u64>>,
    /// -l: a body of another length is not a length failure.
    pub variable_length: bool,
    /// HEAD requests: no response has a body.
    pub bodiless_responses: bool,
    /// -v 2: the first response is still to be shown (one connection of one thread keeps it).
    pub show_first_response: AtomicBool,
}

/// What a thread hands back when its loop ends.
#[derive(Debug)]
pub struct ThreadResult {
    pub recorder: Recorder,
    /// Responses received, the warm-up's included.
    pub responses_seen: u64,
    /// A TCP connection was made at least once, the warm-up's included.
    pub reached_the_server: bool,
    /// When the thread's first response arrived, with its `Server` header.
    pub first_response: Option<(Instant, Option<String>)>,
    /// The thread's first failure, described for the user.
    pub first_error: Option<(Instant, String)>,
    pub ended: Instant,
    /// The thread's CPU time (user and system) and wall time, from its start to its end.
    pub cpu: Duration,
    pub wall: Duration,
    /// With `--rate`: how the sends kept to the schedule.
    pub pacing: Option<PacingStats>,
    /// The thread's first completed TLS handshake.
    pub first_handshake: Option<(Instant, Handshake)>,
}

pub struct Worker<'a> {
    shared: &'a Shared,
    poll: Poll,
    connections: Vec<Connection>,
    schedule: Schedule,
    recorder: Recorder,
    buffer: Vec<u8>,
    /// This thread's copy of each URL's Document Length, once known.
    document_lengths: Vec<Option<u64>>,
    /// Where this thread is in the order of the URLs.
    cursor: Cursor,
    /// The URL each connection's current request is for.
    target_of: Vec<usize>,
    /// The earliest request deadline or back-off end, when one may be due.
    next_timer: Option<Instant>,
    responses_seen: u64,
    first_response: Option<(Instant, Option<String>)>,
    first_error: Option<(Instant, String)>,
    first_handshake: Option<(Instant, Handshake)>,
    /// Where the progress line reads this thread's count.
    progress: Option<&'a ProgressCounter>,
    /// The io_uring engine: sockets driven by completions instead of epoll's readiness.
    ring: Option<Rc<RefCell<Ring>>>,
    completions: Vec<Completion>,
    /// Connections whose last turn of reading left input unread: driven again in the next
    /// iteration, which then does not sleep. `in_unread` marks them, so each is listed once.
    unread: Vec<usize>,
    in_unread: Vec<bool>,
}

impl<'a> Worker<'a> {
    pub fn new(
        shared: &'a Shared,
        connections: usize,
        schedule: Schedule,
        cursor: Cursor,
    ) -> io::Result<Self> {
        let now = Instant::now();
        let mut connections: Vec<Connection> = (0..connections)
            .map(|i| Connection::new(Token(i), now))
            .collect();
        for connection in &mut connections {
            if shared.bodiless_responses {
                connection.expect_bodiless_responses();
            }
        }
        if let Some(first) = connections.first_mut()
            && shared.show_first_response.swap(false, Ordering::Relaxed)
        {
            first.record_transcript();
        }
        let poll = Poll::new()?;
        if let Some(timer) = schedule.timer() {
            poll.registry()
                .register(&mut SourceFd(&timer), TIMER, Interest::READABLE)?;
        }
        Ok(Worker {
            shared,
            poll,
            target_of: vec![0; connections.len()],
            in_unread: vec![false; connections.len()],
            connections,
            schedule,
            recorder: Recorder::for_targets(shared.targets.len()),
            buffer: vec![0; READ_BUFFER_BYTES],
            document_lengths: vec![None; shared.targets.len()],
            cursor,
            next_timer: None,
            responses_seen: 0,
            first_response: None,
            first_error: None,
            first_handshake: None,
            progress: None,
            ring: None,
            completions: Vec::new(),
            unread: Vec::new(),
        })
    }

    /// Drives the sockets through io_uring (plain HTTP, closed loop), its waits gathering
    /// completions for up to `batch_wait_us` if given.
    pub fn with_ring(mut self, batch_wait_us: Option<u32>) -> io::Result<Self> {
        let ring = Ring::new(self.shared.targets.arena(), batch_wait_us)?;
        self.ring = Some(Rc::new(RefCell::new(ring)));
        Ok(self)
    }

    /// Publishes the thread's count of ended requests to `counter` as the run goes.
    pub fn with_progress(mut self, counter: &'a ProgressCounter) -> Self {
        self.progress = Some(counter);
        self
    }

    pub fn run(mut self) -> io::Result<ThreadResult> {
        let cpu_before = rusage::thread_cpu_time();
        let now = Instant::now();
        let began = now;
        self.schedule.tick(now);
        for i in 0..self.connections.len() {
            let started = self.start(i, now);
            self.drive(i, started);
        }
        let mut events = Events::with_capacity(self.connections.len().clamp(16, 1024));
        loop {
            let mut now = Instant::now();
            self.schedule.tick(now);
            if signals::stop_requested() || self.schedule.finished(now) {
                break;
            }
            if self.send_due(now) {
                now = Instant::now();
            }
            let mut wait = self.wait(now)?;
            if !self.unread.is_empty() {
                wait = Duration::ZERO;
            }
            if self.ring.is_some() {
                self.wait_for_completions(wait)?;
                let now = Instant::now();
                self.schedule.tick(now);
                self.drive_unread();
                self.after_events(now);
                continue;
            }
            match self.poll.poll(&mut events, Some(wait)) {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            }
            let now = Instant::now();
            self.schedule.tick(now);
            for event in events.iter() {
                if event.token() == TIMER {
                    self.schedule.on_timer();
                    continue;
                }
                let i = event.token().0;
                let error = event.is_error();
                self.connections[i].on_event(
                    event.is_readable() || event.is_read_closed() || error,
                    event.is_writable() || event.is_write_closed() || error,
                    event.is_read_closed() || error,
                );
                self.drive(i, None);
            }
            self.drive_unread();
            self.after_events(now);
        }
        let ended = Instant::now();
        let pacing = self.schedule.pacing_stats(ended);
        Ok(ThreadResult {
            recorder: self.recorder,
            responses_seen: self.responses_seen,
            reached_the_server: self
                .connections
                .iter()
                .any(Connection::has_reached_the_server),
            first_response: self.first_response,
            first_error: self.first_error,
            first_handshake: self.first_handshake,
            ended,
            cpu: rusage::thread_cpu_time().saturating_sub(cpu_before),
            wall: ended.saturating_duration_since(began),
            pacing,
        })
    }

    /// Fires due timers and publishes progress, after a batch of events.
    fn after_events(&mut self, now: Instant) {
        if self.next_timer.is_some_and(|due| now >= due) {
            self.fire_timers(now);
        }
        if let Some(counter) = self.progress {
            counter.publish(&self.recorder);
        }
    }

    /// The io_uring engine: submits what is queued, waits up to `wait` for completions and
    /// drives the connections they are for.
    fn wait_for_completions(&mut self, wait: Duration) -> io::Result<()> {
        let Some(ring) = self.ring.clone() else {
            return Ok(());
        };
        let mut completions = std::mem::take(&mut self.completions);
        ring.borrow_mut().wait(wait, &mut completions)?;
        for completion in &completions {
            let i = completion.owner.index as usize;
            let current = self
                .connections
                .get_mut(i)
                .is_some_and(|connection| connection.on_completion(completion));
            if current {
                self.drive(i, None);
            } else if let Some(buffer) = completion.buffer {
                ring.borrow_mut().give_back(buffer);
            }
        }
        self.completions = completions;
        Ok(())
    }

    /// Sends every request the schedule has due now (the open loop), each on the connection
    /// it names; returns whether it sent any.
    fn send_due(&mut self, now: Instant) -> bool {
        let mut sent = false;
        while let Some((i, due)) = self.schedule.take_due(now) {
            let started = self.begin_request(i, now, due);
            self.drive(i, started);
            sent = true;
        }
        sent
    }

    /// How long to wait for events: until the next timer or `MAX_WAIT`, and no longer than
    /// the schedule allows (its deadline, its next send).
    fn wait(&mut self, now: Instant) -> io::Result<Duration> {
        let mut wake = now + MAX_WAIT;
        if let Some(due) = self.next_timer {
            wake = wake.min(due);
        }
        let wake = self.schedule.wake(now, wake)?;
        Ok(wake.saturating_duration_since(now))
    }

    fn arm(&mut self, due: Instant) {
        self.next_timer = Some(self.next_timer.map_or(due, |next| next.min(due)));
    }

    /// Advances connection `i` until it waits for the socket or has had its turn of reading,
    /// settling each request that ends (`outcome` is one that has already ended).
    fn drive(&mut self, i: usize, mut outcome: Option<Outcome>) {
        loop {
            let ended = match outcome.take() {
                Some(ended) => ended,
                None => {
                    let request = self.shared.targets.request(self.target_of[i]);
                    let connection = &mut self.connections[i];
                    match connection.advance(request, &mut self.buffer) {
                        Some(ended) => ended,
                        None => {
                            if connection.has_unread_input() && !self.in_unread[i] {
                                self.in_unread[i] = true;
                                self.unread.push(i);
                            }
                            return;
                        }
                    }
                }
            };
            outcome = self.settle(i, ended, Instant::now());
        }
    }

    /// Gives another turn to the connections whose last one left input unread.
    fn drive_unread(&mut self) {
        let mut unread = std::mem::take(&mut self.unread);
        for &i in &unread {
            self.in_unread[i] = false;
        }
        for &i in &unread {
            self.drive(i, None);
        }
        if self.unread.is_empty() {
            unread.clear();
            self.unread = unread;
        }
    }

    /// Connection `i` has no request: starts the next at once if the schedule says so (the
    /// closed loop), or leaves the connection idle for the schedule to give it the next
    /// request due, or closes it when no more may start.
    fn start(&mut self, i: usize, now: Instant) -> Option<Outcome> {
        match self.schedule.release(i, now) {
            Next::Begin => self.begin_request(i, now, now),
            Next::Wait => {
                self.connections[i].idle();
                None
            }
            Next::Close => {
                let connection = &mut self.connections[i];
                connection.close();
                connection.idle();
                None
            }
        }
    }

    /// Starts a request on connection `i` at `now`, due at `intended`.
    fn begin_request(&mut self, i: usize, now: Instant, intended: Instant) -> Option<Outcome> {
        let reactor = reactor(self.ring.as_ref(), &self.poll);
        self.target_of[i] = self.shared.targets.next(&mut self.cursor);
        let connection = &mut self.connections[i];
        self.schedule.start();
        let deadline = now + self.shared.timeout;
        let capture_server = self.first_response.is_none();
        let outcome = connection.begin(
            now,
            intended,
            deadline,
            capture_server,
            reactor,
            &self.shared.dialer,
        );
        self.arm(deadline);
        outcome
    }

    /// Records how a request ended and sets up what the connection does next; returns an
    /// outcome when that next step ended at once (a connect refused on the spot).
    fn settle(&mut self, i: usize, outcome: Outcome, now: Instant) -> Option<Outcome> {
        if let Some(handshake) = self.connections[i].take_handshake() {
            if self.schedule.measuring() {
                self.recorder.record_handshake(handshake.resumed);
            }
            self.first_handshake.get_or_insert((now, handshake));
        }
        match outcome {
            Outcome::Stale => {
                if self.schedule.measuring() {
                    self.recorder.stale_retries += 1;
                }
                let reactor = reactor(self.ring.as_ref(), &self.poll);
                self.connections[i].retry(reactor, &self.shared.dialer)
            }
            Outcome::Response {
                status,
                wire_bytes,
                body_bytes,
                reusable,
                server,
            } => {
                self.responses_seen += 1;
                if self.first_response.is_none() {
                    self.first_response = Some((now, server));
                }
                self.show_transcript(i, None);
                let connection = &mut self.connections[i];
                let latency = now.saturating_duration_since(connection.intended);
                let sent_latency = now.saturating_duration_since(connection.started);
                let kept_alive = reusable && self.shared.keep_alive;
                if !kept_alive {
                    connection.close();
                }
                let target = self.target_of[i];
                let length_mismatch = (200..300).contains(&status)
                    && !self.matches_document_length(target, body_bytes);
                if self.schedule.end(now) {
                    let latency_us = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
                    if self.schedule.counts_from_due_time() {
                        let sent_us = u64::try_from(sent_latency.as_micros()).unwrap_or(u64::MAX);
                        self.recorder.record_uncorrected(sent_us);
                    }
                    self.recorder
                        .by_target
                        .record_response(target, latency_us, length_mismatch);
                    self.recorder.record_response(&ResponseRecord {
                        latency_us,
                        status,
                        wire_bytes,
                        body_bytes,
                        kept_alive,
                        length_mismatch,
                    });
                    let connection = &self.connections[i];
                    self.recorder
                        .record_phases(connection.phase_times(), latency_us);
                    self.recorder.record_sent(connection.sent_bytes());
                }
                self.start(i, now)
            }
            Outcome::Failed {
                class,
                cause,
                received_bytes,
            } => {
                if self.first_error.is_none() || self.connections[i].has_transcript() {
                    let description = format!("{}: {}", class.label(), cause.describe());
                    self.show_transcript(i, Some(&description));
                    self.first_error.get_or_insert((now, description));
                }
                if self.schedule.end(now) {
                    self.recorder.record_failure(class, &cause.kind());
                    self.recorder.by_target.record_failure(self.target_of[i]);
                    self.recorder.record_received(received_bytes);
                    self.recorder.record_sent(self.connections[i].sent_bytes());
                }
                if class == FailureClass::Connect {
                    let until = now + CONNECT_BACKOFF;
                    self.connections[i].back_off(until);
                    self.arm(until);
                    None
                } else {
                    self.start(i, now)
                }
            }
        }
    }

    /// ab's Document Length: the first 2xx body length of the run (of each URL with
    /// `--urls`); true when `body` matches (always with -l, as ab).
    fn matches_document_length(&mut self, target: usize, body: u64) -> bool {
        let shared = &self.shared.document_lengths[target];
        let reference =
            *self.document_lengths[target].get_or_insert_with(|| *shared.get_or_init(|| body));
        reference == body || self.shared.variable_length
    }

    /// -v 2: shows the first response's head (or what came before a failure), once per run.
    fn show_transcript(&mut self, i: usize, failure: Option<&str>) {
        let connection = &mut self.connections[i];
        let Some(bytes) = connection.take_transcript() else {
            return;
        };
        if bytes.is_empty() && failure.is_some() {
            // Nothing arrived (a refused connect): show the next response instead.
            connection.record_transcript();
            return;
        }
        verbose::show_response(&bytes, failure);
    }

    /// Times out overdue requests and ends due back-offs; finds the next timer.
    fn fire_timers(&mut self, now: Instant) {
        self.next_timer = None;
        for i in 0..self.connections.len() {
            let connection = &mut self.connections[i];
            match connection.phase {
                Phase::Idle => {}
                Phase::Backoff { until } if now >= until => {
                    connection.idle();
                    let started = self.start(i, now);
                    self.drive(i, started);
                }
                Phase::Backoff { until } => self.arm(until),
                Phase::Connecting | Phase::Handshaking | Phase::Writing { .. } | Phase::Reading => {
                    if now >= connection.deadline {
                        let timed_out = connection.time_out();
                        self.drive(i, Some(timed_out));
                    } else {
                        let deadline = connection.deadline;
                        self.arm(deadline);
                    }
                }
            }
        }
    }
}

/// The thread's io_uring if it has one, or else its epoll instance.
fn reactor<'r>(ring: Option<&'r Rc<RefCell<Ring>>>, poll: &'r Poll) -> Reactor<'r> {
    match ring {
        Some(ring) => Reactor::Ring(ring),
        None => Reactor::Epoll(poll.registry()),
    }
}
