//! `ply gtp`: an engine for clients that speak the Go Text Protocol (version 2) to Othello
//! engines, as Quarry does with Egaroucid's console and GRhino. (GoGui plays games other than
//! Go only through its own `gogui-rules_*` extension, which ply does not speak.)
//!
//! Three parts, each testable alone: [`command`] reads one line into a command (pure),
//! [`session`] applies commands to the game and says the answer's text, [`answer`] writes the
//! answer as GTP frames it. This file is the loop over stdin and stdout that joins them.
//! GTP is strictly one answer per command, in order, so the loop needs no thread: `genmove`
//! thinks on the loop's own; the player ([`ply_othello::play`]) ponders on a thread of its
//! own after its move until the next command (`--no-ponder` turns it off).
//!
//! `genmove` asks the player for its move (the one entry point, [`ply_othello::analyze`]:
//! the book, `--book` or the shipped one, the midgame engine, the exact solver near the
//! end). Without a game clock a move takes at most `--time` seconds and `--depth` plies;
//! with one (`time_settings`, `kgs-time_settings none|absolute|byoyomi|canadian`, and
//! `fischer MAIN INCREMENT`, an extension) the player's clock decides each move's share, and
//! `time_left` corrects it. `reg_genmove` says the move without playing it and `hint` every
//! move's value (the name NBoard and Edax's console give it; GNU Go's GTP calls the same
//! `top_moves`), neither charged to the clock.

use std::io::{self, BufRead, Write};

use anyhow::Context;
use clap::Args as ClapArgs;

use crate::{
    error::bad,
    othello::common::{check_threads, move_time},
};

pub mod answer;
pub mod command;
pub mod session;

/// `ply gtp`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// How hard ply thinks: the deepest midgame search, 1 to 60 plies (the exact solver takes
    /// over near the end of the game regardless).
    #[arg(long, default_value_t = 12, value_name = "PLIES",
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// The most a move may take without a game clock, in seconds (by default half a second a
    /// ply of `--depth`); once the client sets a clock (`time_settings`,
    /// `kgs-time_settings`), the clock alone decides.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Threads for the search.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Answer from this book file instead of the shipped one: ply's own or an Edax book
    /// (`.dat`).
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// Do not think on the opponent's time.
    #[arg(long)]
    pub no_ponder: bool,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    check_threads(a.threads)?;
    let move_time = match a.time {
        None => move_time(a.depth),
        Some(t) if t.is_finite() && (0.01..=3600.0).contains(&t) => {
            std::time::Duration::from_secs_f64(t)
        }
        Some(t) => {
            return Err(bad(format!(
                "--time {t}: a move's time must be from 0.01 to 3600 seconds"
            )))
        }
    };
    let book = match &a.book {
        Some(path) => Some(std::sync::Arc::new(crate::othello::common::read_book(
            path,
        )?)),
        None => None,
    };
    let mut s = session::Session::new(session::Level {
        depth: a.depth,
        move_time,
        threads: a.threads,
        book,
        ponder: !a.no_ponder,
    });
    let stdin = io::stdin().lock();
    let mut out = io::stdout().lock();
    let mut buf = Vec::new();
    let mut input = stdin;
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf).context("reading stdin")? == 0 {
            return Ok(());
        }
        // Bytes that are not UTF-8 make an unknown command, not the end.
        let raw = String::from_utf8_lossy(&buf);
        let Some(line) = command::parse(&raw) else {
            continue;
        };
        let quit = line.command == Ok(command::Command::Quit);
        let result = match &line.command {
            Ok(c) => s.apply(c),
            Err(e) => Err(e.clone()),
        };
        out.write_all(answer::format(line.id.as_deref(), &result).as_bytes())?;
        out.flush()?;
        if quit {
            return Ok(());
        }
    }
}
