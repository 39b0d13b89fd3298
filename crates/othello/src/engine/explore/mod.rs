//! The opening explorer: for a position, every legal move with how often the games of some
//! WTHOR databases ([`crate::wthor`]) played it, how it scored for Black, and the engine's
//! value of it from the one analysis entry point ([`crate::analyze`]).
//!
//! Counting by replaying every game for each look-up is slow (a 100,000-game set is six
//! million positions), so the counts live in a [`GamesIndex`], built once per set of
//! databases and kept in a file beside them. It holds one entry per (position, move) played
//! in any game: the position as the least image of its discs under the board's eight
//! symmetries (the mover's and the other side's, whatever their colours), so positions
//! reached by transposition, or as mirror images of each other, are counted together; the
//! move is mapped through the same symmetry, and mapped back on look-up. A look-up is a
//! binary search. [`explore_scan`] is the slow, obvious count by replaying the games, which
//! the tests hold the index to.
//!
//! Results are kept from the mover's view in the index (a position's key carries no colour)
//! and given for Black by [`explore`]: Black's score rate (a win 1, a draw 1/2) and Black's
//! mean disc result (black's discs minus white's, empties to the winner, as recorded in the
//! database).
//!
//! The index file (integers little-endian):
//!
//! ```text
//! offset  size  field
//!      0     8  magic            b"plyindex"
//!      8     4  format version   2
//!     12     4  databases        k, in the order given
//!     16     8  games            indexed, all databases together
//!     24     8  entries          n
//!     32     8  checksum         FNV-1a 64 of bytes 8-31 then of every byte after this
//!                                field: every field but the magic and itself
//!     40  16*k  databases        each: length in bytes (u64), FNV-1a 64 of its bytes (u64)
//!      .  29*n  entries          mover's discs (u64), other discs (u64) of the least image,
//!                                move (u8: square index, a1 = 0, of the image; 64 = pass;
//!                                65 = the game ended here), games (u32), mover's points (u32:
//!                                2 a win, 1 a draw), mover's disc results summed (i32); sorted
//!                                by the first three
//! ```
//!
//! A game's last position has an entry of its own, "ended here" (move 65), so the games
//! that stopped in a position are counted too. Nobody moves in it, so that entry is keyed
//! by black's discs and white's, whoever the record says is to move, and its results are
//! black's.
//!
//! Version 1 had no such entries and checksummed only the bytes after the checksum, so a
//! flipped bit in the header's counts went unseen; this build reads version 2 only, and the
//! front ends build an index of another version again as they do a damaged one.
//!
//! An index whose list of databases (lengths and hashes) differs from the databases given is
//! stale: [`GamesIndex::is_for`] says so, and the front ends build it again.
//! Version 1 checksummed only the bytes after the checksum, so a flipped bit in the header's
//! counts went unseen; this build reads version 2 only, and the front ends build an index
//! of another version again as they do a damaged one.
//!
//! ```
//! use ply_othello::{explore::{self, GamesIndex}, transcript, wthor, BoardSize, Position};
//!
//! let start = Position::start(BoardSize::Eight);
//! let game = |moves: &str, black_discs| wthor::WthorGame {
//!     tournament: 0, black: 0, white: 1, black_discs, theoretical: black_discs,
//!     game: transcript::parse(moves, start).unwrap(),
//! };
//! let db = wthor::Database {
//!     header: wthor::Header::games(2025, wthor::Date { year: 2025, month: 1, day: 1 }, 22),
//!     games: vec![game("f5d6", 40), game("f5f6", 20), game("d3c3", 33)],
//! };
//! let bytes = db.to_bytes().unwrap();
//! let index = GamesIndex::build(&[&bytes[..]]).unwrap();
//! let found = explore::explore(&start, &index, None);
//! let f5 = found.moves.iter().find(|m| m.mv.to_string() == "f5").unwrap();
//! assert_eq!(f5.games, 2);
//! assert_eq!(f5.black_score_rate(), Some(0.5)); // a win (40-24) and a loss (20-44)
//! assert_eq!(f5.black_mean_discs(), Some(-4.0)); // (16 - 24) / 2
//! ```

use std::fmt;

mod kept;
mod reached;
mod report;

pub use kept::{check_kept, Kept};
pub use reached::{games_reaching, GameEntry, GamesPage};
pub use report::{EngineValue, MoveReport, Report};

use crate::{
    analyze::{self, MoveValue, Options},
    formats::binfile::{fnv1a, fnv1a_from},
    rules::symmetry,
    wthor::{self, WthorError, WthorGame},
    Color, GameRecord, Move, Position, Square,
};

/// The first bytes of every index file.
pub const MAGIC: &[u8; 8] = b"plyindex";
/// The format version of the index file this build writes and reads.
pub const VERSION: u32 = 2;
const HEADER_LEN: usize = 40;
const SOURCE_LEN: usize = 16;
const ENTRY_LEN: usize = 29;
/// The move code of a pass in an entry.
const PASS: u8 = 64;
/// The move code of a game's last position: the game ended here.
const END: u8 = 65;
/// Most games an index holds, so that a move's summed disc results fit in an i32.
pub const MAX_GAMES: u64 = (1 << 25) - 1;

/// A database an index was built from: its length and the FNV-1a 64 hash of its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    /// Length in bytes.
    pub len: u64,
    /// FNV-1a 64 of the bytes.
    pub hash: u64,
}

impl Source {
    /// The source record of a database's bytes.
    #[must_use]
    pub fn of(bytes: &[u8]) -> Source {
        Source {
            len: bytes.len() as u64,
            hash: fnv1a(bytes),
        }
    }
}

/// Why an index could not be built or read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndexError {
    /// Database number `.0` (from 0, in the order given) could not be read.
    Database(usize, WthorError),
    /// More games than an index holds ([`MAX_GAMES`]).
    TooManyGames(u64),
    /// The index file is damaged or not an index: what is wrong.
    File(String),
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Database(k, e) => write!(f, "database {}: {e}", k + 1),
            IndexError::TooManyGames(n) => write!(
                f,
                "{n} games: an index holds at most {MAX_GAMES}; split the databases"
            ),
            IndexError::File(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for IndexError {}

/// The counts of every (position, move) of a set of databases: see the [module docs](self).
#[derive(Clone, PartialEq, Eq)]
pub struct GamesIndex {
    /// The whole file: header, sources, entries.
    bytes: Vec<u8>,
    sources: Vec<Source>,
    games: u64,
    entries: usize,
}

impl fmt::Debug for GamesIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GamesIndex")
            .field("sources", &self.sources)
            .field("games", &self.games)
            .field("entries", &self.entries)
            .finish()
    }
}

/// The checksum of an index file's bytes: FNV-1a 64 of the header's fields after the magic
/// (version, databases, games, entries), then of everything after the checksum field.
fn checksum(bytes: &[u8]) -> u64 {
    fnv1a_from(fnv1a(&bytes[8..32]), &bytes[HEADER_LEN..])
}

/// The least image of the position before a move and the move mapped onto it.
fn key(before: &Position, m: Move) -> (u64, u64, u8) {
    let n = u32::from(before.size().n());
    let (p, o, s) = symmetry::canonical(before.player().0, before.opponent().0, n);
    let mv = match m {
        Move::Play(sq) => symmetry::square(sq.index(), s, n),
        Move::Pass => PASS,
    };
    (p, o, mv)
}

/// The mover's result of a game with black's disc result `black`.
fn mover_result(turn: Color, black: i32) -> i32 {
    match turn {
        Color::Black => black,
        Color::White => -black,
    }
}

/// Points of a result: 2 a win, 1 a draw, 0 a loss.
fn points(result: i32) -> u32 {
    match result.signum() {
        1 => 2,
        0 => 1,
        _ => 0,
    }
}

impl GamesIndex {
    /// Builds the index of the game files `databases` (their bytes, in the order given),
    /// reading and replaying every game.
    ///
    /// # Errors
    /// [`IndexError::Database`] for the first database that cannot be read (a game that
    /// breaks the rules included), or too many games.
    pub fn build(databases: &[&[u8]]) -> Result<GamesIndex, IndexError> {
        let mut sources = Vec::with_capacity(databases.len());
        let mut seen: Vec<(u64, u64, u8, i8)> = Vec::new();
        let mut games = 0u64;
        for (k, bytes) in databases.iter().enumerate() {
            sources.push(Source::of(bytes));
            let (header, iter) = wthor::games(bytes).map_err(|e| IndexError::Database(k, e))?;
            games += u64::from(header.games);
            if games > MAX_GAMES {
                return Err(IndexError::TooManyGames(games));
            }
            seen.reserve(header.games as usize * 60);
            for g in iter {
                let g = g.map_err(|e| IndexError::Database(k, e))?;
                add_game(&mut seen, &g);
            }
        }
        seen.sort_unstable();
        Ok(GamesIndex::from_sorted(sources, games, &seen))
    }

    /// Builds the index of games already read, as from `sources` (which [`GamesIndex::is_for`]
    /// compares with the databases later given).
    ///
    /// # Errors
    /// Too many games.
    pub fn from_games<'a>(
        sources: Vec<Source>,
        games: impl IntoIterator<Item = &'a WthorGame>,
    ) -> Result<GamesIndex, IndexError> {
        let mut seen = Vec::new();
        let mut count = 0u64;
        for g in games {
            count += 1;
            if count > MAX_GAMES {
                return Err(IndexError::TooManyGames(count));
            }
            add_game(&mut seen, g);
        }
        seen.sort_unstable();
        Ok(GamesIndex::from_sorted(sources, count, &seen))
    }

    fn from_sorted(sources: Vec<Source>, games: u64, seen: &[(u64, u64, u8, i8)]) -> GamesIndex {
        let mut bytes = Vec::with_capacity(HEADER_LEN + sources.len() * SOURCE_LEN);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(sources.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&games.to_le_bytes());
        bytes.extend_from_slice(&[0u8; 16]); // entries and checksum, set below
        for s in &sources {
            bytes.extend_from_slice(&s.len.to_le_bytes());
            bytes.extend_from_slice(&s.hash.to_le_bytes());
        }
        let mut entries = 0usize;
        let mut k = 0;
        while k < seen.len() {
            let (p, o, mv, _) = seen[k];
            let (mut n, mut pts, mut discs) = (0u32, 0u32, 0i32);
            while k < seen.len() && (seen[k].0, seen[k].1, seen[k].2) == (p, o, mv) {
                let r = i32::from(seen[k].3);
                n += 1;
                pts += points(r);
                discs += r;
                k += 1;
            }
            bytes.extend_from_slice(&p.to_le_bytes());
            bytes.extend_from_slice(&o.to_le_bytes());
            bytes.push(mv);
            bytes.extend_from_slice(&n.to_le_bytes());
            bytes.extend_from_slice(&pts.to_le_bytes());
            bytes.extend_from_slice(&discs.to_le_bytes());
            entries += 1;
        }
        bytes[24..32].copy_from_slice(&(entries as u64).to_le_bytes());
        let sum = checksum(&bytes);
        bytes[32..40].copy_from_slice(&sum.to_le_bytes());
        GamesIndex {
            bytes,
            sources,
            games,
            entries,
        }
    }

    /// Reads an index file, checking its magic, version, length and checksum.
    ///
    /// # Errors
    /// [`IndexError::File`] naming what is wrong.
    pub fn read(bytes: Vec<u8>) -> Result<GamesIndex, IndexError> {
        let bad = |m: String| IndexError::File(m);
        if bytes.len() < HEADER_LEN {
            return Err(bad(format!(
                "{} bytes, shorter than an index's {HEADER_LEN}-byte header (truncated?)",
                bytes.len()
            )));
        }
        if &bytes[..8] != MAGIC {
            return Err(bad("not a ply games index (no `plyindex` magic)".into()));
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}; this build reads version {VERSION}"
            )));
        }
        let k = u32_at(12) as usize;
        let games = u64_at(16);
        let n = u64_at(24);
        let want = (k as u64)
            .checked_mul(SOURCE_LEN as u64)
            .and_then(|s| n.checked_mul(ENTRY_LEN as u64).map(|e| (s, e)))
            .and_then(|(s, e)| s.checked_add(e))
            .and_then(|b| b.checked_add(HEADER_LEN as u64));
        if want != Some(bytes.len() as u64) {
            return Err(bad(format!(
                "{} bytes, but its header says {k} databases and {n} entries (truncated?)",
                bytes.len()
            )));
        }
        if checksum(&bytes) != u64_at(32) {
            return Err(bad("checksum mismatch: the index is damaged".into()));
        }
        let sources = (0..k)
            .map(|i| {
                let at = HEADER_LEN + i * SOURCE_LEN;
                Source {
                    len: u64_at(at),
                    hash: u64_at(at + 8),
                }
            })
            .collect();
        let index = GamesIndex {
            bytes,
            sources,
            games,
            entries: n as usize,
        };
        // What a look-up relies on: moves that are squares (or a pass), entries in order,
        // counts that games can add up to (points and disc results within what that many
        // games score; at most the games indexed).
        let mut before: Option<(u64, u64, u8)> = None;
        for i in 0..index.entries {
            let (p, o) = index.entry_key(i);
            let e = index.entry_at(i);
            let mv = e[16];
            if mv > END {
                return Err(bad(format!(
                    "entry {}: move byte {mv} is no square, pass or end",
                    i + 1
                )));
            }
            let n = u64::from(u32::from_le_bytes(e[17..21].try_into().expect("4")));
            let points = u64::from(u32::from_le_bytes(e[21..25].try_into().expect("4")));
            let discs = i64::from(i32::from_le_bytes(e[25..29].try_into().expect("4")));
            if n == 0 || n > games || points > 2 * n || discs.unsigned_abs() > 64 * n {
                return Err(bad(format!(
                    "entry {}: {n} games scoring {points} points and {discs} discs, which no \
                     games of the {games} indexed can",
                    i + 1
                )));
            }
            if before.is_some_and(|b| b >= (p, o, mv)) {
                return Err(bad(format!("entry {}: out of order", i + 1)));
            }
            before = Some((p, o, mv));
        }
        Ok(index)
    }

    /// The bytes of the index file.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Whether this index was built from exactly these databases, in this order.
    #[must_use]
    pub fn is_for(&self, sources: &[Source]) -> bool {
        self.sources == sources
    }

    /// The databases it was built from.
    #[must_use]
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// Games indexed.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// (position, move) entries.
    #[must_use]
    pub fn entries(&self) -> usize {
        self.entries
    }

    fn entry_at(&self, i: usize) -> &[u8] {
        let at = HEADER_LEN + self.sources.len() * SOURCE_LEN + i * ENTRY_LEN;
        &self.bytes[at..at + ENTRY_LEN]
    }

    fn entry_key(&self, i: usize) -> (u64, u64) {
        let e = self.entry_at(i);
        (
            u64::from_le_bytes(e[0..8].try_into().expect("8")),
            u64::from_le_bytes(e[8..16].try_into().expect("8")),
        )
    }

    /// Every move played from `pos` (or an image of it) in the indexed games, from the
    /// mover's view: the move in `pos`'s frame, the games, the mover's points (2 a win, 1 a
    /// draw) and the mover's disc results summed. By square, a pass last.
    #[must_use]
    pub fn lookup(&self, pos: &Position) -> Vec<Counts> {
        // WTHOR games are 8x8; a smaller board's discs could spell an 8x8 key.
        if pos.size() != crate::BoardSize::Eight {
            return Vec::new();
        }
        let n = u32::from(pos.size().n());
        let (p, o, s) = symmetry::canonical(pos.player().0, pos.opponent().0, n);
        let back = symmetry::inverse(s);
        let mut out = Vec::new();
        let mut i = self.first_at_or_after((p, o));
        while i < self.entries && self.entry_key(i) == (p, o) {
            let e = self.entry_at(i);
            i += 1;
            let mv = match e[16] {
                END => continue,
                PASS => Move::Pass,
                sq => Move::Play(Square::from_index_unchecked(symmetry::square(sq, back, n))),
            };
            out.push(Counts {
                mv,
                games: u64::from(u32::from_le_bytes(e[17..21].try_into().expect("4"))),
                points: u64::from(u32::from_le_bytes(e[21..25].try_into().expect("4"))),
                discs: i64::from(i32::from_le_bytes(e[25..29].try_into().expect("4"))),
            });
        }
        out.sort_by_key(|c| match c.mv {
            Move::Play(sq) => sq.index(),
            Move::Pass => PASS,
        });
        out
    }
}

impl GamesIndex {
    /// The games that ended in `pos` (or an image of it, whoever is to move): how many, and
    /// black's points and disc results over them. Zero games where none did, and for a
    /// position that is not over.
    #[must_use]
    pub fn ended(&self, pos: &Position) -> Ended {
        let none = Ended::default();
        if pos.size() != crate::BoardSize::Eight || !pos.is_game_over() {
            return none;
        }
        let (p, o, _) = end_key(pos);
        let at = self.first_at_or_after((p, o));
        if at == self.entries || self.entry_key(at) != (p, o) {
            return none;
        }
        // A finished position has no moves: its only entry is the end.
        (at..self.entries)
            .take_while(|&i| self.entry_key(i) == (p, o))
            .map(|i| self.entry_at(i))
            .find(|e| e[16] == END)
            .map_or(none, |e| Ended {
                games: u64::from(u32::from_le_bytes(e[17..21].try_into().expect("4"))),
                black_points: u64::from(u32::from_le_bytes(e[21..25].try_into().expect("4"))),
                black_discs: i64::from(i32::from_le_bytes(e[25..29].try_into().expect("4"))),
            })
    }

    /// The first entry whose key is not below `key`.
    fn first_at_or_after(&self, key: (u64, u64)) -> usize {
        let (mut lo, mut hi) = (0, self.entries);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.entry_key(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// The games that ended in a position: see [`GamesIndex::ended`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ended {
    /// Games whose last position it is.
    pub games: u64,
    /// Black's points over them: 2 a win, 1 a draw.
    pub black_points: u64,
    /// Black's disc results summed over them.
    pub black_discs: i64,
}

/// The key of a finished position: the least image of black's discs and white's.
fn end_key(pos: &Position) -> (u64, u64, u8) {
    let n = u32::from(pos.size().n());
    let (black, white) = match pos.turn() {
        Color::Black => (pos.player(), pos.opponent()),
        Color::White => (pos.opponent(), pos.player()),
    };
    let (p, o, _) = symmetry::canonical(black.0, white.0, n);
    (p, o, END)
}

fn add_game(seen: &mut Vec<(u64, u64, u8, i8)>, g: &WthorGame) {
    let black = g.black_score();
    for (before, m) in g.game.plies() {
        let (p, o, mv) = key(&before, m);
        let r = mover_result(before.turn(), black);
        seen.push((p, o, mv, r as i8));
    }
    let (p, o, mv) = end_key(&g.game.position());
    seen.push((p, o, mv, black as i8));
}

/// How often a move was played from a position and how it scored, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// The move.
    pub mv: Move,
    /// Games that played it.
    pub games: u64,
    /// The mover's points over those games: 2 a win, 1 a draw.
    pub points: u64,
    /// The mover's disc results (its discs minus the other side's) summed.
    pub discs: i64,
}

/// The slow, obvious count that [`GamesIndex::lookup`] is tested against: replays every game
/// and, at every position that is an image of `pos` under a symmetry of the board (the
/// mover's and the other side's discs, colours aside), counts the move played, mapped into
/// `pos`'s frame by the first such symmetry. By square, a pass last.
///
/// Where `pos` is its own image under some symmetry, the moves that symmetry exchanges are
/// equivalent, and which of them a game's move is counted under may differ between this and
/// the index; their sums agree.
#[must_use]
pub fn explore_scan<'a>(
    pos: &Position,
    games: impl IntoIterator<Item = &'a WthorGame>,
) -> Vec<Counts> {
    let n = u32::from(pos.size().n());
    let mut out: Vec<Counts> = Vec::new();
    for g in games {
        for (before, m) in g.game.plies() {
            if before.size() != pos.size() || pos.size() != crate::BoardSize::Eight {
                continue;
            }
            let Some(s) = (0..symmetry::COUNT).find(|&s| {
                let im = symmetry::image(&before, s);
                im.player() == pos.player() && im.opponent() == pos.opponent()
            }) else {
                continue;
            };
            let mv = match m {
                Move::Play(sq) => Move::Play(Square::from_index_unchecked(symmetry::square(
                    sq.index(),
                    s,
                    n,
                ))),
                Move::Pass => Move::Pass,
            };
            let r = mover_result(before.turn(), g.black_score());
            let c = match out.iter_mut().find(|c| c.mv == mv) {
                Some(c) => c,
                None => {
                    out.push(Counts {
                        mv,
                        games: 0,
                        points: 0,
                        discs: 0,
                    });
                    out.last_mut().expect("just pushed")
                }
            };
            c.games += 1;
            c.points += u64::from(points(r));
            c.discs += i64::from(r);
        }
    }
    out.sort_by_key(|c| match c.mv {
        Move::Play(sq) => sq.index(),
        Move::Pass => PASS,
    });
    out
}

/// One move of an exploration: how the games that played it went for Black, and the
/// engine's value of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Explored {
    /// The move (a pass only where the side to move has none and games passed here).
    pub mv: Move,
    /// Games that played it from this position or an image of it.
    pub games: u64,
    /// Black's points over them: 2 a win, 1 a draw.
    pub black_points: u64,
    /// Black's disc results (black's discs minus white's) summed over them.
    pub black_discs: i64,
    /// The engine's value of the move, for the side that plays it, when it was asked for.
    pub engine: Option<MoveValue>,
}

impl Explored {
    /// Black's score rate over the games that played the move (a win 1, a draw 1/2); `None`
    /// when none did.
    #[must_use]
    pub fn black_score_rate(&self) -> Option<f64> {
        (self.games > 0).then(|| self.black_points as f64 / (2 * self.games) as f64)
    }

    /// Black's mean disc result over those games; `None` when none did.
    #[must_use]
    pub fn black_mean_discs(&self) -> Option<f64> {
        (self.games > 0).then(|| self.black_discs as f64 / self.games as f64)
    }
}

/// What [`explore`] found for a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Exploration {
    /// The position explored.
    pub position: Position,
    /// Games that went through it (or an image of it) and played on.
    pub games: u64,
    /// Games that ended in it (or an image of it).
    pub ended: Ended,
    /// Every legal move (and a pass the games made), most played first, then by the
    /// engine's value, then by square.
    pub moves: Vec<Explored>,
    /// The engine's whole analysis, when it was asked for.
    pub analysis: Option<analyze::Analysis>,
}

/// Explores `pos`: every legal move with its counts from `index`, and, with `engine`, the
/// value of every move from [`analyze::analyze`] under those options (the book where it
/// knows the position, a search elsewhere).
#[must_use]
pub fn explore(pos: &Position, index: &GamesIndex, engine: Option<&Options>) -> Exploration {
    let counts = index.lookup(pos);
    let analysis = engine.map(|opts| analyze::analyze(pos, opts));
    let to_black = |c: &Counts| match pos.turn() {
        Color::Black => (c.points, c.discs),
        Color::White => (2 * c.games - c.points, -c.discs),
    };
    let mut moves: Vec<Explored> = pos
        .legal_moves()
        .map(Move::Play)
        .chain(counts.iter().filter(|c| c.mv == Move::Pass).map(|c| c.mv))
        .map(|mv| {
            let c = counts.iter().find(|c| c.mv == mv);
            let (black_points, black_discs) = c.map_or((0, 0), to_black);
            Explored {
                mv,
                games: c.map_or(0, |c| c.games),
                black_points,
                black_discs,
                engine: analysis
                    .as_ref()
                    .and_then(|a| a.moves.iter().find(|v| Move::Play(v.square) == mv).copied()),
            }
        })
        .collect();
    moves.sort_by(|a, b| {
        b.games
            .cmp(&a.games)
            .then_with(|| {
                let v = |e: &Explored| e.engine.map_or(i32::MIN, |v| v.score.0);
                v(b).cmp(&v(a))
            })
            .then_with(|| square_order(a.mv).cmp(&square_order(b.mv)))
    });
    Exploration {
        position: *pos,
        games: counts.iter().map(|c| c.games).sum(),
        ended: index.ended(pos),
        moves,
        analysis,
    }
}

/// Whether `game` passes through `pos` or one of its mirror images (compared as in the
/// index: the mover's and the other side's discs), its last position included; a finished
/// position matches whoever the record says is to move in it.
///
/// Each move adds a disc, so only the position with as many discs as `pos` can match: the
/// game is replayed up to there and no further.
#[must_use]
pub fn reaches(game: &GameRecord, pos: &Position) -> bool {
    if game.start().size() != pos.size() {
        return false;
    }
    let n = u32::from(pos.size().n());
    let over = pos.is_game_over();
    let image = |q: &Position| {
        if over {
            let (p, o, _) = end_key(q);
            (p, o)
        } else {
            let (p, o, _) = symmetry::canonical(q.player().0, q.opponent().0, n);
            (p, o)
        }
    };
    let want = image(pos);
    let discs = (pos.player() | pos.opponent()).count();
    let count = |q: &Position| (q.player() | q.opponent()).count();
    game.plies()
        .map(|(before, _)| before)
        .chain(std::iter::once(game.position()))
        .take_while(|q| count(q) <= discs)
        .any(|q| count(&q) == discs && q.is_game_over() == over && image(&q) == want)
}

fn square_order(m: Move) -> u8 {
    match m {
        Move::Play(sq) => sq.index(),
        Move::Pass => PASS,
    }
}
