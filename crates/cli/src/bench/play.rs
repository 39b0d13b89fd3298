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

use std::{
    io::{self, Write},
    path::PathBuf,
    time::Duration,
};

use anyhow::anyhow;
use ply_engines::{
    matches::{play_game, Asked, Control, Game},
    proven::{contradiction, proven_from},
    Limit, PlyEngine,
};
use ply_othello::{
    play::{Player, Settings},
    solve::SolveOptions,
    spine::clock::SYSTEM,
    GameRecord,
};
use serde_json::json;

use super::median;
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

/// One answer of a game, as the report shows it.
struct Row {
    empties: u32,
    best: ply_othello::Move,
    /// The analysis's score for the side to move, in discs.
    discs: f64,
    proven: bool,
    book: bool,
    ms: f64,
}

impl From<&Asked> for Row {
    fn from(m: &Asked) -> Row {
        let info = m.info.as_ref();
        Row {
            empties: m.empties,
            best: m.played,
            discs: info.map_or(0.0, |i| i.score),
            proven: info.is_some_and(|i| i.proven),
            book: info.is_some_and(|i| i.book),
            ms: m.used.as_secs_f64() * 1000.0,
        }
    }
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
    let mode = match (a.all_moves, a.fresh) {
        (false, false) => "best move only, a solver kept by each side, as NBoard and GTP",
        (false, true) => "best move only, the solvers kept between analyses",
        (true, false) => "every move scored, a solver kept by each side",
        (true, true) => "every move scored, the solvers kept between analyses, as the JSON API",
    };
    let mut out = io::stdout().lock();
    if !a.json {
        writeln!(
            out,
            "self-play from {} XOT openings, {} ms a move, {mode}, {} thread(s)",
            a.games, a.ms, a.threads
        )?;
        writeln!(
            out,
            "{:>4} {:<24} {:>7} {:>11} {:>9} {:>6} {:>5}",
            "game", "opening", "answers", "proven from", "median ms", "max ms", "final"
        )?;
    }
    let mut froms = Vec::new();
    let mut failures = Vec::new();
    let mut all_ms = Vec::new();
    let mut unproven_ms = Vec::new();
    for (i, o) in openings.iter().enumerate() {
        let opening = &o.text;
        let game = play(&o.game, &a, budget)?;
        let answers: Vec<Row> = game.asked.iter().map(Row::from).collect();
        if let Some((at, what)) = contradiction(&game) {
            let place = answers.get(at).map_or("at the end".to_string(), |x| {
                format!("at answer {} ({} empties)", at + 1, x.empties)
            });
            let moves: String = answers.iter().map(|x| x.best.to_string()).collect();
            failures.push(format!(
                "game {} ({opening}), {place}: {what}; the game: {opening}{moves}",
                i + 1
            ));
        }
        let final_black = game.black_score;
        let from = proven_from(&game)
            .ok_or_else(|| anyhow!("game {} ({opening}): the last answer was not proven", i + 1))?;
        froms.push(f64::from(from));
        let mut ms: Vec<f64> = answers.iter().filter(|x| !x.book).map(|x| x.ms).collect();
        all_ms.extend_from_slice(&ms);
        unproven_ms.extend(
            answers
                .iter()
                .filter(|x| !x.book && !x.proven)
                .map(|x| x.ms),
        );
        let max = ms.iter().copied().fold(0.0, f64::max);
        let med = median(&mut ms).unwrap_or(0.0);
        if a.json {
            let moves: Vec<_> = answers
                .iter()
                .map(|x| {
                    json!({"empties": x.empties, "best": x.best.to_string(),
                           "score": x.discs, "proven": x.proven, "book": x.book,
                           "ms": (x.ms * 10.0).round() / 10.0})
                })
                .collect();
            let row = json!({"game": i + 1, "opening": opening, "answers": answers.len(),
                             "proven_from": from, "median_ms": med.round(), "max_ms": max.round(),
                             "final": final_black, "moves": moves});
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "{:>4} {:<24} {:>7} {:>11} {med:>9.0} {max:>6.0} {final_black:>+5}",
                i + 1,
                opening,
                answers.len(),
                from
            )?;
        }
        out.flush()?;
    }
    let at_22 = froms.iter().filter(|&&f| f >= 22.0).count();
    let max_ms = all_ms.iter().copied().fold(0.0, f64::max);
    let searched = all_ms.len();
    let from_median = median(&mut froms).expect("at least one game");
    let med_ms = median(&mut all_ms).unwrap_or(0.0);
    let med_unproven = median(&mut unproven_ms).unwrap_or(0.0);
    if a.json {
        let row = json!({"games": a.games, "ms": a.ms, "all_moves": a.all_moves, "fresh": a.fresh,
                         "threads": a.threads, "proven_from_median": from_median,
                         "proven_from_22": at_22, "answers": searched,
                         "median_ms": med_ms.round(), "median_unproven_ms": med_unproven.round(),
                         "max_ms": max_ms.round(), "checked": failures.is_empty()});
        writeln!(out, "{row}")?;
    } else {
        writeln!(
            out,
            "proven from a median {from_median} empties over {} games ({at_22} from 22 or more)",
            a.games
        )?;
        writeln!(
            out,
            "{searched} answers searched: median {med_ms:.0} ms (unproven ones {med_unproven:.0}), most {max_ms:.0} ms; budget {} ms",
            a.ms
        )?;
        if failures.is_empty() {
            writeln!(
                out,
                "checked: every proven value kept along its game and the final scores"
            )?;
        }
    }
    if !failures.is_empty() {
        anyhow::bail!(
            "{} game(s) whose proven answers disagree:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&mut [22.0, 20.0, 21.0, 23.0]), Some(21.5));
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut []), None);
    }
}
