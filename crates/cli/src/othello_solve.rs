//! `ply othello solve`: exact solves of one position, a start position, or every position of
//! an OBF file, optionally into a results file that survives being killed.
//!
//! The results file (`--out`) holds one JSON object per line, written and flushed as soon as
//! each position is solved. A rerun reads the file, drops a torn last line, and solves only
//! the positions not yet in it. Its lines hold only what the solve determines (no times, no
//! node counts), so an interrupted and resumed run writes the same bytes as an
//! uninterrupted one.

use std::{
    fs::{self, File, OpenOptions},
    io::{self, IsTerminal, Write},
    path::{Path, PathBuf},
    time::Instant,
};

use anyhow::Context;
use ply_othello::{
    obf,
    solve::{Progress, SolveControl, SolveOptions, SolveResult, Solver},
    text, BoardSize, Position, Square,
};
use serde_json::{json, Value};

use crate::error::bad;

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
    pub size: Option<u8>,
    /// Solve every position of this OBF file, one per line.
    #[arg(long, value_name = "FILE")]
    pub obf: Option<PathBuf>,
    /// With --obf: append each result as one JSON line to this file, and skip the positions
    /// it already holds.
    #[arg(long, value_name = "RESULTS", requires = "obf")]
    pub out: Option<PathBuf>,
    /// Give the exact score of every legal move.
    #[arg(long)]
    pub all_moves: bool,
    /// Threads searching each position.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 64, value_name = "M")]
    pub hash_mb: usize,
    /// One JSON object per position, one per line.
    #[arg(long)]
    pub json: bool,
}

/// One solved position, ready to print.
struct Solved {
    result: SolveResult,
    moves: Option<Vec<(Square, i32)>>,
    seconds: f64,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.threads == 0 || a.threads > 256 {
        return Err(bad(format!("--threads {}: expected 1 to 256", a.threads)));
    }
    if a.hash_mb == 0 || a.hash_mb > 1 << 16 {
        return Err(bad(format!("--hash-mb {}: expected 1 to 65536", a.hash_mb)));
    }
    let size = match a.size {
        None => None,
        Some(n) => Some(
            BoardSize::from_n(n).ok_or_else(|| bad(format!("--size {n}: expected 4, 6 or 8")))?,
        ),
    };
    let mut solver = Solver::try_new(SolveOptions {
        threads: a.threads,
        hash_mb: a.hash_mb,
    })
    .map_err(|e| bad(format!("--hash-mb {}: {e}", a.hash_mb)))?;
    if let Some(path) = &a.obf {
        if size.is_some() {
            return Err(bad("--size does not go with --obf"));
        }
        return solve_file(&a, path, &mut solver);
    }
    let pos = match (&a.position, size) {
        (Some(text), size) => {
            crate::othello::read_position_or_transcript(text, size, "POS")?.position()
        }
        (None, Some(size)) => Position::start(size),
        (None, None) => return Err(bad("give a position, --size N or --obf FILE")),
    };
    let solved = solve_one(&mut solver, &pos, a.all_moves)?;
    let mut out = io::stdout().lock();
    if a.json {
        let mut v = result_json(&pos, &solved.result, solved.moves.as_deref());
        add_measures(&mut v, &solved);
        writeln!(out, "{v}")?;
    } else {
        print_text(&mut out, &pos, &solved)?;
    }
    out.flush()?;
    Ok(())
}

/// Solves one position, showing progress on a terminal's stderr.
fn solve_one(solver: &mut Solver, pos: &Position, all_moves: bool) -> anyhow::Result<Solved> {
    let start = Instant::now();
    let show = io::stderr().is_terminal();
    let mut shown = false;
    let mut progress = |p: &Progress| {
        if show && start.elapsed().as_secs_f64() > 1.0 {
            let best = p
                .best
                .map_or(String::from("-"), |(sq, v)| format!("{sq} {v:+}"));
            eprint!(
                "\r\x1b[K{}/{} moves  best {best}  {:.1} s",
                p.done,
                p.total,
                start.elapsed().as_secs_f64()
            );
            shown = true;
        }
    };
    let control = SolveControl {
        progress: Some(&mut progress),
        ..SolveControl::default()
    };
    let result = solver
        .solve_with(pos, control)
        .context("the solve was stopped")?;
    let moves = if all_moves {
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
    if shown {
        eprint!("\r\x1b[K");
    }
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

/// The deterministic part of a result: what a results file holds.
fn result_json(pos: &Position, r: &SolveResult, moves: Option<&[(Square, i32)]>) -> Value {
    let mut v = json!({
        "position": text::format_position(pos),
        "score": r.score,
        "best_move": r.best_move.map(|s| s.to_string()),
        "pv": r.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
    });
    if let Some(moves) = moves {
        v["moves"] = moves
            .iter()
            .map(|(sq, s)| json!({"move": sq.to_string(), "score": s}))
            .collect();
    }
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

fn print_text(out: &mut impl Write, pos: &Position, s: &Solved) -> io::Result<()> {
    let r = &s.result;
    let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
    writeln!(out, "position   {}", text::format_position(pos))?;
    writeln!(out, "score      {:+}", r.score)?;
    writeln!(
        out,
        "best move  {}",
        r.best_move.map_or(String::from("none"), |s| s.to_string())
    )?;
    writeln!(out, "pv         {}", pv.join(" "))?;
    if let Some(moves) = &s.moves {
        let list: Vec<String> = moves.iter().map(|(sq, v)| format!("{sq}:{v:+}")).collect();
        writeln!(out, "moves      {}", list.join(" "))?;
    }
    writeln!(out, "nodes      {}", r.nodes)?;
    writeln!(out, "time       {:.3} s", s.seconds)?;
    writeln!(out, "nodes/s    {:.0}", rate(r.nodes, s.seconds))
}

/// Solves every line of an OBF file, optionally into a resumable results file.
fn solve_file(a: &Args, path: &Path, solver: &mut Solver) -> anyhow::Result<()> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let positions: Vec<(usize, Position)> = obf::parse_file(&text)
        .map_err(|e| bad(format!("{}: {e}", path.display())))?
        .into_iter()
        .map(|e| (e.line, e.obf.position))
        .collect();
    let (mut results, done) = match &a.out {
        Some(out) => open_results(out)?,
        None => (None, Vec::new()),
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
        let mut v = result_json(&pos, &solved.result, solved.moves.as_deref());
        v["line"] = json!(line);
        if let Some(file) = results.as_mut() {
            let mut row = v.to_string();
            row.push('\n');
            file.write_all(row.as_bytes())
                .and_then(|()| file.flush())
                .context("writing the results file")?;
        }
        if a.json {
            add_measures(&mut v, &solved);
            writeln!(stdout, "{v}")?;
        } else {
            let r = &solved.result;
            let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
            writeln!(
                stdout,
                "line {line:>3}  score {:+3}  best {:>4}  nodes {:>12}  {:>8.3} s  {:>11.0} n/s  pv {}",
                r.score,
                r.best_move.map_or(String::from("none"), |s| s.to_string()),
                r.nodes,
                solved.seconds,
                rate(r.nodes, solved.seconds),
                pv.join(" ")
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

/// Opens a results file for appending: drops a torn last line, and returns the input lines
/// it already holds.
fn open_results(path: &Path) -> anyhow::Result<(Option<File>, Vec<usize>)> {
    let existing = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    // Everything after the last newline is a line cut short by a kill.
    let keep = existing
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let mut done = Vec::new();
    for (i, row) in existing[..keep].split(|&b| b == b'\n').enumerate() {
        if row.is_empty() {
            continue;
        }
        let v: Value = serde_json::from_slice(row)
            .map_err(|e| bad(format!("{} line {}: {e}", path.display(), i + 1)))?;
        let line = v["line"].as_u64().ok_or_else(|| {
            bad(format!(
                "{} line {}: no \"line\" number",
                path.display(),
                i + 1
            ))
        })?;
        done.push(line as usize);
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    file.set_len(keep as u64)
        .with_context(|| format!("truncating the torn last line of {}", path.display()))?;
    let mut file = file;
    use std::io::Seek;
    file.seek(io::SeekFrom::End(0))?;
    Ok((Some(file), done))
}
