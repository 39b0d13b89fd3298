//! `ply bench play`: how early ply's answers become exact in play. ply plays itself from the
//! first N XOT openings at a fixed time a move, every answer through the analysis that NBoard
//! and GTP run for a move ([`move_options`]: the book, the midgame engine, the exact solver
//! near the end, the best move only), each side with a solver of its own kept from move to
//! move as an engine keeps it (`--all-moves` scores every move, as the JSON API does;
//! `--fresh` gives a side no solver of its own: each analysis borrows one of those the
//! process keeps between analyses on a clock, as the API's do), and reports per game the
//! empties from which every answer to the end was proven, with how long the answers took.
//!
//! The answers check each other: perfect play keeps a position's value, so a proven answer
//! must agree with the proven answer before it (the value can only have moved against a side
//! whose answer in between was not proven) and with the game's final score. A disagreement
//! fails the bench (exit status 1, after the figures, naming the game and the answer).

use std::{io, path::PathBuf, time::Duration};

use ply_engines::{
    matches::{play_game, Control, Game},
    proven::{ReportError, SelfPlay, SelfPlayReport},
    Limit, PlyEngine,
};
use ply_othello::{
    play::{Player, Settings},
    solve::SolveOptions,
    spine::clock::SYSTEM,
    GameRecord,
};

use crate::error::bad;

/// Arguments of `ply bench play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games to play, one from each of the first N XOT openings.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub games: usize,
    /// Time a move, in milliseconds.
    #[arg(long, default_value_t = 300, value_name = "MS")]
    pub ms: u64,
    /// Threads of each analysis.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Transposition tables in megabytes (default: the analysis's own for 8x8, as every
    /// front end uses it).
    #[arg(long, value_name = "M")]
    pub hash_mb: Option<usize>,
    /// Score every move at each turn, as the JSON API does, instead of only the best move.
    #[arg(long)]
    pub all_moves: bool,
    /// No solver of a side's own: each analysis borrows one of those the process keeps
    /// between analyses on a clock (both sides' alike), as the JSON API's do, instead of one
    /// kept by each side from move to move, as an NBoard or GTP engine keeps it.
    #[arg(long)]
    pub fresh: bool,
    /// Directory holding xot-openings.txt (default: $PLY_DATA, else the repository's
    /// testdata/).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// One JSON object a game, then one for the whole run.
    #[arg(long)]
    pub json: bool,
}

/// One self-play game from `start` on the match runner: each side its own player, as two
/// NBoard engines in a match are (a solver of its own kept from one of its moves to the
/// next, unless `--fresh`), neither pondering.
fn play(start: &GameRecord, a: &Args, budget: Duration) -> anyhow::Result<Game> {
    let side = || {
        let mut p = Player::new(Settings {
            threads: a.threads,
            hash_mb: a.hash_mb,
            ponder: false,
            ..Settings::default()
        });
        p.set_all_moves(a.all_moves);
        p.set_keep_solver(!a.fresh);
        PlyEngine::with_player("ply", p)
    };
    let (mut black, mut white) = (side(), side());
    let control = Control::Limit(Limit::Time(budget));
    Ok(play_game(
        &mut black,
        &mut white,
        start,
        [control, control],
        &SYSTEM,
    )?)
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.ms == 0 || a.ms > 60_000 {
        return Err(bad(format!("--ms {}: expected 1 to 60000", a.ms)));
    }
    if a.games == 0 {
        return Err(bad("--games 0: expected at least 1"));
    }
    SolveOptions {
        threads: a.threads,
        hash_mb: a.hash_mb.unwrap_or(SolveOptions::default().hash_mb),
    }
    .checked()
    .map_err(|e| bad(format!("--{e}")))?;
    let openings = super::xot_openings(a.data.as_deref(), a.games)?;
    if openings.len() < a.games {
        return Err(bad(format!(
            "--games {}: the openings file has only {}",
            a.games,
            openings.len()
        )));
    }
    let budget = Duration::from_millis(a.ms);
    let run = SelfPlay {
        games: a.games,
        ms: a.ms,
        threads: a.threads,
        all_moves: a.all_moves,
        fresh: a.fresh,
        json: a.json,
    };
    let mut out = io::stdout().lock();
    let mut report = SelfPlayReport::start(run, &mut out)?;
    for (i, o) in openings.iter().enumerate() {
        let game = play(&o.game, &a, budget)?;
        report
            .add(&mut out, i + 1, &o.text, &game)
            .map_err(report_error)?;
    }
    report.finish(&mut out).map_err(report_error)
}

/// The report's error as the CLI reports it: a write's keeps its `io::Error` (a closed pipe
/// is recognised), the bench's failure exits with 1.
fn report_error(e: ReportError) -> anyhow::Error {
    match e {
        ReportError::Io(e) => e.into(),
        ReportError::Failed(m) => anyhow::Error::msg(m),
    }
}
