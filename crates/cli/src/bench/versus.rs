//! `ply bench match`: this build's engine against another engine, from fixed openings, both
//! colours, a fixed time a move. Every move either engine names is checked against the rules,
//! and the time each side took is reported beside the result.
//!
//! The other engine is one of two kinds:
//! - `--baseline URL`: one that serves ply's JSON API (`ply serve` of an older build, say).
//!   It moves through `GET /api/othello/analyze` with `budget_ms`, which scores every legal
//!   move; this one runs the same analysis through `ply_othello::analyze`, so that only the
//!   engines differ. (Proving only the best move is an edge of its own: this build playing
//!   that way against itself through the API took 72% of the points at 100 ms a move, 60
//!   games.)
//! - `--gtp COMMAND`: any engine that speaks the Go Text Protocol to Othello clients (Edax's
//!   `-gtp` mode, another build's `ply gtp`), started as a child process. It is told the
//!   moves and asked for its own with `genmove`; its time a move is its own command line's
//!   to set. This one plays as `ply gtp` does: the best move only, with a solver kept from
//!   move to move.
//!
//! ```text
//! old/ply serve --addr 127.0.0.1:8099 &
//! ply bench match --baseline http://127.0.0.1:8099 --openings 50 --ms 300
//! ply bench match --gtp "edax -gtp -n 1 -move-time 1 -book-usage off" --openings 20 --ms 1000
//! ```
//! The openings are the first N lines of `xot-openings.txt` in the data directory; each is
//! played twice, colours swapped.

use std::{
    io::{self, Read, Write},
    net::TcpStream,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use anyhow::{anyhow, Context};
use ply_othello::{
    analyze::{self, KeptSolver, Options},
    transcript, BoardSize, Color, Move, Position, Square,
};

use super::gtp_client::GtpEngine;
use crate::{error::bad, othello::common::move_options};

/// Arguments of `ply bench match`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("other").required(true).args(["baseline", "gtp"])))]
pub struct Args {
    /// The other engine: base URL of a `ply serve` (http://HOST:PORT).
    #[arg(long, value_name = "URL")]
    pub baseline: Option<String>,
    /// The other engine: a shell command that starts a GTP engine (its own options set its
    /// time a move), e.g. "edax -gtp -n 1 -move-time 1".
    #[arg(long, value_name = "COMMAND")]
    pub gtp: Option<String>,
    /// Openings to play (each twice, colours swapped).
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub openings: usize,
    /// Time per move for both engines, in milliseconds.
    #[arg(long, default_value_t = 300, value_name = "MS")]
    pub ms: u64,
    /// Directory holding xot-openings.txt (default: $PLY_DATA, else the
    /// repository's testdata/).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
}

/// The other engine of a match.
enum Other {
    /// A `ply serve` at this HOST:PORT.
    Api(String),
    /// A GTP engine, running.
    Gtp(GtpEngine),
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.ms == 0 || a.ms > 60_000 {
        return Err(bad(format!("--ms {}: expected 1 to 60000", a.ms)));
    }
    let openings = xot_openings(a.data.as_deref(), a.openings)?;
    let (mut other, name) = match (&a.baseline, &a.gtp) {
        (Some(url), _) => {
            let addr = url
                .strip_prefix("http://")
                .ok_or_else(|| bad(format!("--baseline {url}: expected http://HOST:PORT")))?
                .trim_end_matches('/')
                .to_string();
            (Other::Api(addr), url.clone())
        }
        (None, Some(command)) => {
            if command.trim().is_empty() {
                return Err(bad("--gtp: expected the command that starts a GTP engine"));
            }
            (
                Other::Gtp(GtpEngine::start(command)?),
                format!("`{command}`"),
            )
        }
        (None, None) => unreachable!("clap requires --baseline or --gtp"),
    };
    let budget = Duration::from_millis(a.ms);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} openings x 2 colours, {} ms a move, against {name}",
        openings.len(),
        a.ms,
    )?;
    let (mut points, mut games, mut discs) = (0.0, 0, 0i64);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut times = Times::default();
    for (i, (opening, start)) in openings.iter().enumerate() {
        for ours in [Color::Black, Color::White] {
            let result = play(opening, start, ours, budget, &mut other, &mut times)
                .with_context(|| format!("opening {} ({opening}), ply as {ours:?}", i + 1))?;
            games += 1;
            discs += i64::from(result);
            match result.signum() {
                1 => {
                    wins += 1;
                    points += 1.0;
                }
                0 => {
                    draws += 1;
                    points += 0.5;
                }
                _ => losses += 1,
            }
            writeln!(
                out,
                "{:>3} {opening} ply as {:<5} {result:>+4}   running {wins}-{draws}-{losses} ({:.1}%)",
                i + 1,
                if ours == Color::Black { "black" } else { "white" },
                100.0 * points / f64::from(games)
            )?;
            out.flush()?;
        }
    }
    writeln!(
        out,
        "ply won {wins}, drew {draws}, lost {losses} of {games}: {:.1}% of the points, {:+.1} discs a game",
        100.0 * points / f64::from(games.max(1)),
        discs as f64 / f64::from(games.max(1))
    )?;
    let most = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    writeln!(
        out,
        "time a move (ms): ply median {:.0}, most {:.0}; the other median {:.0}, most {:.0}",
        super::play::median(&mut times.ours).unwrap_or(0.0),
        most(&times.ours),
        super::play::median(&mut times.theirs).unwrap_or(0.0),
        most(&times.theirs),
    )?;
    Ok(())
}

/// Each side's time for each of its moves, in milliseconds.
#[derive(Default)]
struct Times {
    ours: Vec<f64>,
    theirs: Vec<f64>,
}

/// The first `n` openings of `xot-openings.txt` in the data directory: each line and the
/// position it leads to.
pub fn xot_openings(data: Option<&Path>, n: usize) -> anyhow::Result<Vec<(String, Position)>> {
    let path = super::ffo::data_dir(data)?.join("xot-openings.txt");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    text.lines()
        .enumerate()
        .map(|(i, l)| (i, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .take(n)
        .map(|(i, line)| {
            let pos = transcript::parse(line, Position::start(BoardSize::Eight))
                .map_err(|e| bad(format!("{} line {}: {e}", path.display(), i + 1)))?
                .position();
            Ok((line.to_string(), pos))
        })
        .collect()
}

/// One game from `start` (the position after `opening`), this engine playing `ours`: the
/// final disc difference from our view, empties to the winner.
fn play(
    opening: &str,
    start: &Position,
    ours: Color,
    budget: Duration,
    other: &mut Other,
    times: &mut Times,
) -> anyhow::Result<i32> {
    // Against a GTP engine this one plays as `ply gtp` does: the best move only, a solver
    // kept from move to move; against the API, the API's own analysis.
    let opts = match other {
        Other::Api(_) => Options::budget(budget),
        Other::Gtp(engine) => {
            new_game(engine, opening)?;
            Options {
                kept_solver: Some(KeptSolver::default()),
                ..move_options(60, budget, 1)
            }
        }
    };
    let mut pos = *start;
    while !pos.is_game_over() {
        if !pos.can_move() {
            pos = pos.passed();
            continue;
        }
        let started = Instant::now();
        let sq = if pos.turn() == ours {
            let sq = analyze::analyze(&pos, &opts)
                .best
                .ok_or_else(|| anyhow!("this engine named no move"))?;
            times.ours.push(started.elapsed().as_secs_f64() * 1000.0);
            if let Other::Gtp(engine) = other {
                engine.play(pos.turn(), sq)?;
            }
            sq
        } else {
            let sq = match other {
                Other::Api(addr) => baseline_move(&pos, budget, addr)?,
                Other::Gtp(engine) => {
                    // A slow engine is measured; one that does not answer at all ends it.
                    let wait = budget * 10 + Duration::from_secs(5);
                    engine.genmove(&pos, wait)?
                }
            };
            times.theirs.push(started.elapsed().as_secs_f64() * 1000.0);
            sq
        };
        pos = pos.play(sq).map_err(|e| anyhow!("{sq} in {pos}: {e}"))?;
    }
    let score = pos.final_score();
    Ok(if pos.turn() == ours { score } else { -score })
}

/// Sets up a new game on a GTP engine: the board cleared and the opening's moves played
/// (passes left out: an engine told the other colour's move passes for the side without one).
fn new_game(engine: &mut GtpEngine, opening: &str) -> anyhow::Result<()> {
    let wait = Duration::from_secs(30);
    engine.ask("boardsize 8", wait)?;
    engine.ask("clear_board", wait)?;
    let record = transcript::parse(opening, Position::start(BoardSize::Eight))
        .map_err(|e| anyhow!("opening {opening}: {e}"))?;
    for (pos, m) in record.plies() {
        if let Move::Play(sq) = m {
            engine.play(pos.turn(), sq)?;
        }
    }
    Ok(())
}

/// The other engine's move through its JSON API.
fn baseline_move(pos: &Position, budget: Duration, addr: &str) -> anyhow::Result<Square> {
    let n = pos.size().n();
    let cells = ply_othello::text::cells(pos);
    let turn = if pos.turn() == Color::Black { 'X' } else { 'O' };
    let request = format!(
        "GET /api/othello/analyze?size={n}&position={cells}&turn={turn}&budget_ms={} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n",
        budget.as_millis()
    );
    let mut stream = TcpStream::connect(addr).with_context(|| format!("connecting to {addr}"))?;
    stream.write_all(request.as_bytes())?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let (head, body) = response
        .split_once("\r\n\r\n")
        .ok_or_else(|| anyhow!("{addr}: a response without a body"))?;
    if !head.starts_with("HTTP/1.1 200") {
        return Err(anyhow!(
            "{addr}: {}: {body}",
            head.lines().next().unwrap_or("")
        ));
    }
    let json: serde_json::Value = serde_json::from_str(body).context("the answer's JSON")?;
    let best = json["best"]
        .as_str()
        .ok_or_else(|| anyhow!("{addr}: no best move in {body}"))?;
    Square::parse(best).map_err(|e| anyhow!("{addr}: best move {best}: {e}"))
}
