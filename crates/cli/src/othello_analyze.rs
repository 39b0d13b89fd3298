//! `ply othello analyze`: every legal move of a position with its score, exact or estimated,
//! through the library's one analysis entry point (`ply_othello::analyze`), with a progress
//! line on a terminal that updates on a timer.

use std::{
    io::{self, IsTerminal, Write},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use ply_othello::{
    analyze::{self, Analysis, Options},
    text, BoardSize, Position,
};
use serde_json::json;

use crate::error::bad;

/// Arguments of `ply othello analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position: cells and side to move (16, 36 or 64 cells), an OBF line, a
    /// transcript of moves from the start (`f5d6c3…`), or a GGF game (`(;GM[Othello]…;)`):
    /// the position after its last move.
    #[arg(allow_hyphen_values = true, value_name = "POS")]
    pub position: String,
    /// Board size of a transcript (4, 6 or 8; by default the size its moves are legal on).
    #[arg(long, value_parser = crate::othello::common::parse_size)]
    pub size: Option<BoardSize>,
    /// Think for this many seconds (default 1).
    #[arg(long, value_name = "S", conflicts_with = "depth")]
    pub time: Option<f64>,
    /// Search the midgame engine this many plies deep instead, without a clock (the exact
    /// solver takes over when the depth reaches the end of the game).
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Threads (the midgame engine shares out the moves, the solver splits each search).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Never call the exact solver (the opening book still answers: add `--no-book` for
    /// estimates only).
    #[arg(long)]
    pub no_solver: bool,
    /// Do not answer from the opening book (6x6).
    #[arg(long)]
    pub no_book: bool,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    crate::othello::common::check_threads(a.threads)?;
    let pos =
        crate::othello::common::read_position_or_transcript(&a.position, a.size, "POS")?.position();
    let mut opts = match (a.time, a.depth) {
        (_, Some(d)) => {
            if d == 0 || d > 64 {
                return Err(bad(format!("--depth {d}: expected 1 to 64")));
            }
            Options::depth(d)
        }
        (Some(t), None) => {
            if !(t > 0.0 && t <= 86_400.0) {
                return Err(bad(format!(
                    "--time {t}: expected more than 0 and at most 86400 seconds"
                )));
            }
            Options::budget(Duration::from_secs_f64(t))
        }
        (None, None) => Options::budget(Duration::from_secs(1)),
    };
    opts.threads = a.threads;
    opts.solver = !a.no_solver;
    opts.book = !a.no_book;

    let started = Instant::now();
    let latest: Arc<Mutex<Option<Analysis>>> = Arc::default();
    let ticker = io::stderr()
        .is_terminal()
        .then(|| Ticker::start(latest.clone()));
    let result = analyze::analyze_with(&pos, &opts, &mut |an| {
        *latest.lock().expect("progress lock") = Some(an.clone());
    });
    if let Some(t) = ticker {
        t.stop();
    }
    let elapsed = started.elapsed();
    let mut out = io::stdout().lock();
    if a.json {
        writeln!(out, "{}", to_json(&pos, &result, elapsed))?;
    } else {
        print_text(&mut out, &pos, &result, elapsed)?;
    }
    out.flush()?;
    Ok(())
}

/// A score in discs: whole when exact, one decimal when estimated.
fn score_text(score: i32, exact: bool) -> String {
    let shown = Analysis::shown_discs(score, exact);
    if exact {
        format!("{:+}", shown as i64)
    } else {
        format!("{shown:+.1}")
    }
}

/// A score in discs as the JSON API writes it.
fn score_json(score: i32, exact: bool) -> serde_json::Value {
    json!(ply_server::othello::discs(score, exact))
}

fn to_json(pos: &Position, a: &Analysis, elapsed: Duration) -> serde_json::Value {
    json!({
        "position": text::format_position(pos),
        "to_move": if pos.turn() == ply_othello::Color::Black { "black" } else { "white" },
        "empties": pos.empties().count(),
        "score": score_json(a.score, a.exact),
        "exact": a.exact,
        "best": a.best.map(|s| s.to_string()),
        "line": a.line.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "moves": a.moves.iter().map(|m| json!({
            "move": m.square.to_string(),
            "score": score_json(m.score, m.exact),
            "exact": m.exact,
            "depth": m.depth,
        })).collect::<Vec<_>>(),
        "depth": a.depth,
        "nodes": a.nodes,
        "elapsed_ms": u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        "engine": a.engine.name(),
    })
}

fn print_text(
    out: &mut impl Write,
    pos: &Position,
    a: &Analysis,
    elapsed: Duration,
) -> io::Result<()> {
    writeln!(out, "position   {}", text::format_position(pos))?;
    let best_exact = a.moves.first().is_none_or(|m| m.exact);
    let kind = if a.exact {
        "exact".to_string()
    } else if best_exact {
        let left = a.moves.iter().filter(|m| !m.exact).count();
        format!("exact for the best move; {left} other moves still estimated")
    } else {
        "estimate".to_string()
    };
    writeln!(
        out,
        "score      {} ({kind})",
        score_text(a.score, best_exact)
    )?;
    if pos.is_game_over() {
        writeln!(out, "the game is over")?;
    } else if a.moves.is_empty() {
        writeln!(out, "the side to move must pass")?;
    }
    for m in &a.moves {
        let how = if m.exact {
            "exact".to_string()
        } else {
            format!("estimate, depth {}", m.depth)
        };
        writeln!(
            out,
            "  {}  {:>6}  {how}",
            m.square,
            score_text(m.score, m.exact)
        )?;
    }
    let line: Vec<String> = a.line.iter().map(ToString::to_string).collect();
    writeln!(out, "line       {}", line.join(" "))?;
    writeln!(
        out,
        "searched   depth {}, {} nodes, {:.2} s ({})",
        a.depth,
        a.nodes,
        elapsed.as_secs_f64(),
        a.engine.name()
    )
}

/// A progress line on stderr, redrawn four times a second from the latest analysis.
struct Ticker {
    done: Arc<std::sync::atomic::AtomicBool>,
    handle: std::thread::JoinHandle<()>,
}

impl Ticker {
    fn start(latest: Arc<Mutex<Option<Analysis>>>) -> Ticker {
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = done.clone();
        let started = Instant::now();
        let handle = std::thread::spawn(move || {
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(250));
                let line = match &*latest.lock().expect("progress lock") {
                    Some(a) => format!(
                        "depth {:>2}  best {}  {}  exact {}/{}  {} nodes  {:.1} s",
                        a.depth,
                        a.best.map_or("--".to_string(), |s| s.to_string()),
                        score_text(a.score, a.exact),
                        a.moves.iter().filter(|m| m.exact).count(),
                        a.moves.len(),
                        a.nodes,
                        started.elapsed().as_secs_f64()
                    ),
                    None => format!("thinking  {:.1} s", started.elapsed().as_secs_f64()),
                };
                eprint!("\r\x1b[2K{line}");
            }
            eprint!("\r\x1b[2K");
        });
        Ticker { done, handle }
    }

    fn stop(self) {
        self.done.store(true, std::sync::atomic::Ordering::Relaxed);
        let _ = self.handle.join();
    }
}
