//! `ply othello solve`: exact solves of one position, a start position, or every position of
//! an OBF file, optionally into a results file that survives being killed.
//!
//! The results file (`--out`) holds one JSON object per line, written and flushed as soon as
//! each position is solved. A rerun reads the file, drops a torn last line, and solves only
//! the positions not yet in it. Its lines hold only what the solve determines (no times, no
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
    collections::{HashMap, HashSet},
    fs::{self, File, OpenOptions},
    io::{self, IsTerminal, Read, Seek, Write},
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
    /// Solve every position of this OBF file, one per line (`-`: stdin).
    #[arg(long, value_name = "FILE")]
    pub obf: Option<PathBuf>,
    /// With --obf: append each result as one JSON line to this file, and skip the positions
    /// it already holds (`-`: write the results lines to stdout, nothing to resume).
    #[arg(long, value_name = "RESULTS", requires = "obf")]
    pub out: Option<PathBuf>,
    /// With --obf: solve only shard I of N (I from 0): the positions whose index k in the
    /// input (0-based, positions only) has k mod N = I.
    #[arg(long, value_name = "I/N", requires = "obf", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Give the exact score of every legal move.
    #[arg(long)]
    pub all_moves: bool,
    /// Threads searching each position.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = SolveOptions::default().hash_mb, value_name = "M")]
    pub hash_mb: usize,
    /// One JSON object per position, one per line.
    #[arg(long)]
    pub json: bool,
}

/// Shard `index` of `count`: the input positions k with k mod count = index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// Whether the position with this index (0-based, in input order) is in the shard.
    fn holds(self, k: usize) -> bool {
        k % self.count == self.index
    }
}

/// `I/N` with 0 <= I < N.
fn parse_shard(s: &str) -> Result<Shard, String> {
    let form = || format!("`{s}` is not I/N (shard I of N shards, I from 0 to N-1)");
    let (i, n) = s.split_once('/').ok_or_else(form)?;
    let index: usize = i.trim().parse().map_err(|_| form())?;
    let count: usize = n.trim().parse().map_err(|_| form())?;
    if count == 0 {
        return Err(format!("`{s}`: there must be at least one shard"));
    }
    if index >= count {
        return Err(format!(
            "`{s}`: shard {index} of {count} does not exist (I runs from 0 to {})",
            count - 1
        ));
    }
    Ok(Shard { index, count })
}

/// One solved position, ready to print.
struct Solved {
    result: SolveResult,
    moves: Option<Vec<(Square, i32)>>,
    seconds: f64,
}

/// `--threads` and `--hash-mb` as solver options, or a usage error naming the one out of
/// range.
fn options(threads: usize, hash_mb: usize) -> anyhow::Result<SolveOptions> {
    SolveOptions { threads, hash_mb }
        .checked()
        .map_err(|e| bad(format!("--{e}")))
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

pub fn run(a: Args) -> anyhow::Result<()> {
    let mut solver = solver(a.threads, a.hash_mb)?;
    let size = match a.size {
        None => None,
        Some(n) => Some(
            BoardSize::from_n(n).ok_or_else(|| bad(format!("--size {n}: expected 4, 6 or 8")))?,
        ),
    };
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

/// Where the results lines go.
enum Sink {
    /// Nowhere: the report on stdout is all.
    None,
    /// Appended to a results file.
    File(File),
    /// To stdout, instead of the report.
    Stdout,
}

/// `-` as a file name: stdin or stdout.
fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads an input file, or stdin for `-`. A missing file is bad input (a retry cannot make
/// it appear); any other failure to read is not.
pub fn read_input(path: &Path) -> anyhow::Result<String> {
    let name = input_name(path);
    let read = if is_dash(path) {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text).map(|_| text)
    } else {
        fs::read_to_string(path)
    };
    match read {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(bad(format!("{name}: no such file"))),
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            Err(bad(format!("{name}: not UTF-8 text")))
        }
        r => r.with_context(|| format!("reading {name}")),
    }
}

/// The name of an input in messages.
pub fn input_name(path: &Path) -> String {
    if is_dash(path) {
        String::from("stdin")
    } else {
        path.display().to_string()
    }
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
    let text = read_input(path)?;
    let name = input_name(path);
    let shard = a.shard.unwrap_or(Shard { index: 0, count: 1 });
    let positions: Vec<(usize, Position)> = obf::parse_file(&text)
        .map_err(|e| bad(format!("{name}: {e}")))?
        .into_iter()
        .enumerate()
        .filter(|(k, _)| shard.holds(*k))
        .map(|(_, e)| (e.line, e.obf.position))
        .collect();
    let (mut sink, done) = match &a.out {
        None => (Sink::None, HashSet::new()),
        Some(_) if to_stdout => (Sink::Stdout, HashSet::new()),
        Some(out) => {
            let scope = match a.shard {
                Some(sh) => format!("shard {}/{} of {name}", sh.index, sh.count),
                None => name.clone(),
            };
            let (file, done) = open_results(out, &scope, &positions)?;
            (Sink::File(file), done)
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
        let mut v = result_json(&pos, &solved.result, solved.moves.as_deref());
        v["line"] = json!(line);
        let mut row = v.to_string();
        row.push('\n');
        match &mut sink {
            Sink::None => {}
            Sink::File(file) => file
                .write_all(row.as_bytes())
                .and_then(|()| file.flush())
                .context("writing the results file")?,
            Sink::Stdout => {
                // Here a closed stdout loses results: not the quiet success of `| head`.
                stdout
                    .write_all(row.as_bytes())
                    .and_then(|()| stdout.flush())
                    .map_err(|e| anyhow::anyhow!("writing the results to stdout: {e}"))?;
                continue;
            }
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

/// The length of the whole lines at the start of a results file: everything after the last
/// newline is a line cut short by a kill.
pub fn whole_lines(bytes: &[u8]) -> usize {
    bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
}

/// Opens a results file for appending: drops a torn last line, checks that every result in
/// it is one of `positions` (the input lines this run solves, with their positions), and
/// returns the input lines it already holds.
fn open_results(
    path: &Path,
    scope: &str,
    positions: &[(usize, Position)],
) -> anyhow::Result<(File, HashSet<usize>)> {
    let existing = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let keep = whole_lines(&existing);
    let wanted: HashMap<usize, String> = positions
        .iter()
        .map(|(line, pos)| (*line, text::format_position(pos)))
        .collect();
    let mut done = HashSet::new();
    for (i, row) in existing[..keep].split(|&b| b == b'\n').enumerate() {
        if row.is_empty() {
            continue;
        }
        let at = format!("{} line {}", path.display(), i + 1);
        let v: Value = serde_json::from_slice(row).map_err(|e| bad(format!("{at}: {e}")))?;
        let line = v["line"]
            .as_u64()
            .ok_or_else(|| bad(format!("{at}: no \"line\" number")))? as usize;
        let Some(want) = wanted.get(&line) else {
            return Err(bad(format!(
                "{at}: a result for input line {line}, which is not a position of {scope}: \
                 a results file of another input or shard?"
            )));
        };
        if v["position"].as_str() != Some(want.as_str()) {
            return Err(bad(format!(
                "{at}: the result for line {line} is for another position than line {line} of \
                 {scope}: a results file of another input?"
            )));
        }
        done.insert(line);
    }
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    file.set_len(keep as u64)
        .with_context(|| format!("truncating the torn last line of {}", path.display()))?;
    file.seek(io::SeekFrom::End(0))?;
    Ok((file, done))
}
