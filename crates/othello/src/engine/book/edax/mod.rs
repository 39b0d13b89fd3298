//! Edax's opening books: the `.dat` files that Edax 4.4 and later write with `book save`,
//! read into a [partial](Book::is_partial) searched [`Book`] and written back from one.
//!
//! An Edax book holds positions (the least of each one's eight images, the side to move's
//! discs first), each with its *links*, the moves that lead to other positions of the book
//! with the value the book negamaxed for them, and its *leaf*, the best of the other moves
//! with the score of a search at the position's level. That is a partial searched book: the
//! moves a position scores are its links and its leaf, the best of them its best of all.
//! The game counts and the bounds of a position's value are what Edax's own negamax derives
//! from the rest: ply reads and checks them, and leaves them out of its book.
//!
//! The layout (Edax's `book.c`: `book_save`, `position_write`; every number little-endian,
//! as Edax writes it on x86):
//!
//! ```text
//! offset  size  field
//!      0     4  magic            0x45444158 ("EDAX", bytes `XADE`)
//!      4     4  magic            0x424f4f4b ("BOOK", bytes `KOOB`)
//!      8     1  version          4
//!      9     1  release          4 (Edax 4.4), 6 (4.6): the same layout
//!     10     8  date             year (i16), month, day, hour, minute, second (u8), a pad byte
//!     18    20  options          level, depth (fewest empties), midgame error, endcut error,
//!                                verbosity (i32 each)
//!     38     4  positions        n (i32)
//!     42        n positions, each:
//!           +0   8  discs of the side to move (u64, bit i = square i, a1 = 0, b1 = 1, ..., h8 = 63)
//!           +8   8  discs of the other side (u64)
//!          +16  16  wins, draws, losses, lines (u32 each): the games through the position
//!          +32   6  value, lower bound, upper bound (i16 each, in discs)
//!          +38   1  links k (u8)
//!          +39   1  level (u8): the search level of the leaf, 0 to 60
//!          +40  2k  links: score (i8), move (u8)
//!       +40+2k   2  leaf: score (i8), move (u8; 64 a pass, 65 none)
//! ```
//!
//! A score is a disc difference for the side that plays the move, empties to the winner.
//! Positions where the side to move must pass (a pass link to the position after it) or the
//! game is over are stored too; ply plays passes out, so it needs neither and writes the
//! pass positions its links go through.

mod read;
#[cfg(test)]
mod tests;
mod write;

use crate::{BoardSize, Color, Position};

/// The file's first eight bytes: `EDAX` and `BOOK` as little-endian u32s.
pub(super) const MAGIC: &[u8; 8] = b"XADEKOOB";

/// The version byte of the layout this reads and writes.
const EDAX_VERSION: u8 = 4;

/// The release byte ply writes: the layout of Edax 4.4 (4.6 writes 6, in the same layout).
const EDAX_RELEASE: u8 = 4;

const HEADER_BYTES: usize = 42;

/// Bytes of a position before its links.
const POSITION_HEAD: usize = 40;

/// A move byte: a pass, and no move.
const PASS: u8 = 64;
const NO_MOVE: u8 = 65;

/// Edax's infinite score: the value and bounds of what is not known.
const SCORE_INF: i16 = 127;

/// The error margins Edax's new books carry (`book_init`), written in ply's header.
const MIDGAME_ERROR: i32 = 2;
const ENDCUT_ERROR: i32 = 1;

/// The four centre squares, never empty in a position of a game.
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// A move of a position: its score and its square (or [`PASS`], [`NO_MOVE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Link {
    score: i8,
    square: u8,
}

/// One position as the file holds it, with the byte it starts at.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    at: usize,
    player: u64,
    opponent: u64,
    level: u8,
    links: Vec<Link>,
    leaf: Link,
}

/// The most empty squares at which a search of Edax's `level` goes to the end of the game
/// (Edax's table of levels, `search_global_init` in `search.c`; above it, the search is
/// `level` plies deep).
fn solves_from(level: u32) -> u32 {
    match level {
        0 => 0,
        1..=10 => 2 * level,
        11..=12 => 24,
        13..=18 => 27,
        19..=21 => 30,
        22..=27 => 33,
        28..=31 => 36,
        32..=35 => 39,
        36..=59 => level + 9,
        _ => 60,
    }
}

/// Plies of the search of an Edax leaf at `level` with `empties` empty squares: the
/// depth ply gives its score (at least one: the move itself).
fn leaf_depth(level: u8, empties: u32) -> u32 {
    let level = u32::from(level);
    let depth = if empties <= solves_from(level) {
        empties
    } else {
        level
    };
    depth.max(1)
}

/// The Edax level whose search of a position with `empties` empty squares is `depth` plies
/// deep ([`leaf_depth`] undoes it): the least level that solves it for a depth that reaches
/// the end, else the deepest level that searches no deeper than `depth`.
fn level_for(depth: u32, empties: u32) -> u8 {
    let level = if depth >= empties {
        (1..=60).find(|&l| solves_from(l) >= empties).unwrap_or(60)
    } else {
        (0..=depth.min(60))
            .rev()
            .find(|&l| empties > solves_from(l))
            .unwrap_or(0)
    };
    u8::try_from(level).expect("at most 60")
}

/// The position of `player`'s and `opponent`'s discs on 8x8 (the colours do not matter to
/// a book).
fn position(player: u64, opponent: u64) -> Position {
    Position::from_raw(player, opponent, Color::Black, BoardSize::Eight)
}
