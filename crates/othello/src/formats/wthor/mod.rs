//! WTHOR databases, the format the French Othello Federation publishes the world's tournament
//! games in: game files (`WTH_2001.wtb`), the players' names (`WTHOR.JOU`) and the
//! tournaments' names (`WTHOR.TRN`). A reader and a writer for each.
//!
//! Every file starts with the same 16-byte header (integers little-endian):
//!
//! ```text
//! offset  size  field
//!      0     1  century         of the file's creation (20 for 2025)
//!      1     1  year            of the file's creation, in its century (25)
//!      2     1  month           1..12
//!      3     1  day             1..31
//!      4     4  games (N1)      records of a game file; 0 in a names file
//!      8     2  names (N2)      records of a names file; 0 in a game file
//!     10     2  game year       the year the games were played; 0 in a names file
//!     12     1  board size (P1) 0 or 8 for 8x8 (10 is 10x10, which ply does not read)
//!     13     1  game type (P2)  0 for games (1 is a solitaire file, not read)
//!     14     1  depth (P3)      empties from which the theoretical score is perfect play
//!                               (0 means the default, 22)
//!     15     1  reserved
//! ```
//!
//! A game file then holds N1 records of 68 bytes:
//!
//! ```text
//!      0     2  tournament      number of its name in WTHOR.TRN (from 0)
//!      2     2  black player    number of the name in WTHOR.JOU (from 0)
//!      4     2  white player
//!      6     1  black's discs   at the end, empty squares to the winner
//!      7     1  theoretical     black's discs under perfect play from `depth` empties on
//!      8    60  moves           10 * row + column, both from 1 (f5 = 56); 0 after the last
//! ```
//!
//! Passes are not stored: the reader replays every game by the rules and inserts a pass
//! where the side to move has no move, so a game that breaks the rules is found, with its
//! number and the move. A game replayed to its end must have the black disc count its final
//! position has: with the empty squares given to the winner (as WTHOR's own files count
//! them), or the discs on the board (as some writers do); a game that stops before its end
//! (a resignation, a loss on time) keeps whatever count was recorded. A names file's N1 must
//! be 0. A names file holds N2 names of 20 bytes (players) or 26 bytes
//! (tournaments), each padded with zero bytes, read as Latin-1.
//!
//! Games are numbered from 1 in messages and listings. Every error ([`WthorError`]) names the
//! game (or name) record, the field and its byte offset; the caller adds the file's name.
//!
//! ```
//! use ply_othello::{transcript, wthor, BoardSize, Position};
//!
//! let game = transcript::parse("f5d6c3d3c4", Position::start(BoardSize::Eight)).unwrap();
//! let db = wthor::Database {
//!     header: wthor::Header::games(2024, wthor::Date { year: 2025, month: 1, day: 2 }, 22),
//!     games: vec![wthor::WthorGame { tournament: 0, black: 1, white: 2, black_discs: 40,
//!                                    theoretical: 36, game }],
//! };
//! let bytes = db.to_bytes().unwrap();
//! assert_eq!(bytes.len(), 16 + 68);
//! assert_eq!(bytes[16 + 8], 56); // f5
//! let back = wthor::Database::read(&bytes).unwrap();
//! assert_eq!((back.header.games, &back.games), (1, &db.games));
//! ```

use std::fmt;

use crate::{BoardSize, Color, GameRecord, Move, Position, Square};

mod listing;
mod names;

pub use listing::{
    list, name_of, parse_played, ListFormat, ListOptions, Listed, ListedFile, Made, NamesOf,
    Played, LIST_HEAD,
};
pub use names::{NameKind, Names};

/// Length of every file's header.
pub const HEADER_LEN: usize = 16;
/// Length of a game record.
pub const GAME_LEN: usize = 68;
/// Moves a game record holds.
pub const MOVES: usize = 60;

/// Something wrong in a WTHOR file: where (a record, a field, a byte offset) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WthorError {
    /// The record (game or name, numbered from 1), when the error lies in one.
    pub record: Option<usize>,
    /// The field, as the module docs name it.
    pub field: &'static str,
    /// The byte offset in the file where the field (or the problem) starts.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl WthorError {
    fn header(field: &'static str, offset: usize, message: String) -> WthorError {
        WthorError {
            record: None,
            field,
            offset,
            message,
        }
    }
}

impl fmt::Display for WthorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.record {
            Some(r) => write!(f, "record {r}, ")?,
            None => f.write_str("header, ")?,
        }
        write!(
            f,
            "field `{}` (byte {}): {}",
            self.field, self.offset, self.message
        )
    }
}

impl std::error::Error for WthorError {}

/// A calendar date, as the header keeps the file's creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Date {
    /// The year, 0..=25599.
    pub year: u16,
    /// 1..=12.
    pub month: u8,
    /// 1..=31.
    pub day: u8,
}

impl Date {
    /// The date `days` days after 1970-01-01, in the proleptic Gregorian calendar (Howard
    /// Hinnant's days-to-civil): what a writer stamps as the file's creation, from a clock.
    ///
    /// ```
    /// use ply_othello::wthor::Date;
    /// assert_eq!(Date::from_days(0), Date { year: 1970, month: 1, day: 1 });
    /// assert_eq!(Date::from_days(11_016), Date { year: 2000, month: 2, day: 29 });
    /// assert_eq!(Date::from_days(20_418), Date { year: 2025, month: 11, day: 26 });
    /// ```
    #[must_use]
    pub fn from_days(days: u64) -> Date {
        let z = days as i64 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date {
            year: year as u16,
            month,
            day,
        }
    }
}

/// The 16-byte header every WTHOR file starts with (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// When the file was made.
    pub created: Date,
    /// N1: the records of a game file.
    pub games: u32,
    /// N2: the records of a names file.
    pub names: u16,
    /// The year the games were played (0 in a names file).
    pub game_year: u16,
    /// P1: 0 or 8 for 8x8.
    pub board_size: u8,
    /// P2: 0 for games.
    pub game_type: u8,
    /// P3: the empties from which the theoretical scores are perfect play (0 means 22).
    pub depth: u8,
    /// The reserved byte, kept as read.
    pub reserved: u8,
}

impl Header {
    /// The header of a game file of `year`'s games made on `created`, with theoretical
    /// scores from `depth` empties (the count is set when the file is written).
    #[must_use]
    pub fn games(year: u16, created: Date, depth: u8) -> Header {
        Header {
            created,
            games: 0,
            names: 0,
            game_year: year,
            board_size: 8,
            game_type: 0,
            depth,
            reserved: 0,
        }
    }

    /// The header of a names file made on `created` (the count is set when it is written).
    #[must_use]
    pub fn names(created: Date) -> Header {
        Header {
            board_size: 0,
            depth: 0,
            game_year: 0,
            ..Header::games(0, created, 0)
        }
    }

    /// The depth the theoretical scores are computed from: P3, or 22 where P3 is 0.
    #[must_use]
    pub fn theoretical_depth(&self) -> u8 {
        if self.depth == 0 {
            22
        } else {
            self.depth
        }
    }

    /// Reads a header, checking the fields every file shares (the date).
    ///
    /// # Errors
    /// A file shorter than a header, or a date that is no date.
    pub fn read(bytes: &[u8]) -> Result<Header, WthorError> {
        if bytes.len() < HEADER_LEN {
            return Err(WthorError::header(
                "header",
                bytes.len(),
                format!(
                    "the file is {} bytes long, shorter than the {HEADER_LEN}-byte header \
                     (truncated?)",
                    bytes.len()
                ),
            ));
        }
        let h = Header {
            created: Date {
                year: u16::from(bytes[0]) * 100 + u16::from(bytes[1]),
                month: bytes[2],
                day: bytes[3],
            },
            games: u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
            names: u16::from_le_bytes([bytes[8], bytes[9]]),
            game_year: u16::from_le_bytes([bytes[10], bytes[11]]),
            board_size: bytes[12],
            game_type: bytes[13],
            depth: bytes[14],
            reserved: bytes[15],
        };
        if bytes[1] > 99 {
            return Err(WthorError::header(
                "year",
                1,
                format!("{} is not a year of a century (0..99)", bytes[1]),
            ));
        }
        if !(1..=12).contains(&h.created.month) {
            return Err(WthorError::header(
                "month",
                2,
                format!("{} is not a month (1..12)", h.created.month),
            ));
        }
        if !(1..=31).contains(&h.created.day) {
            return Err(WthorError::header(
                "day",
                3,
                format!("{} is not a day of a month (1..31)", h.created.day),
            ));
        }
        Ok(h)
    }

    /// The 16 bytes of this header.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        // The century byte holds years up to 25599; a date past that is saturated.
        b[0] = u8::try_from(self.created.year / 100).unwrap_or(u8::MAX);
        b[1] = (self.created.year % 100) as u8;
        b[2] = self.created.month;
        b[3] = self.created.day;
        b[4..8].copy_from_slice(&self.games.to_le_bytes());
        b[8..10].copy_from_slice(&self.names.to_le_bytes());
        b[10..12].copy_from_slice(&self.game_year.to_le_bytes());
        b[12] = self.board_size;
        b[13] = self.game_type;
        b[14] = self.depth;
        b[15] = self.reserved;
        b
    }

    /// Checks the fields of a game file's header: an 8x8 board, games (not solitaires), no
    /// names count, a depth within a game.
    fn check_games(&self) -> Result<(), WthorError> {
        if self.names != 0 {
            return Err(WthorError::header(
                "names (N2)",
                8,
                format!(
                    "{} in a game file, where it must be 0 (is this a names file?)",
                    self.names
                ),
            ));
        }
        match self.board_size {
            0 | 8 => {}
            10 => {
                return Err(WthorError::header(
                    "board size (P1)",
                    12,
                    "10 (10x10): ply reads 8x8 databases only (0 or 8)".into(),
                ))
            }
            n => {
                return Err(WthorError::header(
                    "board size (P1)",
                    12,
                    format!("{n} is not a board size (0 or 8 for 8x8)"),
                ))
            }
        }
        match self.game_type {
            0 => {}
            1 => {
                return Err(WthorError::header(
                    "game type (P2)",
                    13,
                    "1: a solitaire file, not a game file".into(),
                ))
            }
            t => {
                return Err(WthorError::header(
                    "game type (P2)",
                    13,
                    format!("{t} is not a game type (0 for games)"),
                ))
            }
        }
        if self.depth > 60 {
            return Err(WthorError::header(
                "depth (P3)",
                14,
                format!("{} empties: a game has at most 60", self.depth),
            ));
        }
        Ok(())
    }
}

/// Checks that the records after the header fill the file exactly, `count` of `len` bytes.
fn check_count(
    bytes: &[u8],
    count: usize,
    len: usize,
    field: &'static str,
    at: usize,
    what: &str,
) -> Result<(), WthorError> {
    let body = bytes.len() - HEADER_LEN;
    if !body.is_multiple_of(len) {
        let whole = body / len;
        return Err(WthorError {
            record: Some(whole + 1),
            field: "record",
            offset: HEADER_LEN + whole * len,
            message: format!(
                "the file ends {} bytes into {what} record {} of {len} bytes (a torn \
                 record: truncated or not a WTHOR file)",
                body % len,
                whole + 1
            ),
        });
    }
    if body / len != count {
        return Err(WthorError::header(
            field,
            at,
            format!(
                "the header says {count} records but the file holds {} ({} bytes after \
                 the header, {len} a record)",
                body / len,
                body
            ),
        ));
    }
    Ok(())
}

/// One game of a database: who played it, where, its result, and its moves replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// Number of the tournament's name in `WTHOR.TRN`.
    pub tournament: u16,
    /// Number of black's name in `WTHOR.JOU`.
    pub black: u16,
    /// Number of white's name in `WTHOR.JOU`.
    pub white: u16,
    /// Black's discs at the end (empty squares to the winner), as recorded: 0..=64.
    pub black_discs: u8,
    /// Black's discs under perfect play from the header's depth on, as recorded.
    pub theoretical: u8,
    /// The moves from the 8x8 start, passes inserted, every one legal.
    pub game: GameRecord,
}

impl WthorGame {
    /// Black's result as a disc difference (black's discs minus white's, empties to the
    /// winner): `2 * black_discs - 64`.
    #[must_use]
    pub fn black_score(&self) -> i32 {
        2 * i32::from(self.black_discs) - 64
    }

    /// Black's discs at the end of a finished game, empties to the winner (what a writer
    /// puts in `black_discs` for a game played to its end).
    #[must_use]
    pub fn final_black_discs(end: &Position) -> u8 {
        let black = end.final_score_for(Color::Black);
        // -64..=64 on 64 squares, so (64 + black) / 2 is 0..=64.
        ((64 + black) / 2) as u8
    }

    /// Black's discs under perfect play from `depth` empties on, as a writer fills
    /// `theoretical` for the finished `game`, and whether it took a solve: the position of
    /// the game with `depth` empty squares scored by `solve` (its exact score for the side
    /// to move), or the game's own result ([`WthorGame::final_black_discs`]) where the game
    /// never has `depth` empties left or was played perfectly from `perfect_from` empties,
    /// `depth` or more.
    pub fn theoretical_discs(
        game: &GameRecord,
        depth: u8,
        perfect_from: Option<u8>,
        solve: impl FnOnce(&Position) -> i32,
    ) -> (u8, bool) {
        let at_depth = game
            .plies()
            .map(|(p, _)| p)
            .find(|p| p.empties().count() == u32::from(depth));
        match at_depth {
            Some(pos) if perfect_from.is_none_or(|e| e < depth) => {
                let score = solve(&pos);
                let black = if pos.turn() == Color::Black {
                    score
                } else {
                    -score
                };
                (((64 + black) / 2) as u8, true)
            }
            _ => (WthorGame::final_black_discs(&game.position()), false),
        }
    }

    /// Whether `black_discs` can be the result of this game: any count when the game stops
    /// before its end; at its end, black's discs with the empty squares given to the winner,
    /// or black's discs on the board. `Err` says what the end holds.
    fn check_result(&self) -> Result<(), String> {
        let end = self.game.position();
        if !end.is_game_over() {
            return Ok(());
        }
        let with_empties = WthorGame::final_black_discs(&end);
        let on_board = end.disc_count(Color::Black);
        if self.black_discs == with_empties || u32::from(self.black_discs) == on_board {
            return Ok(());
        }
        Err(format!(
            "{}, but the game replayed ends {on_board}-{} (black {with_empties} with the empty \
             squares to the winner)",
            self.black_discs,
            end.disc_count(Color::White)
        ))
    }

    /// Reads the game record `number` (from 1) starting at byte `at` of the file.
    fn read(record: &[u8], number: usize, at: usize) -> Result<WthorGame, WthorError> {
        let err = |field: &'static str, off: usize, message: String| WthorError {
            record: Some(number),
            field,
            offset: at + off,
            message,
        };
        let u16_at = |i: usize| u16::from_le_bytes([record[i], record[i + 1]]);
        let black_discs = record[6];
        if black_discs > 64 {
            return Err(err(
                "black's discs",
                6,
                format!("{black_discs}: a board holds 64 discs"),
            ));
        }
        let theoretical = record[7];
        if theoretical > 64 {
            return Err(err(
                "theoretical score",
                7,
                format!("{theoretical}: a board holds 64 discs"),
            ));
        }
        let mut game = GameRecord::new(Position::start(BoardSize::Eight));
        let mut ended = None;
        for (k, &b) in record[8..].iter().enumerate() {
            let off = 8 + k;
            if b == 0 {
                ended.get_or_insert(k);
                continue;
            }
            if let Some(end) = ended {
                return Err(err(
                    "moves",
                    off,
                    format!(
                        "move {} is {b} after the game's end (a 0 at move {})",
                        k + 1,
                        end + 1
                    ),
                ));
            }
            let sq = decode_square(b).ok_or_else(|| {
                err(
                    "moves",
                    off,
                    format!(
                        "move {}: byte {b} is not a square (10 * row + column, both 1..8)",
                        k + 1
                    ),
                )
            })?;
            let mover = if game.position().can_move() {
                game.position().turn()
            } else {
                game.position().turn().other()
            };
            game.play_with_implicit_pass(sq).map_err(|e| {
                err(
                    "moves",
                    off,
                    format!(
                        "move {} ({sq} by {}) breaks the rules: {e}",
                        k + 1,
                        match mover {
                            Color::Black => "black",
                            Color::White => "white",
                        }
                    ),
                )
            })?;
        }
        let g = WthorGame {
            tournament: u16_at(0),
            black: u16_at(2),
            white: u16_at(4),
            black_discs,
            theoretical,
            game,
        };
        g.check_result().map_err(|m| err("black's discs", 6, m))?;
        Ok(g)
    }

    /// The 68 bytes of this game's record.
    ///
    /// # Errors
    /// When the game does not start from the 8x8 start position, a disc count is over 64, or
    /// the game is over and its end contradicts `black_discs`; `number` names the record.
    pub fn to_bytes(&self, number: usize) -> Result<[u8; GAME_LEN], WthorError> {
        let at = HEADER_LEN + (number - 1) * GAME_LEN;
        let err = |field: &'static str, off: usize, message: String| WthorError {
            record: Some(number),
            field,
            offset: at + off,
            message,
        };
        if self.game.start() != Position::start(BoardSize::Eight) {
            return Err(err(
                "moves",
                8,
                "the game does not start from the 8x8 start position".into(),
            ));
        }
        for (field, off, v) in [
            ("black's discs", 6, self.black_discs),
            ("theoretical score", 7, self.theoretical),
        ] {
            if v > 64 {
                return Err(err(field, off, format!("{v}: a board holds 64 discs")));
            }
        }
        self.check_result()
            .map_err(|m| err("black's discs", 6, m))?;
        let mut b = [0u8; GAME_LEN];
        b[0..2].copy_from_slice(&self.tournament.to_le_bytes());
        b[2..4].copy_from_slice(&self.black.to_le_bytes());
        b[4..6].copy_from_slice(&self.white.to_le_bytes());
        b[6] = self.black_discs;
        b[7] = self.theoretical;
        let squares = self.game.moves().iter().filter_map(|m| match m {
            Move::Play(sq) => Some(*sq),
            Move::Pass => None,
        });
        // A game from the start has at most 60 moves on the board: each fills a square.
        for (k, sq) in squares.enumerate() {
            b[8 + k] = encode_square(sq);
        }
        Ok(b)
    }
}

/// The square of a move byte (`10 * row + column`, both from 1), if it is one.
#[must_use]
pub fn decode_square(b: u8) -> Option<Square> {
    let (row, col) = (b / 10, b % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Square::new(col - 1, row - 1)
    } else {
        None
    }
}

/// The move byte of a square: `10 * row + column`, both from 1 (f5 = 56).
#[must_use]
pub fn encode_square(sq: Square) -> u8 {
    10 * (sq.row() + 1) + sq.col() + 1
}

/// A game file: its header and its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Database {
    /// The header; [`Database::to_bytes`] writes the number of games into it.
    pub header: Header,
    /// The games, in file order.
    pub games: Vec<WthorGame>,
}

impl Database {
    /// Reads a whole game file, replaying every game.
    ///
    /// # Errors
    /// The first problem, as [`games`] finds them.
    pub fn read(bytes: &[u8]) -> Result<Database, WthorError> {
        let (header, games) = games(bytes)?;
        Ok(Database {
            header,
            games: games.collect::<Result<_, _>>()?,
        })
    }

    /// The bytes of the file: the header with the number of games, then the records.
    ///
    /// # Errors
    /// A game that cannot be written ([`WthorGame::to_bytes`]), or more games than the
    /// header's count can hold.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WthorError> {
        let count = u32::try_from(self.games.len()).map_err(|_| {
            WthorError::header(
                "games (N1)",
                4,
                format!(
                    "{} games: the count field holds at most 2^32 - 1",
                    self.games.len()
                ),
            )
        })?;
        let header = Header {
            games: count,
            ..self.header
        };
        let mut out = Vec::with_capacity(HEADER_LEN + self.games.len() * GAME_LEN);
        out.extend_from_slice(&header.to_bytes());
        for (k, g) in self.games.iter().enumerate() {
            out.extend_from_slice(&g.to_bytes(k + 1)?);
        }
        Ok(out)
    }
}

/// The header of a game file and an iterator over its games, each replayed as it is reached:
/// what a caller that adds a database's games somewhere (a book) walks through without
/// holding them all.
///
/// # Errors
/// At once, for the header: a file shorter than it, a field out of range, a count that
/// disagrees with the file's length, a torn last record. Then each item: a move byte that is
/// no square, a move after the end, a move that breaks the rules, a disc count over 64 or
/// one that a finished game's end contradicts.
pub fn games(
    bytes: &[u8],
) -> Result<
    (
        Header,
        impl Iterator<Item = Result<WthorGame, WthorError>> + '_,
    ),
    WthorError,
> {
    let header = Header::read(bytes)?;
    header.check_games()?;
    check_count(
        bytes,
        header.games as usize,
        GAME_LEN,
        "games (N1)",
        4,
        "game",
    )?;
    let games = bytes[HEADER_LEN..]
        .chunks_exact(GAME_LEN)
        .enumerate()
        .map(|(k, rec)| WthorGame::read(rec, k + 1, HEADER_LEN + k * GAME_LEN));
    Ok((header, games))
}
