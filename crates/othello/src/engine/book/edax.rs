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

use std::collections::{BTreeMap, HashMap};

use super::lookup::{after, canonical, key, After, BadBook, Book, ScoredMove};
use crate::{BoardSize, Color, Position, Square};

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

/// Where a link of a book written as Edax's leads besides a position of the book.
#[derive(Clone, Copy)]
enum Extra {
    /// A position of the book.
    None,
    /// A position whose side to move must pass, before a position of the book.
    PassLink(Position),
    /// A position whose side to move must pass, before one the book does not hold.
    PassLeaf(Position),
    /// The end of the game.
    End(Position),
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

/// Reads the file's fields in order; a short file is an error naming the field it cuts.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let Some(s) = self.bytes.get(self.at..self.at + n) else {
            return Err(format!(
                "{what} (byte {}): the file ends at byte {} (truncated?)",
                self.at,
                self.bytes.len()
            ));
        };
        self.at += n;
        Ok(s)
    }

    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }

    fn i16(&mut self, what: &str) -> Result<i16, String> {
        let b = self.take(2, what)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
    }

    fn i32(&mut self, what: &str) -> Result<i32, String> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes(b.try_into().expect("4 bytes")))
    }

    fn u64(&mut self, what: &str) -> Result<u64, String> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
}

/// The name of a move byte: a square, `pass`, or `none`.
fn move_name(m: u8) -> String {
    match m {
        PASS => "pass".into(),
        NO_MOVE => "none".into(),
        _ => Square::from_index(m).map_or_else(|| format!("move byte {m}"), |s| s.to_string()),
    }
}

/// The position of `player`'s and `opponent`'s discs on 8x8 (the colours do not matter to
/// a book).
fn position(player: u64, opponent: u64) -> Position {
    Position::from_raw(player, opponent, Color::Black, BoardSize::Eight)
}

/// Reads the header; the number of positions it announces.
fn read_header(r: &mut Cursor<'_>) -> Result<usize, String> {
    let magic = r.take(8, "the magic number")?;
    if magic != MAGIC {
        return Err("not an Edax book (it does not start with `XADEKOOB`)".into());
    }
    let at = r.at;
    let version = r.u8("the version")?;
    if version != EDAX_VERSION {
        return Err(format!(
            "the version (byte {at}) is {version}: Edax 4.4 and later write version \
             {EDAX_VERSION}"
        ));
    }
    r.u8("the release")?;
    let at = r.at;
    let date = r.take(8, "the date")?;
    let [month, day, hour, minute, second] = [date[2], date[3], date[4], date[5], date[6]];
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return Err(format!(
            "the date (byte {at}) is not a date: month {month}, day {day}, \
             {hour:02}:{minute:02}:{second:02}"
        ));
    }
    for (what, range) in [
        ("the level", 0..=60),
        ("the depth", 0..=60),
        ("the midgame error", 0..=64),
        ("the endcut error", 0..=64),
    ] {
        let at = r.at;
        let v = r.i32(what)?;
        if !range.contains(&v) {
            return Err(format!(
                "{what} (byte {at}) is {v}, not {} to {}",
                range.start(),
                range.end()
            ));
        }
    }
    r.i32("the verbosity")?;
    let at = r.at;
    let n = r.i32("the number of positions")?;
    usize::try_from(n).map_err(|_| format!("the number of positions (byte {at}) is {n}"))
}

/// Reads the position at `r`, the `k`th, checking what can be checked without the others.
fn read_position(r: &mut Cursor<'_>, k: usize) -> Result<Record, BadBook> {
    let at = r.at;
    let bad = |why: String| BadBook(format!("Edax book: position {k} (byte {at}): {why}"));
    let player = r.u64("the discs").map_err(bad)?;
    let opponent = r.u64("the discs").map_err(bad)?;
    for what in ["the wins", "the draws", "the losses", "the lines"] {
        r.u32(what).map_err(bad)?;
    }
    for (j, what) in ["the value", "the lower bound", "the upper bound"]
        .into_iter()
        .enumerate()
    {
        let v = r.i16(what).map_err(bad)?;
        if v.abs() > SCORE_INF {
            return Err(bad(format!(
                "{what} (byte {}) is {v}, not -127 to 127",
                at + 32 + 2 * j
            )));
        }
    }
    let count = r.u8("the number of links").map_err(bad)?;
    let level = r.u8("the level").map_err(bad)?;
    if level > 60 {
        return Err(bad(format!(
            "the level (byte {}) is {level}, not 0 to 60",
            at + 39
        )));
    }
    if player & opponent != 0 {
        return Err(bad(format!(
            "the discs: both sides have a disc on {}",
            Square::from_index(u8::try_from((player & opponent).trailing_zeros()).expect("< 64"))
                .expect("a square")
        )));
    }
    if (player | opponent) & CENTRE != CENTRE {
        let empty = CENTRE & !(player | opponent);
        return Err(bad(format!(
            "the discs: the centre square {} is empty, so no game reaches the position",
            Square::from_index(u8::try_from(empty.trailing_zeros()).expect("< 64"))
                .expect("a square")
        )));
    }
    let (least_player, least_opponent, _) = canonical(&position(player, opponent));
    if (least_player, least_opponent) != (player, opponent) {
        return Err(bad(
            "the discs: not the least of the position's eight images, which Edax stores".into(),
        ));
    }
    let pos = position(player, opponent);
    let must_pass = !pos.can_move() && !pos.is_game_over();
    let mut links = Vec::with_capacity(usize::from(count));
    let mut seen = 0u128;
    for j in 0..usize::from(count) {
        let link_at = r.at;
        let b = r.take(2, &format!("link {j}")).map_err(bad)?;
        let link = Link {
            score: i8::from_le_bytes([b[0]]),
            square: b[1],
        };
        let what = |why: String| bad(format!("link {j} (byte {link_at}): {why}"));
        check_move(&pos, link, must_pass, count).map_err(what)?;
        if seen & (1 << link.square) != 0 {
            return Err(what(format!("{} is linked twice", move_name(link.square))));
        }
        seen |= 1 << link.square;
        links.push(link);
    }
    let leaf_at = r.at;
    let b = r.take(2, "the leaf").map_err(bad)?;
    let leaf = Link {
        score: i8::from_le_bytes([b[0]]),
        square: b[1],
    };
    let what = |why: String| bad(format!("the leaf (byte {leaf_at}): {why}"));
    if leaf.square == NO_MOVE {
        // None: every move is linked (or the pass, or the game is over).
        let legal = pos.legal_moves().count();
        let pass_linked = links.len() == 1 && links[0].square == PASS;
        if u32::from(count) != legal && !pass_linked {
            return Err(what(format!(
                "none, but only {count} of the position's {legal} moves are linked"
            )));
        }
    } else {
        if count > 0 && leaf.square == PASS {
            return Err(what("a pass beside links".into()));
        }
        check_move(&pos, leaf, must_pass, 0).map_err(what)?;
        if seen & (1 << leaf.square) != 0 {
            return Err(what(format!("{} is a link too", move_name(leaf.square))));
        }
    }
    Ok(Record {
        at,
        player,
        opponent,
        level,
        links,
        leaf,
    })
}

/// Checks a link or a leaf of `pos`: a legal move (a pass, alone, when the side to move
/// must pass) with a score that is a disc difference.
fn check_move(pos: &Position, m: Link, must_pass: bool, links: u8) -> Result<(), String> {
    let legal = match m.square {
        PASS => must_pass && links <= 1,
        s => Square::from_index(s).is_some_and(|sq| pos.is_legal(sq)),
    };
    if !legal {
        return Err(format!("{} is not a legal move", move_name(m.square)));
    }
    if i32::from(m.score).abs() > 64 {
        return Err(format!(
            "{} is scored {}, not -64 to 64",
            move_name(m.square),
            m.score
        ));
    }
    Ok(())
}

/// The key of the position `(player, opponent)` reaches with `m` (a square or a pass).
fn child_key(player: u64, opponent: u64, m: u8) -> (u64, u64) {
    let pos = position(player, opponent);
    let child = match Square::from_index(m) {
        Some(sq) => pos.play_unchecked(sq),
        None => pos.passed(),
    };
    key(&child)
}

impl Book {
    /// Reads an Edax book (`.dat`, Edax 4.4 and later) into a partial searched book: each
    /// position that can move, with its links and its leaf as its scored moves. A leaf's
    /// depth is that of the search of its level; a link's, one more than the depth of the
    /// best move of the position it leads to.
    ///
    /// # Errors
    /// When the file is not an Edax book, has another version, a header field out of range,
    /// is truncated, holds more or fewer positions than its header says, or a position that
    /// no game reaches (discs on one square, an empty centre), that is not the least of its
    /// images, is there twice, has a link or a leaf that is not a legal move, a score out of
    /// range, or a link to a position the book does not hold. The message names the
    /// position by its index and the byte it starts at, and the field and its byte.
    pub fn read_edax(bytes: &[u8]) -> Result<Book, BadBook> {
        let mut r = Cursor { bytes, at: 0 };
        let count = read_header(&mut r).map_err(|e| BadBook(format!("Edax book header: {e}")))?;
        debug_assert_eq!(r.at, HEADER_BYTES);
        let mut records = Vec::new();
        while r.at < bytes.len() {
            records.push(read_position(&mut r, records.len())?);
        }
        if records.len() != count {
            return Err(BadBook(format!(
                "Edax book header: the number of positions (byte 38) is {count}, but the \
                 file's {} bytes hold {}",
                bytes.len(),
                records.len()
            )));
        }
        let mut index: HashMap<(u64, u64), usize> = HashMap::with_capacity(records.len());
        for (k, e) in records.iter().enumerate() {
            if let Some(j) = index.insert((e.player, e.opponent), k) {
                return Err(BadBook(format!(
                    "Edax book: position {k} (byte {}): the same position as position {j}",
                    e.at
                )));
            }
        }
        for (k, e) in records.iter().enumerate() {
            for (j, l) in e.links.iter().enumerate() {
                if !index.contains_key(&child_key(e.player, e.opponent, l.square)) {
                    return Err(BadBook(format!(
                        "Edax book: position {k} (byte {}): link {j} (byte {}): {} leads to a \
                         position the book does not hold",
                        e.at,
                        e.at + POSITION_HEAD + 2 * j,
                        move_name(l.square)
                    )));
                }
            }
        }
        let mut depths: Vec<Option<u32>> = vec![None; records.len()];
        let mut rows = Vec::new();
        for k in 0..records.len() {
            let e = &records[k];
            let pos = position(e.player, e.opponent);
            if !pos.can_move() {
                continue;
            }
            let moves = scored_moves(k, &records, &index, &mut depths);
            rows.push((pos, moves));
        }
        Book::from_partial(BoardSize::Eight, rows)
    }

    /// The Edax book (`.dat`, as Edax 4.4 writes it) of this searched 8x8 book: each
    /// position with its links, the moves whose score and depth are those of the book
    /// position they lead to (as the negamax leaves them), and its leaf, the best of the
    /// others, at the level whose search has its depth (when every scored move is a link but
    /// not every legal move is scored, the last link stands in as the leaf, as Edax wants);
    /// and the positions where a link's side to move must pass, with their pass link. Edax
    /// has no place for a position's other moves, which are left out, nor for a date (ply
    /// writes 1970-01-01, so a book gives the same bytes every time); the game counts are 0
    /// and the bounds of the values open (Edax's `book negamax` derives both).
    ///
    /// # Errors
    /// When the book is not 8x8, or exact.
    pub fn write_edax(&self) -> Result<Vec<u8>, BadBook> {
        if self.size != BoardSize::Eight {
            return Err(BadBook(format!(
                "an Edax book is 8x8, this one {0}x{0}",
                self.size.n()
            )));
        }
        if self.exact {
            return Err(BadBook(
                "an exact book has no place in Edax's format: export a searched one".into(),
            ));
        }
        let mut records: BTreeMap<(u64, u64), Record> = BTreeMap::new();
        for e in &self.entries {
            let pos = e.position(self.size);
            let empties = pos.empties().count();
            // A link: a move whose score and depth are those of the book position it leads
            // to (as the negamax leaves them), or that leads to a position Edax keeps on its
            // own (the end of the game, or a pass: a position of a record of its own); the
            // others are searches of their own, the best of which is the leaf.
            let mut links: Vec<(Link, Extra)> = Vec::new();
            let mut others = Vec::new();
            for m in self.stored(e) {
                let sq = Square::from_index(m.square).expect("a square of the board");
                let link = Link {
                    score: m.score,
                    square: m.square,
                };
                let child = pos.play_unchecked(sq);
                let through = match after(&child) {
                    After::Over(score) => {
                        (score == i32::from(m.score)).then_some(Extra::End(child))
                    }
                    After::Next(next, sign) => match self.lookup(&next) {
                        Some(b)
                            if (sign * b.score, b.depth + 1)
                                == (i32::from(m.score), u32::from(m.depth)) =>
                        {
                            Some(if sign == 1 {
                                Extra::PassLink(child)
                            } else {
                                Extra::None
                            })
                        }
                        None if sign == 1 => Some(Extra::PassLeaf(child)),
                        _ => None,
                    },
                };
                match through {
                    Some(extra) => links.push((link, extra)),
                    None => others.push((link, m.depth)),
                }
            }
            // Edax wants a leaf unless every move is linked: the last link stands in.
            if others.is_empty() && links.len() < pos.legal_moves().count() as usize {
                if let Some((l, _)) = links.pop() {
                    let m = self.stored(e).iter().find(|m| m.square == l.square);
                    others.push((l, m.expect("a stored move").depth));
                }
            }
            let leaf = others.first().copied();
            for (l, extra) in &links {
                let none = Link {
                    score: -127,
                    square: NO_MOVE,
                };
                let value = l.score.checked_neg().expect("a disc difference");
                let (child, links, leaf, level) = match *extra {
                    Extra::None => continue,
                    // The opponent must pass: Edax links to that position, which links to
                    // the book's next one by a pass,
                    Extra::PassLink(child) => (
                        child,
                        vec![Link {
                            score: value,
                            square: PASS,
                        }],
                        none,
                        0,
                    ),
                    // or holds the search after the pass as its leaf;
                    Extra::PassLeaf(child) => {
                        let depth = self
                            .stored(e)
                            .iter()
                            .find(|m| m.square == l.square)
                            .map_or(1, |m| u32::from(m.depth));
                        let level = level_for(depth.saturating_sub(1), child.empties().count());
                        let leaf = Link {
                            score: value,
                            square: PASS,
                        };
                        (child, Vec::new(), leaf, level)
                    }
                    // the end of the game: its final score.
                    Extra::End(child) => (
                        child,
                        Vec::new(),
                        Link {
                            score: value,
                            square: NO_MOVE,
                        },
                        0,
                    ),
                };
                let (player, opponent, _) = canonical(&child);
                records.entry((player, opponent)).or_insert(Record {
                    at: 0,
                    player,
                    opponent,
                    level,
                    links,
                    leaf,
                });
            }
            let links: Vec<Link> = links.into_iter().map(|(l, _)| l).collect();
            let level = leaf.map_or(0, |(_, depth)| level_for(u32::from(depth), empties));
            records.insert(
                (e.player, e.opponent),
                Record {
                    at: 0,
                    player: e.player,
                    opponent: e.opponent,
                    level,
                    links,
                    leaf: leaf.map_or(
                        Link {
                            score: -127,
                            square: NO_MOVE,
                        },
                        |(l, _)| l,
                    ),
                },
            );
        }
        let level = records.values().map(|r| r.level).max().unwrap_or(0);
        // A position without a leaf searched nothing: the book's level.
        for r in records.values_mut().filter(|r| r.leaf.square == NO_MOVE) {
            r.level = level;
        }
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[EDAX_VERSION, EDAX_RELEASE]);
        // 1970-01-01 00:00:00 and the pad byte.
        out.extend_from_slice(&1970i16.to_le_bytes());
        out.extend_from_slice(&[1, 1, 0, 0, 0, 0]);
        let depth = i32::try_from(self.min_empties).expect("at most 64");
        for v in [i32::from(level), depth, MIDGAME_ERROR, ENDCUT_ERROR, 0] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let n = i32::try_from(records.len()).map_err(|_| BadBook("too many positions".into()))?;
        out.extend_from_slice(&n.to_le_bytes());
        debug_assert_eq!(out.len(), HEADER_BYTES);
        for r in records.values() {
            out.extend_from_slice(&r.player.to_le_bytes());
            out.extend_from_slice(&r.opponent.to_le_bytes());
            out.extend_from_slice(&[0; 16]);
            let value = r
                .links
                .iter()
                .chain(std::iter::once(&r.leaf).filter(|l| l.square != NO_MOVE))
                .map(|l| i16::from(l.score))
                .max()
                .unwrap_or(-SCORE_INF);
            for v in [value, -SCORE_INF, SCORE_INF] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            let count = u8::try_from(r.links.len()).expect("at most 64 links");
            out.extend_from_slice(&[count, r.level]);
            for l in r.links.iter().chain(std::iter::once(&r.leaf)) {
                out.extend_from_slice(&l.score.to_le_bytes());
                out.push(l.square);
            }
        }
        Ok(out)
    }
}

/// The scored moves of position `k` (links, then its leaf), each with its depth.
fn scored_moves(
    k: usize,
    records: &[Record],
    index: &HashMap<(u64, u64), usize>,
    depths: &mut Vec<Option<u32>>,
) -> Vec<ScoredMove> {
    let e = &records[k];
    let pos = position(e.player, e.opponent);
    let empties = pos.empties().count();
    let mut moves = Vec::with_capacity(e.links.len() + 1);
    for l in &e.links {
        let sq = Square::from_index(l.square).expect("checked: a position that can move");
        let child = pos.play_unchecked(sq);
        let depth = match after(&child) {
            After::Over(_) => 1,
            After::Next(next, _) => index
                .get(&key(&next))
                .and_then(|&j| best_depth(j, records, index, depths))
                .or_else(|| {
                    // A pass to a position the book does not hold: the search after the
                    // pass, the pass position's leaf.
                    let p = &records[*index.get(&key(&child))?];
                    (p.leaf.square == PASS).then(|| leaf_depth(p.level, empties - 1))
                })
                .map_or_else(|| leaf_depth(e.level, empties), |d| d + 1),
        };
        moves.push(ScoredMove {
            square: sq,
            score: i32::from(l.score),
            depth,
        });
    }
    if let Some(sq) = Square::from_index(e.leaf.square) {
        moves.push(ScoredMove {
            square: sq,
            score: i32::from(e.leaf.score),
            depth: leaf_depth(e.level, empties),
        });
    }
    moves
}

/// The depth of the best move of position `j` (the first of the highest score, as the
/// book orders them), `None` for a position with no move to score.
fn best_depth(
    j: usize,
    records: &[Record],
    index: &HashMap<(u64, u64), usize>,
    depths: &mut Vec<Option<u32>>,
) -> Option<u32> {
    if let Some(d) = depths[j] {
        return Some(d);
    }
    let e = &records[j];
    if !position(e.player, e.opponent).can_move() {
        return None;
    }
    let moves = scored_moves(j, records, index, depths);
    let best = moves.iter().map(|m| m.score).max()?;
    let d = moves.iter().find(|m| m.score == best)?.depth;
    depths[j] = Some(d);
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::symmetry;

    fn shipped() -> &'static Book {
        Book::builtin(BoardSize::Eight).expect("8x8 ships a book")
    }

    /// The shipped book written as Edax's, and its positions' offsets in the file.
    fn file() -> (Vec<u8>, Vec<usize>) {
        let bytes = shipped().write_edax().unwrap();
        let mut at = HEADER_BYTES;
        let mut starts = Vec::new();
        while at < bytes.len() {
            starts.push(at);
            at += POSITION_HEAD + 2 * usize::from(bytes[at + 38]) + 2;
        }
        (bytes, starts)
    }

    fn why(bytes: &[u8]) -> String {
        Book::read_edax(bytes).unwrap_err().to_string()
    }

    #[test]
    fn levels_and_depths_undo_each_other() {
        for empties in 1..=60 {
            for level in 0..=60u8 {
                let depth = leaf_depth(level, empties);
                assert_eq!(leaf_depth(level_for(depth, empties), empties), depth);
            }
        }
        // Edax's table: level 21 searches 21 plies with 31 empties, solves 30.
        assert_eq!(leaf_depth(21, 31), 21);
        assert_eq!(leaf_depth(21, 30), 30);
        assert_eq!(leaf_depth(10, 20), 20);
        assert_eq!(leaf_depth(10, 21), 10);
        assert_eq!(leaf_depth(40, 49), 49);
        assert_eq!(leaf_depth(40, 50), 40);
    }

    #[test]
    fn a_book_written_as_edax_reads_back_the_same() {
        let (bytes, starts) = file();
        assert_eq!(&bytes[..8], b"XADEKOOB");
        assert_eq!(bytes[8], 4);
        let n = i32::from_le_bytes(bytes[38..42].try_into().unwrap());
        assert_eq!(n as usize, starts.len());
        let partial = Book::read_edax(&bytes).unwrap();
        assert!(partial.is_partial() && !partial.is_exact());
        assert_eq!(partial.len(), shipped().len());
        // The same book: read back, written again, read again.
        let again = partial.write_edax().unwrap();
        assert_eq!(again, bytes);
        assert_eq!(Book::read_edax(&again).unwrap(), partial);
        assert_eq!(Book::read_any(&again).unwrap(), partial);
        // And through ply's own file (version 3).
        let own = partial.write();
        assert_eq!(&own[8..12], &super::super::PARTIAL_VERSION.to_le_bytes());
        assert_eq!(Book::read(&own).unwrap(), partial);
        assert_eq!(Book::read_any(&own).unwrap(), partial);
    }

    #[test]
    fn an_edax_book_keeps_the_links_and_the_best_other_move_with_their_scores_and_depths() {
        let book = shipped();
        let partial = Book::read_edax(&file().0).unwrap();
        let mut dropped = 0;
        for (pos, best) in book.iter() {
            let all = book.moves(&pos).unwrap();
            let kept = partial.moves(&pos).unwrap();
            // The best value is the book's (among moves of equal score, the one Edax's order
            // puts first).
            let top = partial.lookup(&pos).unwrap();
            assert_eq!(top.score, best.score);
            let through = |sq| match after(&pos.play(sq).unwrap()) {
                After::Next(next, _) => partial.lookup(&next),
                After::Over(_) => None,
            };
            let best_other = all.iter().find(|m| through(m.square).is_none());
            for m in &all {
                let keep = through(m.square).is_some() || Some(m) == best_other;
                let Some(k) = kept.iter().find(|k| k.square == m.square) else {
                    assert!(!keep, "{pos:?} {m:?}");
                    dropped += 1;
                    continue;
                };
                assert!(keep, "{pos:?} {m:?}");
                assert_eq!(k.score, m.score, "{pos:?} {m:?}");
                // A leaf keeps its search's depth; a link's is one more than where it leads
                // (the original's too, but it may have chosen another move of the same score
                // there).
                match through(m.square) {
                    None => assert_eq!(k.depth, m.depth, "{pos:?} {m:?}"),
                    Some(next) => assert_eq!(k.depth, next.depth + 1, "{pos:?} {m:?}"),
                }
            }
        }
        assert!(dropped > 0, "Edax keeps only one move outside the book");
    }

    #[test]
    fn a_bad_header_is_refused_naming_the_field_and_byte() {
        let (bytes, _) = file();
        assert!(why(b"plybook\n").contains("not an Edax book"));
        assert!(why(&bytes[..5]).contains("the magic number (byte 0)"));
        let e = why(&bytes[..20]);
        assert!(
            e.contains("header: the level (byte 18)") && e.contains("truncated"),
            "{e}"
        );
        let mut v = bytes.clone();
        v[8] = 3;
        assert!(why(&v).contains("the version (byte 8) is 3"), "{}", why(&v));
        let mut month = bytes.clone();
        month[12] = 13;
        assert!(
            why(&month).contains("the date (byte 10)"),
            "{}",
            why(&month)
        );
        let mut level = bytes.clone();
        level[18..22].copy_from_slice(&61i32.to_le_bytes());
        assert!(why(&level).contains("the level (byte 18) is 61"));
        let mut depth = bytes.clone();
        depth[22..26].copy_from_slice(&(-1i32).to_le_bytes());
        assert!(why(&depth).contains("the depth (byte 22) is -1"));
        let mut count = bytes.clone();
        let n = i32::from_le_bytes(bytes[38..42].try_into().unwrap());
        count[38..42].copy_from_slice(&(n + 1).to_le_bytes());
        let e = why(&count);
        assert!(
            e.contains(&format!("the number of positions (byte 38) is {}", n + 1))
                && e.contains(&format!("hold {n}")),
            "{e}"
        );
        let mut negative = bytes;
        negative[38..42].copy_from_slice(&(-5i32).to_le_bytes());
        assert!(why(&negative).contains("the number of positions (byte 38) is -5"));
    }

    #[test]
    fn a_torn_or_bad_position_is_refused_naming_the_position_field_and_byte() {
        let (bytes, starts) = file();
        let k = 3;
        let at = starts[k];
        let e = why(&bytes[..at + 20]);
        assert!(
            e.contains(&format!(
                "position {k} (byte {at}): the wins (byte {at_wins})",
                at_wins = at + 16
            )) || e.contains(&format!("position {k} (byte {at}): the draws")),
            "{e}"
        );
        assert!(e.contains("truncated"), "{e}");
        let e = why(&bytes[..bytes.len() - 1]);
        assert!(e.contains("the leaf") && e.contains("truncated"), "{e}");
        // Two sides on one square.
        let mut overlap = bytes.clone();
        let player = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        overlap[at + 8..at + 16].copy_from_slice(
            &(u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap()) | player)
                .to_le_bytes(),
        );
        let e = why(&overlap);
        assert!(
            e.contains(&format!("position {k} (byte {at}): the discs: both sides")),
            "{e}"
        );
        // An empty centre: no game reaches it.
        let mut centre = bytes.clone();
        let cleared = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap()) & !(1 << 27);
        let (p, o) = (
            cleared(&bytes[at..at + 8]),
            cleared(&bytes[at + 8..at + 16]),
        );
        centre[at..at + 8].copy_from_slice(&p.to_le_bytes());
        centre[at + 8..at + 16].copy_from_slice(&o.to_le_bytes());
        assert!(
            why(&centre).contains("the centre square d4 is empty"),
            "{}",
            why(&centre)
        );
        // Not the least image: the discs mirrored.
        let mut image = bytes.clone();
        let (p, o) = (
            u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()),
            u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap()),
        );
        let s = (1..symmetry::COUNT)
            .find(|&s| (symmetry::apply(p, s, 8), symmetry::apply(o, s, 8)) != (p, o))
            .unwrap();
        image[at..at + 8].copy_from_slice(&symmetry::apply(p, s, 8).to_le_bytes());
        image[at + 8..at + 16].copy_from_slice(&symmetry::apply(o, s, 8).to_le_bytes());
        assert!(why(&image).contains("not the least"), "{}", why(&image));
        // A value out of Edax's range.
        let mut value = bytes.clone();
        value[at + 32..at + 34].copy_from_slice(&300i16.to_le_bytes());
        let e = why(&value);
        assert!(
            e.contains(&format!("the value (byte {}) is 300", at + 32)),
            "{e}"
        );
        // A level past 60.
        let mut level = bytes.clone();
        level[at + 39] = 61;
        assert!(why(&level).contains(&format!("the level (byte {}) is 61", at + 39)));
    }

    #[test]
    fn bad_links_and_leaves_are_refused_naming_the_move_and_byte() {
        let (bytes, starts) = file();
        // A position with a link and a leaf.
        let k = starts
            .iter()
            .position(|&at| {
                bytes[at + 38] > 0 && bytes[at + 40 + 2 * usize::from(bytes[at + 38]) + 1] < 64
            })
            .unwrap();
        let at = starts[k];
        let links = usize::from(bytes[at + 38]);
        let leaf_at = at + POSITION_HEAD + 2 * links;
        let mut illegal = bytes.clone();
        illegal[at + 41] = 0; // a1
        let e = why(&illegal);
        assert!(
            e.contains(&format!(
                "position {k} (byte {at}): link 0 (byte {}): a1 is not a legal move",
                at + 40
            )),
            "{e}"
        );
        let mut beyond = bytes.clone();
        beyond[at + 41] = 70;
        assert!(why(&beyond).contains("move byte 70 is not a legal move"));
        let mut pass = bytes.clone();
        pass[at + 41] = PASS;
        assert!(why(&pass).contains("pass is not a legal move"));
        let mut score = bytes.clone();
        score[at + 40] = 100;
        assert!(
            why(&score).contains("is scored 100, not -64 to 64"),
            "{}",
            why(&score)
        );
        let mut twice = bytes.clone();
        twice[leaf_at + 1] = bytes[at + 41];
        let e = why(&twice);
        assert!(
            e.contains(&format!("the leaf (byte {leaf_at})")) && e.contains("is a link too"),
            "{e}"
        );
        let mut leaf = bytes.clone();
        leaf[leaf_at + 1] = 0;
        assert!(why(&leaf).contains(&format!(
            "the leaf (byte {leaf_at}): a1 is not a legal move"
        )));
        let mut none = bytes.clone();
        none[leaf_at + 1] = NO_MOVE;
        assert!(why(&none).contains("none, but only"), "{}", why(&none));
        // A link to a position the book does not hold: the position dropped, the count told.
        let target = child_key(
            u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()),
            u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap()),
            bytes[at + 41],
        );
        let j = starts
            .iter()
            .position(|&s| {
                (
                    u64::from_le_bytes(bytes[s..s + 8].try_into().unwrap()),
                    u64::from_le_bytes(bytes[s + 8..s + 16].try_into().unwrap()),
                ) == target
            })
            .unwrap();
        let end = starts.get(j + 1).copied().unwrap_or(bytes.len());
        let mut cut = [&bytes[..starts[j]], &bytes[end..]].concat();
        let n = i32::from_le_bytes(bytes[38..42].try_into().unwrap()) - 1;
        cut[38..42].copy_from_slice(&n.to_le_bytes());
        let e = why(&cut);
        assert!(
            e.contains("leads to a position the book does not hold"),
            "{e}"
        );
        // A position given twice.
        let record = &bytes[at..starts.get(k + 1).copied().unwrap_or(bytes.len())];
        let mut doubled = [&bytes[..], record].concat();
        doubled[38..42].copy_from_slice(&(n + 2).to_le_bytes());
        let e = why(&doubled);
        assert!(
            e.contains(&format!("the same position as position {k}")),
            "{e}"
        );
    }

    /// A position of a random 8x8 game with a move after which `wanted` holds of the
    /// position it leads to, and that move.
    fn find(seed: u64, wanted: impl Fn(&Position) -> bool) -> (Position, Square) {
        let mut rng = ply_core::SplitMix64::new(seed);
        loop {
            let mut pos = Position::start(BoardSize::Eight);
            while !pos.is_game_over() {
                if !pos.can_move() {
                    pos = pos.passed();
                    continue;
                }
                if let Some(sq) = pos
                    .legal_moves()
                    .find(|&sq| wanted(&pos.play_unchecked(sq)))
                {
                    if pos.legal_moves().count() > 1 {
                        return (pos, sq);
                    }
                }
                let n = pos.legal_moves().count() as usize;
                pos = pos.play_unchecked(pos.legal_moves().nth(rng.below(n)).unwrap());
            }
        }
    }

    /// `pos` with `sq` scored `score` at `depth` and another move below it, solved, as a
    /// partial book's row.
    fn row(pos: Position, sq: Square, score: i32, depth: u32) -> (Position, Vec<ScoredMove>) {
        let other = ScoredMove {
            square: pos.legal_moves().find(|&m| m != sq).unwrap(),
            score: score - 10,
            depth: pos.empties().count(),
        };
        (
            pos,
            vec![
                ScoredMove {
                    square: sq,
                    score,
                    depth,
                },
                other,
            ],
        )
    }

    #[test]
    fn passes_and_ends_of_the_game_are_written_as_edax_positions_and_read_back() {
        let must_pass = |c: &Position| !c.is_game_over() && !c.can_move();
        // A move after which the opponent must pass, to a position the book does not hold:
        // a pass position with the search after the pass as its leaf.
        let (pos, sq) = find(1, must_pass);
        let empties = pos.empties().count();
        let book = Book::from_partial(BoardSize::Eight, [row(pos, sq, 12, empties)]).unwrap();
        let bytes = book.write_edax().unwrap();
        assert_eq!(i32::from_le_bytes(bytes[38..42].try_into().unwrap()), 2);
        assert_eq!(Book::read_edax(&bytes).unwrap(), book);
        // ... to one it holds: a pass position with a pass link.
        let next = pos.play_unchecked(sq).passed();
        let best = next.legal_moves().next().unwrap();
        let mut rows = vec![row(pos, sq, 12, empties)];
        rows.push(row(next, best, 12, empties - 1));
        let book = Book::from_partial(BoardSize::Eight, rows).unwrap();
        let bytes = book.write_edax().unwrap();
        // The pass position links by a pass, scored for the side that passes.
        assert!(bytes
            .windows(2)
            .any(|w| w[1] == PASS && w[0] == (-12i8).to_le_bytes()[0]));
        assert!(i32::from_le_bytes(bytes[38..42].try_into().unwrap()) >= 3);
        assert_eq!(Book::read_edax(&bytes).unwrap(), book);
        // A move that ends the game, scored its final score: a finished position.
        let (pos, sq) = find(2, Position::is_game_over);
        let score = -pos.play_unchecked(sq).final_score();
        let book = Book::from_partial(BoardSize::Eight, [row(pos, sq, score, 1)]).unwrap();
        let bytes = book.write_edax().unwrap();
        assert!(i32::from_le_bytes(bytes[38..42].try_into().unwrap()) >= 2);
        assert_eq!(Book::read_edax(&bytes).unwrap(), book);
    }

    #[test]
    fn only_searched_8x8_books_are_written_as_edax() {
        let six = Book::builtin(BoardSize::Six).unwrap();
        assert!(six.write_edax().unwrap_err().to_string().contains("8x8"));
    }
}
