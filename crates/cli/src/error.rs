//! Exit codes: 0 on success (and on a closed pipe), 2 on bad input or usage, 1 otherwise.

use std::process::ExitCode;

pub use ply_cli_support::error::{bad, report, wants_json};

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
    ply_cli_support::error::print_error(message.strip_prefix("error: ").unwrap_or(&message), true);
    ExitCode::from(2)
}
