//! Errors as a command line reports them: 0 on success (and on a closed pipe), 2 on bad
//! input or usage, 1 otherwise; the message on stderr as `ply: …`, or as one JSON object
//! `{"error": "…"}` when the command was given `--json`.

use std::{fmt, io, process::ExitCode};

/// An error caused by the user's input: a bad board, an illegal move, a broken file.
/// [`report`] turns it into exit status 2.
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

/// Whether `e` is, or was caused by, bad input.
#[must_use]
pub fn is_bad_input(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<BadInput>())
}

/// Whether `e` comes of a closed stdout (`ply … | head`): the command ends quietly, as
/// ripgrep does.
#[must_use]
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|io| io.kind() == io::ErrorKind::BrokenPipe)
}

/// The exit status of a command that failed with `e`: 0 for a closed pipe, 2 for bad
/// input, 1 otherwise.
#[must_use]
pub fn status(e: &anyhow::Error) -> u8 {
    if is_broken_pipe(e) {
        0
    } else if is_bad_input(e) {
        2
    } else {
        1
    }
}

/// Prints the error to stderr (nothing for a closed pipe), as `ply: …` or, when the command
/// was given `--json`, as one JSON object, and picks the exit status ([`status`]).
pub fn report(e: &anyhow::Error, json: bool) -> ExitCode {
    if !is_broken_pipe(e) {
        print_error(&format!("{e:#}"), json);
    }
    ExitCode::from(status(e))
}

/// The line an error is printed as: `ply: message`, or `{"error":"message"}` with `--json`.
#[must_use]
pub fn error_line(message: &str, json: bool) -> String {
    if json {
        serde_json::json!({ "error": message }).to_string()
    } else {
        format!("ply: {message}")
    }
}

/// Prints [`error_line`] to stderr.
pub fn print_error(message: &str, json: bool) {
    eprintln!("{}", error_line(message, json));
}

/// Whether the command line asks for JSON output: a `--json` argument before any `--`.
pub fn wants_json(args: impl IntoIterator<Item = std::ffi::OsString>) -> bool {
    args.into_iter()
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_has_its_exit_status() {
        assert_eq!(status(&bad("BOARD: 10 cells")), 2);
        let wrapped = bad("x.obf: line 3").context("reading the positions");
        assert_eq!(status(&wrapped), 2);
        assert_eq!(status(&anyhow::anyhow!("the solver's line ends early")), 1);
        let closed = anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(status(&closed.context("writing the result")), 0);
        assert!(!is_bad_input(&anyhow::anyhow!("no")));
    }

    #[test]
    fn an_error_is_a_line_or_a_json_object() {
        assert_eq!(error_line("DEPTH 70", false), "ply: DEPTH 70");
        assert_eq!(
            error_line("a \"quoted\" name", true),
            r#"{"error":"a \"quoted\" name"}"#
        );
    }

    #[test]
    fn json_is_asked_for_before_a_double_dash_only() {
        let args = |v: &[&str]| v.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        assert!(wants_json(args(&["othello", "show", "--json"])));
        assert!(!wants_json(args(&["judge", "stress", "--", "--json"])));
        assert!(!wants_json(args(&["ttt", "stats"])));
    }
}
