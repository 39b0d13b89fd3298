//! `ply othello merge`: the results files of a sharded batch solve, back in input order.
//!
//! Every results line carries the input `line` of its position, so merging is a sort by that
//! number of the lines as they were written: no line is parsed and written again, and the
//! output is byte for byte what one machine solving the whole input would have written. A
//! file of a shard killed mid-write may end in a line without its newline; that line is
//! dropped (its position is not solved, as a resumed shard would see it). Two results for one
//! input line must be the same bytes, and two results for one position (at two input lines)
//! the same scores; anything else is a conflict, an error naming both files.

use std::{
    collections::{BTreeMap, HashMap},
    io::{self, Write},
    path::{Path, PathBuf},
};

use ply_othello::obf;

use crate::{
    error::bad,
    othello::{
        common::{input_name, plural, read_input},
        results::{self, MoveScore},
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

/// One results line and where it was read.
struct Row {
    bytes: Vec<u8>,
    file: usize,
    at: usize,
    position: String,
    score: i32,
    moves: Option<Vec<MoveScore>>,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    let mut by_line: BTreeMap<u64, Row> = BTreeMap::new();
    // The input line of the first result seen for each position.
    let mut by_position: HashMap<String, u64> = HashMap::new();
    let name = |file: usize, at: usize| format!("{} line {at}", a.results[file].display());
    for (file, path) in a.results.iter().enumerate() {
        for (line, row) in read_rows(path, file)? {
            if let Some(first) = by_line.get(&line) {
                if first.bytes != row.bytes {
                    let what = if first.position == row.position {
                        format!("position {}", row.position)
                    } else {
                        format!(
                            "positions {} and {}: results of two inputs?",
                            first.position, row.position
                        )
                    };
                    return Err(bad(format!(
                        "conflicting results for input line {line} ({what}): {} says score {}, \
                         {} says score {}",
                        name(first.file, first.at),
                        first.score,
                        name(row.file, row.at),
                        row.score
                    )));
                }
                continue;
            }
            if let Some(other) = by_position.get(&row.position) {
                let first = &by_line[other];
                let both_moves = first.moves.is_some() && row.moves.is_some();
                if first.score != row.score || (both_moves && first.moves != row.moves) {
                    return Err(bad(format!(
                        "conflicting results for position {}: {} (input line {other}) says \
                         score {}, {} (input line {line}) says score {}{}",
                        row.position,
                        name(first.file, first.at),
                        first.score,
                        name(row.file, row.at),
                        row.score,
                        if first.score == row.score {
                            " with other move scores"
                        } else {
                            ""
                        }
                    )));
                }
            } else {
                by_position.insert(row.position.clone(), line);
            }
            by_line.insert(line, row);
        }
    }
    if let Some(input) = &a.obf {
        check_input(input, &by_line, &|file, at| name(file, at))?;
    }
    // Checked whole before a byte is written: nothing half-merged on an error.
    let mut merged = Vec::new();
    for row in by_line.values() {
        merged.extend_from_slice(&row.bytes);
    }
    let mut out = io::stdout().lock();
    out.write_all(&merged)?;
    out.flush()?;
    Ok(())
}

/// The rows of one results file, each with its input line (a torn last line is dropped, as
/// [`results`] reads every file).
fn read_rows(path: &Path, file: usize) -> anyhow::Result<Vec<(u64, Row)>> {
    Ok(results::read(path)?
        .into_iter()
        .map(|e| {
            (
                e.row.line as u64,
                Row {
                    bytes: e.bytes,
                    file,
                    at: e.at,
                    position: e.row.position,
                    score: e.row.score,
                    moves: e.row.moves,
                },
            )
        })
        .collect())
}

/// Checks the merged results against the input: the same positions at the same lines, none
/// missing. A missing result is not bad input (running the shard again may supply it), so it
/// exits 1; a result for a position the input does not have at that line is bad input.
fn check_input(
    input: &Path,
    by_line: &BTreeMap<u64, Row>,
    name: &dyn Fn(usize, usize) -> String,
) -> anyhow::Result<()> {
    let text = read_input(input)?;
    let input_name = input_name(input);
    let entries = obf::parse_file(&text).map_err(|e| bad(format!("{input_name}: {e}")))?;
    let mut wanted = HashMap::new();
    for e in &entries {
        wanted.insert(
            e.line as u64,
            ply_othello::text::format_position(&e.obf.position),
        );
    }
    for (line, row) in by_line {
        if wanted.get(line) != Some(&row.position) {
            return Err(bad(format!(
                "{}: the result for input line {line} is not for the position at line {line} of \
                 {input_name}",
                name(row.file, row.at)
            )));
        }
    }
    let missing: Vec<String> = entries
        .iter()
        .filter(|e| !by_line.contains_key(&(e.line as u64)))
        .map(|e| e.line.to_string())
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(10).map(String::as_str).collect();
        anyhow::bail!(
            "{} of {} of {input_name} {} no result (input {} {}{}): run {} again",
            missing.len(),
            plural(entries.len(), "position"),
            if missing.len() == 1 { "has" } else { "have" },
            if missing.len() == 1 { "line" } else { "lines" },
            shown.join(", "),
            if missing.len() > shown.len() {
                ", …"
            } else {
                ""
            },
            if missing.len() == 1 {
                "its shard"
            } else {
                "their shards"
            }
        );
    }
    Ok(())
}
