//! Game files: self-play games, stored compactly, and the labelled positions they hold.
//!
//! A file is a 48-byte header and then one record per game, in game order. A record keeps the
//! moves (one byte a move; a pass is implied wherever the side to move has no legal move) and
//! the final score, so a game of 60 moves costs 75 bytes: 1.25 bytes per position. Every
//! position before a move is a training position, labelled with the final disc difference
//! from its side to move's view; because the games are played perfectly from
//! [`Params::exact_empties`] empty squares on (see [`crate::selfplay`]), the label of every
//! position with that many empties or fewer is its exact value.
//!
//! Header (all integers little-endian):
//!
//! | bytes | field | |
//! |---|---|---|
//! | 0-7 | magic | `PLYGAMES` |
//! | 8-9 | format version | [`VERSION`] |
//! | 10 | board size | 6 or 8 |
//! | 11 | depth | the midgame engine's depth |
//! | 12, 13 | random moves | fewest and most random opening moves |
//! | 14 | exact empties | perfect play from this many empties on |
//! | 15 | reserved | 0 |
//! | 16-23 | seed | |
//! | 24-31 | games | games in the whole set, all shards together |
//! | 32-35, 36-39 | shard | index and count |
//! | 40-43 | engine | [`engine_fingerprint`]: CRC-32 of the evaluation's weights |
//! | 44-47 | header checksum | CRC-32 of bytes 0-43 |
//!
//! Record: game index (8 bytes), random moves played (1), move count `n` (1), the moves
//! (`n` bytes, square index `row * 8 + column`), the final score for black (1, signed), and
//! the CRC-32 of those bytes (4).
//!
//! Reading checks everything it can without playing the games again: the header field by
//! field, every record's checksum, that the records are the shard's games in order, that
//! every move is legal, that the game is over after its moves and that the score is its final
//! score. Any failure is a [`DataError`] that names the file, the record and its byte offset,
//! and the field.
//!
//! ```
//! use ply_othello::BoardSize;
//! use ply_train::{
//!     games::{GameReader, Header, Shard},
//!     recipe::Params,
//! };
//!
//! let params = Params { games: 2, ..Params::default_for(BoardSize::Six) };
//! let header = Header::new(params, Shard::WHOLE);
//! let mut bytes = header.to_bytes().to_vec();
//! for k in 0..2 {
//!     ply_train::selfplay::play(&params, k).unwrap().encode(&mut bytes);
//! }
//! let reader = GameReader::new(&bytes[..], "games.bin").unwrap();
//! let positions: Vec<_> = reader.positions().collect::<Result<_, _>>().unwrap();
//! assert!(positions.len() > 40);
//! // From `exact_empties` on, the labels are exact.
//! assert!(positions.iter().all(|p| p.exact == (p.empties() <= u32::from(params.exact_empties))));
//!
//! // A byte changed anywhere is found.
//! let last = bytes.len() - 6;
//! bytes[last] ^= 1;
//! let e = GameReader::new(&bytes[..], "games.bin").unwrap().count_all().unwrap_err();
//! assert!(e.to_string().contains("field `checksum`"), "{e}");
//! ```

use std::{fmt, io, io::Read};

use ply_othello::{BoardSize, Color, GameRecord, Position, Square};

use crate::{
    crc32::crc32,
    error::{DataError, Place},
    recipe::{engine_fingerprint, Params},
};

/// The first eight bytes of every game file.
pub const MAGIC: [u8; 8] = *b"PLYGAMES";

/// The format version this code writes and reads.
pub const VERSION: u16 = 1;

/// Length of the header in bytes.
pub const HEADER_LEN: usize = 48;

/// Record bytes besides the moves: game index, random moves, move count, score, checksum.
pub const RECORD_OVERHEAD: usize = 8 + 1 + 1 + 1 + 4;

/// The header's fields: name, first byte, length.
const HEADER_FIELDS: [(&str, usize, usize); 14] = [
    ("magic", 0, 8),
    ("format version", 8, 2),
    ("board size", 10, 1),
    ("depth", 11, 1),
    ("random moves", 12, 1),
    ("random moves", 13, 1),
    ("exact empties", 14, 1),
    ("reserved", 15, 1),
    ("seed", 16, 8),
    ("games", 24, 8),
    ("shard", 32, 4),
    ("shard", 36, 4),
    ("engine", 40, 4),
    ("header checksum", 44, 4),
];

/// Shard `index` of `count`: the games `k` with `k % count == index` (ply-core's one shard,
/// which `ply othello solve --shard` uses too).
///
/// ```
/// use ply_train::games::Shard;
/// let s: Shard = "1/4".parse().unwrap();
/// assert_eq!((s.index, s.count), (1, 4));
/// assert_eq!(s.share(10), 3); // games 1, 5 and 9
/// assert!("4/4".parse::<Shard>().is_err());
/// ```
pub use ply_core::Shard;

/// The header of a game file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// How the games are played.
    pub params: Params,
    /// Which of the set's games the file holds.
    pub shard: Shard,
    /// The [`engine_fingerprint`] of the engine that played them.
    pub engine: u32,
}

impl Header {
    /// The header of shard `shard` of the games `params`, played by this build's engine.
    #[must_use]
    pub fn new(params: Params, shard: Shard) -> Header {
        Header {
            params,
            shard,
            engine: engine_fingerprint(params.size),
        }
    }

    /// The header's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let p = &self.params;
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&VERSION.to_le_bytes());
        b[10] = p.size.n();
        b[11] = p.depth;
        b[12] = p.random_min;
        b[13] = p.random_max;
        b[14] = p.exact_empties;
        b[16..24].copy_from_slice(&p.seed.to_le_bytes());
        b[24..32].copy_from_slice(&p.games.to_le_bytes());
        b[32..36].copy_from_slice(&self.shard.index.to_le_bytes());
        b[36..40].copy_from_slice(&self.shard.count.to_le_bytes());
        b[40..44].copy_from_slice(&self.engine.to_le_bytes());
        let sum = crc32(&b[..44]);
        b[44..48].copy_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a header from the first bytes of file `file` (`bytes` may be longer).
    ///
    /// # Errors
    /// [`DataError::Truncated`] when the bytes end inside the header, [`DataError::Bad`]
    /// when a field is wrong (a foreign file, another format version, a checksum that does
    /// not match, a value out of range); each names the field.
    pub fn parse(bytes: &[u8], file: &str) -> Result<Header, DataError> {
        let truncated = || {
            let field = HEADER_FIELDS
                .iter()
                .find(|(_, at, len)| bytes.len() < at + len)
                .map_or("header checksum", |f| f.0);
            DataError::Truncated {
                file: file.to_string(),
                at: Place::Header,
                field,
            }
        };
        let bad = |field, message: String| DataError::Bad {
            file: file.to_string(),
            at: Place::Header,
            field,
            message,
        };
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        if bytes.len() < 8 {
            return Err(if MAGIC.starts_with(bytes) {
                truncated()
            } else {
                bad("magic", foreign(bytes))
            });
        }
        if bytes[..8] != MAGIC {
            return Err(bad("magic", foreign(bytes)));
        }
        if bytes.len() < 10 {
            return Err(truncated());
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(bad(
                "format version",
                format!("version {version}; this ply reads version {VERSION}"),
            ));
        }
        if bytes.len() < HEADER_LEN {
            return Err(truncated());
        }
        let stored = u32_at(44);
        let computed = crc32(&bytes[..44]);
        if stored != computed {
            return Err(bad(
                "header checksum",
                format!("stored {stored:#010x}, the header's bytes give {computed:#010x}: the header is corrupt"),
            ));
        }
        let size = match BoardSize::from_n(bytes[10]) {
            Some(s) if s != BoardSize::Four => s,
            _ => return Err(bad("board size", format!("{} is not 6 or 8", bytes[10]))),
        };
        if bytes[15] != 0 {
            return Err(bad("reserved", format!("{} where 0 belongs", bytes[15])));
        }
        let params = Params {
            size,
            depth: bytes[11],
            random_min: bytes[12],
            random_max: bytes[13],
            exact_empties: bytes[14],
            seed: u64_at(16),
            games: u64_at(24),
        };
        params.check().map_err(|e| match e {
            DataError::Params { field, message } => bad(field, message),
            other => other,
        })?;
        let shard = Shard::new(u32_at(32), u32_at(36)).map_err(|e| bad("shard", e.to_string()))?;
        Ok(Header {
            params,
            shard,
            engine: u32_at(40),
        })
    }

    /// The first field in which `self` (a file's header) differs from `wanted`, as (name,
    /// the file's value, the wanted value).
    #[must_use]
    pub fn difference(&self, wanted: &Header) -> Option<(&'static str, String, String)> {
        let (a, b) = (&self.params, &wanted.params);
        let pair = |x: &dyn fmt::Display, y: &dyn fmt::Display| (x.to_string(), y.to_string());
        let fields: [(&str, (String, String)); 8] = [
            ("board size", pair(&a.size.n(), &b.size.n())),
            ("seed", pair(&a.seed, &b.seed)),
            ("games", pair(&a.games, &b.games)),
            ("depth", pair(&a.depth, &b.depth)),
            (
                "random moves",
                pair(
                    &format!("{}-{}", a.random_min, a.random_max),
                    &format!("{}-{}", b.random_min, b.random_max),
                ),
            ),
            ("exact empties", pair(&a.exact_empties, &b.exact_empties)),
            ("shard", pair(&self.shard, &wanted.shard)),
            (
                "engine",
                pair(
                    &format!("{:#010x}", self.engine),
                    &format!("{:#010x}", wanted.engine),
                ),
            ),
        ];
        fields
            .into_iter()
            .find(|(_, (x, y))| x != y)
            .map(|(f, (x, y))| (f, x, y))
    }

    /// How many of the set's games this file holds when it is complete.
    #[must_use]
    pub fn shard_games(&self) -> u64 {
        self.shard.share(self.params.games)
    }
}

/// What a file that is no game file starts with, for the message.
fn foreign(bytes: &[u8]) -> String {
    let head: String = bytes
        .iter()
        .take(8)
        .map(|&b| {
            if b.is_ascii_graphic() {
                char::from(b)
            } else {
                '.'
            }
        })
        .collect();
    format!("not a ply game file (it starts `{head}`, a game file starts `PLYGAMES`)")
}

/// One game: its index in the set, the number of random opening moves, its moves (passes
/// implied) and its final score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Index of the game in the set.
    pub index: u64,
    /// How many of the first moves were random.
    pub random_moves: u8,
    /// Every move played, in order; a pass is implied wherever the side to move has none.
    pub moves: Vec<Square>,
    /// The final disc difference for black, empty squares to the winner.
    pub score: i8,
}

/// A position of a game with its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// The position (its side to move has a legal move).
    pub position: Position,
    /// The game's final disc difference for the side to move.
    pub label: i8,
    /// Whether the label is the position's exact value (both sides played perfectly from
    /// here on).
    pub exact: bool,
}

impl Labelled {
    /// Empty squares of the position.
    #[must_use]
    pub fn empties(&self) -> u32 {
        self.position.empties().count()
    }
}

impl Game {
    /// Appends the game's record to `out`.
    ///
    /// # Panics
    /// When the game has more than 255 moves (no board has that many squares).
    pub fn encode(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&self.index.to_le_bytes());
        out.push(self.random_moves);
        out.push(u8::try_from(self.moves.len()).expect("at most 60 moves"));
        out.extend(self.moves.iter().map(|sq| sq.index()));
        out.push(self.score as u8);
        let sum = crc32(&out[start..]);
        out.extend_from_slice(&sum.to_le_bytes());
    }

    /// The game as a record from the start of `size`, the passes it implies put back.
    ///
    /// # Errors
    /// A move that is not legal, named (what [`GameRecord::play_with_implicit_pass`] says).
    pub fn record(&self, size: BoardSize) -> Result<GameRecord, String> {
        let mut game = GameRecord::new(Position::start(size));
        for &sq in &self.moves {
            game.play_with_implicit_pass(sq)
                .map_err(|e| e.to_string())?;
        }
        Ok(game)
    }

    /// Bytes of the game's record.
    #[must_use]
    pub fn encoded_len(&self) -> usize {
        RECORD_OVERHEAD + self.moves.len()
    }

    /// The positions before each move, labelled: the final score from the mover's view,
    /// exact where the position has `params.exact_empties` empties or fewer.
    ///
    /// # Errors
    /// When a move is not legal, the game is not over after the last move, or its final
    /// score is not `self.score`: a message naming the move.
    pub fn positions(&self, params: &Params) -> Result<Vec<Labelled>, String> {
        let mut pos = Position::start(params.size);
        let mut out = Vec::with_capacity(self.moves.len());
        for (i, &sq) in self.moves.iter().enumerate() {
            if !pos.can_move() {
                pos = pos.passed();
            }
            if !pos.is_legal(sq) {
                return Err(format!("move {} ({sq}) is not legal in {pos}", i + 1));
            }
            out.push(Labelled {
                position: pos,
                label: 0,
                exact: pos.empties().count() <= u32::from(params.exact_empties),
            });
            pos = pos.play_unchecked(sq);
        }
        if !pos.is_game_over() {
            return Err(format!(
                "the game is not over after its {} moves ({pos})",
                self.moves.len()
            ));
        }
        let black = match pos.turn() {
            Color::Black => pos.final_score(),
            Color::White => -pos.final_score(),
        };
        if black != i32::from(self.score) {
            return Err(format!(
                "the final position scores {black:+} for black, the record says {:+}",
                self.score
            ));
        }
        for l in &mut out {
            l.label = match l.position.turn() {
                Color::Black => self.score,
                Color::White => -self.score,
            };
        }
        Ok(out)
    }

    /// How many of the game's positions have exact labels.
    #[must_use]
    pub fn exact_positions(&self, params: &Params) -> u64 {
        let before = params.max_moves() - u32::from(params.exact_empties);
        (self.moves.len() as u64).saturating_sub(u64::from(before))
    }
}

/// Reads until `buf` is full or the input ends; the number of bytes read.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads a game file: its header, then its games one by one, each checked (see the module
/// docs).
#[derive(Debug)]
pub struct GameReader<R> {
    input: R,
    file: String,
    header: Header,
    /// Offset of the next record.
    offset: u64,
    /// Records read.
    records: u64,
    /// Set after an error or the end: nothing more is read.
    done: bool,
}

impl<R: Read> GameReader<R> {
    /// Reads and checks the header of `input`, a file named `file` (for messages).
    ///
    /// # Errors
    /// When the input cannot be read or its header is truncated or wrong (see
    /// [`Header::parse`]).
    pub fn new(mut input: R, file: impl Into<String>) -> Result<GameReader<R>, DataError> {
        let file = file.into();
        let mut buf = [0u8; HEADER_LEN];
        let n = fill(&mut input, &mut buf).map_err(|e| DataError::io(&file, e))?;
        let header = Header::parse(&buf[..n], &file)?;
        Ok(GameReader {
            input,
            file,
            header,
            offset: HEADER_LEN as u64,
            records: 0,
            done: false,
        })
    }

    /// The file's header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Bytes of the header and the whole records read so far.
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Records read so far.
    #[must_use]
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The next game, `None` at the end of the file.
    ///
    /// # Errors
    /// When the input cannot be read, ends inside a record ([`DataError::Truncated`]), or a
    /// record is corrupt or not the shard's next game ([`DataError::Bad`]). After an error,
    /// `None`.
    pub fn next_game(&mut self) -> Result<Option<Game>, DataError> {
        if self.done {
            return Ok(None);
        }
        let r = self.read_game();
        if !matches!(r, Ok(Some(_))) {
            self.done = true;
        }
        r
    }

    fn read_game(&mut self) -> Result<Option<Game>, DataError> {
        let at = Place::Record {
            number: self.records + 1,
            offset: self.offset,
        };
        let file = self.file.clone();
        let truncated = |field| DataError::Truncated {
            file: file.clone(),
            at,
            field,
        };
        let bad = |field, message: String| DataError::Bad {
            file: file.clone(),
            at,
            field,
            message,
        };
        let params = self.header.params;
        let mut rec = vec![0u8; 10];
        let n = fill(&mut self.input, &mut rec).map_err(|e| DataError::io(&file, e))?;
        match n {
            0 => return Ok(None),
            1..=7 => return Err(truncated("game index")),
            8 => return Err(truncated("random moves")),
            9 => return Err(truncated("move count")),
            _ => {}
        }
        let count = usize::from(rec[9]);
        if count as u32 > params.max_moves() {
            return Err(bad(
                "move count",
                format!(
                    "{count} moves; a {n}x{n} game has at most {}",
                    params.max_moves(),
                    n = params.size.n()
                ),
            ));
        }
        rec.resize(10 + count + 5, 0);
        let n = fill(&mut self.input, &mut rec[10..]).map_err(|e| DataError::io(&file, e))?;
        if n < count + 5 {
            return Err(truncated(if n < count {
                "moves"
            } else if n == count {
                "score"
            } else {
                "checksum"
            }));
        }
        let body = rec.len() - 4;
        let stored = u32::from_le_bytes(rec[body..].try_into().expect("4 bytes"));
        let computed = crc32(&rec[..body]);
        if stored != computed {
            return Err(bad(
                "checksum",
                format!("stored {stored:#010x}, the record's bytes give {computed:#010x}: the record is corrupt"),
            ));
        }
        let index = u64::from_le_bytes(rec[..8].try_into().expect("8 bytes"));
        let shard = self.header.shard;
        let expected = shard.nth(self.records);
        if expected >= params.games {
            return Err(bad(
                "game index",
                format!(
                    "a record past the shard's last game: shard {shard} of {} games holds {}",
                    params.games,
                    self.header.shard_games()
                ),
            ));
        }
        if index != expected {
            return Err(bad(
                "game index",
                format!("game {index} where shard {shard}'s next game, {expected}, belongs"),
            ));
        }
        let random_moves = rec[8];
        if random_moves > params.random_max || usize::from(random_moves) > count {
            return Err(bad(
                "random moves",
                format!(
                    "{random_moves} random moves in a game of {count} moves, at most {} asked",
                    params.random_max
                ),
            ));
        }
        let mut moves = Vec::with_capacity(count);
        for (i, &b) in rec[10..10 + count].iter().enumerate() {
            match Square::from_index(b).filter(|sq| sq.is_on(params.size)) {
                Some(sq) => moves.push(sq),
                None => {
                    return Err(bad(
                        "moves",
                        format!(
                            "move {} is square index {b}, not a square of {n}x{n}",
                            i + 1,
                            n = params.size.n()
                        ),
                    ))
                }
            }
        }
        let game = Game {
            index,
            random_moves,
            moves,
            score: rec[10 + count] as i8,
        };
        if let Err(message) = game.positions(&params) {
            let field = if message.starts_with("the final position") {
                "score"
            } else {
                "moves"
            };
            return Err(bad(field, message));
        }
        self.offset += rec.len() as u64;
        self.records += 1;
        Ok(Some(game))
    }

    /// Reads every game to the end: the games and positions counted.
    ///
    /// # Errors
    /// As [`GameReader::next_game`].
    pub fn count_all(mut self) -> Result<Counts, DataError> {
        let mut c = Counts::empty_file();
        while let Some(g) = self.next_game()? {
            c.add(&g, &self.header.params);
        }
        debug_assert_eq!(c.bytes, self.offset);
        Ok(c)
    }

    /// Every labelled position of every game, in file order.
    #[must_use]
    pub fn positions(self) -> Positions<R> {
        Positions {
            reader: self,
            buffer: Vec::new().into_iter(),
        }
    }
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = Result<Game, DataError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

/// The labelled positions of a game file ([`GameReader::positions`]).
#[derive(Debug)]
pub struct Positions<R> {
    reader: GameReader<R>,
    buffer: std::vec::IntoIter<Labelled>,
}

impl<R: Read> Iterator for Positions<R> {
    type Item = Result<Labelled, DataError>;
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(l) = self.buffer.next() {
                return Some(Ok(l));
            }
            match self.reader.next_game() {
                Ok(Some(g)) => {
                    let params = self.reader.header.params;
                    // The reader has replayed the game already: it is legal.
                    self.buffer = g.positions(&params).unwrap_or_default().into_iter();
                }
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// Games, positions and bytes of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Games.
    pub games: u64,
    /// Positions (one before each move).
    pub positions: u64,
    /// Positions whose label is exact.
    pub exact: u64,
    /// Bytes of the header and the whole records.
    pub bytes: u64,
}

impl Counts {
    /// The counts of a file with a header and no game yet.
    #[must_use]
    pub fn empty_file() -> Counts {
        Counts {
            games: 0,
            positions: 0,
            exact: 0,
            bytes: HEADER_LEN as u64,
        }
    }

    /// Counts one more game.
    pub fn add(&mut self, g: &Game, params: &Params) {
        self.games += 1;
        self.positions += g.moves.len() as u64;
        self.exact += g.exact_positions(params);
        self.bytes += g.encoded_len() as u64;
    }
}
