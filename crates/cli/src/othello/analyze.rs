//! `ply othello analyze`: every legal move of a position with its score, exact or estimated,
//! through the library's one analysis entry point (`ply_othello::analyze`), with a progress
//! line on a terminal that updates on a timer.

use std::{
    io::{self, Write},
    sync::{Arc, Mutex},
    time::Instant,
};

use ply_othello::{
    analyze::{self, Analysis, Report, Request},
    opening, BoardSize,
};

use crate::othello::common::{self, StatusLine};

/// Arguments of `ply othello analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position: cells and side to move (16, 36 or 64 cells), an OBF line, a
    /// transcript of moves from the start (`f5d6c3…`), or a GGF game (`(;GM[Othello]…;)`):
    /// the position after its last move.
    #[arg(allow_hyphen_values = true, value_name = "POS")]
    pub position: String,
    /// Board size of a transcript (4, 6 or 8; by default the size its moves are legal on).
    #[arg(long)]
    pub size: Option<BoardSize>,
    /// Think for this many seconds (default 1).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Search the midgame engine this many plies deep instead, without a clock (the exact
    /// solver takes over when the depth reaches the end of the game).
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    pub depth: Option<u32>,
    /// Threads (the midgame engine shares out the moves, the solver splits each search).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Never call the exact solver (the opening book still answers: add `--no-book` for
    /// estimates only).
    #[arg(long)]
    pub no_solver: bool,
    /// Do not answer from the opening book (6x6 exact, 8x8 searched).
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
    /// Answer from this book file instead of the shipped one of its board size: ply's own
    /// (`ply othello book build`, `book import`) or an Edax book (`.dat`).
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    let game = common::read_position_or_transcript(&a.position, a.size, "POS")?;
    let pos = game.position();
    let book_file = match &a.book {
        Some(path) => Some(Arc::new(common::read_book(path)?)),
        None => None,
    };
    let req = Request {
        time: a.time,
        depth: a.depth,
        threads: a.threads,
        book: !a.no_book,
        book_file,
        solver: !a.no_solver,
        all_moves: true,
    };
    let opts = common::analysis_options(&req, pos.size())?;

    let started = Instant::now();
    let latest: Arc<Mutex<Option<Analysis>>> = Arc::default();
    let line = StatusLine::start({
        let latest = latest.clone();
        move |elapsed| {
            let latest = latest.lock().expect("progress lock");
            Analysis::progress_line(latest.as_ref(), elapsed.as_secs_f64())
        }
    });
    let result = analyze::analyze_with(&pos, &opts, &mut |an| {
        *latest.lock().expect("progress lock") = Some(an.clone());
    });
    drop(line);
    let mut report = Report::new(&pos, &result, started.elapsed());
    // The game's moves name its opening even once it has left the named lines.
    report.opening = opening::name_of_game(&game);
    let mut out = io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        write!(out, "{}", report.text())?;
    }
    out.flush()?;
    Ok(())
}
