//! What `ply othello games`, `ply othello explore` and `ply serve --games` share: reading
//! WTHOR files with errors that name the file, and the explorer's index kept beside the
//! databases, built again when it is stale.

use std::{
    fs,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use ply_othello::{
    explore::{check_kept, GamesIndex, IndexError, Kept, Source},
    wthor::{self, Database, NameKind, Names},
};

use ply_cli_support::files::{read_bytes, refuse_inputs, write_whole};

use crate::error::bad;

/// The game files, read (not yet replayed).
pub fn read_databases(paths: &[PathBuf]) -> anyhow::Result<Vec<Vec<u8>>> {
    paths.iter().map(|p| read_bytes(p)).collect()
}

/// Every game of the files `paths` (their bytes, `databases`), replayed; a game that breaks
/// the rules is bad input naming its file.
pub fn replay_databases(paths: &[PathBuf], databases: &[Vec<u8>]) -> anyhow::Result<Vec<Database>> {
    databases
        .iter()
        .zip(paths)
        .map(|(bytes, path)| Database::read(bytes).map_err(|e| wthor_error(path, &e)))
        .collect()
}

/// A names file (`WTHOR.JOU` or `WTHOR.TRN`), or bad input naming the file and the record.
pub fn read_names(path: &Path, kind: NameKind) -> anyhow::Result<Vec<String>> {
    let bytes = read_bytes(path)?;
    Names::read(&bytes, kind)
        .map(|n| n.names)
        .map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// A WTHOR error in `path` as bad input.
pub fn wthor_error(path: &Path, e: &wthor::WthorError) -> anyhow::Error {
    bad(format!("{}: {e}", path.display()))
}

/// Where the index of these databases is kept by default: beside the first, named after it
/// with `.plyidx` added.
pub fn default_index_path(databases: &[PathBuf]) -> PathBuf {
    let first = &databases[0];
    let mut name = first.file_name().unwrap_or_default().to_os_string();
    name.push(".plyidx");
    first.with_file_name(name)
}

/// What loading the index did, for a line on stderr.
#[derive(Debug)]
pub enum Loaded {
    /// Read from its file, which matched the databases.
    Read,
    /// Built (the file was missing, stale or damaged: the reason) and written.
    Built {
        why: String,
        took: Duration,
        written: Option<anyhow::Error>,
    },
}

/// The index of `databases` (their bytes, read from `paths`): read from `index` when it was
/// built from exactly these bytes, otherwise built and written there (under a temporary
/// name, then renamed). An index path that is one of the databases, or a file that is not
/// an index (a database, say), is bad input, refused before anything is written. A database that cannot be read is bad input
/// naming its file; an
/// index that cannot be written is reported in [`Loaded::Built`] and the index is used all
/// the same.
pub fn load_index(
    paths: &[PathBuf],
    databases: &[Vec<u8>],
    index: &Path,
) -> anyhow::Result<(GamesIndex, Loaded)> {
    let inputs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    // Before anything is read or written: the index is never one of the databases.
    refuse_inputs(index, &inputs)?;
    let sources: Vec<Source> = databases.iter().map(|b| Source::of(b)).collect();
    let why = match check_kept(fs::read(index), &sources) {
        Kept::Current(found) => return Ok((found, Loaded::Read)),
        Kept::Stale(why) => why,
        // A file that is no index, not even a damaged one, is not ply's to replace.
        Kept::NotAnIndex => {
            return Err(bad(format!(
                "{}: not a ply games index (no `plyindex` at its start), so it is not written \
                 over: give another --index, or remove the file",
                index.display()
            )))
        }
    };
    let started = Instant::now();
    let slices: Vec<&[u8]> = databases.iter().map(Vec::as_slice).collect();
    let built = GamesIndex::build(&slices).map_err(|e| match e {
        IndexError::Database(k, e) => wthor_error(&paths[k], &e),
        other => bad(other.to_string()),
    })?;
    let took = started.elapsed();
    let written = write_whole(index, &inputs, built.as_bytes()).err();
    Ok((built, Loaded::Built { why, took, written }))
}

/// The line `load_index` leaves on stderr when it built the index
/// ([`GamesIndex::built_note`]).
pub fn report_loaded(index: &Path, idx: &GamesIndex, loaded: &Loaded) {
    if let Loaded::Built { why, took, written } = loaded {
        let unwritten = written.as_ref().map(|e| format!("{e:#}"));
        let path = index.display().to_string();
        eprintln!(
            "ply: {}",
            idx.built_note(&path, why, *took, unwritten.as_deref())
        );
    }
}
