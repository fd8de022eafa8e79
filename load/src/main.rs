//! `layerbench-load`: an HTTP/1.1 load generator with ApacheBench's flags and report.
//!
//! Options → plan → run → results → exporters; this file only ties them together and turns
//! an error into a message and an exit status (clap exits with 2 on bad arguments).

mod cli;
mod client;
mod error;
mod http;
mod input_file;
mod json_float;
mod merge;
mod plan;
mod report;
mod results;
mod sources;
mod stats;
mod sys;
mod targets;
mod tls;
mod url;
mod url_list;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Options};
use error::Error;
use plan::Plan;
use results::Results;

/// Exit status for bad arguments, as clap and ab use.
pub(crate) const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    // `layerbench-load merge FILE...`: the one subcommand, beside ab's interface.
    if std::env::args_os()
        .nth(1)
        .is_some_and(|first| first == "merge")
    {
        return merge::main(std::env::args_os().skip(1));
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    let options = cli.into_options();
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("layerbench-load: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `--help` and `--version` print in full; a mistake is one line on stderr (clap's first
/// line, which names the flag and what is wrong), then exit status 2.
pub(crate) fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = error.print();
        return ExitCode::SUCCESS;
    }
    // clap's first paragraph says what is wrong (a missing argument's name is on its second
    // line); the usage and tips after it are left for --help.
    let rendered = error.to_string();
    let first_paragraph: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect();
    let message = first_paragraph.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    eprintln!("layerbench-load: {message} (see --help)");
    ExitCode::from(EXIT_USAGE)
}

fn run(options: &Options) -> Result<(), Error> {
    sys::signals::install().map_err(Error::Signals)?;
    if let Err(shortfall) = sys::limits::raise_open_files(options.concurrency as u64 + 64) {
        eprintln!("layerbench-load: {shortfall}");
    }
    let plan = Plan::new(options)?;
    if options.verbosity >= 2 {
        report::verbose::show_request(&options.method, &plan.targets.request_of(0));
    }
    let output = client::run(&plan).map_err(Error::EventLoop)?;
    let (user, system) = sys::rusage::cpu_times();
    let results = Results::new(
        output,
        plan.targets.targets(),
        plan.rate_per_s,
        plan.tls.is_some(),
        user.as_secs_f64(),
        system.as_secs_f64(),
    );
    // Both exporters run even if one fails (a closed stdout must not lose the JSON file).
    let json = match &options.json {
        Some(target) => report::json::write(target, options, &results),
        None => Ok(()),
    };
    // A server never reached gets one line, as in ab, not a page of zeros; the JSON still
    // has the connect failures.
    let text = if options.text_report && results.reached_the_server {
        let mut stdout = io::stdout().lock();
        report::text::write(&mut stdout, options, &results)
            .and_then(|()| stdout.flush())
            .map_err(Error::Stdout)
    } else {
        Ok(())
    };
    json.and(text)?;
    if results.responses_seen == 0 {
        return Err(Error::NoResponse {
            target: format!("{}:{}", options.url.host, options.url.port),
            first_error: results
                .first_error
                .unwrap_or_else(|| "no request completed".to_string()),
        });
    }
    Ok(())
}
