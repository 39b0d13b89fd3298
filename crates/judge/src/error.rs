//! The one error type of the judges: bad input (the caller's fault, with a message naming the
//! case, the line and what is wrong), a read or write error, or a fault of ply itself.

use std::{fmt, io};

/// Why a judge could not answer, generate or check.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The input breaks the problem's format or rules, or an argument is out of range; the
    /// message names the case and the line where there are any (`case 2, line 6: unknown
    /// character 'z' at column 2 (expected x, o or .)`).
    Input(String),
    /// Reading the input or writing the output failed.
    Io(io::Error),
    /// ply could not answer an input it generated itself: a bug in ply.
    Internal(String),
}

impl Error {
    /// A bad-input error with this message.
    pub(crate) fn input(message: impl Into<String>) -> Error {
        Error::Input(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(m) => f.write_str(m),
            Error::Io(e) => e.fmt(f),
            Error::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}
