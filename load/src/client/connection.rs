//! One connection's state machine: connect, write the request, read the response.
//!
//! [`Connection::advance`] does what the socket's readiness allows and reports how the
//! request ended, if it did; the worker decides what comes next (the schedule, the stats).
//! Sockets are edge-triggered: `readable`/`writable` remember an event until an operation
//! returns `WouldBlock`.

use std::cell::RefCell;
use std::io;
use std::rc::Rc;
use std::time::Instant;

use mio::{Interest, Registry, Token};

use super::dial::Dialer;
use super::ring::{Completion, Ring};
use super::ring_socket::RingSocket;
use super::transport::{Handshake, Stream, tls_cause};
use crate::http::response::{ParseError, Progress, ResponseParser};
use crate::stats::phases::PhaseTimes;
use crate::stats::recorder::FailureClass;
use crate::sys::errno;

/// Where a connection is in its request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// No request in flight: the schedule had none to give.
    Idle,
    /// Waiting before the next request after a connect failure.
    Backoff {
        until: Instant,
    },
    Connecting,
    /// Connected; the TLS handshake is under way.
    Handshaking,
    Writing {
        written: usize,
    },
    Reading,
}

/// Why a request failed.
#[derive(Debug)]
pub enum Cause {
    Io(io::Error),
    /// The TLS layer failed: a certificate refused, an alert, records that make no sense.
    Tls(rustls::Error),
    /// No response within `-s` seconds.
    Timeout,
    /// The server closed the connection before the response was complete.
    Closed,
    Malformed(ParseError),
    /// Bytes that answer no request (there is no pipelining): left over after a complete
    /// response (a second answer, or a Content-Length too short), or there before the
    /// request's first byte was written (an answer before the request).
    Unsolicited,
}

impl From<io::Error> for Cause {
    fn from(error: io::Error) -> Cause {
        match tls_cause(&error) {
            Some(tls) => Cause::Tls(tls.clone()),
            None => Cause::Io(error),
        }
    }
}

impl Cause {
    /// The `errors_by_kind` key.
    pub fn kind(&self) -> String {
        match self {
            Cause::Io(error) => errno::name(error),
            Cause::Tls(error) => crate::tls::error_kind(error).to_string(),
            Cause::Timeout => "timeout".to_string(),
            Cause::Closed => "connection_closed".to_string(),
            Cause::Malformed(_) => "malformed_response".to_string(),
            Cause::Unsolicited => "unsolicited_bytes".to_string(),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Cause::Io(error) => errno::describe(error),
            Cause::Tls(error) => format!("TLS: {error} ({})", crate::tls::error_kind(error)),
            Cause::Timeout => "no complete response within the timeout (timeout)".to_string(),
            Cause::Closed => {
                "connection closed before the response was complete (connection_closed)".to_string()
            }
            Cause::Malformed(error) => format!("{error} (malformed_response)"),
            Cause::Unsolicited => "bytes that answer no request: after a complete response, \
                                   or before the request (unsolicited_bytes)"
                .to_string(),
        }
    }
}

/// What drives the thread's sockets: readiness from epoll, or completions from io_uring.
#[derive(Debug, Clone, Copy)]
pub enum Reactor<'r> {
    Epoll(&'r Registry),
    Ring(&'r Rc<RefCell<Ring>>),
}

/// Longest response transcript kept for `-v` (enough for any sane head).
const MAX_TRANSCRIPT_BYTES: usize = 64 * 1024;
/// Reads in one turn of [`Connection::advance`] (at most 256 KiB with the worker's buffer).
/// A server that sends faster than the client parses (an endless body of one-byte chunks)
/// never lets a read find the socket empty: the turn ends anyway, or at the request's
/// deadline, and the thread sees its clock (`-s`, `-t`) and its other connections before the
/// next one ([`Connection::has_unread_input`]).
const READS_PER_TURN: usize = 4;

/// How a request ended.
#[derive(Debug)]
pub enum Outcome {
    Response {
        status: u16,
        wire_bytes: u64,
        body_bytes: u64,
        /// The server keeps the connection open and nothing unexpected followed the response.
        reusable: bool,
        server: Option<String>,
    },
    Failed {
        class: FailureClass,
        cause: Cause,
        received_bytes: u64,
    },
    /// A reused connection was closed by the server before any byte of the response:
    /// the request is to be sent again on a new connection.
    Stale,
}

#[derive(Debug)]
pub struct Connection {
    token: Token,
    stream: Option<Stream>,
    pub phase: Phase,
    parser: ResponseParser,
    /// When the current request started (its connect included).
    pub started: Instant,
    /// When the current request was due: `started` in the closed loop; with `--rate`, its
    /// time in the schedule, which it may have waited past for a free connection.
    pub intended: Instant,
    /// When the current request times out.
    pub deadline: Instant,
    /// The socket has carried a complete response before the current request.
    reused: bool,
    /// The current request was already sent again after a stale connection.
    retried: bool,
    received: u64,
    readable: bool,
    writable: bool,
    /// The peer has closed its side (epoll's RDHUP): the socket must not carry another request.
    /// Edge-triggered, the close may come in the same event as the response, which is read
    /// without draining the socket to `WouldBlock`; without this, the next request would wait
    /// on a half-closed connection for its timeout.
    peer_closed: bool,
    /// When the connection of the current request was established (`started` if reused).
    connected: Instant,
    /// When the current request was written in full.
    written: Instant,
    /// When the first byte of the response arrived.
    first_byte: Instant,
    /// Bytes the current request wrote, a stale attempt's included.
    sent: u64,
    /// The bytes of the response being received, kept for `-v` (once per run).
    transcript: Option<Vec<u8>>,
    /// The TLS handshake the current request made, until the worker takes it.
    handshake: Option<Handshake>,
    /// A TCP connection was made at least once: the server could be reached.
    reached: bool,
}

impl Connection {
    pub fn new(token: Token, now: Instant) -> Connection {
        Connection {
            token,
            stream: None,
            phase: Phase::Idle,
            parser: ResponseParser::default(),
            started: now,
            intended: now,
            deadline: now,
            reused: false,
            retried: false,
            received: 0,
            readable: false,
            writable: false,
            peer_closed: false,
            connected: now,
            written: now,
            first_byte: now,
            sent: 0,
            transcript: None,
            handshake: None,
            reached: false,
        }
    }

    /// The requests are HEAD: their responses have no body.
    pub fn expect_bodiless_responses(&mut self) {
        self.parser = ResponseParser::for_head_requests();
    }

    /// Keeps the bytes of the next response (and of any failed attempt before it) for `-v`.
    pub fn record_transcript(&mut self) {
        self.transcript = Some(Vec::new());
    }

    pub fn has_transcript(&self) -> bool {
        self.transcript.is_some()
    }

    /// The bytes kept since [`Connection::record_transcript`], once.
    pub fn take_transcript(&mut self) -> Option<Vec<u8>> {
        self.transcript.take()
    }

    /// The phases of the request that just ended (ab's Connection Times).
    pub fn phase_times(&self) -> PhaseTimes {
        let micros = |later: Instant, earlier: Instant| {
            u64::try_from(later.saturating_duration_since(earlier).as_micros()).unwrap_or(u64::MAX)
        };
        PhaseTimes {
            connect_us: micros(self.connected, self.started),
            waiting_us: micros(self.first_byte, self.written),
        }
    }

    /// A TCP connection was made at least once (the warm-up's included).
    pub fn has_reached_the_server(&self) -> bool {
        self.reached
    }

    /// The TLS handshake of the request that just ended, if it made one.
    pub fn take_handshake(&mut self) -> Option<Handshake> {
        self.handshake.take()
    }

    /// Bytes the request that just ended wrote (heads and bodies, a stale attempt's included).
    pub fn sent_bytes(&self) -> u64 {
        self.sent
    }

    /// Starts a request at `now` that was due at `intended`, on the open socket if there is one.
    pub fn begin(
        &mut self,
        now: Instant,
        intended: Instant,
        deadline: Instant,
        capture_server: bool,
        reactor: Reactor<'_>,
        dialer: &Dialer,
    ) -> Option<Outcome> {
        self.started = now;
        self.intended = intended;
        self.deadline = deadline;
        self.retried = false;
        self.parser.reset(capture_server);
        self.received = 0;
        self.sent = 0;
        if self.peer_closed {
            self.close();
        }
        if self.stream.is_some() {
            self.reused = true;
            self.connected = now;
            self.phase = Phase::Writing { written: 0 };
            return None;
        }
        self.connect(reactor, dialer)
    }

    /// Sends the current request again on a new connection (after [`Outcome::Stale`]).
    pub fn retry(&mut self, reactor: Reactor<'_>, dialer: &Dialer) -> Option<Outcome> {
        self.close();
        self.retried = true;
        let capture_server = self.parser.capturing_server();
        self.parser.reset(capture_server);
        self.received = 0;
        self.connect(reactor, dialer)
    }

    fn connect(&mut self, reactor: Reactor<'_>, dialer: &Dialer) -> Option<Outcome> {
        self.reused = false;
        self.readable = false;
        self.writable = false;
        self.peer_closed = false;
        let opened = dialer.connect().and_then(|mut tcp| {
            tcp.set_nodelay(true)?;
            match reactor {
                Reactor::Epoll(registry) => {
                    registry.register(
                        &mut tcp,
                        self.token,
                        Interest::READABLE | Interest::WRITABLE,
                    )?;
                    Stream::new(tcp, dialer.tls())
                }
                Reactor::Ring(ring) => {
                    let owner = ring.borrow_mut().owner(self.token.0);
                    let socket = RingSocket::connecting(tcp, ring, owner)?;
                    Ok(Stream::Ring(Box::new(socket)))
                }
            }
        });
        match opened {
            Ok(stream) => {
                self.stream = Some(stream);
                self.phase = Phase::Connecting;
                None
            }
            Err(error) => Some(self.fail(FailureClass::Connect, Cause::from(error))),
        }
    }

    pub fn close(&mut self) {
        self.stream = None;
        self.reused = false;
    }

    pub fn idle(&mut self) {
        self.phase = Phase::Idle;
    }

    /// The last turn of reading ended before the socket was found empty: the connection needs
    /// another turn even if no new event comes for it.
    pub fn has_unread_input(&self) -> bool {
        self.phase == Phase::Reading && self.readable
    }

    pub fn back_off(&mut self, until: Instant) {
        self.close();
        self.phase = Phase::Backoff { until };
    }

    /// Notes a readiness event for the socket; `peer_closed` when the peer has shut its side.
    pub fn on_event(&mut self, readable: bool, writable: bool, peer_closed: bool) {
        self.readable |= readable;
        self.writable |= writable;
        self.peer_closed |= peer_closed;
    }

    /// Notes an io_uring completion for the socket; `false` when it is for a socket this
    /// connection no longer has (its buffer, if any, is for the caller to give back).
    pub fn on_completion(&mut self, completion: &Completion) -> bool {
        let Some(Stream::Ring(socket)) = &mut self.stream else {
            return false;
        };
        if socket.owner() != completion.owner {
            return false;
        }
        let (readable, writable) = socket.complete(completion);
        // A completion's end of stream is read as such (a receive of 0 bytes).
        self.on_event(readable, writable, false);
        true
    }

    /// The request timed out.
    pub fn time_out(&mut self) -> Outcome {
        let class = match self.phase {
            Phase::Connecting | Phase::Handshaking => FailureClass::Connect,
            _ => FailureClass::Receive,
        };
        self.fail(class, Cause::Timeout)
    }

    fn fail(&mut self, class: FailureClass, cause: Cause) -> Outcome {
        self.close();
        self.phase = Phase::Idle;
        Outcome::Failed {
            class,
            cause,
            received_bytes: self.received,
        }
    }

    /// A reused connection that broke before the first byte of the response: retry it once.
    fn stale_or(&mut self, class: FailureClass, cause: Cause) -> Outcome {
        if self.reused && !self.retried && self.received == 0 {
            return Outcome::Stale;
        }
        self.fail(class, cause)
    }

    /// Makes what progress readiness allows; `Some` when the request has ended.
    pub fn advance(&mut self, request: &[u8], buffer: &mut [u8]) -> Option<Outcome> {
        loop {
            match self.phase {
                Phase::Idle | Phase::Backoff { .. } => return None,
                Phase::Connecting => {
                    if !self.writable {
                        return None;
                    }
                    if let Err(outcome) = self.check_connected() {
                        return outcome;
                    }
                    self.phase = Phase::Handshaking;
                }
                Phase::Handshaking => match self.handshake() {
                    Ok(true) => {
                        self.connected = Instant::now();
                        self.phase = Phase::Writing { written: 0 };
                    }
                    Ok(false) => return None,
                    Err(cause) => return Some(self.fail(FailureClass::Connect, cause)),
                },
                Phase::Writing { written } => {
                    if written == 0
                        && self.readable
                        && let Some(outcome) = self.read_before_request(buffer)
                    {
                        return Some(outcome);
                    }
                    if !self.writable {
                        return None;
                    }
                    let stream = self.stream.as_mut()?;
                    match stream.write(&request[written..]) {
                        Ok(n) if written + n == request.len() => {
                            self.sent += n as u64;
                            self.written = Instant::now();
                            self.phase = Phase::Reading;
                        }
                        Ok(n) => {
                            self.sent += n as u64;
                            self.phase = Phase::Writing {
                                written: written + n,
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.writable = false,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            return Some(self.stale_or(FailureClass::Receive, Cause::from(e)));
                        }
                    }
                }
                Phase::Reading => {
                    if let Err(cause) = self.flush_pending() {
                        return Some(self.stale_or(FailureClass::Receive, cause));
                    }
                    if !self.readable {
                        return None;
                    }
                    return self.read(buffer);
                }
            }
        }
    }

    /// `Err(None)`: not connected yet; `Err(Some(_))`: the connect failed.
    fn check_connected(&mut self) -> Result<(), Option<Outcome>> {
        let stream = self.stream.as_ref().ok_or(None)?.tcp();
        let error = match stream.take_error() {
            Ok(Some(error)) | Err(error) => error,
            Ok(None) => match stream.peer_addr() {
                Ok(_) => {
                    self.reached = true;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::NotConnected => {
                    self.writable = false;
                    return Err(None);
                }
                Err(error) => error,
            },
        };
        Err(Some(self.fail(FailureClass::Connect, Cause::Io(error))))
    }

    /// Drives the TLS handshake as far as readiness allows: `Ok(true)` once it is complete
    /// (at once for plain TCP).
    fn handshake(&mut self) -> Result<bool, Cause> {
        loop {
            self.flush_pending()?;
            let Some(stream) = self.stream.as_mut() else {
                return Err(Cause::Closed);
            };
            if !stream.is_handshaking() {
                self.handshake = stream.handshake();
                return Ok(true);
            }
            if !self.readable {
                return Ok(false);
            }
            match stream.read_handshake() {
                Ok(true) => {}
                Ok(false) => return Err(Cause::Closed),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.readable = false;
                    return Ok(false);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Cause::from(e)),
            }
        }
    }

    /// Writes waiting TLS records while the socket takes them.
    fn flush_pending(&mut self) -> Result<(), Cause> {
        let Some(stream) = self.stream.as_mut() else {
            return Ok(());
        };
        if !self.writable || !stream.has_pending() {
            return Ok(());
        }
        match stream.flush_pending() {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                self.writable = false;
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(()),
            Err(e) => Err(Cause::from(e)),
        }
    }

    /// Input is there before the request's first byte is written (it came while the
    /// connection was idle, or before a new one sent anything): its end (a stale keep-alive
    /// connection) or error is the request's, as if read after it; bytes answer no request.
    fn read_before_request(&mut self, buffer: &mut [u8]) -> Option<Outcome> {
        loop {
            let stream = self.stream.as_mut()?;
            match stream.read(buffer) {
                Ok(0) => return Some(self.on_eof()),
                Ok(n) => {
                    self.note_received(&buffer[..n]);
                    return Some(self.fail(FailureClass::Exceptions, Cause::Unsolicited));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.readable = false;
                    return None;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Some(self.read_failure(e)),
            }
        }
    }

    /// A read failed: TLS's failures after the handshake are exceptions, others receive
    /// failures (or a stale connection's).
    fn read_failure(&mut self, error: io::Error) -> Outcome {
        let cause = Cause::from(error);
        let class = match cause {
            Cause::Tls(_) => FailureClass::Exceptions,
            _ => FailureClass::Receive,
        };
        self.stale_or(class, cause)
    }

    /// Counts bytes of the response (its first byte's time), and keeps them for `-v`.
    fn note_received(&mut self, bytes: &[u8]) {
        if self.received == 0 {
            self.first_byte = Instant::now();
        }
        self.received += bytes.len() as u64;
        if let Some(transcript) = &mut self.transcript {
            let room = MAX_TRANSCRIPT_BYTES.saturating_sub(transcript.len());
            transcript.extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
    }

    fn read(&mut self, buffer: &mut [u8]) -> Option<Outcome> {
        for _ in 0..READS_PER_TURN {
            let stream = self.stream.as_mut()?;
            let n = match stream.read(buffer) {
                Ok(0) => return Some(self.on_eof()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.readable = false;
                    return None;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Some(self.read_failure(e)),
            };
            self.note_received(&buffer[..n]);
            match self.parser.feed(&buffer[..n]) {
                Ok(Progress::Partial) if Instant::now() >= self.deadline => return None,
                Ok(Progress::Partial) => {}
                Ok(Progress::Complete { consumed }) if consumed < n => {
                    // Bytes beyond the response were not asked for (no request is
                    // pipelined): the response is not to be trusted either (a Content-Length
                    // too short), nor the connection.
                    return Some(self.fail(FailureClass::Exceptions, Cause::Unsolicited));
                }
                Ok(Progress::Complete { .. }) => {
                    // No read until `WouldBlock` after a complete response: the next response
                    // can only arrive after the next request, and its arrival is a new edge
                    // (epoll), so one syscall less. Bytes that come meanwhile are found before
                    // the next request is written, or with its response.
                    self.readable = false;
                    let reusable = self.parser.head().keeps_alive();
                    return Some(self.complete(reusable));
                }
                Err(error) => {
                    return Some(self.fail(FailureClass::Exceptions, Cause::Malformed(error)));
                }
            }
        }
        None
    }

    fn on_eof(&mut self) -> Outcome {
        if self.parser.finish().is_ok() {
            return self.complete(false);
        }
        self.stale_or(FailureClass::Receive, Cause::Closed)
    }

    fn complete(&mut self, reusable: bool) -> Outcome {
        let reusable = reusable && !self.peer_closed;
        self.phase = Phase::Idle;
        if !reusable {
            self.close();
        }
        Outcome::Response {
            status: self.parser.head().status,
            wire_bytes: self.parser.wire_bytes(),
            body_bytes: self.parser.body_bytes(),
            reusable,
            server: self.parser.take_server(),
        }
    }
}
