//! Every latency histogram of the document in HdrHistogram's interchange encoding (version 3):
//! the uncorrected latency's with `--rate`, each phase's, each URL's; each holds what its
//! summary was read from, and those of the URLs add up to the run's exactly.

mod common;

use common::histograms::decode;
use common::{Reply, TestServer, assert_contract, ok, run_load, url_list};
use serde_json::Value;

fn document(args: &[&str]) -> Value {
    let run = run_load(args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc = run.json();
    assert_contract(&doc);
    doc
}

#[test]
fn each_urls_histogram_is_its_share_of_the_runs() {
    let server = TestServer::start(|request| match request.number % 3 {
        0 => {
            std::thread::sleep(std::time::Duration::from_millis(3));
            Reply::Respond(ok("slow"))
        }
        _ => Reply::Respond(ok("fast")),
    });
    let list = url_list(
        "histograms",
        &[
            format!("3 {}", server.url("/a")),
            format!("1 {}", server.url("/b")),
        ],
    );
    let doc = document(&[
        "--urls",
        list.as_str(),
        "-n",
        "400",
        "-c",
        "4",
        "-k",
        "--json",
        "-",
    ]);
    assert_eq!(doc["version"], 3);
    let mut added = decode(&doc["by_url"][0]["latency_histogram_us"]);
    assert_eq!(added.len(), 300);
    added
        .add(decode(&doc["by_url"][1]["latency_histogram_us"]))
        .unwrap();
    assert_eq!(added, decode(&doc["latency_histogram_us"]));
    for phase in ["connect", "processing", "waiting"] {
        let histogram = decode(&doc["connection_histograms_us"][phase]);
        assert_eq!(histogram.len(), 400, "{phase}");
    }
}

#[test]
fn the_open_loop_has_its_uncorrected_histogram() {
    let server = TestServer::start(|_| Reply::Respond(ok("paced")));
    let url = server.url("/");
    let doc = document(&[
        "--rate", "1000", "-n", "300", "-c", "3", "-k", "--json", "-", &url,
    ]);
    let uncorrected = decode(&doc["latency_uncorrected_histogram_us"]);
    let corrected = decode(&doc["latency_histogram_us"]);
    assert_eq!((uncorrected.len(), corrected.len()), (300, 300));
    // Counted from the send, never later than from the due time.
    assert!(uncorrected.max() <= corrected.max());
    let closed = document(&["-n", "20", "-c", "2", "--json", "-", &url]);
    assert!(closed["latency_uncorrected_histogram_us"].is_null());
    assert_eq!(closed["clients"], serde_json::json!([]));
}
