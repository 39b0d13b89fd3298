//! What several `ply othello` commands (and `nboard`, `gtp`, `bench`, `train`) read the same
//! way: a board size, a position or transcript, `--threads` and `--hash-mb`, an input file or
//! stdin, the directory of the test vectors, a file of scored positions;
//! and how hard the two engine protocols think at a given strength.
//!
//! The helpers of every command line (stdin or a file, the test vectors' folder, the status
//! line) are `ply_cli_support`'s, named here for the commands.
//!
//! These live here, apart from every command, so that no command module imports another:
//! each imports this module and the libraries only.

use std::{fs, path::Path, time::Duration};

use anyhow::Context;
use ply_othello::{
    analyze::{Options, Request},
    book::Book,
    input,
    obf::{self, ObfEntry},
    solve::{SolveOptions, Solver},
    BoardSize, GameRecord,
};
use ply_train::measure;

pub use ply_cli_support::{
    data::{data_dir, MARKER as FFO_FILE},
    files::{input_name, is_dash, read_input},
    status::StatusLine,
};

use crate::error::bad;

/// Reads a position (cells and side to move, or a whole OBF line), or a transcript played
/// from the start, with the library's reader ([`input::parse_with_size`], which the server
/// uses too); with `--size`, on that size only.
///
/// # Errors
/// Bad input naming `what` (the argument) and the reason.
pub fn read_position_or_transcript(
    text: &str,
    size: Option<BoardSize>,
    what: &str,
) -> anyhow::Result<GameRecord> {
    // The reader refuses a position without its centre discs itself.
    input::parse_with_size(text, size).map_err(|e| bad(format!("{what}: {e}")))
}

/// `--threads` and `--hash-mb` as solver options, or a usage error naming the one out of
/// range.
fn options(threads: usize, hash_mb: usize) -> anyhow::Result<SolveOptions> {
    SolveOptions { threads, hash_mb }
        .checked()
        .map_err(|e| bad(format!("--{e}")))
}

/// The engine's options of an analysis request (`analyze`, `review`, `explore`), checked
/// by the library's one check ([`Request::options`]) for a position of `size`: a usage
/// error naming the option (`--threads 0: expected 1 to 256`) otherwise.
pub fn analysis_options(req: &Request, size: BoardSize) -> anyhow::Result<Options> {
    req.options(size).map_err(|e| bad(format!("--{e}")))
}

/// `--threads` of a command that makes its solver with the default table (analysis, NBoard),
/// or a usage error when it is out of range.
pub fn check_threads(threads: usize) -> anyhow::Result<()> {
    options(threads, SolveOptions::default().hash_mb).map(drop)
}

/// A solver with `--threads` and `--hash-mb`, or a usage error naming the option out of
/// range or the table the machine cannot give.
pub fn solver(threads: usize, hash_mb: usize) -> anyhow::Result<Solver> {
    let options = options(threads, hash_mb)?;
    Solver::try_new(options).map_err(|e| bad(format!("--hash-mb {hash_mb}: {e}")))
}

/// How long a move may take at strength `depth` (NBoard's `set depth N`, `ply gtp --depth
/// N`): half a second a ply, so half a second at depth 1 and half a minute at depth 60.
pub fn move_time(depth: u32) -> Duration {
    ply_othello::play::Settings::at_depth(depth).move_time
}

/// The evaluation of a weight file of `size` (`ply train fit --out`'s, `ply train pack`'s),
/// raw: no side-to-move handicap; with `None`, the shipped weights without theirs. A file
/// that cannot be read or is not such weights is bad input, named.
pub fn raw_weights(
    path: Option<&Path>,
    size: ply_othello::BoardSize,
) -> anyhow::Result<ply_othello::eval::Eval> {
    let Some(path) = path else {
        return Ok(ply_othello::eval::builtin(size)
            .context("4x4 has no evaluation")?
            .clone()
            .with_tempo(0));
    };
    let named = |e: &dyn std::fmt::Display| crate::error::bad(format!("{}: {e}", path.display()));
    let bytes = fs::read(path).map_err(|e| named(&e))?;
    ply_othello::eval::weights::read(size, &bytes).map_err(|e| named(&e))
}

/// The entries of an OBF file of scored 8x8 positions (`bench eval --obf`, `train export
/// --apart-from`): every position must have a score ([`measure::check_scored`]); errors
/// name the file and line, and a missing file or a folder is bad input ([`read_input`]).
pub fn read_scored(path: &Path) -> anyhow::Result<Vec<ObfEntry>> {
    let text = read_input(path)?;
    let entries = obf::parse_file(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    measure::check_scored(&entries).map_err(|e| bad(format!("{} {e}", path.display())))?;
    Ok(entries)
}

/// Each position of an OBF file of scored positions with its score ([`measure::scored`]).
pub fn scored_file(path: &Path) -> anyhow::Result<measure::Scored> {
    Ok(measure::scored(read_scored(path)?))
}

/// Reads a book file, ply's own or Edax's (`Book::read_any`): a missing or broken one is
/// bad input, named.
pub fn read_book(path: &Path) -> anyhow::Result<Book> {
    let bytes = ply_cli_support::files::read_bytes(path)?;
    Book::read_any(&bytes).map_err(|e| bad(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_takes_half_a_second_a_ply() {
        assert_eq!(move_time(1), Duration::from_millis(500));
        assert_eq!(move_time(20), Duration::from_secs(10));
        assert_eq!(move_time(60), Duration::from_secs(30));
    }
}
