//! The results file of a batch solve on disk: the rows, their reader and their writer are
//! the library's (`ply_othello::results`); this module opens the file, leaves the note on a
//! torn last line on stderr, and names the file in its errors. `solve` resumes from it,
//! `merge` joins the shards' files, `book` grows and builds from them; all three read it
//! with [`read`] (or [`Writer::open`], which reads it first).
//!
//! **The input a batch works on.** [`ShardInput`] reads an OBF file's positions (its shard's
//! share) and [`check_done`] which of them a results file holds already, for `solve` and
//! `book search` alike.

use std::{
    collections::HashSet,
    fs::{self, File, OpenOptions},
    io::{self, Read},
    path::{Path, PathBuf},
};

use anyhow::Context;
use ply_core::Shard;
pub use ply_othello::results::{Entry, Row};
use ply_othello::{
    obf,
    results::{self, Store},
    Position,
};

use crate::{
    error::bad,
    othello::common::{input_name, read_input},
};

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
    let parsed = results::parse(bytes)
        .map_err(|e| bad(format!("{} line {}: {}", path.display(), e.at, e.message)))?;
    if parsed.torn > 0 {
        eprintln!(
            "ply: {}: dropped a torn last line ({} bytes without a newline: a run was stopped \
             while writing it); its position counts as not solved",
            path.display(),
            parsed.torn
        );
    }
    Ok((parsed.entries, parsed.whole))
}

/// Appends rows to a results file, one whole line at a time ([`results::Writer`]), naming
/// the file when a write fails.
#[derive(Debug)]
pub struct Writer {
    inner: results::Writer<File>,
    path: PathBuf,
}

impl Writer {
    /// Opens a results file to resume it: creates it if missing, refuses a path that is not a
    /// regular file or is one of the command's `inputs`, reads its rows (dropping a torn last line, which it cuts off the file),
    /// and returns them with a writer that appends after them.
    ///
    /// # Errors
    /// Bad input for a path that is not a regular file or a line that is not a row; any other
    /// failure to open, read or cut the file.
    pub fn open(path: &Path, inputs: &[&Path]) -> anyhow::Result<(Writer, Vec<Entry>)> {
        ply_cli_support::files::refuse_inputs(path, inputs)?;
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
        let writer = Writer {
            inner: results::Writer::new(file, whole),
            path: path.to_path_buf(),
        };
        Ok((writer, entries))
    }

    /// Appends one row and flushes it; a failed write leaves the file cut back to its last
    /// whole line ([`results::Writer::append`]).
    ///
    /// # Errors
    /// The write's failure, naming the file (with a note when the cut failed too).
    pub fn append(&mut self, row: &Row) -> anyhow::Result<()> {
        let Err(e) = self.inner.append(row) else {
            return Ok(());
        };
        let message = e.message(&self.path.display().to_string());
        Err(anyhow::Error::new(e.error).context(message))
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
        let entries = obf::parse_file(&text).map_err(|e| bad(format!("{name}: {e}")))?;
        let positions = obf::shard(&entries, shard.unwrap_or(Shard::WHOLE));
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
/// (the input lines this run solves, with their positions; [`results::check_done`]).
pub fn check_done(
    path: &Path,
    scope: &str,
    positions: &[(usize, Position)],
    entries: &[Entry],
) -> anyhow::Result<HashSet<usize>> {
    results::check_done(scope, positions, entries)
        .map_err(|e| bad(format!("{} line {}: {}", path.display(), e.at, e.message)))
}
