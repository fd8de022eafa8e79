//! The text report of a real run has ab's labels in ab's order, line for line; with `ab`
//! (apache2-utils) installed, the same as ab's own report against the same server.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{Reply, TestServer, finish, ok, response, run_load, spawn};

/// The heading of our additions, after ab's block.
const ADDITIONS: &str = "Beyond ab (layerbench-load";

/// ab's block of a report: from `Server Software:` to our additions (or the end).
fn ab_block(report: &str) -> Vec<&str> {
    report
        .lines()
        .skip_while(|line| !line.starts_with("Server Software:"))
        .take_while(|line| !line.starts_with(ADDITIONS))
        .collect()
}

/// A line without its figures: numbers become `N`, runs of spaces one space. ab's
/// reliability warnings (ERROR/WARNING and their second line) depend on the figures and
/// are left out.
fn shapes(block: &[&str]) -> Vec<String> {
    let mut shapes = Vec::new();
    let mut skip_next = false;
    for line in block {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        if line.starts_with("ERROR: ") || line.starts_with("WARNING: ") {
            skip_next = true;
            continue;
        }
        let mut shape = String::new();
        let mut in_number = false;
        for c in line.trim_end().chars() {
            if c.is_ascii_digit() || (in_number && c == '.') {
                if !in_number {
                    shape.push('N');
                }
                in_number = true;
                continue;
            }
            in_number = false;
            if c == ' ' && shape.ends_with(' ') {
                continue;
            }
            shape.push(c);
        }
        shapes.push(shape);
    }
    while shapes.last().is_some_and(String::is_empty) {
        shapes.pop();
    }
    shapes
}

/// Keeps alive in ab's eyes: ab wants to see "Keep-Alive" in the response head.
fn keep_alive_ok(body: &str) -> Vec<u8> {
    response("200 OK", "Connection: keep-alive\r\n", body)
}

#[test]
fn labels_in_abs_order() {
    let server = TestServer::start(|request| match request.number {
        n if n % 4 == 3 => Reply::Respond(response("404 Not Found", "", "no")),
        // Both connections' first requests (0 and 1) answer "a", so that the Document
        // Length is 1 whichever response the client reads first; then "bb" for 5, 9, … 37.
        n if n < 2 || n % 2 == 0 => Reply::Respond(ok("a")),
        _ => Reply::Respond(ok("bb")),
    });
    let url = server.url("/labels");
    let run = run_load(&["-n", "40", "-c", "2", "-k", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let expected = [
        "Server Software: test-server",
        "Server Hostname: N",
        "Server Port: N",
        "",
        "Document Path: /labels",
        "Document Length: N bytes",
        "",
        "Concurrency Level: N",
        "Time taken for tests: N seconds",
        "Complete requests: N",
        "Failed requests: N",
        " (Connect: N, Receive: N, Length: N, Exceptions: N)",
        "Non-Nxx responses: N",
        "Keep-Alive requests: N",
        "Total transferred: N bytes",
        "HTML transferred: N bytes",
        "Requests per second: N [#/sec] (mean)",
        "Time per request: N [ms] (mean)",
        "Time per request: N [ms] (mean, across all concurrent requests)",
        "Transfer rate: N [Kbytes/sec] received",
        "",
        "Connection Times (ms)",
        " min mean[+/-sd] median max",
        "Connect: N N N N N",
        "Processing: N N N N N",
        "Waiting: N N N N N",
        "Total: N N N N N",
        "",
        "Percentage of the requests served within a certain time (ms)",
        " N% N",
        " N% N",
        " N% N",
        " N% N",
        " N% N",
        " N% N",
        " N% N",
        " N% N",
        " N% N (longest request)",
    ];
    assert_eq!(shapes(&ab_block(&run.stdout)), expected, "{}", run.stdout);
    let additions = run
        .stdout
        .split_once(ADDITIONS)
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no additions in:\n{}", run.stdout));
    for label in [
        "\nLatency (us):           min ",
        "\nLatency percentiles:    50% ",
        "99.9% ",
        "\nStatus codes:           200: 30, 404: 10\n",
        "\nErrors by kind:         length_mismatch: 9\n",
        "\nClient CPU time:        ",
        "\nBusiest client thread:  ",
    ] {
        assert!(
            additions.contains(label),
            "missing {label:?} in:\n{}",
            run.stdout
        );
    }
}

#[test]
fn interrupted_run_still_reports_the_tables() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let url = server.url("/");
    let started = Instant::now();
    let child = spawn(&["-t", "30", "-c", "2", "-k", &url]);
    std::thread::sleep(Duration::from_millis(400));
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let run = finish(child, started);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    for label in [
        "Complete requests:",
        "Connection Times (ms)\n",
        "Total:      ",
        "(longest request)\n",
        ADDITIONS,
    ] {
        assert!(
            run.stdout.contains(label),
            "missing {label:?} in:\n{}",
            run.stdout
        );
    }
}

/// Runs ab with `args`; `None` (and a message saying so) when ab is not installed.
fn run_ab(args: &[&str]) -> Option<String> {
    let output = match Command::new("ab").args(args).output() {
        Ok(output) => output,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            // CI requires every tool: there a missing ab is a failure, not a skip.
            assert!(
                std::env::var_os("LAYERBENCH_REQUIRE_SERVICES").is_none_or(|v| v != "1"),
                "ab is not installed (apt-get install apache2-utils) and \
                 LAYERBENCH_REQUIRE_SERVICES=1"
            );
            eprintln!(
                "SKIPPED: `ab` is not installed (apt-get install apache2-utils); \
                 the comparison with ApacheBench's own report did not run"
            );
            return None;
        }
        Err(error) => panic!("cannot run ab: {error}"),
    };
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "ab {args:?} failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(stdout)
}

/// Our report and ab's against the same server with the same arguments: same lines.
fn assert_same_layout_as_ab(server: &TestServer, args: &[&str]) {
    let url = server.url("/compare");
    let mut argv = args.to_vec();
    argv.push(&url);
    let Some(ab) = run_ab(&argv) else {
        return;
    };
    let ours = run_load(&argv);
    assert_eq!(ours.code, Some(0), "{}", ours.stderr);
    assert_eq!(
        shapes(&ab_block(&ours.stdout)),
        shapes(&ab_block(&ab)),
        "\nours:\n{}\nab's:\n{ab}",
        ours.stdout
    );
}

#[test]
fn same_layout_as_ab_with_keep_alive() {
    let server = TestServer::start(|_| Reply::Respond(keep_alive_ok("Hello, world!")));
    assert_same_layout_as_ab(&server, &["-n", "200", "-c", "4", "-k"]);
}

#[test]
fn same_layout_as_ab_with_a_body_failures_and_non_2xx() {
    // Every connection closed by the server; bodies of two lengths; one in five a 404.
    let server = TestServer::start(|request| {
        Reply::RespondAndClose(match request.number % 5 {
            4 => response("404 Not Found", "Connection: close\r\n", "missing"),
            n => response(
                "200 OK",
                "Connection: close\r\n",
                ["a", "bb"][n as usize % 2],
            ),
        })
    });
    let body = common::TempFile::new("ab-body", "txt");
    std::fs::write(&body, "field=value").unwrap();
    assert_same_layout_as_ab(
        &server,
        &[
            "-n",
            "100",
            "-c",
            "2",
            "-p",
            body.to_str().unwrap(),
            "-T",
            "application/x-www-form-urlencoded",
            "-H",
            "X-Compare: 1",
        ],
    );
}
