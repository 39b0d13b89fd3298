//! Othello on 4x4, 6x6 and 8x8 bitboards: exact rules, perft, formats and solvers.
//!
//! ```
//! use ply_othello::{BoardSize, Position};
//! let pos = Position::start(BoardSize::Six);
//! assert_eq!(pos.legal_moves().count(), 4);
//!
//! // Positions read in the common spellings; the size follows from the number of cells.
//! let pos: Position = "---------------------------OX------XO--------------------------- X"
//!     .parse()
//!     .unwrap();
//! assert_eq!(pos, Position::start(BoardSize::Eight));
//! ```

#![deny(missing_docs)]

mod bitboard;
mod game;
pub mod ggf;
pub mod moves;
pub mod obf;
pub mod perft;
mod position;
pub mod reference;
mod square;
pub mod text;
pub mod transcript;

use std::fmt;

pub use bitboard::Bitboard;
pub use game::Game;
pub use position::{final_score, BoardSize, Color, Move, PlayError, Position};
pub use square::Square;

/// Text that could not be read as an Othello square, position or record.
///
/// The message names what is wrong; [`ParseError::line`] names the line of a multi-line input
/// (an OBF file, a GGF record) when there is one, and `Display` puts it in front.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    message: String,
    line: Option<usize>,
}

impl ParseError {
    /// An error with this message.
    #[must_use]
    pub fn new(message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
            line: None,
        }
    }

    /// The same error, placed on line `line` (1-based) of a longer input.
    #[must_use]
    pub fn at_line(mut self, line: usize) -> ParseError {
        self.line = Some(line);
        self
    }

    /// The line (1-based) the error was found on, when the input had lines.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// The message without the line.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ParseError {}
