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
    time::{Duration, Instant},
};

use anyhow::anyhow;
use ply_othello::{
    analyze::{self, Analysis, Engine, KeptSolver},
    solve::SolveOptions,
    Color, Position, Square,
};
use serde_json::json;

use crate::{error::bad, othello::common::move_options};

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

/// One answer of a game: the position's empties and side to move, and what the analysis said.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Answer {
    empties: u32,
    mover: Color,
    best: Square,
    /// The analysis's score for the side to move, in discs.
    discs: f64,
    proven: bool,
    book: bool,
    ms: f64,
}

impl Answer {
    /// The proven value of the position for black, in discs.
    fn black_value(&self) -> Option<i32> {
        let v = self.discs.round() as i32;
        self.proven
            .then_some(if self.mover == Color::Black { v } else { -v })
    }
}

/// Where a game's proven answers contradict each other or its result: the index of the
/// answer (or `answers.len()` for the final score) and what is wrong.
///
/// The value for black is tracked as a range: a proven answer pins it, its move keeps it
/// (perfect play), and an answer that is not proven can only lower its own side's value (an
/// unproven black move can lower black's value, an unproven white move raise it).
fn contradiction(answers: &[Answer], final_black: i32) -> Option<(usize, String)> {
    let (mut lo, mut hi): (Option<i32>, Option<i32>) = (None, None);
    let mut pinned_by: Option<usize> = None;
    let within = |v: i32, lo: Option<i32>, hi: Option<i32>| {
        lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h)
    };
    let since = |by: Option<usize>| {
        by.map_or(String::new(), |i| {
            format!(
                " (the proven answer at {} empties said {:+})",
                answers[i].empties,
                answers[i].black_value().unwrap_or(0)
            )
        })
    };
    for (i, a) in answers.iter().enumerate() {
        match a.black_value() {
            Some(v) => {
                if !within(v, lo, hi) {
                    return Some((
                        i,
                        format!(
                            "proven {v:+} for black at {} empties, outside {}..{}{}",
                            a.empties,
                            lo.map_or("".into(), |l| format!("{l:+}")),
                            hi.map_or("".into(), |h| format!("{h:+}")),
                            since(pinned_by)
                        ),
                    ));
                }
                (lo, hi, pinned_by) = (Some(v), Some(v), Some(i));
            }
            None if a.mover == Color::Black => lo = None,
            None => hi = None,
        }
    }
    (!within(final_black, lo, hi)).then(|| {
        (
            answers.len(),
            format!(
                "the game ended {final_black:+} for black{}",
                since(pinned_by)
            ),
        )
    })
}

/// The empties of the first answer from which every answer to the end of the game was
/// proven; `None` when the last was not.
fn proven_from(answers: &[Answer]) -> Option<u32> {
    let last_unproven = answers.iter().rposition(|a| !a.proven);
    let first = last_unproven.map_or(0, |i| i + 1);
    answers.get(first).map(|a| a.empties)
}

/// The median of `values` (the mean of the middle two for an even count); `None` when empty.
pub(crate) fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

/// One self-play game from `start`: every answer, and the final score for black.
fn play(start: &Position, a: &Args, budget: Duration) -> anyhow::Result<(Vec<Answer>, i32)> {
    let mut opts = move_options(60, budget, a.threads);
    opts.all_moves = a.all_moves;
    opts.hash_mb = a.hash_mb;
    // Each side is its own engine, as two NBoard engines in a match are: it keeps its own
    // solver from one of its moves to the next.
    let kept = [KeptSolver::default(), KeptSolver::default()];
    let mut pos = *start;
    let mut answers = Vec::new();
    while !pos.is_game_over() {
        if !pos.can_move() {
            pos = pos.passed();
            continue;
        }
        opts.kept_solver =
            (!a.fresh).then(|| kept[usize::from(pos.turn() == Color::White)].clone());
        let started = Instant::now();
        let found: Analysis = analyze::analyze(&pos, &opts);
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let best = found
            .best
            .ok_or_else(|| anyhow!("no move named in {pos}"))?;
        answers.push(Answer {
            empties: pos.empties().count(),
            mover: pos.turn(),
            best,
            discs: found.score.discs(),
            proven: found.proven,
            book: found.engine == Engine::Book,
            ms,
        });
        pos = pos
            .play(best)
            .map_err(|e| anyhow!("{best} in {pos}: {e}"))?;
    }
    let score = pos.final_score();
    let black = if pos.turn() == Color::Black {
        score
    } else {
        -score
    };
    Ok((answers, black))
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
    let openings = super::versus::xot_openings(a.data.as_deref(), a.games)?;
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
    for (i, (opening, start)) in openings.iter().enumerate() {
        let (answers, final_black) = play(start, &a, budget)?;
        if let Some((at, what)) = contradiction(&answers, final_black) {
            let place = answers.get(at).map_or("at the end".to_string(), |x| {
                format!("at answer {} ({} empties)", at + 1, x.empties)
            });
            let moves: String = answers.iter().map(|x| x.best.to_string()).collect();
            failures.push(format!(
                "game {} ({opening}), {place}: {what}; the game: {opening}{moves}",
                i + 1
            ));
        }
        let from = proven_from(&answers)
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

    fn answer(empties: u32, mover: Color, discs: f64, proven: bool) -> Answer {
        Answer {
            empties,
            mover,
            best: Square::parse("a1").unwrap(),
            discs,
            proven,
            book: false,
            ms: 1.0,
        }
    }

    use Color::{Black as B, White as W};

    #[test]
    fn proven_answers_must_keep_the_value() {
        // Black proves +4, white then proves -4 (+4 for black), and the game ends +4.
        let kept = [answer(3, B, 4.0, true), answer(2, W, -4.0, true)];
        assert_eq!(contradiction(&kept, 4), None);
        assert_eq!(proven_from(&kept), Some(3));
        // White's proven answer says black has +6: the value moved with no unproven answer.
        let moved = [answer(3, B, 4.0, true), answer(2, W, -6.0, true)];
        assert_eq!(contradiction(&moved, 6).map(|c| c.0), Some(1));
        // The final score disagrees with the last proven answer.
        assert_eq!(contradiction(&kept, 2).map(|c| c.0), Some(2));
    }

    #[test]
    fn an_unproven_answer_can_only_lower_its_own_sides_value() {
        // Black estimates, then white proves black's value: it may be lower than before...
        let lower = [
            answer(5, B, 4.0, true),
            answer(4, W, 0.0, false),
            answer(3, B, 2.0, false),
            answer(2, W, -2.0, true),
        ];
        // ... white's unproven answer could have raised it too, so anything goes.
        assert_eq!(contradiction(&lower, 2), None);
        let black_only = [
            answer(5, B, 4.0, true),
            answer(4, B, 2.0, false),
            answer(3, W, -6.0, true),
        ];
        // Only black answered without proof: black's value cannot have risen to +6.
        assert_eq!(contradiction(&black_only, 6).map(|c| c.0), Some(2));
        assert_eq!(proven_from(&black_only), Some(3));
        assert_eq!(proven_from(&black_only[..2]), None);
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&mut [22.0, 20.0, 21.0, 23.0]), Some(21.5));
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut []), None);
    }
}
