//! The rules of Othello and nothing else: squares, bitboards, positions, legal moves and
//! flips, a record of the moves of a game, the board's symmetries, perft, and the slow
//! references the fast routines are tested against.
//!
//! Nothing here reads or writes text (that is [`crate::text`] and the other formats, which
//! build on these types) or searches for a good move (the engine); both depend on the rules,
//! never the other way round.

mod bitboard;
pub mod cpu;
pub mod moves;
pub mod perft;
mod position;
mod record;
pub mod reference;
mod size;
mod square;
pub(crate) mod symmetry;

pub use bitboard::Bitboard;
pub use position::{final_score, Color, EmptyCentre, Move, PlayError, Position};
pub use record::GameRecord;
pub use size::BoardSize;
pub use square::Square;
