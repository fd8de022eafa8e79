//! Command-line options (ab's flags) and their checked form, [`Options`].

use std::net::IpAddr;
use std::path::Path;
use std::time::Duration;

use clap::Parser;

use crate::client::engine::IoEngine;
use crate::http::header::Header;
use crate::http::request::Body;
use crate::input_file;
use crate::sources::SourceAddresses;
use crate::tls::{CaFile, TlsOptions, Trust, Versions};
use crate::url::Url;
use crate::url_list::{self, UrlList, WeightedUrl};

/// HTTP/1.1 load generator with ApacheBench's flags and report.
#[derive(Debug, Parser)]
#[command(
    name = "layerbench-load",
    version,
    about,
    max_term_width = 100,
    after_help = "Merge several clients' JSON documents into one, histograms added exactly:\n  \
                  layerbench-load merge FILE... [-o OUT] (see layerbench-load merge --help)"
)]
pub struct Cli {
    /// The URL to request: http://HOST[:PORT]/PATH or https://HOST[:PORT]/PATH
    #[arg(value_parser = parse_url, required_unless_present = "urls", conflicts_with = "urls")]
    url: Option<Url>,
    /// Request weighted URLs instead of one: FILE has a `WEIGHT URL` per line (`9
    /// http://h/hit`, `1 http://h/miss`), all on one server; each URL gets its weight's share
    /// of the requests, in a fixed interleaved order (a regular file of at most 1 MiB)
    #[arg(long, value_name = "FILE", value_parser = url_list::read)]
    urls: Option<UrlList>,
    /// Number of requests across all connections [default: 1, or unlimited with -t]
    #[arg(short = 'n', long = "requests", value_name = "REQUESTS",
          value_parser = clap::value_parser!(u64).range(1..))]
    requests: Option<u64>,
    /// Number of connections kept busy at once
    #[arg(short = 'c', long = "concurrency", value_name = "CONCURRENCY", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    concurrency: u32,
    /// Keep connections open between requests (HTTP keep-alive)
    #[arg(short = 'k', long = "keep-alive")]
    keep_alive: bool,
    /// Time limit in seconds, after the warm-up; with -n, whichever ends first
    #[arg(short = 't', long = "time-limit", value_name = "SECONDS", value_parser = positive_seconds)]
    time_limit: Option<Duration>,
    /// Seconds to wait for each response before counting it as a timeout
    #[arg(short = 's', long = "timeout", value_name = "SECONDS", default_value = "30",
          value_parser = positive_seconds)]
    timeout: Duration,
    /// Number of threads, each with its own event loop; connections are divided among them
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Seconds of load before measuring; nothing completed during it is counted
    #[arg(long, value_name = "SECONDS", default_value = "0", value_parser = non_negative_seconds)]
    warmup: Duration,
    /// Open loop: send R requests per second in all, whatever the server does (wrk2); latency
    /// counts from when each request was due
    #[arg(long, value_name = "R", value_parser = positive_rate)]
    rate: Option<f64>,
    /// How sockets are driven: epoll, or io_uring (batched submissions and multishot
    /// receive; plain http:// in the closed loop, Linux 6.0 or later)
    #[arg(long = "io", value_name = "ENGINE", value_enum, default_value_t = IoEngine::Epoll)]
    io: IoEngine,
    /// io_uring: let a wait gather responses for up to this many microseconds before the
    /// client wakes (on its first response after it): fewer wake-ups and less client CPU per
    /// request; each response's latency may count up to this wait (Linux 6.12 or later)
    #[arg(long = "batch-wait", value_name = "MICROSECONDS",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    batch_wait: Option<u32>,
    /// Write the results as JSON to FILE (`-` for stdout, which replaces the text report)
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Quiet: no report on stdout and no progress line
    #[arg(short = 'q', long)]
    quiet: bool,
    /// Local addresses to spread connections over, e.g. 127.0.0.1-127.0.0.255 (a list, with
    /// IPv4 ranges): without keep-alive, more than one loopback source's ~28,000 ports
    #[arg(long, value_name = "ADDRESSES", value_parser = crate::sources::parse_list)]
    source_addresses: Option<SourceAddresses>,
    /// Extra header, as ab: -H "Name: value" (repeatable; a Host, User-Agent, Accept or
    /// Connection header replaces ours)
    #[arg(short = 'H', long = "header", value_name = "HEADER", value_parser = parse_header)]
    headers: Vec<Header>,
    /// Request method [default: GET, POST with -p, PUT with -u, HEAD with -i]
    #[arg(short = 'm', long = "method", value_name = "METHOD", value_parser = parse_method)]
    method: Option<String>,
    /// POST the contents of FILE as the request body (a regular file of at most 64 MiB)
    #[arg(short = 'p', long = "post-file", value_name = "FILE", value_parser = read_body,
          conflicts_with_all = ["put_file", "head"])]
    post_file: Option<BodyFile>,
    /// PUT the contents of FILE as the request body (a regular file of at most 64 MiB)
    #[arg(short = 'u', long = "put-file", value_name = "FILE", value_parser = read_body,
          conflicts_with = "head")]
    put_file: Option<BodyFile>,
    /// Content-Type of the body of -p or -u
    #[arg(short = 'T', long = "content-type", value_name = "TYPE", default_value = "text/plain",
          value_parser = parse_header_value)]
    content_type: String,
    /// Send HEAD requests
    #[arg(short = 'i', long)]
    head: bool,
    /// Verbosity, as ab: 2 or more prints the request and the first response head to stderr
    #[arg(
        short = 'v',
        long = "verbosity",
        value_name = "LEVEL",
        default_value_t = 0
    )]
    verbosity: u8,
    /// Accept a variable document length: bodies of another length are not failures
    #[arg(short = 'l', long = "variable-length")]
    variable_length: bool,
    /// HTTPS: trust the CA certificates in this PEM file instead of the system's (a regular
    /// file of at most 16 MiB)
    #[arg(long, value_name = "FILE", conflicts_with = "insecure", value_parser = CaFile::read)]
    cacert: Option<CaFile>,
    /// HTTPS: accept any server certificate (its name and issuer are not checked)
    #[arg(long)]
    insecure: bool,
    /// HTTPS protocol, as ab: TLS1.2, TLS1.3 or ALL
    #[arg(short = 'f', long = "protocol", value_name = "PROTOCOL", default_value = "ALL",
          value_parser = Versions::parse)]
    protocol: Versions,
    /// Accepted for ab's sake: receive errors never end a run here, they are counted
    #[arg(short = 'r')]
    _keep_going_on_receive_errors: bool,
}

/// A request body read from a file (-p, -u).
#[derive(Debug, Clone)]
pub struct BodyFile {
    pub bytes: Vec<u8>,
}

/// Where the JSON goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonTarget {
    Stdout,
    File(String),
}

/// The checked options of one run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The first URL: the server, and the Document Path of ab's report.
    pub url: Url,
    /// Every URL of the run with its weight: `url` alone, weighing 1, without `--urls`.
    pub urls: Vec<WeightedUrl>,
    /// Total requests; `None` = until the time limit.
    pub requests: Option<u64>,
    /// Measured duration after the warm-up; `None` = until `requests` are done.
    pub duration: Option<Duration>,
    pub concurrency: usize,
    /// At most `concurrency`: a thread without a connection would have nothing to do.
    pub threads: usize,
    pub keep_alive: bool,
    pub warmup: Duration,
    /// `--rate`: requests per second in all (the open loop); `None` = the closed loop.
    pub rate_per_s: Option<f64>,
    pub timeout: Duration,
    pub json: Option<JsonTarget>,
    /// Local addresses connections are opened from, in turn; empty = the kernel's choice.
    pub source_addresses: Vec<IpAddr>,
    /// Print the text report (not with -q, nor when the JSON goes to stdout).
    pub text_report: bool,
    /// `GET`, or as -m, -p, -u, -i say.
    pub method: String,
    /// -H headers, in the order given.
    pub headers: Vec<Header>,
    /// The body of -p or -u, with its Content-Type.
    pub body: Option<Body>,
    /// -v: 2 or more shows the request and the first response head.
    pub verbosity: u8,
    /// -l: bodies of another length than the first are not length failures.
    pub variable_length: bool,
    /// The progress line on stderr (not with -q; only when stderr is a terminal).
    pub progress: bool,
    /// For `https://`: which certificates to trust, which versions to offer.
    pub tls: TlsOptions,
    /// `--io`: the engine that drives the sockets.
    pub io: IoEngine,
    /// `--batch-wait`: io_uring's waits gather completions for up to this many microseconds.
    pub batch_wait_us: Option<u32>,
}

impl Cli {
    pub fn into_options(self) -> Options {
        // ab: -t without -n runs until the time is up; neither given means one request.
        let requests = match (self.requests, self.time_limit) {
            (None, None) => Some(1),
            (requests, _) => requests,
        };
        let concurrency = self.concurrency as usize;
        let json = self.json.map(|target| match target.as_str() {
            "-" => JsonTarget::Stdout,
            _ => JsonTarget::File(target),
        });
        let (default_method, body) = match (self.post_file, self.put_file) {
            (Some(file), _) => ("POST", Some(file)),
            (None, Some(file)) => ("PUT", Some(file)),
            (None, None) if self.head => ("HEAD", None),
            (None, None) => ("GET", None),
        };
        let urls = match (self.urls, self.url) {
            (Some(UrlList(urls)), _) => urls,
            (None, Some(url)) => vec![WeightedUrl { weight: 1, url }],
            (None, None) => unreachable!("clap requires a URL or --urls"),
        };
        let trust = match (self.cacert, self.insecure) {
            (Some(ca), _) => Trust::CaFile(ca),
            (None, true) => Trust::Anything,
            (None, false) => Trust::System,
        };
        Options {
            tls: TlsOptions {
                trust,
                versions: self.protocol,
            },
            method: self.method.unwrap_or_else(|| default_method.to_string()),
            headers: self.headers,
            body: body.map(|file| Body {
                bytes: file.bytes,
                content_type: self.content_type,
            }),
            verbosity: self.verbosity,
            variable_length: self.variable_length,
            progress: !self.quiet,
            url: urls[0].url.clone(),
            urls,
            requests,
            duration: self.time_limit,
            concurrency,
            threads: (self.threads as usize).min(concurrency),
            keep_alive: self.keep_alive,
            warmup: self.warmup,
            rate_per_s: self.rate,
            timeout: self.timeout,
            source_addresses: self.source_addresses.map(|list| list.0).unwrap_or_default(),
            text_report: !self.quiet && json != Some(JsonTarget::Stdout),
            json,
            io: self.io,
            batch_wait_us: self.batch_wait,
        }
    }
}

fn parse_url(text: &str) -> Result<Url, String> {
    Url::parse(text).map_err(|error| format!("{error}"))
}

fn parse_header(text: &str) -> Result<Header, String> {
    Header::parse(text).map_err(|error| format!("{error}"))
}

fn parse_header_value(text: &str) -> Result<String, String> {
    Header::check_value(text).map_err(|error| format!("{error}"))?;
    Ok(text.trim().to_string())
}

fn parse_method(text: &str) -> Result<String, String> {
    if !text.is_empty() && text.bytes().all(crate::http::header::is_token_byte) {
        Ok(text.to_string())
    } else {
        Err(format!(
            "{text:?} is not an HTTP method (letters, digits and !#$%&'*+-.^_`|~)"
        ))
    }
}

fn read_body(path: &str) -> Result<BodyFile, String> {
    input_file::read(Path::new(path), input_file::MAX_BODY_BYTES).map(|bytes| BodyFile { bytes })
}

fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(0.0..=1e9).contains(&value) {
        return Err(format!("{text} seconds is out of range (0 to 1e9)"));
    }
    Ok(Duration::from_secs_f64(value))
}

fn positive_seconds(text: &str) -> Result<Duration, String> {
    match seconds(text)? {
        Duration::ZERO => Err("must be more than 0 seconds".to_string()),
        duration => Ok(duration),
    }
}

fn non_negative_seconds(text: &str) -> Result<Duration, String> {
    seconds(text)
}

/// The highest rate: one request a nanosecond is beyond any HTTP client.
const MAX_RATE_PER_S: f64 = 1e9;

fn positive_rate(text: &str) -> Result<f64, String> {
    let rate: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of requests per second"))?;
    if !(rate > 0.0 && rate <= MAX_RATE_PER_S) {
        return Err(format!(
            "must be more than 0 and at most {MAX_RATE_PER_S:e} requests per second"
        ));
    }
    Ok(rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(args: &[&str]) -> Options {
        let argv = std::iter::once("layerbench-load").chain(args.iter().copied());
        Cli::try_parse_from(argv).unwrap().into_options()
    }

    #[test]
    fn ab_defaults() {
        let o = options(&["http://h/"]);
        assert_eq!((o.requests, o.duration, o.concurrency), (Some(1), None, 1));
        assert_eq!(o.timeout, Duration::from_secs(30));
        assert!(o.text_report && !o.keep_alive);
    }

    #[test]
    fn time_limit_alone_is_unbounded_in_count() {
        let o = options(&["-t", "2.5", "-c", "8", "--threads", "16", "http://h/"]);
        assert_eq!(o.requests, None);
        assert_eq!(o.duration, Some(Duration::from_millis(2500)));
        assert_eq!(o.threads, 8);
    }

    #[test]
    fn json_to_stdout_replaces_the_text() {
        let o = options(&["--json", "-", "-n", "5", "-k", "http://h/"]);
        assert_eq!(o.json, Some(JsonTarget::Stdout));
        assert!(!o.text_report && o.keep_alive);
        assert!(!options(&["-q", "http://h/"]).text_report);
    }

    #[test]
    fn weighted_urls_from_a_file() {
        let path = std::env::temp_dir().join(format!("urls-{}.txt", std::process::id()));
        std::fs::write(&path, "3 http://h:9/a\n1 http://h:9/b\n").unwrap();
        let o = options(&["--urls", path.to_str().unwrap(), "-n", "8"]);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(o.url.path, "/a");
        let weights: Vec<u32> = o.urls.iter().map(|u| u.weight).collect();
        assert_eq!(weights, [3, 1]);
        assert_eq!(options(&["http://h/x"]).urls[0].weight, 1);
    }

    /// The limits that `input_file` keeps are the ones `--help` states.
    #[test]
    fn help_states_the_file_limits() {
        use clap::CommandFactory;
        let help = Cli::command()
            .render_long_help()
            .to_string()
            .replace('\n', " ");
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        for limit in [
            input_file::MAX_BODY_BYTES,
            input_file::MAX_URL_LIST_BYTES,
            input_file::MAX_CA_FILE_BYTES,
        ] {
            let stated = format!("a regular file of at most {} MiB", limit >> 20);
            assert!(help.contains(&stated), "{stated}: {help}");
        }
        let bodies = format!(
            "body (a regular file of at most {} MiB)",
            input_file::MAX_BODY_BYTES >> 20
        );
        assert_eq!(help.matches(&bodies).count(), 2, "-p and -u: {help}");
    }

    #[test]
    fn refusals() {
        for args in [
            &["ftp://h/"][..],
            &["-f", "SSL3", "https://h/"],
            &["--cacert", "ca.pem", "--insecure", "https://h/"],
            &["-c", "0", "http://h/"],
            &["-n", "0", "http://h/"],
            &["-t", "0", "http://h/"],
            &["-t", "-1", "http://h/"],
            &["-s", "nan", "http://h/"],
            &["--warmup", "x", "http://h/"],
            &["--rate", "0", "http://h/"],
            &["--rate", "-5", "http://h/"],
            &["--rate", "fast", "http://h/"],
            &["--rate", "inf", "http://h/"],
            &["--rate", "NaN", "http://h/"],
            &["--urls", "/nonexistent/urls.txt"],
            &["--urls", "/dev/null", "http://h/"],
            &[],
        ] {
            let argv = std::iter::once("layerbench-load").chain(args.iter().copied());
            assert!(Cli::try_parse_from(argv).is_err(), "{args:?}");
        }
    }
}
