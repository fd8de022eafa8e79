//! Command-line options (ab's flags) and their checked form, [`Options`].

use std::net::IpAddr;
use std::time::Duration;

use clap::Parser;

use crate::sources::SourceAddresses;
use crate::url::Url;

/// HTTP/1.1 load generator with ApacheBench's flags and report.
#[derive(Debug, Parser)]
#[command(name = "layerbench-load", version, about, max_term_width = 100)]
pub struct Cli {
    /// The URL to request: http://HOST[:PORT]/PATH
    #[arg(value_parser = parse_url)]
    url: Url,
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
    /// Write the results as JSON to FILE (`-` for stdout, which replaces the text report)
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Quiet: no report on stdout
    #[arg(short = 'q', long)]
    quiet: bool,
    /// Local addresses to spread connections over, e.g. 127.0.0.1-127.0.0.255 (a list, with
    /// IPv4 ranges): without keep-alive, more than one loopback source's ~28,000 ports
    #[arg(long, value_name = "ADDRESSES", value_parser = crate::sources::parse_list)]
    source_addresses: Option<SourceAddresses>,
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
    pub url: Url,
    /// Total requests; `None` = until the time limit.
    pub requests: Option<u64>,
    /// Measured duration after the warm-up; `None` = until `requests` are done.
    pub duration: Option<Duration>,
    pub concurrency: usize,
    /// At most `concurrency`: a thread without a connection would have nothing to do.
    pub threads: usize,
    pub keep_alive: bool,
    pub warmup: Duration,
    pub timeout: Duration,
    pub json: Option<JsonTarget>,
    /// Local addresses connections are opened from, in turn; empty = the kernel's choice.
    pub source_addresses: Vec<IpAddr>,
    /// Print the text report (not with -q, nor when the JSON goes to stdout).
    pub text_report: bool,
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
        Options {
            url: self.url,
            requests,
            duration: self.time_limit,
            concurrency,
            threads: (self.threads as usize).min(concurrency),
            keep_alive: self.keep_alive,
            warmup: self.warmup,
            timeout: self.timeout,
            source_addresses: self.source_addresses.map(|list| list.0).unwrap_or_default(),
            text_report: !self.quiet && json != Some(JsonTarget::Stdout),
            json,
        }
    }
}

fn parse_url(text: &str) -> Result<Url, String> {
    Url::parse(text).map_err(|error| format!("{error}"))
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
    fn refusals() {
        for args in [
            &["https://h/"][..],
            &["-c", "0", "http://h/"],
            &["-n", "0", "http://h/"],
            &["-t", "0", "http://h/"],
            &["-t", "-1", "http://h/"],
            &["-s", "nan", "http://h/"],
            &["--warmup", "x", "http://h/"],
            &[],
        ] {
            let argv = std::iter::once("layerbench-load").chain(args.iter().copied());
            assert!(Cli::try_parse_from(argv).is_err(), "{args:?}");
        }
    }
}
