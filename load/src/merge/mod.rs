//! `layerbench-load merge`: several clients' load documents, run at the same time, as one
//! document of the same schema, every histogram added exactly (`document.rs`).
//!
//! Reads the documents from files, or a stream of them from stdin (`-`); writes the merged
//! document to stdout or, whole or not at all, to a file (`-o`). A document the merge cannot
//! read is refused in one line on stderr, with exit status 2.

mod check;
mod document;
mod histograms;
mod input;
mod latency;
mod ordered;
mod python_numbers;

use std::ffi::OsString;
use std::fs;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

/// Adds the histograms of several layerbench-load JSON documents (clients run at the same
/// time) and prints one document of the same schema: counts summed, percentiles read from
/// the added histograms, rates over the longest client's time, the clients listed in
/// `clients`
#[derive(Debug, Parser)]
#[command(
    name = "layerbench-load merge",
    bin_name = "layerbench-load merge",
    max_term_width = 100
)]
struct MergeCli {
    /// The clients' documents (version 3, as `--json` writes them); `-` reads one or more
    /// documents from stdin
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
    /// Write the merged document to FILE (`-` for stdout)
    #[arg(short = 'o', long = "output", value_name = "FILE", default_value = "-")]
    output: String,
}

/// A client's document and where it was read.
#[derive(Debug)]
pub struct Client {
    pub name: String,
    pub document: serde_json::Value,
}

/// Why the merge stopped.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A document that cannot be read or merged: the user's input (exit status 2).
    #[error("{0}")]
    Input(String),
    #[error("cannot write the merged document to {path}: {source}")]
    Output { path: String, source: io::Error },
}

impl MergeError {
    /// Documents that each read but do not merge together.
    pub fn mismatch(detail: impl std::fmt::Display) -> MergeError {
        MergeError::Input(format!("the clients' results do not merge: {detail}"))
    }
}

/// `layerbench-load merge ARGS` (`args` without the program's name).
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = match MergeCli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => return crate::usage_error(&error),
    };
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("layerbench-load merge: {error}");
            ExitCode::from(match error {
                MergeError::Input(_) => crate::EXIT_USAGE,
                MergeError::Output { .. } => 1,
            })
        }
    }
}

fn run(cli: &MergeCli) -> Result<(), MergeError> {
    let clients = input::read(&cli.files)?;
    let merged = merge(&clients)?;
    let mut text = serde_json::to_vec_pretty(&merged).expect("the document serializes");
    text.push(b'\n');
    write(&cli.output, &text)
}

/// The clients' documents as one; each is checked first.
pub fn merge(clients: &[Client]) -> Result<document::Merged, MergeError> {
    if clients.is_empty() {
        return Err(MergeError::Input("no client's result to merge".to_string()));
    }
    for (number, client) in clients.iter().enumerate() {
        check::check(number + 1, client)?;
    }
    document::merged(clients)
}

/// To stdout, or to a file beside which it is written and renamed over it.
fn write(target: &str, text: &[u8]) -> Result<(), MergeError> {
    let failed = |source| MergeError::Output {
        path: target.to_string(),
        source,
    };
    if target == "-" {
        return io::stdout().lock().write_all(text).map_err(failed);
    }
    let partial = format!("{target}.partial");
    fs::write(&partial, text)
        .and_then(|()| fs::rename(&partial, target))
        .map_err(|source| {
            let _ = fs::remove_file(&partial);
            failed(source)
        })
}

#[cfg(test)]
mod tests;
