//! The standard names of Othello openings (Tiger, Buffalo, Rose, ...), from the list the
//! project ships in `crates/othello/data/openings.txt` (its header names the source): one
//! named line a row, a transcript from the 8x8 start and its name.
//!
//! A name belongs to a position, not to a sequence of moves, so that a transposition (the
//! same position by other moves) and a mirror image (the same line from d3, c4 or e6
//! instead of f5) are named too: the look-up is keyed by the least of the position's eight
//! images (`rules/symmetry`), as the solver's table and the books are.
//!
//! Which name a position gets:
//! - a position a named line ends in has that line's name;
//! - a position on the way of a named line (a position one of the lines passes through)
//!   has the name of the last named position that line passed through up to there (after
//!   `f5d6c3d3c4f4`, on the way to the Stephenson, it is still the Tiger); before the first
//!   named position of every line through it (after `f5` alone), none;
//! - any other position has none ([`name`]), but in a game ([`name_of_game`]) the name is
//!   that of the last position of the game that has one: a game that left the named lines
//!   after the Tiger is a Tiger.
//!
//! Where two lines pass through one position with different names so far, the name of the
//! later named position wins, then the line that comes first in the file. The names exist
//! on 8x8 only.
//!
//! ```
//! use ply_othello::{opening, transcript, BoardSize, Position};
//! let start = Position::start(BoardSize::Eight);
//! let tiger = transcript::parse("f5d6c3d3c4", start).unwrap();
//! assert_eq!(opening::name(&tiger.position()), Some("Tiger"));
//! // Its mirror image from d3.
//! let mirrored = transcript::parse("d3c5f6f5e6", start).unwrap();
//! assert_eq!(opening::name(&mirrored.position()), Some("Tiger"));
//! ```

use std::{collections::HashMap, sync::OnceLock};

use crate::{rules::symmetry, transcript, BoardSize, GameRecord, ParseError, Position};

/// The shipped list (see the module docs).
const OPENINGS: &str = include_str!("../../data/openings.txt");

/// One named line of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves from the 8x8 start position, as the file writes them (`f5d6c3d3c4`).
    pub moves: &'static str,
    /// Its name (`Tiger`).
    pub name: &'static str,
    /// The row of the file it is on (1-based).
    pub row: usize,
}

/// Reads a list in the file's format: `transcript name` a row, `#` comment rows and blank
/// rows skipped.
///
/// # Errors
/// A row without a name, or whose moves are not a legal game from the 8x8 start; the error
/// names the row.
pub fn parse(text: &'static str) -> Result<Vec<(Line, GameRecord)>, ParseError> {
    let start = Position::start(BoardSize::Eight);
    let mut out = Vec::new();
    for (k, row) in text.lines().enumerate() {
        let row = row.trim();
        if row.is_empty() || row.starts_with('#') {
            continue;
        }
        let Some((moves, name)) = row.split_once(char::is_whitespace) else {
            return Err(ParseError::new("expected the moves, then the name").at_line(k + 1));
        };
        let game = transcript::parse(moves, start)
            .map_err(|e| ParseError::new(format!("{moves}: {e}")).at_line(k + 1))?;
        let line = Line {
            moves,
            name: name.trim(),
            row: k + 1,
        };
        out.push((line, game));
    }
    Ok(out)
}

/// The key of a position: its least image under the board's symmetries.
fn key(pos: &Position) -> (u64, u64) {
    let (p, o, _) = symmetry::canonical(pos.player().0, pos.opponent().0, 8);
    (p, o)
}

/// The named lines and the table of every position on them.
struct Table {
    lines: Vec<Line>,
    /// A position's key to its name and the plies of the named position it comes from.
    names: HashMap<(u64, u64), (&'static str, usize)>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let read = parse(OPENINGS).expect("the shipped openings file: checked by the tests");
        Table::new(read)
    })
}

impl Table {
    fn new(read: Vec<(Line, GameRecord)>) -> Table {
        // The positions the lines end in, by key: the first row wins (the tests check
        // there is no second).
        let mut ends: HashMap<(u64, u64), &'static str> = HashMap::new();
        for (line, game) in &read {
            ends.entry(key(&game.position())).or_insert(line.name);
        }
        let mut names: HashMap<(u64, u64), (&'static str, usize)> = HashMap::new();
        for (_, game) in &read {
            let mut so_far: Option<(&'static str, usize)> = None;
            let mut pos = game.start();
            for (ply, m) in game.moves().iter().enumerate() {
                pos = pos.play_move(*m).expect("checked when the line was read");
                let k = key(&pos);
                if let Some(&name) = ends.get(&k) {
                    so_far = Some((name, ply + 1));
                }
                if let Some(found) = so_far {
                    let entry = names.entry(k).or_insert(found);
                    if found.1 > entry.1 {
                        *entry = found;
                    }
                }
            }
        }
        Table {
            lines: read.into_iter().map(|(line, _)| line).collect(),
            names,
        }
    }
}

/// Every named line of the shipped list, in its order.
#[must_use]
pub fn lines() -> &'static [Line] {
    &table().lines
}

/// The name of `pos` alone (see the module docs): the name of the named line it ends, or of
/// the last named position of a line through it; `None` off the named lines, before their
/// first name, and on boards other than 8x8.
#[must_use]
pub fn name(pos: &Position) -> Option<&'static str> {
    if pos.size() != BoardSize::Eight {
        return None;
    }
    table().names.get(&key(pos)).map(|&(name, _)| name)
}

/// The name of a game's opening: that of the last of its positions that has one
/// ([`name`]), so that a game keeps its opening's name once it leaves the named lines.
///
/// ```
/// use ply_othello::{opening, transcript, BoardSize, Position};
/// let game = transcript::parse("f5d6c3d3c4g5", Position::start(BoardSize::Eight)).unwrap();
/// assert_eq!(opening::name(&game.position()), None);
/// assert_eq!(opening::name_of_game(&game), Some("Tiger"));
/// ```
#[must_use]
pub fn name_of_game(game: &GameRecord) -> Option<&'static str> {
    let mut found = name(&game.start());
    for (before, m) in game.plies() {
        let after = before.play_move(m).expect("the game's moves were checked");
        if let Some(n) = name(&after) {
            found = Some(n);
        }
    }
    found
}
