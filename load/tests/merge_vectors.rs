//! The merge against the lab's former Python merge: for each vector of `tests/vectors/` (the
//! clients' documents, and the document the Python merge made of them, written by
//! `tests/test_merge_agreement.py` while both merges existed and agreed), `layerbench-load
//! merge` gives that document: every figure equal, of the same JSON type (an integer is not a
//! float), each histogram holding the same counts (the two deflated its bytes differently),
//! and `clients` the clients' documents.

mod common;

use std::process::{Command, Stdio};

use common::histograms::decode;
use serde_json::Value;

const HISTOGRAMS: [&str; 2] = ["latency_histogram_us", "latency_uncorrected_histogram_us"];

fn merge(clients: &[Value]) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_layerbench-load"))
        .args(["merge", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start layerbench-load merge");
    let mut stdin = child.stdin.take().unwrap();
    for client in clients {
        serde_json::to_writer(&mut stdin, client).unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// `rust` is `python`: histograms (by key) compared by what they hold, the rest exactly.
fn assert_same(rust: &Value, python: &Value, path: &str) {
    match (rust, python) {
        (Value::Object(r), Value::Object(p)) => {
            let mut keys: Vec<&String> = r.keys().collect();
            let mut theirs: Vec<&String> = p.keys().collect();
            keys.sort();
            theirs.sort();
            assert_eq!(keys, theirs, "{path}: keys");
            for (key, value) in r {
                let at = format!("{path}/{key}");
                let histogram = HISTOGRAMS.contains(&key.as_str())
                    || path.ends_with("/connection_histograms_us");
                if histogram && value.is_string() {
                    assert_eq!(decode(value), decode(&p[key]), "{at}");
                } else {
                    assert_same(value, &p[key], &at);
                }
            }
        }
        (Value::Array(r), Value::Array(p)) => {
            assert_eq!(r.len(), p.len(), "{path}: length");
            for (index, (a, b)) in r.iter().zip(p).enumerate() {
                assert_same(a, b, &format!("{path}[{index}]"));
            }
        }
        (r, p) => assert_eq!(r, p, "{path}"),
    }
}

#[test]
fn the_merge_gives_the_python_merges_documents() {
    let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let mut checked = 0;
    for entry in std::fs::read_dir(&directory).unwrap() {
        let path = entry.unwrap().path();
        let vector: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let clients = vector["clients"].as_array().unwrap();
        let mut merged = merge(clients);
        let listed = merged.as_object_mut().unwrap().remove("clients").unwrap();
        assert_eq!(&listed, &vector["clients"], "{}: clients", path.display());
        assert_same(
            &merged,
            &vector["python_merge"],
            &path.display().to_string(),
        );
        checked += 1;
    }
    assert_eq!(checked, 13, "every vector of {}", directory.display());
}
