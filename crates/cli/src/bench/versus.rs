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
    io::{self, Write},
    path::PathBuf,
    time::Duration,
};

use anyhow::anyhow;
use ply_engines::{
    matches::{play_match, Control},
    tally::MatchTally,
    ApiEngine, Engine, GtpEngine, Limit, PlyEngine,
};
use ply_othello::{
    play::{Player, Settings},
    spine::clock::SYSTEM,
};

use crate::error::bad;

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

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.ms == 0 || a.ms > 60_000 {
        return Err(bad(format!("--ms {}: expected 1 to 60000", a.ms)));
    }
    let openings = super::xot_openings(a.data.as_deref(), a.openings)?;
    // This build plays as `ply gtp` does against a GTP engine (the best move only, a solver
    // kept from move to move), and against the API as the API analyses (every move scored,
    // the solvers kept between analyses), so that only the engines differ. Never pondering:
    // the other engine's time is its own.
    let mut player = Player::new(Settings {
        ponder: false,
        ..Settings::default()
    });
    let (mut other, name): (Box<dyn Engine>, String) = match (&a.baseline, &a.gtp) {
        (Some(url), _) => {
            let api = ApiEngine::new(url).map_err(|e| bad(format!("--baseline {e}")))?;
            player.set_all_moves(true);
            player.set_keep_solver(false);
            (Box::new(api), url.clone())
        }
        (None, Some(command)) => {
            if command.trim().is_empty() {
                return Err(bad("--gtp: expected the command that starts a GTP engine"));
            }
            (Box::new(GtpEngine::start(command)?), format!("`{command}`"))
        }
        (None, None) => unreachable!("clap requires --baseline or --gtp"),
    };
    let mut ply = PlyEngine::with_player("ply", player);
    let control = Control::Limit(Limit::Time(Duration::from_millis(a.ms)));
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} openings x 2 colours, {} ms a move, against {name}",
        openings.len(),
        a.ms,
    )?;
    let mut tally = MatchTally::default();
    let records: Vec<_> = openings.iter().map(|o| o.game.clone()).collect();
    let mut printed = Ok(());
    let played = play_match(
        &mut ply,
        other.as_mut(),
        &records,
        [control, control],
        &SYSTEM,
        &mut |k, side, game| {
            let result = tally.add(side, game);
            if printed.is_ok() {
                let line = tally.game_line(k, &openings[k].text, "ply", side, result);
                printed = writeln!(out, "{line}").and_then(|()| out.flush());
            }
        },
    );
    printed?;
    played.map_err(|e| anyhow!(e.describe(&openings[e.opening].text, "ply")))?;
    writeln!(out, "{}", tally.summary("ply"))?;
    Ok(())
}
