//! Othello on 4x4, 6x6 and 8x8 bitboards: exact rules, perft, formats and solvers.
//!
//! ```
//! use ply_othello::{BoardSize, Position};
//! let pos = Position::start(BoardSize::Six);
//! assert_eq!(pos.legal_moves().count(), 4);
//! ```

#![deny(missing_docs)]

mod bitboard;
pub mod moves;
mod position;
pub mod reference;
pub mod solve;
mod square;

use std::fmt;

pub use bitboard::Bitboard;
pub use position::{final_score, BoardSize, Color, PlayError, Position};
pub use square::Square;

/// Text that could not be read as an Othello square, position or record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    message: String,
}

impl ParseError {
    /// An error with this message.
    #[must_use]
    pub fn new(message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}
