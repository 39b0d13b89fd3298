//! `ply bench match`: this build's engine against another engine that serves ply's JSON API
//! (`ply serve` of an older build, say), from fixed openings, both colours, a fixed time a
//! move. Every move either engine names is checked against the rules.
//!
//! ```text
//! old/ply serve --addr 127.0.0.1:8099 &
//! ply bench match --baseline http://127.0.0.1:8099 --openings 50 --ms 300
//! ```
//! The openings are the first N lines of `xot-openings.txt` in the data directory; each is
//! played twice, colours swapped. The other engine moves through `GET /api/othello/analyze`
//! with `budget_ms`, which scores every legal move; this one runs the same analysis through
//! `ply_othello::analyze`, so that only the engines differ. (Proving only the best move is an
//! edge of its own: this build playing that way against itself through the API took 72% of
//! the points at 100 ms a move, 60 games.)

use std::{
    io::{self, Read, Write},
    net::TcpStream,
    path::{Path, PathBuf},
    time::Duration,
};

use anyhow::{anyhow, Context};
use ply_othello::{
    analyze::{self, Options},
    transcript, BoardSize, Color, Position, Square,
};

use crate::error::bad;

/// Arguments of `ply bench match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The other engine: base URL of a `ply serve` (http://HOST:PORT).
    #[arg(long, value_name = "URL")]
    pub baseline: String,
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

pub fn run(a: Args) -> anyhow::Result<()> {
    let addr = a
        .baseline
        .strip_prefix("http://")
        .ok_or_else(|| {
            bad(format!(
                "--baseline {}: expected http://HOST:PORT",
                a.baseline
            ))
        })?
        .trim_end_matches('/')
        .to_string();
    if a.ms == 0 || a.ms > 60_000 {
        return Err(bad(format!("--ms {}: expected 1 to 60000", a.ms)));
    }
    let openings = xot_openings(a.data.as_deref(), a.openings)?;
    let budget = Duration::from_millis(a.ms);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} openings x 2 colours, {} ms a move, against {}",
        openings.len(),
        a.ms,
        a.baseline
    )?;
    let (mut points, mut games, mut discs) = (0.0, 0, 0i64);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (i, (opening, start)) in openings.iter().enumerate() {
        for ours in [Color::Black, Color::White] {
            let result = play(start, ours, budget, &addr)
                .with_context(|| format!("opening {} ({opening})", i + 1))?;
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
    Ok(())
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

/// One game from `start`, this engine playing `ours`: the final disc difference from our
/// view, empties to the winner.
fn play(start: &Position, ours: Color, budget: Duration, addr: &str) -> anyhow::Result<i32> {
    let mut pos = *start;
    while !pos.is_game_over() {
        if !pos.can_move() {
            pos = pos.passed();
            continue;
        }
        let sq = if pos.turn() == ours {
            // The analysis the API runs: every move scored, the library's tables.
            analyze::analyze(&pos, &Options::budget(budget))
                .best
                .ok_or_else(|| anyhow!("this engine named no move"))?
        } else {
            baseline_move(&pos, budget, addr)?
        };
        pos = pos.play(sq).map_err(|e| anyhow!("{sq} in {pos}: {e}"))?;
    }
    let score = pos.final_score();
    Ok(if pos.turn() == ours { score } else { -score })
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
