//! `ply othello merge`: the results files of a sharded batch solve, back in input order, as
//! the library merges them (`ply_othello::results::merge`: the lines as written, sorted by
//! input line, conflicts named), with the files read and the conflicts named by file here.
//! A file of a shard killed mid-write may end in a line without its newline; that line is
//! dropped (its position is not solved, as a resumed shard would see it).

use std::{
    io::{self, Write},
    path::PathBuf,
};

use ply_othello::{obf, results};

use crate::{
    error::bad,
    othello::{
        common::{input_name, read_input},
        results::read,
    },
};

/// Arguments of `ply othello merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Results files (`--out` of `ply othello solve --shard I/N`), in any order.
    #[arg(required = true, value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
    /// Also check the results against the input: every position of this OBF file has its
    /// result, and every result is for the position at its line (`-`: stdin).
    #[arg(long, value_name = "FILE")]
    pub obf: Option<PathBuf>,
}

/// Merges the files ([`results::merge`]; a torn last line is dropped, as [`read`] reads
/// every file), a file at a time. A missing result is not bad input (running the shard again
/// may supply it), so it exits 1; any other conflict is bad input.
pub fn run(a: &Args) -> anyhow::Result<()> {
    let name = |file: usize, at: usize| format!("{} line {at}", a.results[file].display());
    let conflict = |c: results::Conflict, input: &str| {
        let message = c.message(&name, input);
        if c.is_bad_input() {
            bad(message)
        } else {
            anyhow::anyhow!(message)
        }
    };
    let mut unread = None;
    let files = a.results.iter().map_while(|p| match read(p) {
        Ok(entries) => Some(entries),
        Err(e) => {
            unread = Some(e);
            None
        }
    });
    let merged = results::merge(files);
    if let Some(e) = unread {
        return Err(e);
    }
    let by_line = merged.map_err(|c| conflict(c, ""))?;
    if let Some(path) = &a.obf {
        let text = read_input(path)?;
        let input = input_name(path);
        let entries = obf::parse_file(&text).map_err(|e| bad(format!("{input}: {e}")))?;
        results::check_input(&entries, &by_line).map_err(|c| conflict(c, &input))?;
    }
    // Checked whole before a byte is written: nothing half-merged on an error.
    let mut out = io::stdout().lock();
    out.write_all(&results::merged_bytes(&by_line))?;
    out.flush()?;
    Ok(())
}
