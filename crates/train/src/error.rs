//! The one error of the game files and of what makes, merges and reads them: a file that
//! cannot be read, ends early, holds a bad field or disagrees with what was asked, a recipe
//! that makes no games, or an engine that broke a promise. Each names the file and the place.

use std::{fmt, io};

/// Where in a file something is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the header.
    Header,
    /// In a record.
    Record {
        /// The record's number in the file, from 1.
        number: u64,
        /// Its first byte's offset in the file.
        offset: u64,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Header => f.write_str("header"),
            Place::Record { number, offset } => write!(f, "record {number} (byte {offset})"),
        }
    }
}

/// Why a game file could not be read, written or merged.
#[derive(Debug)]
#[non_exhaustive]
pub enum DataError {
    /// The file could not be opened, read or written.
    Io {
        /// The file.
        file: String,
        /// What the system said.
        error: io::Error,
    },
    /// The file ends inside a header or a record.
    Truncated {
        /// The file.
        file: String,
        /// The header or record that is cut short.
        at: Place,
        /// The field the file ends in.
        field: &'static str,
    },
    /// A field holds what it may not: a foreign magic, another format version, a checksum
    /// that does not match, an illegal move.
    Bad {
        /// The file.
        file: String,
        /// Where.
        at: Place,
        /// The field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A file's header disagrees with what was asked (to resume it, or to merge it with
    /// others).
    Mismatch {
        /// The file.
        file: String,
        /// The first field that differs.
        field: &'static str,
        /// The file's value.
        found: String,
        /// The value asked for.
        wanted: String,
    },
    /// Parameters that make no set of games.
    Params {
        /// The parameter.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The engine broke a promise (a bug, not bad input): the perfect line did not end on
    /// the solved score.
    Engine {
        /// The game.
        game: u64,
        /// What happened.
        message: String,
    },
}

impl DataError {
    /// Whether the error is the input's fault (a bad, truncated or mismatched file, bad
    /// parameters) rather than the system's or a bug.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, DataError::Io { .. } | DataError::Engine { .. })
    }

    pub(crate) fn io(file: &str, error: io::Error) -> DataError {
        DataError::Io {
            file: file.to_string(),
            error,
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io { file, error } => write!(f, "{file}: {error}"),
            DataError::Truncated { file, at, field } => write!(
                f,
                "{file}: {at}: the file ends inside field `{field}`: truncated"
            ),
            DataError::Bad {
                file,
                at,
                field,
                message,
            } => write!(f, "{file}: {at}: field `{field}`: {message}"),
            DataError::Mismatch {
                file,
                field,
                found,
                wanted,
            } => write!(
                f,
                "{file}: header field `{field}` is {found}, not {wanted} as asked"
            ),
            DataError::Params { field, message } => write!(f, "{field}: {message}"),
            DataError::Engine { game, message } => write!(f, "game {game}: {message}"),
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}
