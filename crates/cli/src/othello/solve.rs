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
    cell::Cell,
    collections::HashSet,
    io::{self, Write},
    path::{Path, PathBuf},
    sync::{Arc, Mutex, PoisonError},
    time::Instant,
};

use anyhow::Context;
use ply_core::Shard;
use ply_othello::{
    analyze::WholeDiscs,
    solve::{Pass, Progress, SolveControl, SolveOptions, SolveResult, Solver},
    text, BoardSize, Position, Square,
};
use serde_json::{json, Value};

use crate::{
    error::bad,
    othello::{
        common::{is_dash, read_position_or_transcript, solver, StatusLine},
        results::{self, check_done, MoveScore, Row, ShardInput},
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

/// One solved position, ready to print.
struct Solved {
    result: SolveResult,
    moves: Option<Vec<(Square, WholeDiscs)>>,
    seconds: f64,
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
        eprintln!(
            "ply: POS: {} empty squares: an exact solve this far from the end will not finish \
             (Ctrl-C stops it); `ply othello analyze '{}' --time 10` scores every move in the \
             time given, exactly where it reaches the end",
            pos.empties().count(),
            a.position.as_deref().unwrap_or_default()
        );
    }
    let solved = solve_one(&mut solver, &pos, a.all_moves)?;
    let mut out = io::stdout().lock();
    if a.json {
        let mut v = report_json(&row(&pos, &solved, 0), &solved);
        // One position has no input line.
        v.as_object_mut().map(|o| o.remove("line"));
        writeln!(out, "{v}")?;
    } else {
        print_text(&mut out, &pos, &solved)?;
    }
    out.flush()?;
    Ok(())
}

/// The most empty squares of an 8x8 position whose exact solve can finish: the depth of the
/// 2023 weak solution of 8x8, whose positions of 36 empties were each a job of its own.
const REACH: u32 = 36;

/// Whether an exact solve of `pos` will not finish: an 8x8 position with more than
/// [`REACH`] empty squares (every 6x6 and 4x4 position is within reach).
fn out_of_reach(pos: &Position) -> bool {
    pos.size() == BoardSize::Eight && pos.empties().count() > REACH
}

/// Solves one position, showing progress on a terminal's stderr.
fn solve_one(solver: &mut Solver, pos: &Position, all_moves: bool) -> anyhow::Result<Solved> {
    let start = Instant::now();
    let latest: Arc<Mutex<Option<Shown>>> = Arc::default();
    let shown = latest.clone();
    let line = StatusLine::start(move |elapsed| {
        match &*shown.lock().unwrap_or_else(PoisonError::into_inner) {
            Some(s) => progress_line(s, elapsed.as_secs_f64()),
            None => format!("starting  {:.1} s", elapsed.as_secs_f64()),
        }
    });
    let every_move = Cell::new(false);
    let mut progress = |p: &Progress| {
        let mut latest = latest.lock().unwrap_or_else(PoisonError::into_inner);
        // A search of the same pass starting again is the next aspiration window.
        let window = match &*latest {
            Some(last) if p.done == 0 && last.progress.pass == p.pass => last.window + 1,
            Some(last) if last.progress.pass == p.pass => last.window,
            _ => 1,
        };
        *latest = Some(Shown {
            progress: p.clone(),
            every_move: every_move.get(),
            window,
        });
    };
    let control = SolveControl {
        progress: Some(&mut progress),
        ..SolveControl::default()
    };
    let result = solver
        .solve_with(pos, control)
        .context("the solve was stopped")?;
    let moves = if all_moves {
        every_move.set(true);
        let control = SolveControl {
            progress: Some(&mut progress),
            ..SolveControl::default()
        };
        let (moves, nodes) = solver
            .solve_all_moves_with(pos, control)
            .context("the solve was stopped")?;
        Some((moves, nodes))
    } else {
        None
    };
    drop(line);
    let seconds = start.elapsed().as_secs_f64();
    let mut result = result;
    let moves = moves.map(|(m, nodes)| {
        result.nodes += nodes;
        m
    });
    Ok(Solved {
        result,
        moves,
        seconds,
    })
}

/// What the progress line shows: the solver's latest report, whether it comes from the
/// scores of every move, and which search window of its pass it is in.
struct Shown {
    progress: Progress,
    every_move: bool,
    window: u32,
}

/// The progress line of a solve: which search it is in (a selective pass with its
/// confidence, the exact search, or the exact scores of every move) and, past the first, in
/// which aspiration window; how far that search is, its best move so far, the time.
fn progress_line(s: &Shown, seconds: f64) -> String {
    let p = &s.progress;
    let mut search = match (s.every_move, p.pass, p.pass.sigma()) {
        (true, _, _) => String::from("every move, exact"),
        (false, Pass::Selective { index, of }, Some(sigma)) => format!(
            "selective {sigma:.1}σ ~{:.0}% (pass {} of {})",
            p.pass.confidence() * 100.0,
            index + 1,
            of + 1
        ),
        _ => String::from("exact"),
    };
    if s.window > 1 && !s.every_move {
        search.push_str(&format!(", window {}", s.window));
    }
    let best = p
        .best
        .map_or(String::from("-"), |(sq, v)| format!("{sq} {v:+}"));
    format!(
        "{search}: {}/{} moves  best {best}  {seconds:.1} s",
        p.done, p.total
    )
}

/// The deterministic part of a result, as a results file holds it; `line` is the input line
/// of the position.
fn row(pos: &Position, s: &Solved, line: usize) -> Row {
    let r = &s.result;
    Row {
        best_move: r.best_move.map(|sq| sq.to_string()),
        depth: None,
        line,
        moves: s.moves.as_ref().map(|moves| {
            moves
                .iter()
                .map(|&(sq, score)| MoveScore {
                    square: sq.to_string(),
                    score: score.0,
                })
                .collect()
        }),
        position: text::format_position(pos),
        pv: r.pv.iter().map(ToString::to_string).collect(),
        score: r.score.0,
    }
}

/// A result as `--json` reports it: the row and the measures, which vary from run to run.
fn report_json(row: &Row, s: &Solved) -> Value {
    let mut v = serde_json::to_value(row).expect("a row is plain data");
    add_measures(&mut v, s);
    v
}

/// Adds nodes and time, which vary from run to run.
fn add_measures(v: &mut Value, s: &Solved) {
    v["nodes"] = json!(s.result.nodes);
    v["seconds"] = json!(s.seconds);
    v["nodes_per_second"] = json!(rate(s.result.nodes, s.seconds));
}

fn rate(nodes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        (nodes as f64 / seconds).round()
    } else {
        0.0
    }
}

/// The best move as the text report shows it: the square, `pass` when the side to move
/// must pass, `none (game over)` at the end.
fn best_text(pos: &Position, best: Option<Square>) -> String {
    match best {
        Some(sq) => sq.to_string(),
        None if pos.is_game_over() => String::from("none (game over)"),
        None => String::from("pass"),
    }
}

fn print_text(out: &mut impl Write, pos: &Position, s: &Solved) -> io::Result<()> {
    let r = &s.result;
    let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
    writeln!(out, "position   {}", text::format_position(pos))?;
    writeln!(out, "score      {:+}", r.score)?;
    writeln!(out, "best move  {}", best_text(pos, r.best_move))?;
    writeln!(out, "pv         {}", pv.join(" "))?;
    if let Some(moves) = &s.moves {
        let list: Vec<String> = moves.iter().map(|(sq, v)| format!("{sq}:{v:+}")).collect();
        writeln!(out, "moves      {}", list.join(" "))?;
    }
    writeln!(out, "nodes      {}", r.nodes)?;
    writeln!(out, "time       {:.3} s", s.seconds)?;
    writeln!(out, "nodes/s    {:.0}", rate(r.nodes, s.seconds))
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
    let far: Vec<usize> = positions
        .iter()
        .filter(|(_, p)| out_of_reach(p))
        .map(|&(line, _)| line)
        .collect();
    if !far.is_empty() {
        let lines = far
            .iter()
            .take(5)
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let more = if far.len() > 5 { ", ..." } else { "" };
        let what = format!(
            "{name}: {} more than {REACH} empty squares (line {lines}{more}): their exact \
             solves will not finish",
            if far.len() == 1 {
                String::from("1 position has")
            } else {
                format!("{} positions have", far.len())
            }
        );
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
                let left = positions.len() - done.len();
                eprintln!(
                    "ply: {}: {} of {} already solved{}",
                    out.display(),
                    done.len(),
                    positions.len(),
                    if left == 0 {
                        String::new()
                    } else {
                        format!("; solving the other {left}")
                    }
                );
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
        let row = row(&pos, &solved, line);
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
            writeln!(stdout, "{}", report_json(&row, &solved))?;
        } else {
            let r = &solved.result;
            writeln!(
                stdout,
                "line {line:>3}  score {:+3}  best {:>4}  nodes {:>12}  {:>8.3} s  {:>11.0} n/s  pv {}",
                r.score,
                best_text(&pos, r.best_move),
                r.nodes,
                solved.seconds,
                rate(r.nodes, solved.seconds),
                row.pv.join(" ")
            )?;
            if let Some(moves) = &solved.moves {
                let list: Vec<String> = moves.iter().map(|(sq, v)| format!("{sq}:{v:+}")).collect();
                writeln!(stdout, "          moves {}", list.join(" "))?;
            }
        }
        stdout.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(pass: Pass, every_move: bool, window: u32) -> Shown {
        Shown {
            progress: Progress {
                done: 4,
                total: 12,
                best: Some((Square::parse("d3").unwrap(), WholeDiscs(2))),
                nodes: 1000,
                pass,
                settled: false,
            },
            every_move,
            window,
        }
    }

    #[test]
    fn progress_names_the_pass_and_how_far_it_is() {
        let first = shown(Pass::Selective { index: 0, of: 2 }, false, 1);
        assert_eq!(
            progress_line(&first, 3.25),
            "selective 1.1σ ~73% (pass 1 of 3): 4/12 moves  best d3 +2  3.2 s"
        );
        let second = progress_line(&shown(Pass::Selective { index: 1, of: 2 }, false, 2), 5.0);
        assert!(
            second.starts_with("selective 2.2σ ~97% (pass 2 of 3), window 2: 4/12"),
            "{second}"
        );
        let exact = progress_line(&shown(Pass::Exact, false, 1), 5.0);
        assert!(exact.starts_with("exact: 4/12 moves"), "{exact}");
        let every = progress_line(&shown(Pass::Exact, true, 3), 5.0);
        assert!(every.starts_with("every move, exact: 4/12"), "{every}");
    }
}
