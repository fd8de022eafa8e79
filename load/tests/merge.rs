//! `layerbench-load merge`: real runs' documents merged into one document of the same
//! contract, their histograms added exactly; what cannot be merged is refused in one line,
//! exit status 2.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::histograms::decode;
use common::{TempFile, TestServer, assert_contract, ok, run_load, url_list};
use serde_json::Value;

fn merge(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_layerbench-load"))
        .arg("merge")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start layerbench-load merge");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// A run's document, written to a file of its own.
fn client_file(name: &str, args: &[&str]) -> (TempFile, Value) {
    let run = run_load(args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let file = TempFile::new(name, "json");
    std::fs::write(&file, &run.stdout).unwrap();
    (file, run.json())
}

#[test]
fn two_runs_merge_into_one_document_of_the_contract() {
    let server = TestServer::start(|_| common::Reply::Respond(ok("hello")));
    let list = url_list(
        "merge",
        &[
            format!("3 {}", server.url("/a")),
            format!("1 {}", server.url("/b")),
        ],
    );
    let (first, a) = client_file(
        "merge-a",
        &[
            "--urls",
            list.as_str(),
            "-n",
            "300",
            "-c",
            "3",
            "-k",
            "-q",
            "--json",
            "-",
        ],
    );
    let (second, b) = client_file(
        "merge-b",
        &[
            "--urls",
            list.as_str(),
            "-n",
            "100",
            "-c",
            "1",
            "-q",
            "--json",
            "-",
        ],
    );
    let out = TempFile::new("merge-out", "json");
    let run = merge(&[first.as_str(), second.as_str(), "-o", out.as_str()], b"");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let merged: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_contract(&merged);
    assert_eq!(merged["requests_completed"], 400);
    assert_eq!(merged["options"]["concurrency"], 4);
    assert_eq!(merged["clients"], Value::Array(vec![a.clone(), b.clone()]));
    assert_eq!(
        merged["elapsed_s"],
        a["elapsed_s"]
            .as_f64()
            .unwrap()
            .max(b["elapsed_s"].as_f64().unwrap())
    );
    // The merged histogram holds each client's counts, bucket by bucket.
    let mut added = decode(&a["latency_histogram_us"]);
    added.add(decode(&b["latency_histogram_us"])).unwrap();
    assert_eq!(decode(&merged["latency_histogram_us"]), added);
    // The same documents on stdin, one after the other, merge alike.
    let stream = [
        std::fs::read(&first).unwrap(),
        std::fs::read(&second).unwrap(),
    ]
    .concat();
    let piped = merge(&["-"], &stream);
    assert!(
        piped.status.success(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&piped.stdout).unwrap(),
        merged
    );
}

#[test]
fn an_open_loop_merges_its_uncorrected_latency() {
    let server = TestServer::start(|_| common::Reply::Respond(ok("hello")));
    let url = server.url("/");
    let (first, _) = client_file(
        "open-a",
        &[
            "--rate", "1000", "-n", "100", "-c", "2", "-k", "-q", "--json", "-", &url,
        ],
    );
    let (second, _) = client_file(
        "open-b",
        &[
            "--rate", "500", "-n", "50", "-c", "1", "-k", "-q", "--json", "-", &url,
        ],
    );
    let run = merge(&[first.as_str(), second.as_str()], b"");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let merged: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_contract(&merged);
    assert_eq!(merged["rate"]["target_per_s"], 1500.0);
    assert_eq!(merged["rate"]["scheduled_requests"], 150);
    assert_eq!(
        decode(&merged["latency_uncorrected_histogram_us"]).len(),
        150
    );
}

/// Bad input: one line on stderr, exit status 2, nothing on stdout.
#[test]
fn bad_input_is_refused_in_one_line() {
    let not_json = TempFile::new("merge-not-json", "json");
    std::fs::write(&not_json, "hello").unwrap();
    let old = TempFile::new("merge-old", "json");
    std::fs::write(&old, r#"{"version": 2}"#).unwrap();
    let list = TempFile::new("merge-list", "json");
    std::fs::write(&list, "[1, 2]").unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["/nonexistent/a.json"], "cannot read /nonexistent/a.json"),
        (&[not_json.as_str()], "is not JSON"),
        (
            &[old.as_str()],
            "is JSON version 2, without every histogram",
        ),
        (&[list.as_str()], "is not a JSON object"),
        (&[], "required"),
    ];
    for (args, expected) in cases {
        let run = merge(args, b"");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(run.stdout.is_empty(), "{args:?}");
    }
    let empty = merge(&["-"], b"");
    assert_eq!(empty.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no client's result to merge"));
}
