//! What the user got wrong (a host that does not resolve, a port with nothing behind it, a
//! bad URL, a bad flag, a JSON path that cannot be written): a clear first line on stderr
//! that names the problem, a non-zero exit, no panic, no backtrace.

mod common;

use std::time::Duration;

use common::{Reply, TestServer, closed_port, ok, run_load};

fn assert_no_panic(stderr: &str) {
    for sign in ["panicked", "backtrace", "RUST_BACKTRACE"] {
        assert!(!stderr.contains(sign), "{sign}: {stderr}");
    }
}

/// An unresolvable host ends the run before it starts: exit 1, one line, no report and no
/// JSON (nothing ran, so there are no results to write).
#[test]
fn unresolvable_host() {
    let path = common::TempFile::new("unresolvable", "json");
    let _ = std::fs::remove_file(&path);
    let url = "http://nonexistent.invalid/";
    for args in [
        &["-n", "1", url][..],
        &["-n", "1", "--json", "-", url],
        &["-n", "1", "--json", path.to_str().unwrap(), url],
    ] {
        let run = run_load(args);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
        assert_no_panic(&run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(
            run.stderr
                .starts_with("layerbench-load: cannot resolve nonexistent.invalid:80: ")
                && run.stderr.ends_with("; check the host in the URL\n"),
            "{}",
            run.stderr
        );
        assert!(run.wall < Duration::from_secs(10), "took {:?}", run.wall);
    }
    assert!(!path.exists(), "no JSON without a run");
}

/// A server that cannot be reached gets one line and no report, as in ab; `--json` still
/// writes its document, with the connect failures.
#[test]
fn refused_connection() {
    let port = closed_port();
    let url = format!("http://127.0.0.1:{port}/");
    let line = format!(
        "layerbench-load: no response from 127.0.0.1:{port}: connect: Connection refused (ECONNREFUSED)\n"
    );
    let run = run_load(&["-n", "3", "-c", "2", &url]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_no_panic(&run.stderr);
    assert_eq!(run.stderr, line);
    assert_eq!(run.stdout, "", "no report");
    assert!(run.wall < Duration::from_secs(2), "took {:?}", run.wall);
    let run = run_load(&["-n", "3", "--json", "-", &url]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr, line);
    let doc = run.json();
    assert_eq!(doc["failures"]["connect"], 3, "{doc}");
}

/// A server that was reached but never answered well still gets the full report.
#[test]
fn a_reached_server_gets_the_report_even_with_no_response() {
    let server = TestServer::start(|_| Reply::RespondAndClose(b"garbage\r\n\r\n".to_vec()));
    let run = run_load(&["-n", "3", &server.url("/")]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stdout.contains("Failed requests:        3"),
        "{}",
        run.stdout
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// Bad arguments: one line naming the problem (clap's, without its usage), exit 2.
#[test]
fn bad_url_and_bad_flags() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["ftp://127.0.0.1/"],
            "error: invalid value 'ftp://127.0.0.1/' for '[URL]': unsupported scheme \"ftp\"; use an http:// or https:// URL",
        ),
        (
            &["http://127.0.0.1:99999/"],
            "error: invalid value 'http://127.0.0.1:99999/' for '[URL]': invalid port \"99999\"",
        ),
        (
            &["http://127.0.0.1/a b"],
            "error: invalid value 'http://127.0.0.1/a b' for '[URL]': invalid path \"/a b\"",
        ),
        (
            &["--no-such-flag", "http://127.0.0.1/"],
            "error: unexpected argument '--no-such-flag' found",
        ),
        (
            &["-n", "0", "http://127.0.0.1/"],
            "error: invalid value '0' for '--requests <REQUESTS>'",
        ),
        (
            &["-s", "-1", "http://127.0.0.1/"],
            "error: unexpected argument '-1' found",
        ),
        (
            &["-s", "0", "http://127.0.0.1/"],
            "error: invalid value '0' for '--timeout <SECONDS>': must be more than 0 seconds",
        ),
        (
            &[],
            "error: the following required arguments were not provided: <URL>",
        ),
    ];
    for (args, first_line) in cases {
        let run = run_load(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
        assert_no_panic(&run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        let expected = first_line.replacen("error: ", "layerbench-load: ", 1);
        assert!(
            run.stderr.starts_with(&expected),
            "{args:?}: {}",
            run.stderr
        );
    }
}

/// The run went through but its JSON cannot be written: exit 1, one line saying where.
#[test]
fn unwritable_json_path() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let url = server.url("/");
    let run = run_load(&["-n", "2", "-q", "--json", "/nonexistent-dir/out.json", &url]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_no_panic(&run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("layerbench-load: cannot write the JSON to /nonexistent-dir/out.json: "),
        "{}",
        run.stderr
    );
}

/// Every flag that reads a file refuses one that never ends (`/dev/zero`, a FIFO) or is over
/// its limit, in one line naming the file and why, before anything runs: exit 2, as any bad
/// argument.
#[test]
fn files_that_are_not_regular_or_too_large() {
    let fifo = std::env::temp_dir().join(format!("layerbench-load-fifo-{}", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    let fifo_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a NUL-terminated path that lives across the call.
    assert_eq!(unsafe { libc::mkfifo(fifo_path.as_ptr(), 0o600) }, 0);
    let fifo = fifo.to_str().unwrap().to_string();
    for (flag, limit_mib, url) in [
        ("-p", 64, "http://127.0.0.1:1/"),
        ("-u", 64, "http://127.0.0.1:1/"),
        ("--urls", 1, ""),
        ("--cacert", 16, "https://127.0.0.1:1/"),
    ] {
        // Sparse: its size costs no disk.
        let large = common::TempFile::new(&format!("large{flag}"), "bin");
        let file = std::fs::File::create(&large).unwrap();
        file.set_len((limit_mib << 20) + 1).unwrap();
        let large_path = large.as_str();
        for (path, reason) in [
            (
                "/dev/zero",
                "it is not a regular file (a device); give a file".to_string(),
            ),
            (
                fifo.as_str(),
                "it is not a regular file (a pipe); give a file".to_string(),
            ),
            (
                large_path,
                format!("it is larger than the limit of {limit_mib} MiB"),
            ),
        ] {
            let args: Vec<&str> = [flag, path, "-n", "1", url]
                .into_iter()
                .filter(|arg| !arg.is_empty())
                .collect();
            let run = run_load(&args);
            assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
            assert_eq!(run.stdout, "", "{args:?}");
            assert_no_panic(&run.stderr);
            assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
            assert!(
                run.stderr.starts_with("layerbench-load: invalid value ")
                    && run
                        .stderr
                        .contains(&format!(": cannot read {path}: {reason} (see --help)")),
                "{args:?}: {}",
                run.stderr
            );
            assert!(
                run.wall < Duration::from_secs(5),
                "{args:?}: took {:?}",
                run.wall
            );
        }
    }
    let _ = std::fs::remove_file(&fifo);
}
