//! ApacheBench's report: its labels, order and number formats (ab 2.3, `support/ab.c`
//! `output_results`), then our additions under their own heading.

use std::io::{self, Write};

use crate::cli::Options;
use crate::results::{CLIENT_BOUND_CPU_FRACTION, RateResults, Results, TlsResults, UrlResults};
use crate::stats::latency::LatencySummary;
use crate::stats::phases::PhaseSummary;

/// ab's `ap_round_ms`: microseconds to whole milliseconds, rounded.
fn round_ms(us: u64) -> u64 {
    (us + 500) / 1000
}

/// `Label:` padded to ab's value column.
fn label(name: &str) -> String {
    format!("{:<24}", format!("{name}:"))
}

pub fn write(out: &mut impl Write, options: &Options, results: &Results) -> io::Result<()> {
    write_ab(out, options, results)?;
    write_additions(out, options, results)
}

/// ab's block, line for line.
fn write_ab(out: &mut impl Write, options: &Options, r: &Results) -> io::Result<()> {
    let sending = options.body.is_some();
    let server = r.server_software.as_deref().unwrap_or("");
    writeln!(out, "{}{server}", label("Server Software"))?;
    writeln!(out, "{}{}", label("Server Hostname"), options.url.host)?;
    writeln!(out, "{}{}", label("Server Port"), options.url.port)?;
    if let Some(tls) = &r.tls {
        write_tls_lines(out, options, tls)?;
    }
    writeln!(out)?;
    writeln!(out, "{}{}", label("Document Path"), options.url.path)?;
    if options.variable_length {
        writeln!(out, "{}Variable", label("Document Length"))?;
    } else {
        let length = r.document_length_bytes.unwrap_or(0);
        writeln!(out, "{}{length} bytes", label("Document Length"))?;
    }
    writeln!(out)?;
    writeln!(out, "{}{}", label("Concurrency Level"), options.concurrency)?;
    writeln!(
        out,
        "{}{:.3} seconds",
        label("Time taken for tests"),
        r.elapsed_s
    )?;
    writeln!(
        out,
        "{}{}",
        label("Complete requests"),
        r.requests_completed
    )?;
    writeln!(out, "{}{}", label("Failed requests"), r.requests_failed)?;
    if r.requests_failed > 0 {
        let f = &r.failures;
        writeln!(
            out,
            "   (Connect: {}, Receive: {}, Length: {}, Exceptions: {})",
            f.connect, f.receive, f.length, f.exceptions
        )?;
    }
    if r.non_2xx_responses > 0 {
        writeln!(out, "{}{}", label("Non-2xx responses"), r.non_2xx_responses)?;
    }
    if options.keep_alive {
        writeln!(
            out,
            "{}{}",
            label("Keep-Alive requests"),
            r.keep_alive_requests
        )?;
    }
    let received = r.total_transferred_bytes;
    writeln!(out, "{}{received} bytes", label("Total transferred"))?;
    if sending {
        // ab counts every byte of the requests here, heads included, and prints no unit.
        writeln!(out, "{}{}", label("Total body sent"), r.sent_bytes)?;
    }
    writeln!(
        out,
        "{}{} bytes",
        label("HTML transferred"),
        r.html_transferred_bytes
    )?;
    if r.elapsed_s > 0.0 && r.requests_completed > 0 {
        let done = r.requests_completed as f64;
        let per_request_ms = r.elapsed_s * 1000.0 / done;
        let concurrency = options.concurrency as f64;
        let kib_per_s = |bytes: u64| bytes as f64 / 1024.0 / r.elapsed_s;
        writeln!(
            out,
            "{}{:.2} [#/sec] (mean)",
            label("Requests per second"),
            done / r.elapsed_s
        )?;
        writeln!(
            out,
            "{}{:.3} [ms] (mean)",
            label("Time per request"),
            concurrency * per_request_ms
        )?;
        writeln!(
            out,
            "{}{per_request_ms:.3} [ms] (mean, across all concurrent requests)",
            label("Time per request")
        )?;
        writeln!(
            out,
            "{}{:.2} [Kbytes/sec] received",
            label("Transfer rate"),
            kib_per_s(received)
        )?;
        if sending {
            let pad = " ".repeat(24);
            writeln!(out, "{pad}{:.2} kb/s sent", kib_per_s(r.sent_bytes))?;
            writeln!(
                out,
                "{pad}{:.2} kb/s total",
                kib_per_s(received + r.sent_bytes)
            )?;
        }
    }
    if r.requests_completed > 0 {
        write_connection_times(out, r)?;
    }
    if r.requests_completed > 1 {
        write_percentages(out, r)?;
    }
    Ok(())
}

/// One phase in ms as ab shows it: min, mean (of whole µs), sd, median, max.
struct Row {
    min: u64,
    mean: u64,
    sd: f64,
    median: u64,
    max: u64,
}

impl Row {
    fn new(phase: &PhaseSummary) -> Row {
        Row {
            min: round_ms(phase.min),
            // ab divides the µs total by the count in integers, then rounds to ms.
            mean: round_ms(phase.mean as u64),
            sd: phase.stdev / 1000.0,
            median: round_ms(phase.median),
            max: round_ms(phase.max),
        }
    }
}

/// ab's table with its `%5d %4d %5.1f %6d %7d` columns and its sanity warnings.
fn write_connection_times(out: &mut impl Write, r: &Results) -> io::Result<()> {
    let t = &r.connection_times_us;
    let rows = [
        (
            "Connect:    ",
            Row::new(&t.connect),
            "the initial connection time",
        ),
        (
            "Processing: ",
            Row::new(&t.processing),
            "the processing time",
        ),
        ("Waiting:    ", Row::new(&t.waiting), "the waiting time"),
        ("Total:      ", Row::new(&t.total), "the total time"),
    ];
    writeln!(out)?;
    writeln!(out, "Connection Times (ms)")?;
    writeln!(out, "              min  mean[+/-sd] median   max")?;
    for (name, row, _) in &rows {
        writeln!(
            out,
            "{name}{:5} {:4} {:5.1} {:6} {:7}",
            row.min, row.mean, row.sd, row.median, row.max
        )?;
    }
    for (_, row, what) in &rows {
        let apart = (row.mean as f64 - row.median as f64).abs();
        if apart > 2.0 * row.sd {
            writeln!(
                out,
                "ERROR: The median and mean for {what} are more than twice the standard\n       \
                 deviation apart. These results are NOT reliable."
            )?;
        } else if apart > row.sd {
            writeln!(
                out,
                "WARNING: The median and mean for {what} are not within a normal deviation\n        \
                 These results are probably not that reliable."
            )?;
        }
    }
    Ok(())
}

fn write_percentages(out: &mut impl Write, r: &Results) -> io::Result<()> {
    let l = &r.latency_us;
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
    writeln!(out, " 100%  {:5} (longest request)", round_ms(l.max))
}

/// ab's lines for an SSL/TLS run: protocol and cipher, and the name sent with SNI.
fn write_tls_lines(out: &mut impl Write, options: &Options, tls: &TlsResults) -> io::Result<()> {
    if let (Some(protocol), Some(suite)) = (&tls.protocol, &tls.cipher_suite) {
        writeln!(out, "{}{protocol},{suite}", label("SSL/TLS Protocol"))?;
    }
    let host = &options.url.host;
    if host.parse::<std::net::IpAddr>().is_err() {
        writeln!(out, "{}{host}", label("TLS Server Name"))?;
    }
    Ok(())
}

/// What ab does not show: µs latencies with p99.9, statuses, errors, the client's CPU.
fn write_additions(out: &mut impl Write, options: &Options, r: &Results) -> io::Result<()> {
    let l = &r.latency_us;
    writeln!(out)?;
    writeln!(
        out,
        "Beyond ab (layerbench-load; latency in us, HdrHistogram):"
    )?;
    writeln!(
        out,
        "{}min {}, mean {:.1}, sd {:.1}, max {}",
        label("Latency (us)"),
        l.min,
        l.mean,
        l.stdev,
        l.max
    )?;
    writeln!(
        out,
        "{}50% {}, 90% {}, 99% {}, 99.9% {} [us]",
        label("Latency percentiles"),
        l.p50,
        l.p90,
        l.p99,
        l.p99_9
    )?;
    writeln!(
        out,
        "{}{}",
        label("Status codes"),
        counts(r.status_counts.iter())
    )?;
    writeln!(
        out,
        "{}{}",
        label("Errors by kind"),
        counts(r.errors_by_kind.iter())
    )?;
    writeln!(
        out,
        "{}{}",
        label("Stale retries"),
        r.stale_connection_retries
    )?;
    if let Some(tls) = &r.tls {
        writeln!(
            out,
            "{}{} full, {} resumed",
            label("TLS handshakes"),
            tls.handshakes_full,
            tls.handshakes_resumed
        )?;
    }
    match options.batch_wait_us {
        Some(us) => writeln!(
            out,
            "{}{}, waits gathering responses for up to {us} us",
            label("Client I/O engine"),
            r.client_io_engine
        )?,
        None => writeln!(out, "{}{}", label("Client I/O engine"), r.client_io_engine)?,
    }
    writeln!(
        out,
        "{}{:.3} [s] user, {:.3} [s] system",
        label("Client CPU time"),
        r.client_cpu_s.user,
        r.client_cpu_s.system
    )?;
    let busiest = r.client_busiest_thread_cpu_fraction * 100.0;
    writeln!(
        out,
        "{}{busiest:.0}% of its wall time on the CPU",
        label("Busiest client thread")
    )?;
    if let (Some(rate), Some(sent)) = (&r.rate, &r.latency_uncorrected_us) {
        write_rate(out, rate, sent)?;
    }
    if !r.by_url.is_empty() {
        write_by_url(out, &r.by_url)?;
    }
    if r.client_bound() {
        writeln!(
            out,
            "WARNING: a client thread was on the CPU for {busiest:.0}% of its time (over {:.0}%):\n         \
             these results may measure the client, not the server; try more --threads.",
            CLIENT_BOUND_CPU_FRACTION * 100.0
        )?;
    }
    Ok(())
}

/// `--urls`: each URL's weight, share of the completed requests, failures and latency.
fn write_by_url(out: &mut impl Write, by_url: &[UrlResults]) -> io::Result<()> {
    let completed: u64 = by_url.iter().map(|url| url.requests_completed).sum();
    writeln!(out, "Requests by URL:")?;
    writeln!(
        out,
        "  {:>6} {:>7} {:>10} {:>7} {:>9} {:>9} {:>9}  path",
        "weight", "share", "completed", "failed", "length", "mean us", "p99 us"
    )?;
    for url in by_url {
        let share = if completed > 0 {
            url.requests_completed as f64 / completed as f64 * 100.0
        } else {
            0.0
        };
        let length = url
            .document_length_bytes
            .map_or_else(|| "-".to_string(), |bytes| bytes.to_string());
        writeln!(
            out,
            "  {:>6} {:>6.2}% {:>10} {:>7} {:>9} {:>9.1} {:>9}  {}",
            url.weight,
            share,
            url.requests_completed,
            url.requests_failed,
            length,
            url.latency_us.mean,
            url.latency_us.p99,
            url.path
        )?;
    }
    Ok(())
}

/// The open loop: the rate kept, and latency from the actual send beside the corrected one.
fn write_rate(out: &mut impl Write, rate: &RateResults, sent: &LatencySummary) -> io::Result<()> {
    writeln!(
        out,
        "{}{:.2} [#/sec] target, {:.2} achieved (x{:.4})",
        label("Rate"),
        rate.target_per_s,
        rate.achieved_per_s,
        rate.achieved_per_s / rate.target_per_s
    )?;
    writeln!(
        out,
        "{}{} scheduled, {} unsent, {} late by over {} us (worst {} us)",
        label("Schedule"),
        rate.scheduled_requests,
        rate.unsent_requests,
        rate.late_starts,
        rate.late_threshold_us,
        rate.max_lateness_us
    )?;
    writeln!(
        out,
        "{}50% {}, 90% {}, 99% {}, 99.9% {}, max {} [us]",
        label("Latency from send"),
        sent.p50,
        sent.p90,
        sent.p99,
        sent.p99_9,
        sent.max
    )?;
    writeln!(
        out,
        "(Latency above, and ab's tables, count from when each request was due: \
         coordinated omission corrected.)"
    )?;
    if !rate.kept() {
        writeln!(
            out,
            "WARNING: the rate was not kept ({:.2} of {:.2} [#/sec]): requests waited for a \
             free connection\n         (the server, or the client, could not keep up; more -c \
             or --threads may help). Their latency counts the wait.",
            rate.achieved_per_s, rate.target_per_s
        )?;
    }
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
    use crate::results::{ConnectionHistograms, ConnectionTimes, CpuSeconds};
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
            by_url: Vec::new(),
            server_software: Some("nginx/1.22.1".to_string()),
            document_length_bytes: Some(13),
            elapsed_s: 0.5,
            requests_completed: 1000,
            requests_failed: 1,
            requests_per_s: 2000.0,
            transfer_rate_bytes_per_s: 500_000.0,
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
            latency_histogram_us: String::new(),
            client_cpu_s: CpuSeconds {
                user: 0.1,
                system: 0.2,
            },
            responses_seen: 1000,
            reached_the_server: true,
            first_error: None,
            connection_times_us: ConnectionTimes {
                connect: phase(0, 2.6, 100.0, 0, 1_200),
                processing: phase(90, 4_497.66, 1_510.0, 4_400, 12_400),
                waiting: phase(80, 4_400.9, 1_480.0, 4_380, 12_300),
                total: phase(100, 4_500.26, 1_520.0, 4_400, 12_400),
            },
            connection_histograms_us: ConnectionHistograms::default(),
            sent_bytes: 90_000,
            client_busiest_thread_cpu_fraction: 0.354,
            rate: None,
            latency_uncorrected_us: None,
            latency_uncorrected_histogram_us: None,
            tls: None,
            client_io_engine: "io_uring",
        };
        (options, results)
    }

    fn phase(min: u64, mean: f64, stdev: f64, median: u64, max: u64) -> PhaseSummary {
        PhaseSummary {
            min,
            mean,
            stdev,
            median,
            max,
        }
    }

    fn report(options: &Options, results: &Results) -> String {
        let mut out = Vec::new();
        write(&mut out, options, results).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn ab_layout() {
        let (options, results) = sample();
        let text = report(&options, &results);
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

Connection Times (ms)
              min  mean[+/-sd] median   max
Connect:        0    0   0.1      0       1
Processing:     0    4   1.5      4      12
Waiting:        0    4   1.5      4      12
Total:          0    5   1.5      4      12

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

Beyond ab (layerbench-load; latency in us, HdrHistogram):
Latency (us):           min 100, mean 4500.3, sd 10.5, max 12400
Latency percentiles:    50% 4400, 90% 4800, 99% 7000, 99.9% 9000 [us]
Status codes:           200: 998, 500: 2
Errors by kind:         ECONNREFUSED: 1
Stale retries:          0
Client I/O engine:      io_uring
Client CPU time:        0.100 [s] user, 0.200 [s] system
Busiest client thread:  35% of its wall time on the CPU
";
        assert_eq!(text, expected);
    }

    #[test]
    fn abs_reliability_warnings() {
        let (options, mut results) = sample();
        results.connection_times_us.total.stdev = 400.0;
        results.connection_times_us.waiting.stdev = 600.0;
        results.connection_times_us.waiting.median = 3_400;
        let text = report(&options, &results);
        let expected = "\
Total:          0    5   0.4      4      12
WARNING: The median and mean for the waiting time are not within a normal deviation
        These results are probably not that reliable.
ERROR: The median and mean for the total time are more than twice the standard
       deviation apart. These results are NOT reliable.

";
        assert!(text.contains(expected), "{text}");
    }

    #[test]
    fn a_batched_wait_is_named_beside_the_engine() {
        let (mut options, results) = sample();
        options.batch_wait_us = Some(300);
        let text = report(&options, &results);
        assert!(
            text.contains(
                "Client I/O engine:      io_uring, waits gathering responses for up to 300 us\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn body_variable_length_no_keep_alive_and_a_busy_client() {
        let (mut options, mut results) = sample();
        options.keep_alive = false;
        options.variable_length = true;
        options.body = Some(crate::http::request::Body {
            bytes: b"x".to_vec(),
            content_type: "text/plain".to_string(),
        });
        results.client_busiest_thread_cpu_fraction = 0.97;
        let text = report(&options, &results);
        for expected in [
            "Document Length:        Variable\n",
            "Failed requests:        1\n   (Connect: 1, Receive: 0, Length: 0, Exceptions: 0)\n\
             Non-2xx responses:      2\nTotal transferred:      250000 bytes\n\
             Total body sent:        90000\nHTML transferred:       13000 bytes\n",
            "Transfer rate:          488.28 [Kbytes/sec] received\n\
             \x20                       175.78 kb/s sent\n\
             \x20                       664.06 kb/s total\n\nConnection Times (ms)\n",
            "Busiest client thread:  97% of its wall time on the CPU\n\
             WARNING: a client thread was on the CPU for 97% of its time (over 90%):\n         \
             these results may measure the client, not the server; try more --threads.\n",
        ] {
            assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
        }
        assert!(!text.contains("Keep-Alive"), "{text}");
    }

    #[test]
    fn tls_lines_where_ab_puts_them() {
        let (mut options, mut results) = sample();
        results.tls = Some(TlsResults {
            protocol: Some("TLSv1.3".to_string()),
            cipher_suite: Some("TLS13_AES_256_GCM_SHA384".to_string()),
            handshakes_full: 2,
            handshakes_resumed: 998,
        });
        let text = report(&options, &results);
        assert!(text.contains(
            "Server Port:            8080\n\
             SSL/TLS Protocol:       TLSv1.3,TLS13_AES_256_GCM_SHA384\n\nDocument Path:"
        ));
        assert!(text.contains("TLS handshakes:         2 full, 998 resumed\n"));
        options.url = crate::url::Url::parse("https://localhost:8443/").unwrap();
        let text = report(&options, &results);
        assert!(text.contains(
            "SSL/TLS Protocol:       TLSv1.3,TLS13_AES_256_GCM_SHA384\n\
             TLS Server Name:        localhost\n\n"
        ));
        results.tls = None;
        assert!(!report(&options, &results).contains("TLS"));
    }

    #[test]
    fn nothing_completed() {
        let (options, mut results) = sample();
        results.requests_completed = 0;
        let text = report(&options, &results);
        assert!(!text.contains("Requests per second"), "{text}");
        assert!(!text.contains("Connection Times"), "{text}");
        assert!(!text.contains("Percentage"), "{text}");
        results.requests_completed = 1;
        let text = report(&options, &results);
        assert!(text.contains("Connection Times"), "{text}");
        assert!(
            !text.contains("Percentage"),
            "ab shows percentiles from 2 requests on"
        );
    }

    #[test]
    fn open_loop_lines_and_the_unkept_rate_warning() {
        let (options, mut results) = sample();
        let sent = LatencySummary {
            p50: 300,
            p90: 400,
            p99: 500,
            p99_9: 600,
            max: 700,
            ..results.latency_us
        };
        let kept = RateResults {
            target_per_s: 2000.0,
            achieved_per_s: 1999.0,
            scheduled_requests: 1000,
            unsent_requests: 0,
            late_starts: 3,
            late_threshold_us: 1000,
            max_lateness_us: 1500,
        };
        results.rate = Some(kept);
        results.latency_uncorrected_us = Some(sent);
        let text = report(&options, &results);
        assert!(text.contains(
            "Rate:                   2000.00 [#/sec] target, 1999.00 achieved (x0.9995)\n"
        ));
        assert!(text.contains(
            "Schedule:               1000 scheduled, 0 unsent, 3 late by over 1000 us (worst 1500 us)\n"
        ));
        assert!(text.contains(
            "Latency from send:      50% 300, 90% 400, 99% 500, 99.9% 600, max 700 [us]\n"
        ));
        assert!(!text.contains("the rate was not kept"));
        results.rate = Some(RateResults {
            achieved_per_s: 1900.0,
            unsent_requests: 50,
            ..kept
        });
        assert!(
            report(&options, &results)
                .contains("WARNING: the rate was not kept (1900.00 of 2000.00")
        );
    }
}
