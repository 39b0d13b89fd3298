//! The opening book: a weak solution of the start of the game, for both colours.
//!
//! A book holds *ply nodes*: positions where ply is to move, reached from the start by any
//! moves of the opponent and ply's own book moves, each with an optimal move and the exact
//! value (final disc difference for the side to move, empties to the winner). It is closed:
//! after any book position and its move, every reply of the opponent leads to a position the
//! book holds again, as long as it has at least [`Book::min_empties`] empty squares (or to
//! the end of the game); below that, the exact solver answers within the page's budget.
//! The roots are the start position (ply plays black) and every position after black's first
//! move (ply plays white), so ply plays perfectly from move one as either colour.
//!
//! Positions are stored once per symmetry class (the least image of the side to move's and
//! the other side's discs, whatever the colours), so an image of a book position is found
//! too and its move mapped back.
//!
//! The book is built level by level with the batch solve (`ply othello book grow`, then
//! `ply othello solve --obf … --out …`, sharded on one machine or on Slurm, then
//! `ply othello book build`); `scripts/build-book6` runs the whole thing.
//!
//! ```
//! use ply_othello::{book::Book, BoardSize, Position};
//!
//! let book = Book::builtin(BoardSize::Six).expect("6x6 ships a book");
//! let start = book.lookup(&Position::start(BoardSize::Six)).expect("the start is in it");
//! assert_eq!(start.score, -4); // 6x6 is a white win, 16-20
//! ```
//!
//! The file:
//!
//! ```text
//! offset  size  field
//!      0     8  magic            b"plybook\n"
//!      8     4  format version   1 (u32, little-endian, as every number here)
//!     12     4  board side       4, 6 or 8
//!     16     4  min empties      the book's positions have at least this many empty squares
//!     20     4  entries          n
//!     24     8  checksum         FNV-1a 64 of the entry bytes that follow
//!     32  18*n  entries          mover's discs (u64), other discs (u64), best move (square
//!                                index, a1 = 0, row by row on the 8x8 layout), value (i8);
//!                                the least image of the position, sorted by (mover, other)
//! ```

use std::{fmt, sync::OnceLock};

use crate::{
    formats::binfile::{fnv1a, Reader},
    solve::symmetry,
    BoardSize, Position, Square,
};

const MAGIC: &[u8; 8] = b"plybook\n";

/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

const ENTRY_BYTES: usize = 18;

/// Why a book file or a set of book entries was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadBook(String);

impl From<String> for BadBook {
    fn from(message: String) -> BadBook {
        BadBook(message)
    }
}

impl fmt::Display for BadBook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "opening book: {}", self.0)
    }
}

impl std::error::Error for BadBook {}

/// What the book says of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// An optimal move.
    pub best: Square,
    /// The exact value for the side to move: final disc difference, empties to the winner.
    pub score: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    player: u64,
    opponent: u64,
    best: u8,
    score: i8,
}

impl Entry {
    /// The entry's position (its least image) on a board of `size`, black to move.
    fn position(&self, size: BoardSize) -> Position {
        Position::from_raw(self.player, self.opponent, crate::Color::Black, size)
    }
}

/// A weak solution of the opening: see the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    size: BoardSize,
    min_empties: u32,
    entries: Vec<Entry>,
}

/// The least image of `pos` (mover's discs, other discs) and a symmetry that maps `pos`
/// onto it.
fn canonical(pos: &Position) -> (u64, u64, u8) {
    symmetry::canonical(pos.player().0, pos.opponent().0, u32::from(pos.size().n()))
}

/// The least image of `pos` under the board's symmetries, with the same side to move: the
/// one representative of its class that book files and book frontiers list.
#[must_use]
pub fn canonical_image(pos: &Position) -> Position {
    symmetry::image(pos, canonical(pos).2)
}

/// The positions where ply is to move again after the opponent, to move in `pos`, plays any
/// of its moves (passes played out), in move order; finished games are left out.
#[must_use]
pub fn after_any_reply(pos: &Position) -> Vec<Position> {
    let mut out = Vec::new();
    opponent_turn(pos, &mut out);
    out
}

fn opponent_turn(q: &Position, out: &mut Vec<Position>) {
    if q.is_game_over() {
        return;
    }
    if !q.can_move() {
        ply_turn(q.passed(), out);
        return;
    }
    for r in q.legal_moves() {
        ply_turn(q.play_unchecked(r), out);
    }
}

fn ply_turn(c: Position, out: &mut Vec<Position>) {
    if c.is_game_over() {
        return;
    }
    if c.can_move() {
        out.push(c);
    } else {
        opponent_turn(&c.passed(), out);
    }
}

/// The book's roots on a board: the start (ply plays black) and every position after
/// black's first move (ply plays white).
#[must_use]
pub fn roots(size: BoardSize) -> Vec<Position> {
    let start = Position::start(size);
    std::iter::once(start)
        .chain(after_any_reply(&start))
        .collect()
}

/// The ply nodes one step past the book position `pos` with its move `best`: ply plays
/// `best`, the opponent any reply.
///
/// # Panics
/// When `best` is not legal in `pos`.
#[must_use]
pub fn successors(pos: &Position, best: Square) -> Vec<Position> {
    let next = pos.play(best).expect("a book move is legal");
    after_any_reply(&next)
}

impl Book {
    /// The book shipped for `size`: 6x6 has one (`data/book6.bin`, made by
    /// `scripts/build-book6`); 4x4 needs none (it is solved at once), 8x8 has none.
    ///
    /// # Panics
    /// When the shipped file is broken: a test loads it.
    #[must_use]
    pub fn builtin(size: BoardSize) -> Option<&'static Book> {
        static SIX: OnceLock<Book> = OnceLock::new();
        match size {
            BoardSize::Six => Some(SIX.get_or_init(|| {
                Book::read(include_bytes!("../../data/book6.bin")).expect("the shipped 6x6 book")
            })),
            _ => None,
        }
    }

    /// A book of `entries` (position, optimal move, exact value) whose positions have at
    /// least `min_empties` empty squares. Images of one position are kept once; their
    /// values must agree.
    ///
    /// # Errors
    /// A position with fewer empty squares, of another board size, that cannot move, a move
    /// that is not legal, a value out of range, or two images of one position with
    /// different values.
    pub fn from_entries(
        size: BoardSize,
        min_empties: u32,
        entries: impl IntoIterator<Item = (Position, Square, i32)>,
    ) -> Result<Book, BadBook> {
        let mut out: Vec<Entry> = Vec::new();
        for (pos, best, score) in entries {
            let name = crate::text::format_position(&pos);
            if pos.size() != size {
                return Err(BadBook(format!(
                    "{name} is a {0}x{0} position in a {1}x{1} book",
                    pos.size().n(),
                    size.n()
                )));
            }
            if pos.empties().count() < min_empties {
                return Err(BadBook(format!(
                    "{name} has {} empty squares, fewer than the book's {min_empties}",
                    pos.empties().count()
                )));
            }
            if !pos.is_legal(best) {
                return Err(BadBook(format!("{name}: {best} is not a legal move")));
            }
            let squares = i32::try_from(size.squares()).expect("at most 64");
            if score.abs() > squares || score % 2 != 0 {
                return Err(BadBook(format!(
                    "{name}: {score} is not a final disc difference on {0}x{0}",
                    size.n()
                )));
            }
            let (player, opponent, s) = canonical(&pos);
            out.push(Entry {
                player,
                opponent,
                best: symmetry::square(best.index(), s, u32::from(size.n())),
                score: i8::try_from(score).expect("checked above"),
            });
        }
        out.sort_by_key(|e| (e.player, e.opponent));
        let mut kept: Vec<Entry> = Vec::with_capacity(out.len());
        for e in out {
            match kept.last() {
                Some(k) if (k.player, k.opponent) == (e.player, e.opponent) => {
                    if k.score != e.score {
                        return Err(BadBook(format!(
                            "two values for {} (or an image of it): {} and {}",
                            crate::text::format_position(&e.position(size)),
                            k.score,
                            e.score
                        )));
                    }
                }
                _ => kept.push(e),
            }
        }
        Ok(Book {
            size,
            min_empties,
            entries: kept,
        })
    }

    /// Reads a book file.
    ///
    /// # Errors
    /// When the file is not a book, is for another format version, is truncated or longer
    /// than its header says, fails its checksum, or holds an entry that is not a legal
    /// position with a legal move (named by its index), or entries out of order.
    pub fn read(bytes: &[u8]) -> Result<Book, BadBook> {
        if !bytes.starts_with(MAGIC) {
            return Err(BadBook(
                "not a ply book file (it does not start with `plybook`)".into(),
            ));
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32("format version")?;
        if version != VERSION {
            return Err(BadBook(format!(
                "format version {version}, this build reads version {VERSION}"
            )));
        }
        let side = r.u32("board side")?;
        let size = u8::try_from(side)
            .ok()
            .and_then(BoardSize::from_n)
            .ok_or_else(|| BadBook(format!("board side {side} is not 4, 6 or 8")))?;
        let min_empties = r.u32("min empties")?;
        let count = r.u32("entry count")? as usize;
        let sum = r.u64("checksum")?;
        let body = r.take(count * ENTRY_BYTES, "entries")?;
        r.end("last entry")?;
        if fnv1a(body) != sum {
            return Err(BadBook(
                "the entries fail their checksum (corrupted)".into(),
            ));
        }
        let mut entries = Vec::with_capacity(count);
        for (k, b) in body.chunks_exact(ENTRY_BYTES).enumerate() {
            let e = Entry {
                player: u64::from_le_bytes(b[0..8].try_into().expect("8 bytes")),
                opponent: u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")),
                best: b[16],
                score: i8::from_le_bytes([b[17]]),
            };
            let bad = |why: &str| BadBook(format!("entry {k}: {why}"));
            if e.player & e.opponent != 0 || (e.player | e.opponent) & !size.mask().0 != 0 {
                return Err(bad("not a position of the board"));
            }
            let pos = e.position(size);
            if !Square::from_index(e.best).is_some_and(|s| pos.is_legal(s)) {
                return Err(bad("its move is not legal"));
            }
            if pos.empties().count() < min_empties {
                return Err(bad("fewer empty squares than the book's minimum"));
            }
            if entries
                .last()
                .is_some_and(|p: &Entry| (p.player, p.opponent) >= (e.player, e.opponent))
            {
                return Err(bad("out of order"));
            }
            entries.push(e);
        }
        Ok(Book {
            size,
            min_empties,
            entries,
        })
    }

    /// The bytes of the book's file.
    #[must_use]
    pub fn write(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let count = u32::try_from(self.entries.len()).expect("a book of fewer than 2^32");
        for v in [VERSION, u32::from(self.size.n()), self.min_empties, count] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let mut body = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        for e in &self.entries {
            body.extend_from_slice(&e.player.to_le_bytes());
            body.extend_from_slice(&e.opponent.to_le_bytes());
            body.push(e.best);
            body.extend_from_slice(&e.score.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The fewest empty squares of a book position: the book's depth.
    #[must_use]
    pub fn min_empties(&self) -> u32 {
        self.min_empties
    }

    /// Positions held (one per symmetry class).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the book holds nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every position of the book (its least image, black to move) with its move and value.
    pub fn iter(&self) -> impl Iterator<Item = (Position, BookMove)> + '_ {
        self.entries.iter().map(|e| {
            (
                e.position(self.size),
                BookMove {
                    best: Square::from_index(e.best).expect("checked when read"),
                    score: i32::from(e.score),
                },
            )
        })
    }

    /// What the book says of `pos` (or of an image of it), with the move mapped onto `pos`.
    #[must_use]
    pub fn lookup(&self, pos: &Position) -> Option<BookMove> {
        if pos.size() != self.size || pos.empties().count() < self.min_empties {
            return None;
        }
        let (player, opponent, s) = canonical(pos);
        let k = self
            .entries
            .binary_search_by_key(&(player, opponent), |e| (e.player, e.opponent))
            .ok()?;
        let e = self.entries[k];
        let n = u32::from(self.size.n());
        let best = Square::from_index(symmetry::square(e.best, symmetry::inverse(s), n))
            .expect("a square of the board");
        debug_assert!(pos.is_legal(best), "a book move maps onto a legal move");
        Some(BookMove {
            best,
            score: i32::from(e.score),
        })
    }

    /// The first position the book should hold and does not: a root, or a successor of a
    /// book position with at least [`Book::min_empties`] empty squares. `None` when the book
    /// is closed, that is, a weak solution down to its depth.
    #[must_use]
    pub fn first_gap(&self) -> Option<Position> {
        let wanted = |p: &Position| p.empties().count() >= self.min_empties;
        roots(self.size)
            .into_iter()
            .chain(self.iter().flat_map(|(pos, m)| successors(&pos, m.best)))
            .find(|p| wanted(p) && self.lookup(p).is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{SolveOptions, Solver};

    /// A 4x4 book to depth `min`, by solving every position the closure asks for.
    fn book4(min: u32) -> Book {
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
        });
        let mut entries = Vec::new();
        let mut todo: Vec<Position> = roots(BoardSize::Four);
        let mut seen = std::collections::HashSet::new();
        while let Some(p) = todo.pop() {
            if p.empties().count() < min || !seen.insert(canonical(&p)) {
                continue;
            }
            let r = solver.solve(&p);
            let best = r.best_move.unwrap();
            todo.extend(successors(&p, best));
            entries.push((p, best, r.score));
        }
        Book::from_entries(BoardSize::Four, min, entries).unwrap()
    }

    #[test]
    fn a_built_book_is_closed_and_agrees_with_the_solver() {
        let book = book4(6);
        assert!(book.len() > 10, "{}", book.len());
        assert_eq!(book.first_gap(), None);
        let start = Position::start(BoardSize::Four);
        assert_eq!(book.lookup(&start).unwrap().score, -10);
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
        });
        for (pos, m) in book.iter() {
            // Every image of every position finds the entry, with a move that is optimal.
            for s in 0..symmetry::COUNT {
                let im = symmetry::image(&pos, s);
                let found = book.lookup(&im).unwrap();
                assert_eq!(found.score, m.score);
                let after = im.play(found.best).unwrap();
                assert_eq!(-solver.solve(&after).score, m.score);
            }
        }
    }

    #[test]
    fn a_book_missing_a_position_shows_the_gap() {
        let book = book4(6);
        let mut entries: Vec<(Position, Square, i32)> =
            book.iter().map(|(p, m)| (p, m.best, m.score)).collect();
        let dropped = entries.pop().unwrap().0;
        let holed = Book::from_entries(BoardSize::Four, 6, entries).unwrap();
        let gap = holed.first_gap().expect("a gap");
        assert_eq!(canonical(&gap).0, canonical(&dropped).0);
    }

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
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(why(&v2).contains("format version 2"));
        let mut side = bytes;
        side[12] = 5;
        assert!(why(&side).contains("board side 5"));
    }

    #[test]
    fn bad_entries_are_refused_naming_the_position() {
        let start = Position::start(BoardSize::Six);
        let a1 = Square::parse("a1").unwrap();
        let c2 = Square::parse("c2").unwrap();
        let e = Book::from_entries(BoardSize::Six, 20, [(start, a1, -4)]).unwrap_err();
        assert!(e.to_string().contains("a1 is not a legal move"), "{e}");
        let e = Book::from_entries(BoardSize::Six, 20, [(start, c2, -3)]).unwrap_err();
        assert!(
            e.to_string().contains("-3 is not a final disc difference"),
            "{e}"
        );
        let e = Book::from_entries(BoardSize::Six, 33, [(start, c2, -4)]).unwrap_err();
        assert!(e.to_string().contains("fewer than the book's 33"), "{e}");
        let e =
            Book::from_entries(BoardSize::Six, 20, [(start, c2, -4), (start, c2, -2)]).unwrap_err();
        assert!(e.to_string().contains("two values"), "{e}");
    }

    #[test]
    fn replies_play_out_passes_and_skip_finished_games() {
        // Random 4x4 games, where passes are common: after any reply, ply is to move and
        // can move; without passes there is one position per reply.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut passes = 0;
        for _ in 0..300 {
            let mut q = Position::start(BoardSize::Four);
            while !q.is_game_over() {
                let after = after_any_reply(&q);
                let ply = q.turn().other();
                for p in &after {
                    assert!(p.can_move() && p.turn() == ply);
                    assert!(p.empties().count() < q.empties().count() || !q.can_move());
                }
                let moves = q.legal_moves().count();
                if after
                    .iter()
                    .any(|p| p.empties().count() + 1 != q.empties().count())
                {
                    passes += 1;
                } else if q.legal_moves().all(|r| q.play_unchecked(r).can_move()) {
                    assert_eq!(after.len(), moves as usize);
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                q = match q
                    .legal_moves()
                    .nth((seed % u64::from(moves.max(1))) as usize)
                {
                    Some(sq) => q.play_unchecked(sq),
                    None => q.passed(),
                };
            }
        }
        assert!(passes > 0, "no pass was played out");
    }
}
