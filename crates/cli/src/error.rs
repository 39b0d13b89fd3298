//! Exit codes: 0 on success (and on a closed pipe), 2 on bad input or usage, 1 otherwise.

use std::{fmt, process::ExitCode};

/// An error caused by the user's input: a bad board, an illegal move, a broken file.
/// `main` turns it into exit status 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// A bad-input error with this message.
pub fn bad(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(BadInput(message.into()))
}

/// A judge library error as the command line reports it (`ply judge`, `ply bench judge`):
/// bad input exits with 2, a read or write error keeps its `io::Error` (so that a closed pipe
/// is recognised), a fault of ply exits with 1.
pub fn judge_error(e: ply_judge::Error) -> anyhow::Error {
    match e {
        ply_judge::Error::Input(m) => bad(m),
        ply_judge::Error::Io(e) => e.into(),
        e => anyhow::anyhow!("{e}"),
    }
}

/// Prints the error to stderr, as `ply: …` or, when the command was given `--json`, as one
/// JSON object `{"error": "…"}`, and picks the exit status.
pub fn report(e: &anyhow::Error, json: bool) -> ExitCode {
    if crate::is_broken_pipe(e) {
        return ExitCode::SUCCESS;
    }
    print_error(&format!("{e:#}"), json);
    if e.chain().any(|c| c.is::<BadInput>()) {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}

/// A usage error found by clap: its own text (help and version go to stdout with status 0),
/// or one JSON object with `--json`. Usage errors exit with status 2.
pub fn report_usage(e: &clap::Error, json: bool) -> ExitCode {
    if !json || !e.use_stderr() {
        e.exit();
    }
    let text = e.render().to_string();
    // What clap says is wrong comes before its usage line and hint: `error: …` and perhaps
    // the names of missing arguments on the lines after it.
    let message = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    print_error(message.strip_prefix("error: ").unwrap_or(&message), true);
    ExitCode::from(2)
}

fn print_error(message: &str, json: bool) {
    if json {
        eprintln!("{}", serde_json::json!({ "error": message }));
    } else {
        eprintln!("ply: {message}");
    }
}

/// Whether the command line asks for JSON output: a `--json` argument before any `--`.
pub fn wants_json(args: impl IntoIterator<Item = std::ffi::OsString>) -> bool {
    args.into_iter()
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}
