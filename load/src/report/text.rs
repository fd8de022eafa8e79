//! ApacheBench's report: its labels, order and number formats, then our additions.

use std::io::{self, Write};

use crate::cli::Options;
use crate::results::Results;

/// ab's `ap_round_ms`: microseconds to whole milliseconds, rounded.
fn round_ms(us: u64) -> u64 {
    (us + 500) / 1000
}

pub fn write(out: &mut impl Write, options: &Options, results: &Results) -> io::Result<()> {
    let r = results;
    let label = |name: &str| format!("{name}:");
    macro_rules! line {
        ($name:expr, $($value:tt)*) => {
            writeln!(out, "{:<24}{}", label($name), format!($($value)*))
        };
    }
    line!(
        "Server Software",
        "{}",
        r.server_software.as_deref().unwrap_or("")
    )?;
    line!("Server Hostname", "{}", options.url.host)?;
    line!("Server Port", "{}", options.url.port)?;
    writeln!(out)?;
    line!("Document Path", "{}", options.url.path)?;
    line!(
        "Document Length",
        "{} bytes",
        r.document_length_bytes.unwrap_or(0)
    )?;
    writeln!(out)?;
    line!("Concurrency Level", "{}", options.concurrency)?;
    line!("Time taken for tests", "{:.3} seconds", r.elapsed_s)?;
    line!("Complete requests", "{}", r.requests_completed)?;
    line!("Failed requests", "{}", r.requests_failed())?;
    if r.requests_failed() > 0 {
        let f = &r.failures;
        writeln!(
            out,
            "   (Connect: {}, Receive: {}, Length: {}, Exceptions: {})",
            f.connect, f.receive, f.length, f.exceptions
        )?;
    }
    if r.non_2xx_responses > 0 {
        line!("Non-2xx responses", "{}", r.non_2xx_responses)?;
    }
    line!("Keep-Alive requests", "{}", r.keep_alive_requests)?;
    line!("Total transferred", "{} bytes", r.total_transferred_bytes)?;
    line!("HTML transferred", "{} bytes", r.html_transferred_bytes)?;
    if r.elapsed_s > 0.0 && r.requests_completed > 0 {
        let done = r.requests_completed as f64;
        let per_request_ms = r.elapsed_s * 1000.0 / done;
        line!(
            "Requests per second",
            "{:.2} [#/sec] (mean)",
            r.requests_per_s()
        )?;
        line!(
            "Time per request",
            "{:.3} [ms] (mean)",
            options.concurrency as f64 * per_request_ms
        )?;
        line!(
            "Time per request",
            "{per_request_ms:.3} [ms] (mean, across all concurrent requests)"
        )?;
        line!(
            "Transfer rate",
            "{:.2} [Kbytes/sec] received",
            r.transfer_rate_bytes_per_s() / 1024.0
        )?;
    }
    let l = &r.latency_us;
    if r.requests_completed > 0 {
        writeln!(out)?;
        writeln!(
            out,
            "Percentage of the requests served within a certain time (ms)"
        )?;
        for (percent, us) in [
            (50, l.p50),
            (66, l.p66),
            (75, l.p75),
            (80, l.p80),
            (90, l.p90),
            (95, l.p95),
            (98, l.p98),
            (99, l.p99),
        ] {
            writeln!(out, "  {percent}%  {:5}", round_ms(us))?;
        }
        writeln!(out, " 100%  {:5} (longest request)", round_ms(l.max))?;
    }
    // Our additions.
    writeln!(out)?;
    line!(
        "Latency (us)",
        "min {}, mean {:.1}, sd {:.1}, max {}",
        l.min,
        l.mean,
        l.stdev,
        l.max
    )?;
    line!(
        "Latency percentiles",
        "50% {}, 90% {}, 99% {}, 99.9% {} [us]",
        l.p50,
        l.p90,
        l.p99,
        l.p99_9
    )?;
    line!("Status codes", "{}", counts(r.status_counts.iter()))?;
    line!("Errors by kind", "{}", counts(r.errors_by_kind.iter()))?;
    line!("Stale retries", "{}", r.stale_connection_retries)?;
    line!(
        "Client CPU time",
        "{:.3} [s] user, {:.3} [s] system",
        r.client_cpu_user_s,
        r.client_cpu_system_s
    )?;
    Ok(())
}

/// `200: 990, 404: 10`, or `none`.
fn counts<K: std::fmt::Display, V: std::fmt::Display>(
    items: impl Iterator<Item = (K, V)>,
) -> String {
    let parts: Vec<String> = items
        .map(|(key, count)| format!("{key}: {count}"))
        .collect();
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cli::Cli;
    use crate::stats::latency::LatencySummary;
    use crate::stats::recorder::Failures;
    use clap::Parser;
    use std::collections::BTreeMap;

    pub fn sample() -> (Options, Results) {
        let options = Cli::parse_from([
            "layerbench-load",
            "-n",
            "1000",
            "-c",
            "10",
            "-k",
            "http://127.0.0.1:8080/hello.txt",
        ])
        .into_options();
        let results = Results {
            server_software: Some("nginx/1.22.1".to_string()),
            document_length_bytes: Some(13),
            elapsed_s: 0.5,
            requests_completed: 1000,
            non_2xx_responses: 2,
            keep_alive_requests: 1000,
            stale_connection_retries: 0,
            failures: Failures {
                connect: 1,
                ..Failures::default()
            },
            status_counts: BTreeMap::from([(200, 998), (500, 2)]),
            errors_by_kind: BTreeMap::from([("ECONNREFUSED".to_string(), 1)]),
            total_transferred_bytes: 250_000,
            html_transferred_bytes: 13_000,
            latency_us: LatencySummary {
                min: 100,
                mean: 4500.26,
                stdev: 10.5,
                max: 12_400,
                p50: 4_400,
                p66: 4_500,
                p75: 4_600,
                p80: 4_700,
                p90: 4_800,
                p95: 5_000,
                p98: 6_000,
                p99: 7_000,
                p99_9: 9_000,
            },
            client_cpu_user_s: 0.1,
            client_cpu_system_s: 0.2,
            responses_seen: 1000,
            first_error: None,
        };
        (options, results)
    }

    #[test]
    fn ab_layout() {
        let (options, results) = sample();
        let mut out = Vec::new();
        write(&mut out, &options, &results).unwrap();
        let text = String::from_utf8(out).unwrap();
        let expected = "\
Server Software:        nginx/1.22.1
Server Hostname:        127.0.0.1
Server Port:            8080

Document Path:          /hello.txt
Document Length:        13 bytes

Concurrency Level:      10
Time taken for tests:   0.500 seconds
Complete requests:      1000
Failed requests:        1
   (Connect: 1, Receive: 0, Length: 0, Exceptions: 0)
Non-2xx responses:      2
Keep-Alive requests:    1000
Total transferred:      250000 bytes
HTML transferred:       13000 bytes
Requests per second:    2000.00 [#/sec] (mean)
Time per request:       5.000 [ms] (mean)
Time per request:       0.500 [ms] (mean, across all concurrent requests)
Transfer rate:          488.28 [Kbytes/sec] received

Percentage of the requests served within a certain time (ms)
  50%      4
  66%      5
  75%      5
  80%      5
  90%      5
  95%      5
  98%      6
  99%      7
 100%     12 (longest request)

Latency (us):           min 100, mean 4500.3, sd 10.5, max 12400
Latency percentiles:    50% 4400, 90% 4800, 99% 7000, 99.9% 9000 [us]
Status codes:           200: 998, 500: 2
Errors by kind:         ECONNREFUSED: 1
Stale retries:          0
Client CPU time:        0.100 [s] user, 0.200 [s] system
";
        assert_eq!(text, expected);
    }
}
