//! Othello on 4x4, 6x6 and 8x8 bitboards: exact rules, perft, formats and solvers.
//!
//! A [`Position`] is kept from the side to move's view (`player`, `opponent`), as Edax keeps
//! it: a move is an xor and a swap, a pass is a swap. Every board size shares the 8x8 layout;
//! a smaller board sits in its top-left corner and [`BoardSize::mask`] names its squares, so
//! one move generator ([`moves`]) serves all three. [`mod@reference`] holds the slow versions
//! the fast ones are tested against.
//!
//! Text formats, each with a reader and a writer: positions in the usual spellings and a
//! terminal picture ([`text`]), move transcripts ([`transcript`]), OBF lines and files
//! ([`obf`]) and GGF game records ([`ggf`]). [`perft`] counts game trees.
//!
//! ```
//! use ply_othello::{perft, transcript, BoardSize, Position};
//! let pos = Position::start(BoardSize::Six);
//! assert_eq!(pos.legal_moves().count(), 4);
//!
//! // Positions read in the common spellings; the size follows from the number of cells.
//! let pos: Position = "---------------------------OX------XO--------------------------- X"
//!     .parse()
//!     .unwrap();
//! assert_eq!(pos, Position::start(BoardSize::Eight));
//!
//! // A transcript, passes implicit, every move checked.
//! let game = transcript::parse("f5d6c3d3c4", pos).unwrap();
//! assert_eq!(game.moves().len(), 5);
//! assert_eq!(game.position().turn(), ply_othello::Color::White);
//!
//! // perft: a pass is a ply, a finished game one leaf at every depth past its end.
//! assert_eq!(perft::perft(&pos, 5), 1396);
//! ```

#![deny(missing_docs)]

mod engine;
mod formats;
mod rules;

#[cfg(feature = "serde")]
pub use engine::results;
pub use engine::{analyze, book, eval, explore, midgame, opening, play, review, solve, spine};
pub use formats::{crc32, ggf, input, obf, picture, summary, text, transcript, wthor};
pub use rules::{cpu, moves, perft, reference};

use std::fmt;

pub use rules::{
    final_score, Bitboard, BoardSize, Color, EmptyCentre, GameRecord, Move, PlayError, Position,
    Square,
};

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
