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
//! the other side's discs, whatever the colours), so an image of a book position is found
//! too and its moves mapped back.
//!
//! ```
//! use ply_othello::{book::Book, BoardSize, Position};
//!
//! let book = Book::builtin(BoardSize::Six).expect("6x6 ships a book");
//! let start = book.lookup(&Position::start(BoardSize::Six)).expect("the start is in it");
//! assert_eq!(start.score, -4); // 6x6 is a white win, 16-20
//! assert!(start.exact);
//! ```
//!
//! The files (every number little-endian). Version 1, an exact book:
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

use std::{collections::HashMap, fmt, sync::OnceLock};

use crate::{
    formats::binfile::{fnv1a, Reader},
    rules::symmetry,
    BoardSize, Position, Square,
};

const MAGIC: &[u8; 8] = b"plybook\n";

/// The format version of an exact book (the newest this build reads is [`VERSION`]).
pub const EXACT_VERSION: u32 = 1;

/// The newest format version this build reads and writes: a searched book.
pub const VERSION: u32 = 2;

const ENTRY_BYTES: usize = 18;

/// Bytes of a version-2 entry before its moves, and of each move.
const SEARCHED_HEAD: usize = 17;
const SEARCHED_MOVE: usize = 3;

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

/// What the book says of a position: its best move and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// An optimal move (exact book), the best-scored one (searched book).
    pub best: Square,
    /// The value for the side to move in discs: final disc difference, empties to the
    /// winner; exact, or a searched book's estimate.
    pub score: i32,
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
    pub score: i32,
    /// Plies the score rests on, the move itself included.
    pub depth: u32,
}

/// A position's key in a book: its least image's discs (mover, other) and its moves from
/// `first` on in the book's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    player: u64,
    opponent: u64,
    first: u32,
    count: u8,
}

/// A move as stored: the square on the least image, the score in discs, the depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stored {
    square: u8,
    score: i8,
    depth: u8,
}

impl Entry {
    /// The entry's position (its least image) on a board of `size`, black to move.
    fn position(&self, size: BoardSize) -> Position {
        Position::from_raw(self.player, self.opponent, crate::Color::Black, size)
    }
}

/// An opening book, exact or searched: see the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    size: BoardSize,
    min_empties: u32,
    exact: bool,
    entries: Vec<Entry>,
    moves: Vec<Stored>,
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

/// The key of `pos` in a book: the discs of its least image (mover, other).
#[must_use]
pub fn key(pos: &Position) -> (u64, u64) {
    let (player, opponent, _) = canonical(pos);
    (player, opponent)
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

/// Where the position after a move leads a book: the end of the game (the final score for
/// the side that moved), or the next position that can move, with the sign that turns its
/// value into the mover's (`-1` after the move, `+1` when the opponent must pass). Both the
/// negamax and the analysis's book lookups step through a move with it.
pub(crate) enum After {
    Over(i32),
    Next(Position, i32),
}

/// Where `child`, the position after a move, leads: see [`After`].
pub(crate) fn after(child: &Position) -> After {
    if child.is_game_over() {
        After::Over(-child.final_score())
    } else if child.can_move() {
        After::Next(*child, -1)
    } else {
        After::Next(child.passed(), 1)
    }
}

/// Negamaxes searched positions through the book they make: every move whose position
/// after it (passes played out) is one of `searched` takes that position's best score
/// (negated, one ply deeper) in place of its own search's; the others keep theirs. Moves
/// come back best first, the positions in the order given.
///
/// ```
/// use ply_othello::{book::{negamax, ScoredMove}, BoardSize, Position, Square};
///
/// let start = Position::start(BoardSize::Eight);
/// let f5 = Square::parse("f5").unwrap();
/// let after = start.play(f5).unwrap();
/// let scored = |s: &str, score, depth| ScoredMove { square: Square::parse(s).unwrap(), score, depth };
/// // The search at the start says +1 for every move; the book's position after f5 says
/// // its own best move is worth +3 to white, so f5 is worth -3 to black, and so is every
/// // other first move: each leads to an image of that position.
/// let book = negamax(vec![
///     (start, ["f5", "e6", "d3", "c4"].iter().map(|s| scored(s, 1, 10)).collect()),
///     (after, vec![scored("d6", 3, 10), scored("f6", 0, 10), scored("f4", 0, 10)]),
/// ]);
/// let (_, moves) = &book[0];
/// assert_eq!(moves.len(), 4);
/// assert!(moves.iter().all(|m| (m.score, m.depth) == (-3, 11)));
/// ```
///
/// # Panics
/// When a position's list holds a move that is not legal there, or is empty.
#[must_use]
pub fn negamax(searched: Vec<(Position, Vec<ScoredMove>)>) -> Vec<(Position, Vec<ScoredMove>)> {
    let index: HashMap<(u64, u64), usize> = searched
        .iter()
        .enumerate()
        .map(|(k, (p, _))| (key(p), k))
        .collect();
    let mut done: Vec<Option<Vec<ScoredMove>>> = vec![None; searched.len()];
    for k in 0..searched.len() {
        negamax_from(k, &searched, &index, &mut done);
    }
    searched
        .into_iter()
        .zip(done)
        .map(|((pos, _), moves)| (pos, moves.expect("every position done")))
        .collect()
}

/// The best score and its depth of position `k`, its moves negamaxed into `done` first
/// (the positions after them before it: the game only goes forward, so this ends).
fn negamax_from(
    k: usize,
    searched: &[(Position, Vec<ScoredMove>)],
    index: &HashMap<(u64, u64), usize>,
    done: &mut Vec<Option<Vec<ScoredMove>>>,
) -> (i32, u32) {
    if let Some(moves) = &done[k] {
        return (moves[0].score, moves[0].depth);
    }
    let (pos, given) = &searched[k];
    let mut moves = Vec::with_capacity(given.len());
    for m in given {
        let child = pos.play(m.square).expect("a searched move is legal");
        let found = match after(&child) {
            After::Over(score) => Some((score, 1)),
            After::Next(next, sign) => index.get(&key(&next)).map(|&j| {
                let (v, d) = negamax_from(j, searched, index, done);
                (sign * v, d + 1)
            }),
        };
        moves.push(match found {
            Some((score, depth)) => ScoredMove {
                square: m.square,
                score,
                depth,
            },
            None => *m,
        });
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    let best = (moves[0].score, moves[0].depth);
    done[k] = Some(moves);
    best
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
                Book::read(include_bytes!("../../data/book6.bin")).expect("the shipped 6x6 book")
            })),
            BoardSize::Eight => Some(EIGHT.get_or_init(|| {
                Book::read(include_bytes!("../../data/book8.bin")).expect("the shipped 8x8 book")
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
        entries: impl IntoIterator<Item = (Position, Square, i32)>,
    ) -> Result<Book, BadBook> {
        let mut rows = Vec::new();
        for (pos, best, score) in entries {
            let name = crate::text::format_position(&pos);
            check_position(&pos, size, min_empties)?;
            if score % 2 != 0 {
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
    /// [`negamax`] leaves them), in any order. Its depth ([`Book::min_empties`]) is the
    /// fewest empty squares of its positions.
    ///
    /// # Errors
    /// A position of another board size or that cannot move, a move that is not legal or
    /// given twice, a legal move left out, a score out of range, a depth of 0 or over 255, or
    /// two images of one position.
    pub fn from_searched(
        size: BoardSize,
        entries: impl IntoIterator<Item = (Position, Vec<ScoredMove>)>,
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
            if moves.len() != legal {
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
        Book::assemble(size, min_empties, false, rows)
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
                if m.score.abs() > squares {
                    return Err(BadBook(format!(
                        "{name}: {} is not a final disc difference on {1}x{1}",
                        m.score,
                        size.n()
                    )));
                }
                stored.push(Stored {
                    square: symmetry::square(m.square.index(), s, n),
                    score: i8::try_from(m.score).expect("checked above"),
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

    fn push(&mut self, player: u64, opponent: u64, moves: &[Stored]) {
        self.entries.push(Entry {
            player,
            opponent,
            first: u32::try_from(self.moves.len()).expect("fewer than 2^32 moves"),
            count: u8::try_from(moves.len()).expect("at most 64 moves"),
        });
        self.moves.extend_from_slice(moves);
    }

    /// Reads a book file, exact (version 1) or searched (version 2).
    ///
    /// # Errors
    /// When the file is not a book, is for another format version, is truncated or longer
    /// than its header says, fails its checksum, or holds an entry that is not a legal
    /// position with legal moves (named by its index and field), or entries out of order.
    pub fn read(bytes: &[u8]) -> Result<Book, BadBook> {
        if !bytes.starts_with(MAGIC) {
            return Err(BadBook(
                "not a ply book file (it does not start with `plybook`)".into(),
            ));
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32("format version")?;
        if version != EXACT_VERSION && version != VERSION {
            return Err(BadBook(format!(
                "format version {version}, this build reads versions {EXACT_VERSION} and {VERSION}"
            )));
        }
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
            if !exact && moves.len() != pos.legal_moves().count() as usize {
                return Err(bad("not every legal move is scored".into()));
            }
            book.push(player, opponent, &moves);
        }
        Ok(book)
    }

    /// The bytes of the book's file: version 1 for an exact book, 2 for a searched one.
    #[must_use]
    pub fn write(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let count = u32::try_from(self.entries.len()).expect("a book of fewer than 2^32");
        let version = if self.exact { EXACT_VERSION } else { VERSION };
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

    fn stored(&self, e: &Entry) -> &[Stored] {
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
            score: i32::from(m.score),
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
    /// searched book, the optimal move in an exact one.
    #[must_use]
    pub fn moves(&self, pos: &Position) -> Option<Vec<ScoredMove>> {
        let (e, s) = self.find(pos)?;
        let empties = pos.empties().count();
        Some(
            self.stored(e)
                .iter()
                .map(|m| ScoredMove {
                    square: self.square(m.square, s),
                    score: i32::from(m.score),
                    depth: if self.exact {
                        empties
                    } else {
                        u32::from(m.depth)
                    },
                })
                .collect(),
        )
    }

    /// The first position an exact book should hold and does not: a root, or a successor of
    /// a book position with at least [`Book::min_empties`] empty squares. `None` when the
    /// book is closed, that is, a weak solution down to its depth (and for a searched book,
    /// which is not meant to close).
    #[must_use]
    pub fn first_gap(&self) -> Option<Position> {
        if !self.exact {
            return None;
        }
        let wanted = |p: &Position| p.empties().count() >= self.min_empties;
        roots(self.size)
            .into_iter()
            .chain(self.iter().flat_map(|(pos, m)| successors(&pos, m.best)))
            .find(|p| wanted(p) && self.lookup(p).is_none())
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
    use crate::solve::{SolveOptions, Solver};
    use ply_core::SplitMix64;

    /// Every 4x4 position from the roots down to `min` empties that `step` leads to, once
    /// per symmetry class: `step` gets each with a solver and returns where it leads.
    fn walk4(min: u32, mut step: impl FnMut(&mut Solver, Position) -> Vec<Position>) {
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
        });
        let mut todo: Vec<Position> = roots(BoardSize::Four);
        let mut seen = std::collections::HashSet::new();
        while let Some(p) = todo.pop() {
            if p.empties().count() < min || !seen.insert(key(&p)) {
                continue;
            }
            todo.extend(step(&mut solver, p));
        }
    }

    /// A 4x4 book to depth `min`, by solving every position the closure asks for.
    fn book4(min: u32) -> Book {
        let mut entries = Vec::new();
        walk4(min, |solver, p| {
            let r = solver.solve(&p);
            let best = r.best_move.unwrap();
            entries.push((p, best, r.score));
            successors(&p, best)
        });
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
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert!(why(&v3).contains("format version 3"), "{}", why(&v3));
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
        let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
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
                q = match q.legal_moves().nth(rng.below(moves.max(1) as usize)) {
                    Some(sq) => q.play_unchecked(sq),
                    None => q.passed(),
                };
            }
        }
        assert!(passes > 0, "no pass was played out");
    }

    /// A searched 4x4 book: every position the exact solver reaches from the roots down to
    /// `min` empties, every move scored exactly (as a search to the end scores it).
    fn searched4(min: u32) -> Book {
        let mut entries = Vec::new();
        walk4(min, |solver, p| {
            let mut next = Vec::new();
            let moves: Vec<ScoredMove> = p
                .legal_moves()
                .map(|square| {
                    let score = match after(&p.play_unchecked(square)) {
                        After::Over(score) => score,
                        After::Next(q, sign) => {
                            next.push(q);
                            sign * solver.solve(&q).score
                        }
                    };
                    ScoredMove {
                        square,
                        score,
                        depth: p.empties().count(),
                    }
                })
                .collect();
            entries.push((p, moves));
            next
        });
        Book::from_searched(BoardSize::Four, negamax(entries)).unwrap()
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
                        -child.final_score()
                    } else {
                        -solver.solve(&child).score
                    };
                    assert_eq!(m.score, want, "{im:?} {m:?}");
                }
            }
        }
    }

    #[test]
    fn negamax_takes_the_value_across_a_pass_and_adds_the_plies() {
        // A 4x4 game where the side to move, after d1, must pass: the position after the
        // pass is the mover's again, so its value counts with the same sign.
        let mut rng = SplitMix64::new(7);
        for _ in 0..2000 {
            let mut q = Position::start(BoardSize::Four);
            while !q.is_game_over() && q.can_move() {
                let pass_after = q.legal_moves().find(|&sq| {
                    let c = q.play_unchecked(sq);
                    !c.is_game_over() && !c.can_move() && c.passed().can_move()
                });
                if let Some(sq) = pass_after {
                    let after = q.play_unchecked(sq).passed();
                    let leaf = |p: &Position, score| {
                        p.legal_moves()
                            .map(|square| ScoredMove {
                                square,
                                score,
                                depth: 3,
                            })
                            .collect::<Vec<_>>()
                    };
                    let out = negamax(vec![(q, leaf(&q, -30)), (after, leaf(&after, 4))]);
                    // The position after the pass: its own best, or a move that ends the game.
                    let next = out[1].1[0];
                    assert!(next.score >= 4);
                    let m = out[0].1.iter().find(|m| m.square == sq).unwrap();
                    assert_eq!((m.score, m.depth), (next.score, next.depth + 1));
                    assert_eq!(out[0].1[0].square, sq);
                    return;
                }
                let n = q.legal_moves().count() as usize;
                q = q.play_unchecked(q.legal_moves().nth(rng.below(n)).unwrap());
            }
        }
        panic!("no pass found");
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
        let mut flipped = bytes;
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(why(&flipped).contains("checksum"));
        // Building one: every legal move must be scored.
        let start = Position::start(BoardSize::Four);
        let one = vec![ScoredMove {
            square: start.legal_moves().next().unwrap(),
            score: 0,
            depth: 1,
        }];
        let e = Book::from_searched(BoardSize::Four, [(start, one)]).unwrap_err();
        assert!(e.to_string().contains("1 of its 4 legal moves"), "{e}");
    }

    #[test]
    fn the_shipped_6x6_book_is_written_back_byte_for_byte() {
        let bytes = include_bytes!("../../data/book6.bin");
        assert_eq!(Book::read(bytes).unwrap().write(), bytes.to_vec());
    }
}
