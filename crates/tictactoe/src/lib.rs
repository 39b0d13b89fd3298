//! Tic-tac-toe, solved: bitboards, every text notation, reachability with reasons, and a
//! table of every position's value so that a query is a lookup.
//!
//! A [`Board`] is any arrangement of marks (two 9-bit masks); a [`Position`] is a board that
//! can occur in a game, with who moved first (`X` unless said otherwise). Values follow
//! GAMESMAN (win/draw/loss for the side to move and remoteness), as in [`ply_core`].
//!
//! ```
//! use ply_tictactoe::{Mark, Position, Unreachable};
//! use ply_core::Value;
//!
//! let pos = Position::new("xo./.x./..o".parse()?, Mark::X)?;
//! assert_eq!(pos.value(), Value::win(3));
//! assert_eq!(Position::start(Mark::X).value(), Value::draw(9));
//! assert_eq!(
//!     Position::new("oo./.../...".parse()?, Mark::X).unwrap_err(),
//!     Unreachable::SecondAhead { first: Mark::X },
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod board;
mod notation;
mod position;
pub mod report;
mod stats;
pub mod table;

pub use board::{BadCellName, Board, Cell, Mark, CODES, FULL, LINES};
pub use notation::{parse_board, Notation, ParseError};
pub use position::{check, Counts, PlayError, Position, Unreachable};
pub use stats::{stats, Stats};
