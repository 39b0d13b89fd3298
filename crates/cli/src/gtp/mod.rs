//! `ply gtp`: ply as an engine for GTP clients (Quarry, GoGui). The protocol lives in
//! [`ply_engines::gtp`] (its parser, its session over the one player, its answers and the
//! loop); this file reads the flags into the session's level and runs the loop on stdin and
//! stdout.

use std::io;

use anyhow::Context;
use clap::Args as ClapArgs;
use ply_engines::gtp;

use crate::{
    error::bad,
    othello::common::{check_threads, move_time},
};

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
    let mut s = gtp::Session::new(gtp::Level {
        depth: a.depth,
        move_time,
        threads: a.threads,
        book,
        ponder: !a.no_ponder,
    })
    .map_err(bad)?;
    gtp::serve(&mut s, &mut io::stdin().lock(), &mut io::stdout().lock())
        .context("reading stdin or writing stdout")
}
