//! The results file of a batch solve (`ply othello solve --obf FILE --out RESULTS`): one
//! [`Row`] a line, as JSON, each written whole and flushed as soon as its position is solved.
//! `solve` resumes from it, `merge` joins the shards' files, `book` grows and builds from
//! them; all three read it with [`read`] (or [`Writer::open`], which reads it first).
//!
//! **A torn last line.** A line without its newline at the end of the file is one a kill
//! interrupted. Every reader drops it with a note on stderr and goes on: its position counts
//! as not solved, so a resumed solve solves it again (and cuts the file back to its last whole
//! line before it appends), `merge` leaves it out (and `merge --obf` names it as missing),
//! `book` sees the level as not closed. A broken line anywhere else is bad input, named by
//! file and line.
//!
//! **The input a batch works on.** [`ShardInput`] reads an OBF file's positions (its shard's
//! share) and [`check_done`] which of them a results file holds already, for `solve` and
//! `book search` alike.
//!
//! **Never a torn line of ours.** When a write fails (a full disk), [`Writer::append`] cuts
//! the file back to its last whole line before it returns the error, so a failed run leaves
//! a file that a rerun resumes.
//!
//! A row holds only what the solve determines (no times, no node counts), so an interrupted
//! and resumed run writes the same bytes as an uninterrupted one. Its fields are written in
//! alphabetical order, the order of the files written before this type existed.

use std::{
    collections::{HashMap, HashSet},
    fs::{self, File, OpenOptions},
    io::{self, Read, Seek, Write},
    path::{Path, PathBuf},
};

use anyhow::Context;
use ply_core::Shard;
use ply_othello::{obf, text, Position};
use serde::{Deserialize, Serialize};

use crate::{
    error::bad,
    othello::common::{input_name, read_input},
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
    /// The row as it is written: its JSON and a newline.
    pub fn to_line(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self).expect("a row is plain data");
        bytes.push(b'\n');
        bytes
    }
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

/// Reads a results file: its whole lines, each parsed; a torn last line is dropped with a
/// note (the module's policy).
///
/// # Errors
/// Bad input for a missing file, a path that is not a file, or a line that is not a row;
/// any other failure to read.
pub fn read(path: &Path) -> anyhow::Result<Vec<Entry>> {
    let name = path.display();
    match fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(bad(format!("{name}: no such file")))
        }
        Err(e) => return Err(e).with_context(|| format!("reading {name}")),
        // A pipe (`<(…)`) is read to its end; a device or a directory has no lines.
        Ok(m) if m.is_dir() || is_device(&m) => {
            return Err(bad(format!(
                "{name}: not a results file (not a regular file)"
            )))
        }
        Ok(_) => {}
    }
    let bytes = fs::read(path).with_context(|| format!("reading {name}"))?;
    Ok(parse(&bytes, path)?.0)
}

/// Whether this is a character or block device (`/dev/full`, `/dev/zero`, a disk).
fn is_device(m: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        t.is_char_device() || t.is_block_device()
    }
    #[cfg(not(unix))]
    {
        !m.is_file() && !m.is_dir()
    }
}

/// The rows of the whole lines of `bytes` (read from `path`) and the length of those lines;
/// a torn last line is dropped with a note on stderr.
fn parse(bytes: &[u8], path: &Path) -> anyhow::Result<(Vec<Entry>, u64)> {
    let whole = whole_lines(bytes);
    let mut entries = Vec::new();
    for (i, raw) in bytes[..whole].split_inclusive(|&b| b == b'\n').enumerate() {
        let at = i + 1;
        let body = &raw[..raw.len() - 1];
        if body.is_empty() {
            continue;
        }
        let row: Row = serde_json::from_slice(body).map_err(|e| {
            bad(format!(
                "{} line {at}: not a results row: {e}",
                path.display()
            ))
        })?;
        entries.push(Entry {
            row,
            at,
            bytes: raw.to_vec(),
        });
    }
    if whole < bytes.len() {
        eprintln!(
            "ply: {}: dropped a torn last line ({} bytes without a newline: a run was stopped \
             while writing it); its position counts as not solved",
            path.display(),
            bytes.len() - whole
        );
    }
    Ok((entries, whole as u64))
}

/// The length of the whole lines at the start of `bytes`: everything after the last newline
/// is a torn line.
fn whole_lines(bytes: &[u8]) -> usize {
    bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
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
pub struct Writer<S: Store = File> {
    store: S,
    /// The length of the whole lines written so far: where a failed write is cut back to.
    whole: u64,
    path: PathBuf,
}

impl Writer<File> {
    /// Opens a results file to resume it: creates it if missing, refuses a path that is not a
    /// regular file or is one of the command's `inputs`, reads its rows (dropping a torn last line, which it cuts off the file),
    /// and returns them with a writer that appends after them.
    ///
    /// # Errors
    /// Bad input for a path that is not a regular file or a line that is not a row; any other
    /// failure to open, read or cut the file.
    pub fn open(path: &Path, inputs: &[&Path]) -> anyhow::Result<(Writer<File>, Vec<Entry>)> {
        crate::files::refuse_inputs(path, inputs)?;
        let name = path.display();
        match fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(bad(format!(
                    "--out {name}: not a regular file (a results file is read back to resume, \
                     so it must be one; `--out -` writes the results to stdout)"
                )))
            }
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("reading {name}"))
            }
            _ => {}
        }
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .with_context(|| format!("opening {name}"))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .with_context(|| format!("reading {name}"))?;
        let (entries, whole) = parse(&bytes, path)?;
        file.cut(whole)
            .with_context(|| format!("cutting the torn last line off {name}"))?;
        Ok((Writer::new(file, whole, path), entries))
    }
}

impl<S: Store> Writer<S> {
    /// A writer appending to `store`, which holds `whole` bytes of whole lines and is
    /// positioned at their end.
    pub fn new(store: S, whole: u64, path: &Path) -> Writer<S> {
        Writer {
            store,
            whole,
            path: path.to_path_buf(),
        }
    }

    /// Appends one row and flushes it. When the write fails, cuts the store back to its last
    /// whole line first, so that no torn line is left behind.
    ///
    /// # Errors
    /// The write's failure (with a note when the cut failed too).
    pub fn append(&mut self, row: &Row) -> anyhow::Result<()> {
        let line = row.to_line();
        let written = self
            .store
            .write_all(&line)
            .and_then(|()| self.store.flush());
        if let Err(e) = written {
            let name = self.path.display();
            return Err(match self.store.cut(self.whole) {
                Ok(()) => anyhow::Error::new(e).context(format!(
                    "writing the result for input line {} to {name} (the file is cut back to \
                     its last whole line: a rerun resumes from there)",
                    row.line
                )),
                Err(cut) => anyhow::Error::new(e).context(format!(
                    "writing the result for input line {} to {name}, and cutting the file back \
                     to its last whole line failed too ({cut}): a rerun drops its torn last line",
                    row.line
                )),
            });
        }
        self.whole += line.len() as u64;
        Ok(())
    }

    /// The store, for the tests to look at.
    #[cfg(test)]
    fn store(&self) -> &S {
        &self.store
    }
}

/// The positions of an OBF file a batch run works on: those of its shard, if any.
pub struct ShardInput {
    /// The file's name as messages give it.
    pub name: String,
    /// What the run covers, as messages give it: the file, or `shard I/N of` it.
    pub scope: String,
    /// The shard's positions, each with its input line.
    pub positions: Vec<(usize, Position)>,
}

impl ShardInput {
    /// Reads `path` (`-`: stdin) and keeps the positions of `shard` (all of them without).
    pub fn read(path: &Path, shard: Option<Shard>) -> anyhow::Result<ShardInput> {
        let text = read_input(path)?;
        let name = input_name(path);
        let holds = shard.unwrap_or(Shard::WHOLE);
        let positions = obf::parse_file(&text)
            .map_err(|e| bad(format!("{name}: {e}")))?
            .into_iter()
            .enumerate()
            .filter(|(k, _)| holds.holds(*k as u64))
            .map(|(_, e)| (e.line, e.obf.position))
            .collect();
        let scope = match shard {
            Some(sh) => format!("shard {sh} of {name}"),
            None => name.clone(),
        };
        Ok(ShardInput {
            name,
            scope,
            positions,
        })
    }
}

/// The input lines a results file already holds, each checked to be one of `positions`
/// (the input lines this run solves, with their positions).
pub fn check_done(
    path: &Path,
    scope: &str,
    positions: &[(usize, Position)],
    entries: &[Entry],
) -> anyhow::Result<HashSet<usize>> {
    let wanted: HashMap<usize, String> = positions
        .iter()
        .map(|(line, pos)| (*line, text::format_position(pos)))
        .collect();
    let mut done = HashSet::new();
    for e in entries {
        let at = format!("{} line {}", path.display(), e.at);
        let line = e.row.line;
        let Some(want) = wanted.get(&line) else {
            return Err(bad(format!(
                "{at}: a result for input line {line}, which is not a position of {scope}: \
                 a results file of another input or shard?"
            )));
        };
        if e.row.position != *want {
            return Err(bad(format!(
                "{at}: the result for line {line} is for another position than line {line} of \
                 {scope}: a results file of another input?"
            )));
        }
        done.insert(line);
    }
    Ok(done)
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
        let mut w = Writer::new(disk, 0, Path::new("r.jsonl"));
        w.append(&row(1)).unwrap();
        w.append(&row(2)).unwrap();
        let e = w.append(&row(3)).unwrap_err();
        let text = format!("{e:#}");
        assert!(text.contains("No space left on device"), "{text}");
        assert!(text.contains("r.jsonl"), "{text}");
        let bytes = &w.store().bytes;
        assert_eq!(bytes.len(), 2 * line);
        assert_eq!(whole_lines(bytes), bytes.len());
        let (entries, whole) = parse(bytes, Path::new("r.jsonl")).unwrap();
        assert_eq!(whole as usize, bytes.len());
        let lines: Vec<usize> = entries.iter().map(|e| e.row.line).collect();
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
        let (entries, _) = parse(line.as_bytes(), Path::new("r")).unwrap();
        assert_eq!(entries[0].row, r);
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_a_broken_one_elsewhere_is_named() {
        let mut bytes = row(1).to_line();
        bytes.extend_from_slice(b"{\"best_move\":\"b");
        let (entries, whole) = parse(&bytes, Path::new("r")).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(whole as usize, row(1).to_line().len());
        let mut bytes = b"{\"line\":1}\n".to_vec();
        bytes.extend_from_slice(&row(2).to_line());
        let e = parse(&bytes, Path::new("r.jsonl")).unwrap_err();
        assert!(format!("{e:#}").contains("r.jsonl line 1"), "{e:#}");
    }
}
