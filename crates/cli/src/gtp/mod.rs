//! `ply gtp`: an engine for clients that speak the Go Text Protocol (version 2) to Othello
//! engines, as Quarry does with Egaroucid's console and GRhino. (GoGui plays games other than
//! Go only through its own `gogui-rules_*` extension, which ply does not speak.)
//!
//! Three parts, each testable alone: [`command`] reads one line into a command (pure),
//! [`session`] applies commands to the game and says the answer's text, [`answer`] writes the
//! answer as GTP frames it. This file is the loop over stdin and stdout that joins them.
//! GTP is strictly one answer per command, in order, so the loop needs no thread: `genmove`
//! thinks on the loop's own.
//!
//! `genmove` runs the same analysis as `ply nboard`'s `go` (the one entry point,
//! [`ply_othello::analyze`]: the book, the midgame engine to `--depth` plies, the exact
//! solver near the end), for at most `--time` seconds a move (by default half a second a
//! ply of depth, NBoard's rule), and less when the client's `time_settings` and `time_left`
//! leave less.

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
    /// The most a move may take, in seconds (by default half a second a ply of `--depth`);
    /// the client's clock (`time_settings`, `time_left`) may leave less.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Threads for the search.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
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
    let mut s = session::Session::new(session::Level {
        depth: a.depth,
        move_time,
        threads: a.threads,
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
