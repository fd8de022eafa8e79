//! The clients' documents, read from files or from a stream of them on stdin (`-`).

use std::fs;
use std::io::{self, Read};

use serde_json::{Deserializer, Value};

use super::{Client, MergeError};

/// Files larger than this are not load documents (a document of many clients is a few MiB).
const LARGEST_BYTES: u64 = 256 << 20;

/// Every document of `files`, in order.
pub fn read(files: &[String]) -> Result<Vec<Client>, MergeError> {
    let mut clients = Vec::new();
    for file in files {
        if file == "-" {
            let mut text = String::new();
            io::stdin()
                .take(LARGEST_BYTES)
                .read_to_string(&mut text)
                .map_err(|error| MergeError::Input(format!("cannot read stdin: {error}")))?;
            clients.extend(documents("stdin", &text)?);
        } else {
            let text = read_file(file)?;
            clients.extend(documents(file, &text)?);
        }
    }
    Ok(clients)
}

fn read_file(path: &str) -> Result<String, MergeError> {
    let cannot = |error: io::Error| MergeError::Input(format!("cannot read {path}: {error}"));
    let metadata = fs::metadata(path).map_err(cannot)?;
    if !metadata.is_file() || metadata.len() > LARGEST_BYTES {
        return Err(MergeError::Input(format!(
            "{path} is not a regular file of at most {} MiB: not a load document",
            LARGEST_BYTES >> 20
        )));
    }
    fs::read_to_string(path).map_err(cannot)
}

/// The JSON documents of `text`, one after another (whitespace between them).
fn documents(name: &str, text: &str) -> Result<Vec<Client>, MergeError> {
    Deserializer::from_str(text)
        .into_iter::<Value>()
        .map(|document| {
            document
                .map(|document| Client {
                    name: name.to_string(),
                    document,
                })
                .map_err(|error| MergeError::Input(format!("{name} is not JSON: {error}")))
        })
        .collect()
}
