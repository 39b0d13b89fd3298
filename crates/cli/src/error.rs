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

/// Prints the error to stderr and picks the exit status.
pub fn report(e: &anyhow::Error) -> ExitCode {
    if crate::is_broken_pipe(e) {
        return ExitCode::SUCCESS;
    }
    eprintln!("ply: {e:#}");
    if e.chain().any(|c| c.is::<BadInput>()) {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}
