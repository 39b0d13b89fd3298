//! The [`Book`] type and what it answers: a position's best move and value, and the scores
//! of its moves, found through any image of a stored position.

use std::{fmt, sync::OnceLock};

use crate::{rules::symmetry, spine::units::WholeDiscs, BoardSize, Position, Square};

/// Why a book file or a set of book entries was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadBook(pub(super) String);

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

/// What the book says of a position: its best move and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// An optimal move (exact book), the best-scored one (searched book).
    pub best: Square,
    /// The value for the side to move in discs: final disc difference, empties to the
    /// winner; exact, or a searched book's estimate.
    pub score: WholeDiscs,
    /// Whether `score` is exact.
    pub exact: bool,
    /// Plies the score rests on: the empty squares when exact; for a searched book, the
    /// depth of the search at the leaf plus the book moves that lead there.
    pub depth: u32,
}

/// One move of a searched book's position, with its score for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub square: Square,
    /// Its score in discs for the side that plays it.
    pub score: WholeDiscs,
    /// Plies the score rests on, the move itself included.
    pub depth: u32,
}

/// A position's key in a book: its least image's discs (mover, other) and its moves from
/// `first` on in the book's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) player: u64,
    pub(super) opponent: u64,
    pub(super) first: u32,
    pub(super) count: u8,
}

/// A move as stored: the square on the least image, the score in discs, the depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stored {
    pub(super) square: u8,
    pub(super) score: i8,
    pub(super) depth: u8,
}

impl Entry {
    /// The entry's position (its least image) on a board of `size`, black to move.
    pub(super) fn position(&self, size: BoardSize) -> Position {
        Position::from_raw(self.player, self.opponent, crate::Color::Black, size)
    }
}

/// An opening book, exact or searched: see the [module docs](super).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub(super) size: BoardSize,
    pub(super) min_empties: u32,
    pub(super) exact: bool,
    /// A searched book whose positions may score only some of their moves.
    pub(super) partial: bool,
    pub(super) entries: Vec<Entry>,
    pub(super) moves: Vec<Stored>,
}

/// The least image of `pos` (mover's discs, other discs) and a symmetry that maps `pos`
/// onto it.
pub(super) fn canonical(pos: &Position) -> (u64, u64, u8) {
    symmetry::canonical(pos.player().0, pos.opponent().0, u32::from(pos.size().n()))
}

/// The least image of `pos` under the board's symmetries, with the same side to move: the
/// one representative of its class that book files and book frontiers list.
#[must_use]
pub fn canonical_image(pos: &Position) -> Position {
    symmetry::image(pos, canonical(pos).2)
}

/// The key of `pos` in a book: the discs of its least image (mover, other).
#[must_use]
pub fn key(pos: &Position) -> (u64, u64) {
    let (player, opponent, _) = canonical(pos);
    (player, opponent)
}

/// Where the position after a move leads a book: the end of the game (the final score for
/// the side that moved), or the next position that can move, with the sign that turns its
/// value into the mover's (`-1` after the move, `+1` when the opponent must pass). Both the
/// negamax and the analysis's book lookups step through a move with it.
pub(crate) enum After {
    Over(WholeDiscs),
    Next(Position, i32),
}

/// Where `child`, the position after a move, leads: see [`After`].
pub(crate) fn after(child: &Position) -> After {
    if child.is_game_over() {
        After::Over(WholeDiscs(-child.final_score()))
    } else if child.can_move() {
        After::Next(*child, -1)
    } else {
        After::Next(child.passed(), 1)
    }
}

impl Book {
    /// The book shipped for `size`: 6x6 has an exact one (`data/book6.bin`, made by
    /// `scripts/build-book6`), 8x8 a searched one (`data/book8.bin`, made by
    /// `scripts/build-book8`); 4x4 needs none (it is solved at once).
    ///
    /// # Panics
    /// When a shipped file is broken: a test loads both.
    #[must_use]
    pub fn builtin(size: BoardSize) -> Option<&'static Book> {
        static SIX: OnceLock<Book> = OnceLock::new();
        static EIGHT: OnceLock<Book> = OnceLock::new();
        match size {
            BoardSize::Six => Some(SIX.get_or_init(|| {
                Book::read(include_bytes!("../../../data/book6.bin")).expect("the shipped 6x6 book")
            })),
            BoardSize::Eight => Some(EIGHT.get_or_init(|| {
                Book::read(include_bytes!("../../../data/book8.bin")).expect("the shipped 8x8 book")
            })),
            BoardSize::Four => None,
        }
    }

    /// An exact book of `entries` (position, optimal move, exact value) whose positions
    /// have at least `min_empties` empty squares. Images of one position are kept once;
    /// their values must agree.
    ///
    /// # Errors
    /// A position with fewer empty squares, of another board size, that cannot move, a move
    /// that is not legal, a value out of range, or two images of one position with
    /// different values.
    pub fn from_entries(
        size: BoardSize,
        min_empties: u32,
        entries: impl IntoIterator<Item = (Position, Square, WholeDiscs)>,
    ) -> Result<Book, BadBook> {
        let mut rows = Vec::new();
        for (pos, best, score) in entries {
            let name = crate::text::format_position(&pos);
            check_position(&pos, size, min_empties)?;
            if score.0 % 2 != 0 {
                return Err(BadBook(format!(
                    "{name}: {score} is not a final disc difference on {0}x{0}",
                    size.n()
                )));
            }
            let depth = pos.empties().count();
            rows.push((
                pos,
                vec![ScoredMove {
                    square: best,
                    score,
                    depth,
                }],
            ));
        }
        Book::assemble(size, min_empties, true, rows)
    }

    /// A searched book of `entries`: each position with every legal move scored (as
    /// [`negamax`](super::negamax) leaves them), in any order. Its depth
    /// ([`Book::min_empties`]) is the fewest empty squares of its positions.
    ///
    /// # Errors
    /// A position of another board size or that cannot move, a move that is not legal or
    /// given twice, a legal move left out, a score out of range, a depth of 0 or over 255, or
    /// two images of one position.
    pub fn from_searched(
        size: BoardSize,
        entries: impl IntoIterator<Item = (Position, Vec<ScoredMove>)>,
    ) -> Result<Book, BadBook> {
        Book::searched(size, entries, false)
    }

    /// A partial searched book of `entries`: as [`Book::from_searched`], but a position may
    /// score only some of its legal moves (at least one), the best among them being its best
    /// of all: an Edax book's positions, which score the moves that lead to other book
    /// positions and the best of the others ([`Book::read_edax`]).
    ///
    /// # Errors
    /// As [`Book::from_searched`], a position with no move scored instead of one with a
    /// legal move left out.
    pub fn from_partial(
        size: BoardSize,
        entries: impl IntoIterator<Item = (Position, Vec<ScoredMove>)>,
    ) -> Result<Book, BadBook> {
        Book::searched(size, entries, true)
    }

    fn searched(
        size: BoardSize,
        entries: impl IntoIterator<Item = (Position, Vec<ScoredMove>)>,
        partial: bool,
    ) -> Result<Book, BadBook> {
        let rows: Vec<(Position, Vec<ScoredMove>)> = entries.into_iter().collect();
        let min_empties = rows
            .iter()
            .map(|(p, _)| p.empties().count())
            .min()
            .unwrap_or(0);
        for (pos, moves) in &rows {
            check_position(pos, size, min_empties)?;
            let name = crate::text::format_position(pos);
            let legal = pos.legal_moves().count() as usize;
            let mut seen = 0u64;
            for m in moves {
                if seen & (1 << m.square.index()) != 0 {
                    return Err(BadBook(format!("{name}: {} is scored twice", m.square)));
                }
                seen |= 1 << m.square.index();
            }
            if partial && moves.is_empty() {
                return Err(BadBook(format!("{name}: no move scored")));
            }
            if !partial && moves.len() != legal {
                return Err(BadBook(format!(
                    "{name}: {} of its {legal} legal moves scored; a searched book scores every one",
                    moves.len()
                )));
            }
            if let Some(m) = moves.iter().find(|m| m.depth == 0 || m.depth > 255) {
                return Err(BadBook(format!(
                    "{name}: {} has depth {}, not 1 to 255",
                    m.square, m.depth
                )));
            }
        }
        let mut book = Book::assemble(size, min_empties, false, rows)?;
        book.partial = partial;
        Ok(book)
    }

    /// The book of checked `rows`, each position's moves mapped onto its least image and
    /// sorted best first, the positions sorted by key. Two images of one position are one
    /// entry when they agree (an exact book's two optimal moves), else an error.
    fn assemble(
        size: BoardSize,
        min_empties: u32,
        exact: bool,
        rows: Vec<(Position, Vec<ScoredMove>)>,
    ) -> Result<Book, BadBook> {
        let n = u32::from(size.n());
        let squares = i32::try_from(size.squares()).expect("at most 64");
        let mut keyed: Vec<(u64, u64, Vec<Stored>, Position)> = Vec::with_capacity(rows.len());
        for (pos, moves) in rows {
            let name = crate::text::format_position(&pos);
            let (player, opponent, s) = canonical(&pos);
            let mut stored = Vec::with_capacity(moves.len());
            for m in &moves {
                if !pos.is_legal(m.square) {
                    return Err(BadBook(format!("{name}: {} is not a legal move", m.square)));
                }
                if !(-squares..=squares).contains(&m.score.0) {
                    return Err(BadBook(format!(
                        "{name}: {} is not a final disc difference on {1}x{1}",
                        m.score,
                        size.n()
                    )));
                }
                stored.push(Stored {
                    square: symmetry::square(m.square.index(), s, n),
                    score: i8::try_from(m.score.0).expect("checked above"),
                    // An exact book's depth is the position's empties: not stored.
                    depth: if exact {
                        0
                    } else {
                        u8::try_from(m.depth).unwrap_or(u8::MAX)
                    },
                });
            }
            // Best first; ties keep the given order.
            stored.sort_by_key(|m| std::cmp::Reverse(m.score));
            keyed.push((player, opponent, stored, pos));
        }
        keyed.sort_by_key(|k| (k.0, k.1));
        let mut book = Book {
            size,
            min_empties,
            exact,
            partial: false,
            entries: Vec::with_capacity(keyed.len()),
            moves: Vec::new(),
        };
        let mut last: Option<(u64, u64, i8)> = None;
        for (player, opponent, stored, pos) in keyed {
            if let Some((p, o, score)) = last {
                if (p, o) == (player, opponent) {
                    if exact && score == stored[0].score {
                        continue;
                    }
                    let name = crate::text::format_position(&pos);
                    return Err(BadBook(if exact {
                        format!(
                            "two values for {name} (or an image of it): {score} and {}",
                            stored[0].score
                        )
                    } else {
                        format!("two entries for {name} (or an image of it)")
                    }));
                }
            }
            last = Some((player, opponent, stored[0].score));
            book.push(player, opponent, &stored);
        }
        Ok(book)
    }

    pub(super) fn push(&mut self, player: u64, opponent: u64, moves: &[Stored]) {
        self.entries.push(Entry {
            player,
            opponent,
            first: u32::try_from(self.moves.len()).expect("fewer than 2^32 moves"),
            count: u8::try_from(moves.len()).expect("at most 64 moves"),
        });
        self.moves.extend_from_slice(moves);
    }

    pub(super) fn stored(&self, e: &Entry) -> &[Stored] {
        &self.moves[e.first as usize..e.first as usize + usize::from(e.count)]
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Whether the book is exact (a weak solution) rather than searched.
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Whether a position of this searched book may score only some of its legal moves (the
    /// best among them its best of all), as an Edax book's do; `false` for an exact book and
    /// for a searched book that scores every move.
    #[must_use]
    pub fn is_partial(&self) -> bool {
        self.partial
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

    /// The best move of an entry, on the entry's own position.
    fn best(&self, e: &Entry, pos: &Position, s: u8) -> BookMove {
        let m = self.stored(e)[0];
        BookMove {
            best: self.square(m.square, s),
            score: WholeDiscs(i32::from(m.score)),
            exact: self.exact,
            depth: if self.exact {
                pos.empties().count()
            } else {
                u32::from(m.depth)
            },
        }
    }

    /// A stored square mapped back from the least image by the inverse of symmetry `s`.
    fn square(&self, stored: u8, s: u8) -> Square {
        let n = u32::from(self.size.n());
        Square::from_index(symmetry::square(stored, symmetry::inverse(s), n))
            .expect("a square of the board")
    }

    /// Every position of the book (its least image, black to move) with its best move and
    /// value.
    pub fn iter(&self) -> impl Iterator<Item = (Position, BookMove)> + '_ {
        self.entries.iter().map(|e| {
            let pos = e.position(self.size);
            (pos, self.best(e, &pos, 0))
        })
    }

    fn find(&self, pos: &Position) -> Option<(&Entry, u8)> {
        if pos.size() != self.size || pos.empties().count() < self.min_empties {
            return None;
        }
        let (player, opponent, s) = canonical(pos);
        let k = self
            .entries
            .binary_search_by_key(&(player, opponent), |e| (e.player, e.opponent))
            .ok()?;
        Some((&self.entries[k], s))
    }

    /// What the book says of `pos` (or of an image of it), with the move mapped onto `pos`.
    #[must_use]
    pub fn lookup(&self, pos: &Position) -> Option<BookMove> {
        let (e, s) = self.find(pos)?;
        let m = self.best(e, pos, s);
        debug_assert!(pos.is_legal(m.best), "a book move maps onto a legal move");
        Some(m)
    }

    /// Every move of `pos` the book scores, best first, mapped onto `pos`: all of them in a
    /// searched book (some, the best among them, in a [partial](Book::is_partial) one), the
    /// optimal move in an exact one.
    #[must_use]
    pub fn moves(&self, pos: &Position) -> Option<Vec<ScoredMove>> {
        let (e, s) = self.find(pos)?;
        let empties = pos.empties().count();
        Some(
            self.stored(e)
                .iter()
                .map(|m| ScoredMove {
                    square: self.square(m.square, s),
                    score: WholeDiscs(i32::from(m.score)),
                    depth: if self.exact {
                        empties
                    } else {
                        u32::from(m.depth)
                    },
                })
                .collect(),
        )
    }
}

/// The checks every book position passes: its board size, its empty squares, a move.
fn check_position(pos: &Position, size: BoardSize, min_empties: u32) -> Result<(), BadBook> {
    let name = crate::text::format_position(pos);
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
    if !pos.can_move() {
        return Err(BadBook(format!("{name}: the side to move has no move")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        book::{
            testing::{book4, searched4},
            VERSION,
        },
        solve::{SolveOptions, Solver},
    };

    #[test]
    fn a_built_book_is_closed_and_agrees_with_the_solver() {
        let book = book4(6);
        assert!(book.len() > 10, "{}", book.len());
        assert_eq!(book.first_gap(), None);
        let start = Position::start(BoardSize::Four);
        assert_eq!(book.lookup(&start).unwrap().score, WholeDiscs(-10));
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
    fn bad_entries_are_refused_naming_the_position() {
        let start = Position::start(BoardSize::Six);
        let a1 = Square::parse("a1").unwrap();
        let c2 = Square::parse("c2").unwrap();
        let e = Book::from_entries(BoardSize::Six, 20, [(start, a1, WholeDiscs(-4))]).unwrap_err();
        assert!(e.to_string().contains("a1 is not a legal move"), "{e}");
        let e = Book::from_entries(BoardSize::Six, 20, [(start, c2, WholeDiscs(-3))]).unwrap_err();
        assert!(
            e.to_string().contains("-3 is not a final disc difference"),
            "{e}"
        );
        let e = Book::from_entries(BoardSize::Six, 33, [(start, c2, WholeDiscs(-4))]).unwrap_err();
        assert!(e.to_string().contains("fewer than the book's 33"), "{e}");
        let e = Book::from_entries(
            BoardSize::Six,
            20,
            [(start, c2, WholeDiscs(-4)), (start, c2, WholeDiscs(-2))],
        )
        .unwrap_err();
        assert!(e.to_string().contains("two values"), "{e}");
    }

    #[test]
    fn a_searched_book_round_trips_and_maps_every_move_onto_each_image() {
        let book = searched4(8);
        assert!(!book.is_exact() && book.len() > 20, "{}", book.len());
        let bytes = book.write();
        assert_eq!(&bytes[8..12], &VERSION.to_le_bytes());
        assert_eq!(Book::read(&bytes).unwrap(), book);
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
        });
        for (pos, best) in book.iter() {
            assert!(!best.exact);
            for s in 0..symmetry::COUNT {
                let im = symmetry::image(&pos, s);
                let moves = book.moves(&im).unwrap();
                assert_eq!(moves.len() as u32, im.legal_moves().count());
                assert_eq!(book.lookup(&im).unwrap().best, moves[0].square);
                for w in moves.windows(2) {
                    assert!(w[0].score >= w[1].score);
                }
                // Exact scores negamax to exact scores: each is the solver's.
                for m in &moves {
                    let child = im.play(m.square).unwrap();
                    let want = if child.is_game_over() {
                        WholeDiscs(-child.final_score())
                    } else {
                        -solver.solve(&child).score
                    };
                    assert_eq!(m.score, want, "{im:?} {m:?}");
                }
            }
        }
    }
}
