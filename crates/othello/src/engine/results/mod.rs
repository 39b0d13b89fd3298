//! The results file of a batch solve (`ply othello solve --obf FILE --out RESULTS`): one
//! [`Row`] a line, as JSON, each written whole and flushed as soon as its position is solved.
//! A solve resumes from it, `merge` joins the shards' files ([`merge`]), the book grows and
//! builds from them; all of them read it with [`parse`].
//!
//! **A torn last line.** A line without its newline at the end of the file is one a kill
//! interrupted. [`parse`] drops it and says how long it was ([`Parsed::torn`]): its position
//! counts as not solved, so a resumed solve solves it again (and cuts the file back to its
//! last whole line, [`Parsed::whole`], before it appends), `merge` leaves it out, a book sees
//! the level as not closed. A broken line anywhere else is an error naming the line.
//!
//! **Never a torn line of ours.** When a write fails (a full disk), [`Writer::append`] cuts
//! the store back to its last whole line before it returns the error, so a failed run leaves
//! a file that a rerun resumes.
//!
//! A row holds only what the solve determines (no times, no node counts), so an interrupted
//! and resumed run writes the same bytes as an uninterrupted one. Its fields are written in
//! alphabetical order, the order of the files written before this type existed.
//!
//! The file itself (which path, stdin or stdout, the note on a torn line) is the front end's:
//! this module reads bytes and writes to a [`Store`].

mod book;
mod merge;

use std::{
    collections::{HashMap, HashSet},
    fs::File,
    io::{self, Seek, Write},
};

use serde::{Deserialize, Serialize};

pub use self::{
    book::build_book,
    merge::{check_input, merge, merged_bytes, Conflict, MergeRow},
};
use crate::{
    analyze::WholeDiscs, book::ScoredMove, solve::Solved, text, BoardSize, Move, Position, Square,
};

/// One solved position, as a results file holds it:
/// `{"best_move":"g8","line":1,"position":"…","pv":["g8","h8"],"score":18}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// A move that reaches the score, or `null` when the side to move must pass or the game
    /// is over.
    pub best_move: Option<String>,
    /// For a searched result (`ply othello book search`): the depth of the midgame search
    /// whose estimates, rounded to whole discs, are `score` and `moves`; absent for an exact
    /// solve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The input line (1-based) of the position in the OBF file solved.
    pub line: usize,
    /// The exact score of every legal move, best first (`solve --all-moves` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveScore>>,
    /// The position, as `ply othello show` writes it (cells, then the side to move).
    pub position: String,
    /// A line of perfect play to the end of the game.
    pub pv: Vec<String>,
    /// The exact score for the side to move, in discs, empty squares to the winner.
    pub score: i32,
}

/// One move's exact score in a [`Row`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveScore {
    /// The move.
    #[serde(rename = "move")]
    pub square: String,
    /// Its exact score for the side that makes it.
    pub score: i32,
}

impl Row {
    /// The row of `solved`, the solve of `pos` at input line `line`: what the solve
    /// determines (no times, no node counts).
    #[must_use]
    pub fn solved(pos: &Position, solved: &Solved, line: usize) -> Row {
        let r = &solved.result;
        Row {
            best_move: r.best_move.map(|sq| sq.to_string()),
            depth: None,
            line,
            moves: solved.moves.as_ref().map(|moves| {
                moves
                    .iter()
                    .map(|&(sq, score)| MoveScore {
                        square: sq.to_string(),
                        score: score.0,
                    })
                    .collect()
            }),
            position: text::format_position(pos),
            pv: solved.pv(),
            score: r.score.0,
        }
    }

    /// The row of a book's searched position (`ply othello book search`): every move's
    /// score at `depth`, best first (`scored`), and the line the search found.
    ///
    /// # Panics
    /// When `scored` is empty: a book position has a move.
    #[must_use]
    pub fn searched(
        pos: &Position,
        line: usize,
        depth: u32,
        scored: &[ScoredMove],
        pv: &[Move],
    ) -> Row {
        let moves: Vec<MoveScore> = scored
            .iter()
            .map(|m| MoveScore {
                square: m.square.to_string(),
                score: m.score.0,
            })
            .collect();
        Row {
            best_move: Some(moves[0].square.clone()),
            depth: Some(depth),
            line,
            position: text::format_position(pos),
            pv: pv.iter().map(ToString::to_string).collect(),
            score: moves[0].score,
            moves: Some(moves),
        }
    }

    /// The line `ply othello book search` prints of a searched row: its input line, best
    /// move and score, the depth, and the search's nodes and time.
    #[must_use]
    pub fn search_line(&self, nodes: u64, seconds: f64) -> String {
        format!(
            "line {:>4}  best {:>3} {:+3}  depth {}  nodes {nodes:>11}  {seconds:>7.1} s",
            self.line,
            self.best_move.as_deref().unwrap_or("-"),
            self.score,
            self.depth.unwrap_or(0),
        )
    }

    /// The row as a book's entry, checked: a position of `size` with a legal best move,
    /// and for a searched result the score of every legal move.
    ///
    /// # Errors
    /// What is wrong with the row.
    pub fn book_entry(&self, size: BoardSize) -> Result<BookEntry, String> {
        let position = text::parse_position(&self.position).map_err(|e| e.to_string())?;
        if position.size() != size {
            return Err(format!(
                "a {0}x{0} position, not {1}x{1}",
                position.size().n(),
                size.n()
            ));
        }
        let best = self
            .best_move
            .as_deref()
            .ok_or("no best move (a pass or a finished game has no place in a book)")?;
        let best = Square::parse(best).map_err(|e| e.to_string())?;
        if !position.is_legal(best) {
            return Err(format!("best move {best} is not legal"));
        }
        let searched = match self.depth {
            None => None,
            Some(depth) => {
                let moves = self
                    .moves
                    .as_ref()
                    .ok_or("a searched result without the scores of its moves")?;
                let mut scored = Vec::with_capacity(moves.len());
                for m in moves {
                    let square = Square::parse(&m.square).map_err(|e| e.to_string())?;
                    if !position.is_legal(square) {
                        return Err(format!("move {square} is not legal"));
                    }
                    scored.push(ScoredMove {
                        square,
                        score: WholeDiscs(m.score),
                        depth,
                    });
                }
                if scored.len() != position.legal_moves().count() as usize {
                    return Err(format!(
                        "{} moves scored, the position has {}",
                        scored.len(),
                        position.legal_moves().count()
                    ));
                }
                Some((depth, scored))
            }
        };
        Ok(BookEntry {
            position,
            best,
            score: self.score,
            searched,
        })
    }

    /// The row as `ply othello solve --json` reports it: its fields and the measures of
    /// `solved`, which vary from run to run (nodes, seconds, nodes a second).
    ///
    /// # Panics
    /// Never: a row is plain data, which JSON always holds.
    #[must_use]
    pub fn with_measures(&self, solved: &Solved) -> serde_json::Value {
        let mut v = serde_json::to_value(self).expect("a row is plain data");
        v["nodes"] = serde_json::json!(solved.result.nodes);
        v["seconds"] = serde_json::json!(solved.seconds);
        v["nodes_per_second"] = serde_json::json!(solved.rate());
        v
    }

    /// The row as it is written: its JSON and a newline.
    ///
    /// # Panics
    /// Never: a row is plain data, which JSON always holds.
    #[must_use]
    pub fn to_line(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self).expect("a row is plain data");
        bytes.push(b'\n');
        bytes
    }
}

/// A solved (or searched) position of a results file, as a book takes it
/// ([`Row::book_entry`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position.
    pub position: Position,
    /// Its best move.
    pub best: Square,
    /// Its score for the side to move, in discs.
    pub score: i32,
    /// For a searched result: the search depth and every move's score.
    pub searched: Option<(u32, Vec<ScoredMove>)>,
}

/// One row read from a results file, with where it was read.
#[derive(Debug)]
pub struct Entry {
    /// The row.
    pub row: Row,
    /// Its line in the results file, from 1.
    pub at: usize,
    /// The line's bytes as read, newline included.
    pub bytes: Vec<u8>,
}

/// A results file's line that is wrong: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowError {
    /// The line of the results file, from 1.
    pub at: usize,
    /// What is wrong with it.
    pub message: String,
}

/// What [`parse`] read.
#[derive(Debug)]
pub struct Parsed {
    /// The rows of the whole lines.
    pub entries: Vec<Entry>,
    /// The length of the whole lines: where a writer appends, after cutting the torn line.
    pub whole: u64,
    /// The bytes of a torn last line (0 when the file ends with its newline).
    pub torn: usize,
}

/// The rows of the whole lines of `bytes`, the length of those lines and of the torn last
/// line left out (the module's policy).
///
/// # Errors
/// A whole line that is not a row, named.
pub fn parse(bytes: &[u8]) -> Result<Parsed, RowError> {
    let whole = whole_lines(bytes);
    let mut entries = Vec::new();
    for (i, raw) in bytes[..whole].split_inclusive(|&b| b == b'\n').enumerate() {
        let at = i + 1;
        let body = &raw[..raw.len() - 1];
        if body.is_empty() {
            continue;
        }
        let row: Row = serde_json::from_slice(body).map_err(|e| RowError {
            at,
            message: format!("not a results row: {e}"),
        })?;
        entries.push(Entry {
            row,
            at,
            bytes: raw.to_vec(),
        });
    }
    Ok(Parsed {
        entries,
        whole: whole as u64,
        torn: bytes.len() - whole,
    })
}

/// The length of the whole lines at the start of `bytes`: everything after the last newline
/// is a torn line.
fn whole_lines(bytes: &[u8]) -> usize {
    bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
}

/// The input lines a results file already holds (`entries`), each checked to be one of
/// `positions` (the input lines this run solves, with their positions); `scope` names what
/// the run covers in messages (the input, or `shard I/N of` it).
///
/// # Errors
/// A row for a line the run does not cover, or for another position than the input's at
/// its line: a results file of another input or shard.
pub fn check_done(
    scope: &str,
    positions: &[(usize, Position)],
    entries: &[Entry],
) -> Result<HashSet<usize>, RowError> {
    let wanted: HashMap<usize, String> = positions
        .iter()
        .map(|(line, pos)| (*line, text::format_position(pos)))
        .collect();
    let mut done = HashSet::new();
    for e in entries {
        let line = e.row.line;
        let Some(want) = wanted.get(&line) else {
            return Err(RowError {
                at: e.at,
                message: format!(
                    "a result for input line {line}, which is not a position of {scope}: a \
                     results file of another input or shard?"
                ),
            });
        };
        if e.row.position != *want {
            return Err(RowError {
                at: e.at,
                message: format!(
                    "the result for line {line} is for another position than line {line} of \
                     {scope}: a results file of another input?"
                ),
            });
        }
        done.insert(line);
    }
    Ok(done)
}

/// What a results file is written to: a file in production, a writer that fails on cue in
/// the tests. [`Writer`] only appends whole lines and cuts back what a failed write left.
pub trait Store: Write {
    /// Shortens the store to its first `len` bytes and goes on writing from there.
    ///
    /// # Errors
    /// When the store cannot be shortened.
    fn cut(&mut self, len: u64) -> io::Result<()>;
}

impl Store for File {
    fn cut(&mut self, len: u64) -> io::Result<()> {
        self.set_len(len)?;
        self.seek(io::SeekFrom::Start(len)).map(drop)
    }
}

/// Appends rows to a results file, one whole line at a time.
#[derive(Debug)]
pub struct Writer<S: Store> {
    store: S,
    /// The length of the whole lines written so far: where a failed write is cut back to.
    whole: u64,
}

/// A row [`Writer::append`] could not write.
#[derive(Debug)]
pub struct AppendError {
    /// The input line of the row.
    pub line: usize,
    /// The write's failure.
    pub error: io::Error,
    /// The failure to cut the store back to its last whole line, when that failed too.
    pub cut: Option<io::Error>,
}

impl AppendError {
    /// What a front end says of the failure, the results file named `name`: the row's input
    /// line, and whether the file was cut back to its last whole line (a rerun resumes from
    /// there) or that failed too (a rerun drops its torn last line).
    #[must_use]
    pub fn message(&self, name: &str) -> String {
        let line = self.line;
        match &self.cut {
            None => format!(
                "writing the result for input line {line} to {name} (the file is cut back to \
                 its last whole line: a rerun resumes from there)"
            ),
            Some(cut) => format!(
                "writing the result for input line {line} to {name}, and cutting the file back \
                 to its last whole line failed too ({cut}): a rerun drops its torn last line"
            ),
        }
    }
}

impl<S: Store> Writer<S> {
    /// A writer appending to `store`, which holds `whole` bytes of whole lines and is
    /// positioned at their end.
    pub fn new(store: S, whole: u64) -> Writer<S> {
        Writer { store, whole }
    }

    /// Appends one row and flushes it. When the write fails, cuts the store back to its last
    /// whole line first, so that no torn line is left behind.
    ///
    /// # Errors
    /// The write's failure (with the cut's, when that failed too).
    pub fn append(&mut self, row: &Row) -> Result<(), AppendError> {
        let line = row.to_line();
        let written = self
            .store
            .write_all(&line)
            .and_then(|()| self.store.flush());
        if let Err(error) = written {
            return Err(AppendError {
                line: row.line,
                error,
                cut: self.store.cut(self.whole).err(),
            });
        }
        self.whole += line.len() as u64;
        Ok(())
    }

    /// The store written to.
    pub fn store(&self) -> &S {
        &self.store
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(line: usize) -> Row {
        Row {
            best_move: Some("a1".into()),
            depth: None,
            line,
            moves: None,
            position: "-----OX--XO----- X".into(),
            pv: vec!["a1".into(), "pass".into()],
            score: -10,
        }
    }

    /// A store that takes `room` bytes and then fails, as a filling disk does: the write
    /// that crosses the limit is partly done.
    struct FillingDisk {
        bytes: Vec<u8>,
        room: usize,
    }

    impl Write for FillingDisk {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let free = self.room.saturating_sub(self.bytes.len());
            if free == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::StorageFull,
                    "No space left on device",
                ));
            }
            let n = buf.len().min(free);
            self.bytes.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Store for FillingDisk {
        fn cut(&mut self, len: u64) -> io::Result<()> {
            self.bytes.truncate(len as usize);
            Ok(())
        }
    }

    #[test]
    fn a_full_disk_leaves_only_whole_lines() {
        let line = row(1).to_line().len();
        // Room for two lines and half of a third.
        let disk = FillingDisk {
            bytes: Vec::new(),
            room: 2 * line + line / 2,
        };
        let mut w = Writer::new(disk, 0);
        w.append(&row(1)).unwrap();
        w.append(&row(2)).unwrap();
        let e = w.append(&row(3)).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.error.to_string(), "No space left on device");
        assert!(e.cut.is_none());
        let text = e.message("r.jsonl");
        assert!(
            text.contains("input line 3 to r.jsonl (the file is cut back"),
            "{text}"
        );
        let bytes = &w.store().bytes;
        assert_eq!(bytes.len(), 2 * line);
        assert_eq!(whole_lines(bytes), bytes.len());
        let parsed = parse(bytes).unwrap();
        assert_eq!(parsed.whole as usize, bytes.len());
        assert_eq!(parsed.torn, 0);
        let lines: Vec<usize> = parsed.entries.iter().map(|e| e.row.line).collect();
        assert_eq!(lines, [1, 2]);
    }

    #[test]
    fn a_row_is_written_in_the_files_field_order_and_read_back() {
        let mut r = row(7);
        r.moves = Some(vec![MoveScore {
            square: "a1".into(),
            score: -10,
        }]);
        let line = String::from_utf8(r.to_line()).unwrap();
        assert_eq!(
            line,
            "{\"best_move\":\"a1\",\"line\":7,\"moves\":[{\"move\":\"a1\",\"score\":-10}],\
             \"position\":\"-----OX--XO----- X\",\"pv\":[\"a1\",\"pass\"],\"score\":-10}\n"
        );
        assert_eq!(parse(line.as_bytes()).unwrap().entries[0].row, r);
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_a_broken_one_elsewhere_is_named() {
        let mut bytes = row(1).to_line();
        bytes.extend_from_slice(b"{\"best_move\":\"b");
        let parsed = parse(&bytes).unwrap();
        assert_eq!(parsed.entries.len(), 1);
        assert_eq!(parsed.whole as usize, row(1).to_line().len());
        assert_eq!(parsed.torn, 15);
        let mut bytes = b"{\"line\":1}\n".to_vec();
        bytes.extend_from_slice(&row(2).to_line());
        let e = parse(&bytes).unwrap_err();
        assert_eq!(e.at, 1);
        assert!(e.message.starts_with("not a results row: "), "{e:?}");
    }

    #[test]
    fn a_searched_rows_line_says_its_move_score_and_depth() {
        let r = Row {
            depth: Some(12),
            ..row(7)
        };
        assert_eq!(
            r.search_line(1234, 2.5),
            "line    7  best  a1 -10  depth 12  nodes        1234      2.5 s"
        );
    }

    /// A row enters a book only with a legal best move on the book's size, and a searched
    /// one only with every legal move scored.
    #[test]
    fn a_book_entry_is_checked() {
        let r = row(1);
        assert_eq!(
            r.book_entry(BoardSize::Six).unwrap_err(),
            "a 4x4 position, not 6x6"
        );
        let illegal = r.book_entry(BoardSize::Four).unwrap_err();
        assert_eq!(illegal, "best move a1 is not legal");
        let legal = Row {
            best_move: Some("b1".into()),
            ..row(1)
        };
        let e = legal.book_entry(BoardSize::Four).unwrap();
        assert_eq!((e.best.to_string(), e.searched), ("b1".to_string(), None));
        let searched = Row {
            depth: Some(4),
            moves: Some(vec![MoveScore {
                square: "b1".into(),
                score: -2,
            }]),
            ..legal
        };
        assert_eq!(
            searched.book_entry(BoardSize::Four).unwrap_err(),
            "1 moves scored, the position has 4"
        );
    }

    /// A results file of another input or shard is refused at its first foreign row.
    #[test]
    fn rows_of_another_input_or_shard_are_refused() {
        let pos: Position = "-----OX--XO----- X".parse().unwrap();
        let entry = |line: usize, position: &str, at: usize| Entry {
            row: Row {
                position: position.into(),
                ..row(line)
            },
            at,
            bytes: Vec::new(),
        };
        let ok = [entry(3, "-----OX--XO----- X", 1)];
        let done = check_done("in.obf", &[(3, pos)], &ok).unwrap();
        assert_eq!(done, HashSet::from([3]));
        let other_line = check_done("in.obf", &[(3, pos)], &[entry(4, "x", 2)]).unwrap_err();
        assert_eq!(other_line.at, 2);
        assert!(
            other_line.message.contains("input line 4"),
            "{other_line:?}"
        );
        let other_pos = check_done("in.obf", &[(3, pos)], &[entry(3, "----- X", 1)]).unwrap_err();
        assert!(
            other_pos
                .message
                .contains("another position than line 3 of in.obf"),
            "{other_pos:?}"
        );
    }
}
