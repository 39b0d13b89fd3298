//! How good the learnt evaluation and the midgame engine are outside the solvable endgame,
//! measured against known scores: what `ply bench eval` and `ply bench depth` print (the
//! commands read the files and print the tables; the measures are here).
//!
//! - [`static_error`]: the static evaluation's mean absolute error and bias by number of
//!   empty squares, over positions with exact (or deeply searched) scores;
//! - [`table`]: positions whose every move is scored (Edax's problem files) analysed with
//!   the caller's options, at a fixed depth or within a budget, their moves and estimates
//!   against the scores ([`judge`]), and the set's table ([`Summary`]: best move, top 2 and
//!   3, within 3, 6 and 9 discs, mean absolute error, mean loss, nodes, time), as the
//!   published engines print it;
//! - [`judge_ffo`]: `analyze` with the solver and the book off ([`estimate`]) within a
//!   budget on an FFO position, its move against the scored moves and its score against the
//!   truth;
//! - [`perfect_six_line`] and [`judge_six`]: 6x6, where every position along a perfect line
//!   has a known value, the sign of each estimate against the sign of the truth;
//! - [`depth_changes`]: how much the engine's estimate moves from one depth to the next
//!   (`ply bench depth`), searched to each depth with [`at_depth`].
//!
//! ```
//! use ply_othello::{BoardSize, Position};
//! use ply_train::measure;
//!
//! let e = ply_othello::eval::builtin(BoardSize::Eight).unwrap().clone().with_tempo(0);
//! let pos = Position::start(BoardSize::Eight);
//! // Forty positions will not fit a bucket of empty squares: nothing to report.
//! assert!(measure::static_error(&e, &[(pos, 0)]).is_empty());
//! ```

use std::time::Duration;

use ply_othello::{
    analyze::{self, Analysis, Options, Shown},
    eval::{self, Eval},
    obf::{ObfEntry, ObfLine},
    solve::{SolveOptions, Solver},
    BoardSize, Color, Move, Position, Square,
};

pub mod report;
pub mod table;

pub use table::{judge, Judged, Summary};

/// Buckets of empty squares the static error is reported by (inclusive).
pub const BUCKETS: [(u32, u32); 4] = [(14, 20), (21, 26), (27, 32), (33, 40)];

/// Positions, each with the exact (or searched) score for its side to move, in discs.
pub type Scored = Vec<(Position, i32)>;

/// The static evaluation's error over one bucket of empty squares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BucketError {
    /// The bucket's fewest empty squares.
    pub lo: u32,
    /// The bucket's most empty squares.
    pub hi: u32,
    /// Positions in the bucket.
    pub count: usize,
    /// Mean absolute error, in discs.
    pub mae: f64,
    /// Mean error (evaluation minus truth), in discs.
    pub bias: f64,
}

/// The error of `eval`'s static value (the reference sum, as the fit sees it) against the
/// scores of `scored`, by [`BUCKETS`]; a bucket without positions is left out.
#[must_use]
pub fn static_error(eval: &Eval, scored: &[(Position, i32)]) -> Vec<BucketError> {
    BUCKETS
        .iter()
        .filter_map(|&(lo, hi)| {
            let errs: Vec<f64> = scored
                .iter()
                .filter(|(p, _)| (lo..=hi).contains(&p.empties().count()))
                .map(|(p, exact)| {
                    let v = eval.evaluate_reference(p.player().0, p.opponent().0);
                    f64::from(v) / f64::from(eval::UNIT) - f64::from(*exact)
                })
                .collect();
            if errs.is_empty() {
                return None;
            }
            let n = errs.len() as f64;
            Some(BucketError {
                lo,
                hi,
                count: errs.len(),
                mae: errs.iter().map(|x| x.abs()).sum::<f64>() / n,
                bias: errs.iter().sum::<f64>() / n,
            })
        })
        .collect()
}

/// Checks the entries of an OBF file of scored 8x8 positions: every position has a score.
///
/// # Errors
/// The first entry without a score or not 8x8, as `line N: ...`.
pub fn check_scored(entries: &[ObfEntry]) -> Result<(), String> {
    if let Some(e) = entries.iter().find(|e| e.obf.moves.is_empty()) {
        return Err(format!(
            "line {}: the position has no score (a scored move such as `F5:+2;`)",
            e.line
        ));
    }
    if let Some(e) = entries
        .iter()
        .find(|e| e.obf.position.size() != BoardSize::Eight)
    {
        return Err(format!("line {}: not an 8x8 position", e.line));
    }
    Ok(())
}

/// Each scored position with its score: the best of its scored moves (unscored lines left
/// out; [`check_scored`] refuses them first).
#[must_use]
pub fn scored(entries: Vec<ObfEntry>) -> Scored {
    entries
        .into_iter()
        .filter_map(|e| Some((e.obf.position, e.obf.best_score()?)))
        .collect()
}

/// The analysis with the solver and the book off, one thread, within `budget`: the
/// evaluation's own judgement.
#[must_use]
pub fn estimate(pos: &Position, budget: Duration) -> Analysis {
    let opts = Options {
        solver: false,
        book: false,
        ..Options::budget(budget)
    };
    analyze::analyze(pos, &opts)
}

/// The scored moves of `line` whose score is `score`, by name.
#[must_use]
pub fn moves_scoring(line: &ObfLine, score: i32) -> Vec<String> {
    line.moves
        .iter()
        .filter(|m| m.score == score)
        .map(|m| m.mv.to_string())
        .collect()
}

/// An FFO position judged by [`estimate`]: the move chosen, its exact score in the file, the
/// estimate's error against that score.
#[derive(Clone, Debug, PartialEq)]
pub struct FfoJudged {
    /// The position's exact score.
    pub exact: i32,
    /// The moves scoring `exact`.
    pub best: Vec<String>,
    /// The move chosen.
    pub chose: Square,
    /// Its exact score in the file.
    pub its: i32,
    /// Whether it is optimal (`its == exact`).
    pub optimal: bool,
    /// The estimate, in discs.
    pub estimate: f64,
    /// Its absolute error against `its`, in discs.
    pub error: f64,
    /// The depth the search reached.
    pub depth: u32,
}

/// `line` (an FFO position with every move scored, its best `exact`) judged within `budget`.
///
/// # Errors
/// No move chosen, or a chosen move the line does not score.
pub fn judge_ffo(line: &ObfLine, exact: i32, budget: Duration) -> Result<FfoJudged, String> {
    let a = estimate(&line.position, budget);
    let chose = a.best.ok_or("no move chosen")?;
    let its = line
        .moves
        .iter()
        .find(|m| m.mv == Move::Play(chose))
        .map(|m| m.score)
        .ok_or_else(|| format!("the chosen {chose} has no score in the file"))?;
    let est = a.score.discs();
    Ok(FfoJudged {
        exact,
        best: moves_scoring(line, exact),
        chose,
        its,
        optimal: its == exact,
        estimate: est,
        error: (est - f64::from(its)).abs(),
        depth: a.depth,
    })
}

/// The positions along a perfect line of 6x6 from the start, each with its exact value for
/// the side to move (black's -4 all along, seen from whoever is to move), the start's value
/// checked by solving it. Positions where the side to move must pass are left out.
///
/// # Errors
/// The start solved to another value than -4 (a broken solver).
pub fn perfect_six_line() -> Result<Scored, String> {
    let start = Position::start(BoardSize::Six);
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 256,
    });
    let solved = solver.solve(&start);
    if solved.score.0 != -4 {
        return Err(format!("6x6 start solved to {:+}, not -4", solved.score));
    }
    let mut pos = start;
    let mut out = Vec::new();
    for m in std::iter::once(None).chain(solved.pv.iter().map(Some)) {
        if let Some(m) = m {
            pos = pos
                .play_move(*m)
                .map_err(|e| format!("the perfect line is not legal: {e}"))?;
        }
        if !pos.is_game_over() && pos.can_move() {
            out.push((pos, if pos.turn() == Color::Black { -4 } else { 4 }));
        }
    }
    Ok(out)
}

/// `per_bucket` positions of seeded games of `size` in each of the first two [`BUCKETS`]
/// (up to 26 empties), solved exactly. The seeds are apart from the training set's.
#[must_use]
pub fn solved_game_positions(size: BoardSize, per_bucket: usize) -> Scored {
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 64,
    });
    let mut out = Vec::new();
    for &(lo, hi) in &BUCKETS[..2] {
        let mut found = 0;
        let mut seed = 777_000_000u64;
        while found < per_bucket {
            seed += 1;
            let positions = crate::fit::game_positions(size, seed);
            if let Some(pos) = positions
                .into_iter()
                .find(|p| (lo..=hi).contains(&p.empties().count()))
            {
                let r = solver.solve(&pos);
                out.push((pos, r.score.0));
                found += 1;
            }
        }
    }
    out
}

/// A position of the perfect 6x6 line judged two ways within a budget: the evaluation alone
/// ([`estimate`]) and the analysis as shipped (book, solver, then estimates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SixJudged {
    /// The estimate, in discs.
    pub estimate: f64,
    /// Whether its sign is the truth's.
    pub right_sign: bool,
    /// The shipped analysis's score as shown, in discs.
    pub shipped: f64,
    /// Whether the shipped score is proven.
    pub shipped_proven: bool,
    /// Whether its sign is the truth's.
    pub shipped_right_sign: bool,
}

/// `pos`, whose exact value is `truth`, judged within `budget`.
#[must_use]
pub fn judge_six(pos: &Position, truth: i32, budget: Duration) -> SixJudged {
    let est = estimate(pos, budget).score.discs();
    let shipped = analyze::analyze(pos, &Options::budget(budget));
    let shown = Shown::new(shipped.score, shipped.proven).discs;
    SixJudged {
        estimate: est,
        right_sign: est.signum() == f64::from(truth).signum(),
        shipped: shown,
        shipped_proven: shipped.proven,
        shipped_right_sign: shown.signum() == f64::from(truth).signum(),
    }
}

/// The midgame engine alone (no solver, no book, one thread, the best move only), within
/// `budget` or to `depth`: the search `ply bench depth` measures.
fn engine_alone(budget: Option<Duration>, depth: Option<u32>) -> Options {
    Options {
        budget,
        depth,
        solver: false,
        book: false,
        all_moves: false,
        ..Options::depth(u32::MAX)
    }
}

/// The engine alone on `pos` within `budget`: how deep it gets (and how much of the budget
/// it uses, which the caller times).
#[must_use]
pub fn timed_search(pos: &Position, budget: Duration) -> Analysis {
    analyze::analyze(pos, &engine_alone(Some(budget), None))
}

/// The engine alone on `pos` to exactly `depth` plies, checked: it reports that depth and
/// names a legal move.
///
/// # Errors
/// Another depth reported, or no legal move named.
pub fn at_depth(pos: &Position, depth: u32) -> Result<Analysis, String> {
    let a = analyze::analyze(pos, &engine_alone(None, Some(depth)));
    if a.depth != depth {
        return Err(format!(
            "asked for depth {depth}, the search reports {}",
            a.depth
        ));
    }
    match a.best {
        Some(sq) if pos.is_legal(sq) => Ok(a),
        other => Err(format!(
            "depth {depth}: best move {other:?} is not legal in {pos}"
        )),
    }
}

/// The estimates of `pos` (in discs) at every depth from `from` to `to`, each search from
/// scratch ([`at_depth`]), and the absolute changes between successive depths: how still
/// the estimate holds as the engine searches deeper.
///
/// # Errors
/// What [`at_depth`] refuses.
pub fn depth_changes(pos: &Position, from: u32, to: u32) -> Result<(Vec<f64>, Vec<f64>), String> {
    let mut values = Vec::new();
    for d in from..=to {
        values.push(at_depth(pos, d)?.score.discs());
    }
    let changes = values.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
    Ok((values, changes))
}

#[cfg(test)]
mod tests {
    use ply_othello::obf;

    use super::*;

    /// The static error by bucket is the plain mean of |evaluation - truth| and of
    /// evaluation - truth over the bucket's positions, computed here the long way.
    #[test]
    fn the_static_error_is_the_mean_error_of_each_bucket() {
        let e = eval::builtin(BoardSize::Eight)
            .unwrap()
            .clone()
            .with_tempo(0);
        let mut scored = Vec::new();
        for seed in 1..30 {
            for p in crate::fit::game_positions(BoardSize::Eight, seed) {
                scored.push((p, (seed as i32 % 9) - 4));
            }
        }
        let got = static_error(&e, &scored);
        assert!(!got.is_empty());
        for b in &got {
            let errs: Vec<f64> = scored
                .iter()
                .filter(|(p, _)| (b.lo..=b.hi).contains(&p.empties().count()))
                .map(|(p, s)| {
                    f64::from(e.evaluate_reference(p.player().0, p.opponent().0)) / 64.0
                        - f64::from(*s)
                })
                .collect();
            assert_eq!(b.count, errs.len());
            let n = errs.len() as f64;
            assert!((b.mae - errs.iter().map(|x| x.abs()).sum::<f64>() / n).abs() < 1e-9);
            assert!((b.bias - errs.iter().sum::<f64>() / n).abs() < 1e-9);
            assert!(BUCKETS.contains(&(b.lo, b.hi)));
        }
    }

    /// A scored file's lines must each have a score and be 8x8; a line's score is its best
    /// scored move's.
    #[test]
    fn scored_lines_are_checked_and_take_their_best_score() {
        let start = ply_othello::text::format_position(&Position::start(BoardSize::Eight));
        let good = obf::parse_file(&format!("{start}; F5:+2; E6:-4;\n")).unwrap();
        check_scored(&good).unwrap();
        assert_eq!(scored(good)[0].1, 2);
        let bare = obf::parse_file(&format!("{start}; F5:+2;\n{start};\n")).unwrap();
        assert_eq!(
            check_scored(&bare).unwrap_err(),
            "line 2: the position has no score (a scored move such as `F5:+2;`)"
        );
        let six = Position::start(BoardSize::Six);
        let m = six.legal_moves().next().unwrap();
        let line = format!("{}; {m}:+2;\n", ply_othello::text::format_position(&six));
        let small = obf::parse_file(&line).unwrap();
        assert_eq!(
            check_scored(&small).unwrap_err(),
            "line 1: not an 8x8 position"
        );
    }

    /// The estimates by depth are the engine's own at each depth, and the changes are the
    /// steps between them.
    #[test]
    fn depth_changes_are_the_steps_between_each_depths_estimate() {
        let pos = Position::start(BoardSize::Six);
        let (values, changes) = depth_changes(&pos, 1, 4).unwrap();
        assert_eq!(values.len(), 4);
        for (k, d) in (1..=4).enumerate() {
            assert_eq!(values[k], at_depth(&pos, d).unwrap().score.discs());
        }
        let steps: Vec<f64> = values.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
        assert_eq!(changes, steps);
    }
}
