//! ply's own book files: version 1 (an exact book), version 2 (a searched one) and version
//! 3 (a partial searched one), read and written byte for byte. Edax's files are
//! [`super::edax`]'s.
//!
//! Every number is little-endian. Version 1, an exact book:
//!
//! ```text
//! offset  size  field
//!      0     8  magic            b"plybook\n"
//!      8     4  format version   1 (u32)
//!     12     4  board side       4, 6 or 8
//!     16     4  min empties      the book's positions have at least this many empty squares
//!     20     4  entries          n
//!     24     8  checksum         FNV-1a 64 of the entry bytes that follow
//!     32  18*n  entries          mover's discs (u64), other discs (u64), best move (square
//!                                index, a1 = 0, row by row on the 8x8 layout), value (i8);
//!                                the least image of the position, sorted by (mover, other)
//! ```
//!
//! Version 2, a searched book:
//!
//! ```text
//! offset  size  field
//!      0     8  magic            b"plybook\n"
//!      8     4  format version   2 (u32)
//!     12     4  board side       4, 6 or 8
//!     16     4  min empties      the book's positions have at least this many empty squares
//!     20     4  entries          n
//!     24     4  moves            m, over all entries
//!     28     8  checksum         FNV-1a 64 of the entry bytes that follow
//!     36  17*n+3*m  entries      mover's discs (u64), other discs (u64), moves k (u8), then
//!                                k moves, best first: square (u8), score in discs (i8), depth
//!                                in plies (u8); sorted by (mover, other) as in version 1
//! ```
//!
//! Version 3, a partial searched book (one imported from Edax), is version 2 with 3 as its
//! version: an entry scores at least one of its position's legal moves, not necessarily all.

use super::lookup::{BadBook, Book, Stored};
use crate::{
    formats::binfile::{fnv1a, Reader},
    BoardSize, Position, Square,
};

const MAGIC: &[u8; 8] = b"plybook\n";

/// The format version of an exact book (the oldest this build reads; the newest is
/// [`PARTIAL_VERSION`]).
pub const EXACT_VERSION: u32 = 1;

/// The format version of a searched book that scores every move (read and written; a
/// partial book is [`PARTIAL_VERSION`]).
pub const VERSION: u32 = 2;

/// The format version of a partial searched book (the newest this build reads and writes).
pub const PARTIAL_VERSION: u32 = 3;

const ENTRY_BYTES: usize = 18;

/// Bytes of a version-2 entry before its moves, and of each move.
const SEARCHED_HEAD: usize = 17;
const SEARCHED_MOVE: usize = 3;

impl Book {
    /// Reads a book file of either kind, told apart by its first bytes: ply's own
    /// ([`Book::read`]) or Edax's ([`Book::read_edax`]).
    ///
    /// # Errors
    /// What the reader of its kind refuses.
    pub fn read_any(bytes: &[u8]) -> Result<Book, BadBook> {
        if bytes.starts_with(super::edax::MAGIC) {
            Book::read_edax(bytes)
        } else {
            Book::read(bytes)
        }
    }

    /// Reads a book file, exact (version 1), searched (version 2) or partial (version 3).
    ///
    /// # Errors
    /// When the file is not a book, is for another format version, is truncated or longer
    /// than its header says, fails its checksum, or holds an entry that is not a legal
    /// position with legal moves (named by its index and field), not the least of its
    /// images, or out of order.
    pub fn read(bytes: &[u8]) -> Result<Book, BadBook> {
        if !bytes.starts_with(MAGIC) {
            return Err(BadBook(
                "not a ply book file (it does not start with `plybook`)".into(),
            ));
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32("format version")?;
        if !(EXACT_VERSION..=PARTIAL_VERSION).contains(&version) {
            return Err(BadBook(format!(
                "format version {version}, this build reads versions {EXACT_VERSION} to \
                 {PARTIAL_VERSION}"
            )));
        }
        let partial = version == PARTIAL_VERSION;
        let side = r.u32("board side")?;
        let size = u8::try_from(side)
            .ok()
            .and_then(BoardSize::from_n)
            .ok_or_else(|| BadBook(format!("board side {side} is not 4, 6 or 8")))?;
        let min_empties = r.u32("min empties")?;
        let count = r.u32("entry count")? as usize;
        let exact = version == EXACT_VERSION;
        let body_len = if exact {
            count * ENTRY_BYTES
        } else {
            let moves = r.u32("move count")? as usize;
            count * SEARCHED_HEAD + moves * SEARCHED_MOVE
        };
        let sum = r.u64("checksum")?;
        let body = r.take(body_len, "entries")?;
        r.end("last entry")?;
        if fnv1a(body) != sum {
            return Err(BadBook(
                "the entries fail their checksum (corrupted)".into(),
            ));
        }
        let mut book = Book {
            size,
            min_empties,
            exact,
            partial,
            entries: Vec::with_capacity(count),
            moves: Vec::new(),
        };
        let squares = i32::try_from(size.squares()).expect("at most 64");
        let mut b = Reader { bytes: body, at: 0 };
        for k in 0..count {
            let bad = |why: String| BadBook(format!("entry {k}: {why}"));
            let player = b.u64("discs").map_err(bad)?;
            let opponent = b.u64("discs").map_err(bad)?;
            let moves: Vec<Stored> = if exact {
                let m = b.take(2, "move").map_err(bad)?;
                vec![Stored {
                    square: m[0],
                    score: i8::from_le_bytes([m[1]]),
                    depth: 0,
                }]
            } else {
                let n = b.take(1, "move count").map_err(bad)?[0];
                let m = b
                    .take(usize::from(n) * SEARCHED_MOVE, "moves")
                    .map_err(bad)?;
                m.chunks_exact(SEARCHED_MOVE)
                    .map(|c| Stored {
                        square: c[0],
                        score: i8::from_le_bytes([c[1]]),
                        depth: c[2],
                    })
                    .collect()
            };
            if player & opponent != 0 || (player | opponent) & !size.mask().0 != 0 {
                return Err(bad("not a position of the board".into()));
            }
            let pos = Position::from_raw(player, opponent, crate::Color::Black, size);
            // Look-ups find a position by its least image: an entry stored under another
            // could never be found, and would be exported as a record Edax refuses.
            if super::lookup::key(&pos) != (player, opponent) {
                return Err(bad(
                    "not the least of the position's images, which the book stores".into(),
                ));
            }
            if pos.empties().count() < min_empties {
                return Err(bad("fewer empty squares than the book's minimum".into()));
            }
            if let Some(e) = book.entries.last() {
                if (e.player, e.opponent) >= (player, opponent) {
                    return Err(bad("out of order".into()));
                }
            }
            let mut seen = 0u64;
            for (j, m) in moves.iter().enumerate() {
                let what = |why: &str| bad(format!("move {j}: {why}"));
                if !Square::from_index(m.square).is_some_and(|s| pos.is_legal(s)) {
                    return Err(what("not a legal move"));
                }
                if seen & (1 << m.square) != 0 {
                    return Err(what("given twice"));
                }
                seen |= 1 << m.square;
                if i32::from(m.score).abs() > squares {
                    return Err(what("score out of range"));
                }
                if !exact && m.depth == 0 {
                    return Err(what("depth 0"));
                }
                if j > 0 && m.score > moves[j - 1].score {
                    return Err(what("scored above the move before it (best first)"));
                }
            }
            if partial && moves.is_empty() {
                return Err(bad("no move scored".into()));
            }
            if !exact && !partial && moves.len() != pos.legal_moves().count() as usize {
                return Err(bad("not every legal move is scored".into()));
            }
            book.push(player, opponent, &moves);
        }
        Ok(book)
    }

    /// The bytes of the book's file: version 1 for an exact book, 2 for a searched one, 3
    /// for a partial one.
    #[must_use]
    pub fn write(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let count = u32::try_from(self.entries.len()).expect("a book of fewer than 2^32");
        let version = match (self.exact, self.partial) {
            (true, _) => EXACT_VERSION,
            (false, false) => VERSION,
            (false, true) => PARTIAL_VERSION,
        };
        for v in [version, u32::from(self.size.n()), self.min_empties, count] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if !self.exact {
            let moves = u32::try_from(self.moves.len()).expect("fewer than 2^32 moves");
            out.extend_from_slice(&moves.to_le_bytes());
        }
        let mut body = Vec::new();
        for e in &self.entries {
            body.extend_from_slice(&e.player.to_le_bytes());
            body.extend_from_slice(&e.opponent.to_le_bytes());
            let moves = self.stored(e);
            if self.exact {
                body.push(moves[0].square);
                body.extend_from_slice(&moves[0].score.to_le_bytes());
            } else {
                body.push(e.count);
                for m in moves {
                    body.push(m.square);
                    body.extend_from_slice(&m.score.to_le_bytes());
                    body.push(m.depth);
                }
            }
        }
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        book::{
            testing::{book4, searched4},
            ScoredMove,
        },
        spine::units::WholeDiscs,
    };

    #[test]
    fn files_round_trip_and_bad_files_are_refused_with_a_reason() {
        let book = book4(8);
        let bytes = book.write();
        assert_eq!(Book::read(&bytes).unwrap(), book);
        let why = |b: &[u8]| Book::read(b).unwrap_err().to_string();
        assert!(why(&bytes[..bytes.len() - 1]).contains("truncated"));
        assert!(why(&bytes[..20]).contains("truncated"));
        assert!(why(b"plyeval\n1234").contains("not a ply book file"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(why(&longer).contains("after the last entry"));
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(why(&flipped).contains("checksum"));
        let mut v4 = bytes.clone();
        v4[8] = 4;
        assert!(why(&v4).contains("format version 4"), "{}", why(&v4));
        let mut side = bytes;
        side[12] = 5;
        assert!(why(&side).contains("board side 5"));
    }

    #[test]
    fn bad_searched_books_are_refused_naming_the_entry_and_field() {
        let book = searched4(10);
        let bytes = book.write();
        let why = |b: &[u8]| Book::read(b).unwrap_err().to_string();
        assert!(
            why(&bytes[..30]).contains("truncated"),
            "{}",
            why(&bytes[..30])
        );
        assert!(why(&bytes[..bytes.len() - 2]).contains("truncated"));
        // Rewrites the body and its checksum, so that the entry checks are reached.
        let body_at = 36;
        let resum = |mut b: Vec<u8>| {
            let sum = fnv1a(&b[body_at..]);
            b[28..36].copy_from_slice(&sum.to_le_bytes());
            b
        };
        let first_move = body_at + SEARCHED_HEAD;
        let mut zero_depth = bytes.clone();
        zero_depth[first_move + 2] = 0;
        assert!(why(&resum(zero_depth)).contains("entry 0: move 0: depth 0"));
        let mut illegal = bytes.clone();
        illegal[first_move] = 0; // a1 is never legal this early on 4x4
        assert!(why(&resum(illegal)).contains("entry 0: move 0: not a legal move"));
        let mut unsorted = bytes.clone();
        unsorted[first_move + 1] = 0x80; // -128: the best move scored below the next
        let e = why(&resum(unsorted));
        assert!(e.contains("entry 0: move 0: score out of range"), "{e}");
        // An entry stored under another image than its least, which no look-up finds (and
        // `book export` once wrote as a record Edax refuses): found by the mutation tests.
        let mut image = bytes.clone();
        let (p, o) = (
            u64::from_le_bytes(bytes[body_at..body_at + 8].try_into().unwrap()),
            u64::from_le_bytes(bytes[body_at + 8..body_at + 16].try_into().unwrap()),
        );
        let s = (1..crate::rules::symmetry::COUNT)
            .find(|&s| {
                let (ip, io) = (
                    crate::rules::symmetry::apply(p, s, 4),
                    crate::rules::symmetry::apply(o, s, 4),
                );
                (ip, io) != (p, o)
            })
            .unwrap();
        image[body_at..body_at + 8]
            .copy_from_slice(&crate::rules::symmetry::apply(p, s, 4).to_le_bytes());
        image[body_at + 8..body_at + 16]
            .copy_from_slice(&crate::rules::symmetry::apply(o, s, 4).to_le_bytes());
        let e = why(&resum(image));
        assert!(e.contains("entry 0: not the least"), "{e}");
        let mut flipped = bytes;
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(why(&flipped).contains("checksum"));
        // Building one: every legal move must be scored.
        let start = Position::start(BoardSize::Four);
        let one = vec![ScoredMove {
            square: start.legal_moves().next().unwrap(),
            score: WholeDiscs(0),
            depth: 1,
        }];
        let e = Book::from_searched(BoardSize::Four, [(start, one)]).unwrap_err();
        assert!(e.to_string().contains("1 of its 4 legal moves"), "{e}");
    }

    #[test]
    fn the_shipped_6x6_book_is_written_back_byte_for_byte() {
        let bytes = include_bytes!("../../../data/book6.bin");
        assert_eq!(Book::read(bytes).unwrap().write(), bytes.to_vec());
    }

    #[test]
    fn the_shipped_8x8_book_is_written_back_byte_for_byte() {
        let bytes = include_bytes!("../../../data/book8.bin");
        assert_eq!(Book::read(bytes).unwrap().write(), bytes.to_vec());
    }
}
