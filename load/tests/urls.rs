//! `--urls`: weighted URLs on one server. Each gets exactly its share with -n, in a fixed
//! interleaved order, with its own Document Length and figures.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use common::{Reply, TestServer, assert_contract, ok, run_load, url_list};
use serde_json::Value;

/// The path of each request the server received, in order.
type Paths = Arc<Mutex<Vec<String>>>;

/// A server that answers `body_of(path)` and keeps the paths requested.
fn server_of_paths(body_of: fn(&str) -> &'static str) -> (TestServer, Paths) {
    let paths = Paths::default();
    let kept = paths.clone();
    let server = TestServer::start(move |request| {
        let path = request.head.split(' ').nth(1).unwrap_or_default();
        kept.lock().unwrap().push(path.to_string());
        Reply::Respond(ok(body_of(path)))
    });
    (server, paths)
}

fn count(paths: &Paths, path: &str) -> usize {
    paths.lock().unwrap().iter().filter(|p| *p == path).count()
}

#[test]
fn each_url_gets_exactly_its_share_and_its_own_document_length() {
    let (server, paths) = server_of_paths(|path| match path {
        "/hit" => "cached page",
        _ => "the page, built on every request",
    });
    let list = url_list(
        "weighted",
        &[
            "# three hits to one miss".to_string(),
            format!("3 {}", server.url("/hit")),
            format!("1 {}", server.url("/miss")),
        ],
    );
    let run = run_load(&[
        "--urls",
        list.as_str(),
        "-n",
        "400",
        "-c",
        "8",
        "--threads",
        "2",
        "-k",
        "--json",
        "-",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    assert_eq!(doc["requests_completed"], 400);
    assert_eq!(
        doc["requests_failed"], 0,
        "lengths differ by URL, not within one"
    );
    let by_url = doc["by_url"].as_array().unwrap();
    let figures: Vec<(&str, u64, u64, u64)> = by_url
        .iter()
        .map(|url| {
            (
                url["path"].as_str().unwrap(),
                url["weight"].as_u64().unwrap(),
                url["requests_completed"].as_u64().unwrap(),
                url["document_length_bytes"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(figures, [("/hit", 3, 300, 11), ("/miss", 1, 100, 32)]);
    assert!(by_url[1]["latency_us"]["p99"].as_u64().unwrap() >= 1);
    assert_eq!((count(&paths, "/hit"), count(&paths, "/miss")), (300, 100));
    assert_eq!(doc["options"]["urls"][1]["weight"], 1);
    assert_eq!(doc["options"]["url"], server.url("/hit"));
}

#[test]
fn the_order_is_interleaved_not_in_runs() {
    let (server, paths) = server_of_paths(|_| "x");
    let list = url_list(
        "order",
        &[
            format!("3 {}", server.url("/a")),
            format!("1 {}", server.url("/b")),
        ],
    );
    let run = run_load(&["--urls", list.as_str(), "-n", "12", "-c", "1", "-k", "-q"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let expected = ["/a", "/a", "/b", "/a"].repeat(3);
    assert_eq!(*paths.lock().unwrap(), expected);
}

#[test]
fn a_length_failure_is_judged_against_its_own_url() {
    let varying = AtomicU64::new(0);
    let server = TestServer::start(move |request| match request.head.split(' ').nth(1) {
        Some("/steady") => Reply::Respond(ok("same")),
        _ => match varying.fetch_add(1, Ordering::SeqCst) % 2 {
            0 => Reply::Respond(ok("ab")),
            _ => Reply::Respond(ok("abc")),
        },
    });
    let list = url_list(
        "lengths",
        &[
            format!("1 {}", server.url("/steady")),
            format!("1 {}", server.url("/varying")),
        ],
    );
    let run = run_load(&[
        "--urls",
        list.as_str(),
        "-n",
        "200",
        "-c",
        "1",
        "-k",
        "--json",
        "-",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_eq!(doc["failures"]["length"], 50);
    let failed = |i: usize| doc["by_url"][i]["requests_failed"].clone();
    assert_eq!((failed(0), failed(1)), (Value::from(0), Value::from(50)));
    assert_eq!(doc["by_url"][1]["document_length_bytes"], 2);
}

#[test]
fn the_text_report_lists_each_url() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let list = url_list(
        "text",
        &[
            format!("9 {}", server.url("/hit")),
            format!("1 {}", server.url("/miss")),
        ],
    );
    let run = run_load(&["--urls", list.as_str(), "-n", "100", "-c", "2", "-k"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("Document Path:          /hit\n"),
        "{}",
        run.stdout
    );
    let table: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|line| *line != "Requests by URL:")
        .collect();
    assert!(table.len() >= 4, "{}", run.stdout);
    let fields = |line: &str| {
        line.split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(fields(table[2])[..4], ["9", "90.00%", "90", "0"]);
    assert_eq!(fields(table[3])[..4], ["1", "10.00%", "10", "0"]);
    assert_eq!(fields(table[3]).last().unwrap(), "/miss");
}

#[test]
fn a_wrong_list_is_one_line_naming_the_line() {
    let server = TestServer::start(|_| Reply::Respond(ok("x")));
    let other = TestServer::start(|_| Reply::Respond(ok("x")));
    for (lines, expected) in [
        (
            vec![format!("0 {}", server.url("/"))],
            "line 1: \"0\" is not a weight",
        ),
        (vec![server.url("/a"), other.url("/b")], "line 2: "),
        (vec!["# nothing".to_string()], "no URL in the list"),
    ] {
        let list = url_list("wrong", &lines);
        let run = run_load(&["--urls", list.as_str(), "-n", "1"]);
        assert_eq!(run.code, Some(2), "{lines:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains(expected), "{}", run.stderr);
        assert!(
            run.stderr.contains(list.as_str()),
            "names the file: {}",
            run.stderr
        );
    }
    let run = run_load(&["--urls", "/nonexistent/list", "-n", "1"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot read /nonexistent/list"),
        "{}",
        run.stderr
    );
    let list = url_list("both", &[server.url("/")]);
    let run = run_load(&["--urls", list.as_str(), "-n", "1", &server.url("/")]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(server.requests(), 0);
}
