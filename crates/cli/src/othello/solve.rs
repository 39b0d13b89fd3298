//! `ply othello solve`: exact solves of one position, a start position, or every position of
//! an OBF file, optionally into a results file that survives being killed.
//!
//! The results file (`--out`, its rows and its one reader in [`crate::othello::results`])
//! holds one JSON object per line, written and flushed as soon as each position is solved. A
//! rerun reads the file, drops a torn last line, and solves only the positions not yet in it. Its lines hold only what the solve determines (no times, no
//! node counts), so an interrupted and resumed run writes the same bytes as an
//! uninterrupted one.
//!
//! Past one machine, `--shard I/N` solves only the positions whose index k (0-based, in input
//! order, counting positions, not blank or comment lines) has k mod N = I. Each result line
//! carries the input `line` of its position and nothing about the shard, so `ply othello
//! merge` can put the shards' files back in input order and get the very bytes of a
//! single-machine run. `--obf -` reads the input from stdin and `--out -` writes the results
//! lines to stdout, for schedulers that pipe. Exit status: 0 done, 2 bad input or usage (a
//! retry cannot help), 1 anything else (a retry may).

use std::{
    collections::HashSet,
    io::{self, Write},
    path::{Path, PathBuf},
    sync::{Arc, Mutex, PoisonError},
};

use anyhow::Context;
use ply_core::Shard;
use ply_othello::{
    results::Row,
    solve::{
        out_of_reach, out_of_reach_lines, out_of_reach_note, out_of_reach_warning, resume_note,
        ProgressLine, SolveOptions, Solved, Solver,
    },
    BoardSize, Position,
};

use crate::{
    error::bad,
    othello::{
        common::{is_dash, read_position_or_transcript, solver, StatusLine},
        results::{self, check_done, ShardInput},
    },
};

/// Arguments of `ply othello solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position: an OBF line or a board (16, 36 or 64 cells a1.. row by row, then the
    /// side to move), or a transcript of moves from the start (`f5d6c3…`, board size from
    /// `--size`).
    #[arg(value_name = "POS", conflicts_with = "obf", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Board size of the start position (4, 6 or 8) to solve, or of a transcript.
    #[arg(long, value_name = "N")]
    pub size: Option<BoardSize>,
    /// Solve every position of this OBF file, one per line (`-`: stdin).
    #[arg(long, value_name = "FILE")]
    pub obf: Option<PathBuf>,
    /// With --obf: append each result as one JSON line to this file, and skip the positions
    /// it already holds (`-`: write the results lines to stdout, nothing to resume).
    #[arg(long, value_name = "RESULTS", requires = "obf")]
    pub out: Option<PathBuf>,
    /// With --obf: solve only shard I of N (I from 0): the positions whose index k in the
    /// input (0-based, positions only) has k mod N = I.
    #[arg(long, value_name = "I/N", requires = "obf")]
    pub shard: Option<Shard>,
    /// With --obf: solve positions with more than 36 empty squares too, which a batch
    /// otherwise refuses before it starts (their exact solves will not finish).
    #[arg(long, requires = "obf")]
    pub force: bool,
    /// Give the exact score of every legal move.
    #[arg(long)]
    pub all_moves: bool,
    /// Threads searching each position.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Transposition table size in megabytes, shared by the threads (each thread adds a
    /// table of its own of 1 MB for the nodes nearest the end).
    #[arg(long, default_value_t = SolveOptions::default().hash_mb, value_name = "M")]
    pub hash_mb: usize,
    /// One JSON object per position, one per line.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let mut solver = solver(a.threads, a.hash_mb)?;
    let size = a.size;
    if let Some(path) = &a.obf {
        if size.is_some() {
            return Err(bad("--size does not go with --obf"));
        }
        return solve_file(&a, path, &mut solver);
    }
    let pos = match (&a.position, size) {
        (Some(text), size) => read_position_or_transcript(text, size, "POS")?.position(),
        (None, Some(size)) => Position::start(size),
        (None, None) => return Err(bad("give a position, --size N or --obf FILE")),
    };
    if out_of_reach(&pos) {
        let given = a.position.as_deref().unwrap_or_default();
        eprintln!("ply: POS: {}", out_of_reach_warning(&pos, given));
    }
    let solved = solve_one(&mut solver, &pos, a.all_moves)?;
    let mut out = io::stdout().lock();
    if a.json {
        let mut v = Row::solved(&pos, &solved, 0).with_measures(&solved);
        // One position has no input line.
        v.as_object_mut().map(|o| o.remove("line"));
        writeln!(out, "{v}")?;
    } else {
        write!(out, "{}", solved.text(&pos))?;
    }
    out.flush()?;
    Ok(())
}

/// Solves one position, showing progress on a terminal's stderr.
fn solve_one(solver: &mut Solver, pos: &Position, all_moves: bool) -> anyhow::Result<Solved> {
    let latest: Arc<Mutex<Option<ProgressLine>>> = Arc::default();
    let shown = latest.clone();
    let line = StatusLine::start(move |elapsed| {
        match &*shown.lock().unwrap_or_else(PoisonError::into_inner) {
            Some(s) => s.text(elapsed.as_secs_f64()),
            None => format!("starting  {:.1} s", elapsed.as_secs_f64()),
        }
    });
    let solved = Solved::solve(solver, pos, all_moves, &mut |p| {
        *latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(p.clone());
    })
    .context("the solve was stopped")?;
    drop(line);
    Ok(solved)
}

/// Where the results lines go.
enum Sink {
    /// Nowhere: the report on stdout is all.
    None,
    /// Appended to a results file.
    File(results::Writer),
    /// To stdout, instead of the report.
    Stdout,
}

/// Solves every line of an OBF file (or of the shard's share of it), optionally into a
/// resumable results file.
fn solve_file(a: &Args, path: &Path, solver: &mut Solver) -> anyhow::Result<()> {
    let to_stdout = a.out.as_deref().is_some_and(is_dash);
    if to_stdout && a.json {
        return Err(bad(
            "--json does not go with --out -: stdout carries the results lines",
        ));
    }
    let ShardInput {
        name,
        scope,
        positions,
    } = ShardInput::read(path, a.shard)?;
    let far = out_of_reach_lines(&positions);
    if !far.is_empty() {
        let what = out_of_reach_note(&name, &far);
        if !a.force {
            return Err(bad(format!(
                "{what}; `ply othello analyze` estimates such positions, and --force solves \
                 them all the same"
            )));
        }
        eprintln!("ply: {what} (--force: solving them all the same)");
    }
    let (mut sink, done) = match &a.out {
        None => (Sink::None, HashSet::new()),
        Some(_) if to_stdout => (Sink::Stdout, HashSet::new()),
        Some(out) => {
            let (writer, entries) = results::Writer::open(out, &[path])?;
            let done = check_done(out, &scope, &positions, &entries)?;
            if !done.is_empty() {
                let note = resume_note(done.len(), positions.len());
                eprintln!("ply: {}: {note}", out.display());
            }
            (Sink::File(writer), done)
        }
    };
    let mut stdout = io::stdout().lock();
    for (line, pos) in positions {
        if done.contains(&line) {
            continue;
        }
        // Each position starts from an empty table, so a resumed run repeats exactly what
        // an uninterrupted one would have done.
        solver.clear();
        let solved = solve_one(solver, &pos, a.all_moves)?;
        let row = Row::solved(&pos, &solved, line);
        match &mut sink {
            Sink::None => {}
            Sink::File(writer) => writer.append(&row)?,
            Sink::Stdout => {
                // Here a closed stdout loses results: not the quiet success of `| head`.
                stdout
                    .write_all(&row.to_line())
                    .and_then(|()| stdout.flush())
                    .map_err(|e| anyhow::anyhow!("writing the results to stdout: {e}"))?;
                continue;
            }
        }
        if a.json {
            writeln!(stdout, "{}", row.with_measures(&solved))?;
        } else {
            write!(stdout, "{}", solved.batch_text(&pos, line))?;
        }
        stdout.flush()?;
    }
    Ok(())
}
