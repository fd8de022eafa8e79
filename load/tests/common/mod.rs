//! Test support: small HTTP servers on 127.0.0.1:0 (std::net, one thread per connection)
//! and a runner for the real binary, bounded in time.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

/// What the server does with one request.
pub enum Reply {
    /// Send these bytes and wait for the next request on the connection.
    Respond(Vec<u8>),
    /// Send these bytes and close the connection.
    RespondAndClose(Vec<u8>),
    /// Send nothing for this long, then close.
    Silence(Duration),
    /// Send these bytes, then nothing for this long, then close.
    RespondThenSilence(Vec<u8>, Duration),
    /// Send these bytes, then close as Apache does (lingering close): shut down the sending side
    /// at once, then read and discard what comes for at most this long, then close.
    RespondThenLingeringClose(Vec<u8>, Duration),
    /// Send these bytes, then reset the connection (SO_LINGER 0: the close sends an RST).
    RespondAndReset(Vec<u8>),
    /// Send these bytes one at a time, one every `every`, then close.
    Trickle { bytes: Vec<u8>, every: Duration },
    /// Send this head, then body bytes as fast as the client takes them, for at most this
    /// long, then close.
    Flood(Vec<u8>, Duration),
    /// Send a chunked response whose body never ends, in chunks of one byte (`1\r\nx\r\n`),
    /// written many at a time as fast as the client takes them, for at most this long, then
    /// close: the client's parsing, not the network, is what limits the pace.
    TinyChunks(Duration),
    /// Send these bytes, then after this long the others (which answer no request), and wait
    /// for the next request on the connection.
    RespondThenUnsolicited(Vec<u8>, Duration, Vec<u8>),
}

/// One request as the server saw it.
pub struct Request {
    /// Its number across the server's life, from 0.
    pub number: u64,
    /// Its number on its connection, from 0.
    pub on_connection: u64,
    pub head: String,
    /// The body, as long as the head's Content-Length says.
    pub body: Vec<u8>,
}

impl Request {
    /// The value of the first header called `name` (case-insensitive), if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.split("\r\n").skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// A test server; stopped when dropped. `log` keeps what it saw, for assertion messages.
pub struct TestServer {
    pub address: SocketAddr,
    pub requests: Arc<AtomicU64>,
    pub connections: Arc<AtomicU64>,
    pub log: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    accept: Option<thread::JoinHandle<()>>,
}

impl TestServer {
    pub fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let address = listener.local_addr().unwrap();
        let handler: Arc<Handler> = Arc::new(handler);
        let requests = Arc::new(AtomicU64::new(0));
        let connections = Arc::new(AtomicU64::new(0));
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let accept = {
            let (requests, connections, log, stop) = (
                requests.clone(),
                connections.clone(),
                log.clone(),
                stop.clone(),
            );
            thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    connections.fetch_add(1, Ordering::SeqCst);
                    let (handler, requests, log) = (handler.clone(), requests.clone(), log.clone());
                    thread::spawn(move || serve(stream, &*handler, &requests, &log));
                }
            })
        };
        TestServer {
            address,
            requests,
            connections,
            log,
            stop,
            accept: Some(accept),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.address, path)
    }

    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::SeqCst)
    }

    pub fn connections(&self) -> u64 {
        self.connections.load(Ordering::SeqCst)
    }

    pub fn log_tail(&self) -> String {
        let log = self.log.lock().unwrap();
        log[log.len().saturating_sub(10)..].join("\n")
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop up so that it sees the flag.
        let _ = TcpStream::connect_timeout(&self.address, Duration::from_secs(1));
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

fn serve(mut stream: TcpStream, handler: &Handler, requests: &AtomicU64, log: &Mutex<Vec<String>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = stream.set_nodelay(true);
    let mut pending = Vec::new();
    let mut buffer = [0u8; 4096];
    for on_connection in 0.. {
        let head = loop {
            if let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
                let head: Vec<u8> = pending.drain(..end + 4).collect();
                break String::from_utf8_lossy(&head).into_owned();
            }
            match stream.read(&mut buffer) {
                Ok(0) | Err(_) => return,
                Ok(n) => pending.extend_from_slice(&buffer[..n]),
            }
        };
        let request_stub = Request {
            number: 0,
            on_connection,
            head,
            body: Vec::new(),
        };
        let length: usize = request_stub
            .header("Content-Length")
            .and_then(|value| value.parse().ok())
            .unwrap_or(0);
        while pending.len() < length {
            match stream.read(&mut buffer) {
                Ok(0) | Err(_) => return,
                Ok(n) => pending.extend_from_slice(&buffer[..n]),
            }
        }
        let number = requests.fetch_add(1, Ordering::SeqCst);
        let request = Request {
            number,
            body: pending.drain(..length).collect(),
            ..request_stub
        };
        if number < 5 {
            log.lock().unwrap().push(request.head.clone());
        }
        match handler(&request) {
            Reply::Respond(bytes) => {
                if stream.write_all(&bytes).is_err() {
                    return;
                }
            }
            Reply::RespondAndClose(bytes) => {
                let _ = stream.write_all(&bytes);
                return;
            }
            Reply::Silence(duration) => {
                thread::sleep(duration);
                return;
            }
            Reply::RespondThenSilence(bytes, duration) => {
                let _ = stream.write_all(&bytes);
                thread::sleep(duration);
                return;
            }
            Reply::RespondThenLingeringClose(bytes, linger) => {
                let _ = stream.write_all(&bytes);
                let _ = stream.shutdown(std::net::Shutdown::Write);
                let started = Instant::now();
                let _ = stream.set_read_timeout(Some(linger));
                while started.elapsed() < linger {
                    match stream.read(&mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                }
                return;
            }
            Reply::RespondAndReset(bytes) => {
                let _ = stream.write_all(&bytes);
                reset(stream);
                return;
            }
            Reply::Trickle { bytes, every } => {
                for byte in bytes {
                    if stream.write_all(&[byte]).is_err() {
                        return;
                    }
                    thread::sleep(every);
                }
                return;
            }
            Reply::Flood(head, limit) => {
                let started = Instant::now();
                let body = [b'x'; 64 * 1024];
                let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
                let _ = stream.write_all(&head);
                while started.elapsed() < limit {
                    match stream.write(&body) {
                        Ok(_) => {}
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                        Err(_) => return,
                    }
                }
                return;
            }
            Reply::RespondThenUnsolicited(bytes, delay, unsolicited) => {
                let _ = stream.write_all(&bytes);
                thread::sleep(delay);
                if stream.write_all(&unsolicited).is_err() {
                    return;
                }
            }
            Reply::TinyChunks(limit) => {
                let started = Instant::now();
                let chunks = b"1\r\nx\r\n".repeat(10_000);
                let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
                while started.elapsed() < limit {
                    if stream.write_all(&chunks).is_err() {
                        return;
                    }
                }
                return;
            }
        }
    }
}

/// Closes the connection with an RST instead of a FIN (SO_LINGER on, 0 s).
pub fn reset(stream: TcpStream) {
    use std::os::fd::AsRawFd;
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: setsockopt(2) on an open socket, with a pointer to a live `linger` of the
    // size given.
    let result = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&raw const linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        )
    };
    assert_eq!(result, 0, "SO_LINGER: {}", std::io::Error::last_os_error());
    drop(stream);
}

/// A server that accepts connections and then does nothing with them: never reads, never
/// writes, never closes (until dropped). Stopped when dropped.
pub struct MuteServer {
    pub address: SocketAddr,
    pub connections: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    accept: Option<thread::JoinHandle<()>>,
}

impl MuteServer {
    pub fn start() -> MuteServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let address = listener.local_addr().unwrap();
        let connections = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let accept = {
            let (connections, stop) = (connections.clone(), stop.clone());
            thread::spawn(move || {
                let mut held = Vec::new();
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(stream) = stream {
                        connections.fetch_add(1, Ordering::SeqCst);
                        held.push(stream);
                    }
                }
            })
        };
        MuteServer {
            address,
            connections,
            stop,
            accept: Some(accept),
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }
}

impl Drop for MuteServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect_timeout(&self.address, Duration::from_secs(1));
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

/// A listening socket that never accepts, its backlog of 0 filled by the test itself: the
/// kernel drops further SYNs, so a connect neither succeeds nor fails.
pub struct FullBacklog {
    pub address: SocketAddr,
    _listener: TcpListener,
    _queued: Vec<TcpStream>,
}

impl FullBacklog {
    pub fn start() -> FullBacklog {
        use std::os::fd::AsRawFd;
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let address = listener.local_addr().unwrap();
        // std has no backlog parameter; listen(2) again sets it.
        // SAFETY: listen(2) on the bound socket that `listener` owns.
        let result = unsafe { libc::listen(listener.as_raw_fd(), 0) };
        assert_eq!(result, 0, "listen: {}", std::io::Error::last_os_error());
        let mut queued = Vec::new();
        loop {
            match TcpStream::connect_timeout(&address, Duration::from_millis(200)) {
                Ok(stream) if queued.len() < 8 => queued.push(stream),
                Ok(_) => panic!("the backlog of {address} never filled"),
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => break,
                Err(e) => panic!("connect to {address}: {e}"),
            }
        }
        FullBacklog {
            address,
            _listener: listener,
            _queued: queued,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }
}

/// `200 OK` with a Content-Length body and a `Server` header.
/// A loopback port that nothing listens on (bound for a moment, then let go).
pub fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

pub fn ok(body: &str) -> Vec<u8> {
    response("200 OK", "", body)
}

pub fn response(status: &str, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status}\r\nServer: test-server\r\nContent-Length: {}\r\n{headers}\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// How a run of the binary ended.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
}

impl Run {
    /// The JSON document on stdout (for runs with `--json -`).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}):\n{}\nstderr: {}",
                self.stdout, self.stderr
            )
        })
    }
}

pub const RUN_LIMIT: Duration = Duration::from_secs(30);

pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_layerbench-load"))
        .args(engine_args(args))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start layerbench-load")
}

/// `LAYERBENCH_LOAD_IO=io_uring` runs every test that the engine can take (plain http://,
/// the closed loop, no engine of its own) with `--io io_uring`, and with
/// `LAYERBENCH_LOAD_BATCH_WAIT=US` also `--batch-wait US`: `make test` runs the integration
/// tests once per engine, and io_uring's once more with batched waits.
fn engine_args(args: &[&str]) -> Vec<String> {
    let Ok(engine) = std::env::var("LAYERBENCH_LOAD_IO") else {
        return Vec::new();
    };
    let engine_chosen = args.iter().any(|arg| {
        *arg == "--rate" || *arg == "--io" || *arg == "--batch-wait" || arg.starts_with("https://")
    });
    if engine_chosen {
        return Vec::new();
    }
    let mut added = vec!["--io".to_string(), engine];
    if let Ok(wait) = std::env::var("LAYERBENCH_LOAD_BATCH_WAIT") {
        added.extend(["--batch-wait".to_string(), wait]);
    }
    added
}

/// Waits for the child, killing it (and failing the test) past `RUN_LIMIT`.
pub fn finish(mut child: Child, started: Instant) -> Run {
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err = thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "layerbench-load did not finish within {RUN_LIMIT:?}: {}",
                err.join().unwrap()
            );
        }
        thread::sleep(Duration::from_millis(5));
    };
    let run = Run {
        code: status.code(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        wall: started.elapsed(),
    };
    assert!(!run.stderr.contains("panicked"), "panic: {}", run.stderr);
    run
}

/// Runs the binary to the end.
pub fn run_load(args: &[&str]) -> Run {
    let started = Instant::now();
    finish(spawn(args), started)
}

/// Checks a document against the contract: valid under the schema (every key and no other,
/// each of its type), and its figures consistent with each other and with its histograms.
pub fn assert_contract(doc: &Value) {
    schema::assert_valid(doc);
    histograms::assert_histograms_agree(doc);
    assert_by_url_adds_up(doc);
    let failures: u64 = ["connect", "receive", "length", "exceptions"]
        .iter()
        .map(|k| doc["failures"][k].as_u64().unwrap())
        .sum();
    assert_eq!(
        doc["requests_failed"].as_u64().unwrap(),
        failures,
        "requests_failed is the sum"
    );
    let by_kind: u64 = doc["errors_by_kind"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(
        by_kind, failures,
        "errors_by_kind adds up to requests_failed"
    );
    for (phase, summary) in doc["connection_times_us"].as_object().unwrap() {
        let (min, median, max) = (
            summary["min"].as_u64().unwrap(),
            summary["median"].as_u64().unwrap(),
            summary["max"].as_u64().unwrap(),
        );
        assert!(min <= median && median <= max, "{phase}: {summary}");
    }
    assert_eq!(
        doc["connection_times_us"]["total"]["max"], doc["latency_us"]["max"],
        "total is the latency"
    );
}

/// `by_url` (with `--urls`) has a URL's figures for each URL of the list, and they add up to
/// the run's; it is empty for a run of one URL.
fn assert_by_url_adds_up(doc: &Value) {
    let by_url = doc["by_url"].as_array().expect("by_url is an array");
    let listed = doc["options"]["urls"].as_array().expect("options.urls");
    if listed.len() == 1 {
        assert!(by_url.is_empty(), "by_url of a one-URL run: {by_url:?}");
        return;
    }
    assert_eq!(by_url.len(), listed.len(), "a figure for every URL listed");
    for name in ["requests_completed", "requests_failed"] {
        let sum: u64 = by_url.iter().map(|url| url[name].as_u64().unwrap()).sum();
        assert_eq!(Some(sum), doc[name].as_u64(), "{name} by URL add up");
    }
}

/// Writes a `--urls` file, removed when the returned guard is dropped.
pub fn url_list(name: &str, lines: &[String]) -> TempFile {
    let file = TempFile::new(name, "urls");
    std::fs::write(&file, lines.join("\n")).unwrap();
    file
}

/// A temporary file's path, unique to this test process and `name`; the file, if any was
/// written there, is removed when the guard is dropped (when the test fails too), so that the
/// tests leave nothing behind in the temporary directory.
pub struct TempFile(std::path::PathBuf);

impl TempFile {
    pub fn new(name: &str, extension: &str) -> TempFile {
        TempFile(std::env::temp_dir().join(format!(
            "layerbench-load-test-{}-{name}.{extension}",
            std::process::id()
        )))
    }

    pub fn as_str(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary directory")
    }
}

impl std::ops::Deref for TempFile {
    type Target = std::path::Path;

    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for TempFile {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

pub mod histograms;
pub mod schema;
pub mod tls_server;
