//! The opening books: what ply knows of the start of the game before it searches.
//!
//! A book is one of two kinds.
//!
//! * **Exact** (6x6, `data/book6.bin`): a weak solution of the opening for both colours. It
//!   holds *ply nodes*: positions where ply is to move, reached from the start by any moves
//!   of the opponent and ply's own book moves, each with an optimal move and the exact value
//!   (final disc difference for the side to move, empties to the winner). It is closed:
//!   after any book position and its move, every reply of the opponent leads to a position
//!   the book holds again, as long as it has at least [`Book::min_empties`] empty squares (or
//!   to the end of the game); below that, the exact solver answers within the page's budget.
//!   The roots are the start position (ply plays black) and every position after black's
//!   first move (ply plays white), so ply plays perfectly from move one as either colour.
//!   It is built level by level with the batch solve (`ply othello book grow`, then
//!   `ply othello solve --obf … --out …`, sharded on one machine or on Slurm, then
//!   `ply othello book build`); `scripts/build-book6` runs the whole thing.
//! * **Searched** (8x8, `data/book8.bin`): the positions that self-play lines from the start
//!   reach (the best move, or a deviation within a few discs of it), each with *every* legal
//!   move scored: by a deep midgame search where the move leaves the book, and by the book's
//!   own value of the position after it where it stays in (negamaxed, see [`negamax`]). Each
//!   score carries the depth it rests on. It is built level by level too (`ply othello book
//!   deviate`, `ply othello book search`, `ply othello book build`); `scripts/build-book8`
//!   runs it.
//!
//! Positions are stored once per symmetry class (the least image of the side to move's and
//! the other side's discs, whatever the colours, the board's `rules::symmetry`), so an image of
//! a book position is found too and its moves mapped back.
//!
//! ```
//! use ply_othello::{analyze::WholeDiscs, book::Book, BoardSize, Position};
//!
//! let book = Book::builtin(BoardSize::Six).expect("6x6 ships a book");
//! let start = book.lookup(&Position::start(BoardSize::Six)).expect("the start is in it");
//! assert_eq!(start.score, WholeDiscs(-4)); // 6x6 is a white win, 16-20
//! assert!(start.exact);
//! ```
//!
//! The module is split by job, as Egaroucid splits its book's storage from its growth:
//!
//! * `lookup`: the [`Book`] type, its construction from checked entries and its queries
//!   ([`Book::lookup`], [`Book::moves`]); what the analysis reads.
//! * `format`: ply's own files (version 1 exact, version 2 searched, version 3 partial),
//!   [`Book::read`] and [`Book::write`]; [`Book::read_any`] tells them from Edax's.
//! * `edax`: Edax's `.dat` books, [`Book::read_edax`] and [`Book::write_edax`].
//! * `build`: how a book grows: the roots and the positions past a solved level
//!   ([`next_exact_level`]), the self-play lines that deviate from the searched positions
//!   ([`deviate`]), the leaf scoring of a searched book's positions by the midgame engine
//!   ([`search_moves`], and on threads [`search_all`]), the negamax of searched scores through the book ([`negamax`]), and the
//!   positions of played games added to a searched book ([`game_positions`],
//!   [`add_searched`]).
//! * `report`: what a front end says of a book ([`Book::info_text`], [`Book::summary`]) and
//!   the positions of played games a book lacks ([`Gathered`]).

mod build;
mod edax;
mod format;
mod lookup;
mod report;
#[cfg(test)]
mod testing;

pub use build::{
    add_searched, after_any_reply, build_searched, deviate, game_positions, negamax,
    next_exact_level, roots, search_all, search_moves, successors, Deviation,
};
pub use format::{EXACT_VERSION, PARTIAL_VERSION, VERSION};
pub(crate) use lookup::{after, After};
pub use lookup::{canonical_image, key, BadBook, Book, BookMove, ScoredMove};
pub use report::{added_note, edax_note, edax_positions, Gathered};
