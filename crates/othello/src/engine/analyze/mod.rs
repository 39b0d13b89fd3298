//! The one analysis entry point: every legal move of a position with its score, exact where
//! the solver finishes in time, estimated by the midgame engine elsewhere. The command line
//! (`ply othello analyze`), the web page's API, the NBoard engine and the Python package all
//! call [`analyze`].
//!
//! 0. The opening book ([`crate::book`]) scores the moves it knows, marked
//!    [`MoveValue::book`]: on 6x6 exactly (the position's value and an optimal move, and
//!    every move whose position after it is in the book), on 8x8 by deep searches negamaxed
//!    through the book (every move of a book position, with the depth its score rests on;
//!    some of them in a partial book, as Edax's, whose best is the position's best). The
//!    book is the one shipped for the board size, or the one [`Options::book_file`] names.
//!    When that is every move (or, in play, the best one), the analysis is done at once.
//! 1. The midgame engine ([`crate::midgame`]) scores every move by iterative deepening over
//!    the learnt evaluation, with all of the budget when the position is far from the end,
//!    with a part of it when the solver may finish.
//! 2. Then the exact solver takes the moves one by one, the best estimate first, each within
//!    what is left of the budget: the best line becomes exact first, and every solved move
//!    replaces its estimate.
//!
//! [`analyze_with`]'s `progress` sees the analysis after every midgame iteration and every
//! solved move, so a display can show estimates at once and exact values as they come.
//!
//! ```
//! use std::time::Duration;
//! use ply_othello::{analyze::{analyze, Options}, BoardSize, Position};
//!
//! let a = analyze(&Position::start(BoardSize::Four), &Options::budget(Duration::from_secs(5)));
//! assert!(a.proven && a.all_exact);
//! assert_eq!(a.score, ply_othello::analyze::WholeDiscs(-10).into());
//! ```

mod fold;
mod known;
mod options;
mod plan;
mod report;
mod request;

pub use options::{KeptSolver, Options};
pub use plan::table_mb;
pub use report::{Discs, MoveReport, Report, Shown, Status};
pub use request::{Request, RequestError, MAX_DEPTH, MAX_TIME_S};

pub use crate::spine::MAX_THREADS;

use fold::{fold_selective, settle};
use known::Known;
use plan::{midgame_table_bits, Plan};

use crate::{
    book::Book,
    engine::memory::Pool,
    midgame::{self, Limits},
    solve::{self, Progress, SolveControl, SolveOptions, Solver},
    Position, Square,
};

/// One disc of score in analysis units, and the score types ([`crate::spine::units`]).
pub use crate::spine::units::{Discs64, WholeDiscs, DISC};

/// The one analysis type, which the midgame engine returns too (its scores in 64ths of a
/// disc, [`Discs64`]; its moves' [`MoveValue::book`] set here).
pub use crate::spine::analysis::{Analysis, Engine, MoveValue};

/// Solvers kept between analyses on a clock that bring none of their own
/// ([`Options::kept_solver`]): the next one neither clears a fresh table nor starts from
/// nothing ([`Pool`]). Analyses without a clock make their own, so that their results depend
/// on the position alone.
static KEPT_SOLVERS: Pool<Solver> = Pool::new();

/// An analysis's own solver, given to [`KEPT_SOLVERS`] at the end when `keep` is set.
struct Lent {
    solver: Option<Solver>,
    keep: bool,
}

impl Drop for Lent {
    fn drop(&mut self) {
        if let (true, Some(s)) = (self.keep, self.solver.take()) {
            KEPT_SOLVERS.give(s);
        }
    }
}

/// Analyses `pos` within `opts`, calling `progress` whenever a score improves.
pub fn analyze_with(
    pos: &Position,
    opts: &Options,
    progress: &mut dyn FnMut(&Analysis),
) -> Analysis {
    let started = opts.clock.now();
    let hash_mb = opts.hash_mb.unwrap_or_else(|| table_mb(pos.size())).max(1);
    let deadline = opts.budget.map(|b| started + b);
    if pos.is_game_over() {
        return Analysis::game_over(pos);
    }
    if !pos.can_move() {
        let mut report = |a: &Analysis| progress(&a.clone().passed());
        return analyze_with(&pos.passed(), opts, &mut report).passed();
    }
    let mut known = if opts.book {
        // A book of another size ([`Request::options`] refuses one) knows nothing of the
        // position: it answers nothing, and the shipped book does not stand in for it.
        let chosen = match opts.book_file.as_deref() {
            Some(b) => (b.size() == pos.size()).then_some(b),
            None => Book::builtin(pos.size()),
        };
        match chosen {
            Some(book) => Known::from_book(book, pos),
            None => Known::default(),
        }
    } else {
        Known::default()
    };
    if let Some(a) = known.complete(pos, opts.all_moves) {
        progress(&a);
        return a;
    }
    let empties = pos.empties().count();
    let plan = Plan::new(pos.size(), empties, opts);

    // 1. Estimates for every move.
    let limits = Limits {
        max_depth: plan.midgame_depth,
        deadline: plan.midgame_budget.map(|b| started + b),
        stop: opts.stop.clone(),
        table_bits: midgame_table_bits(hash_mb),
        all_moves: opts.all_moves,
        selective: true,
        threads: opts.threads.max(1),
        clock: opts.clock.clone(),
    };
    let mid = midgame::analyze_with(pos, &limits, &mut |a| {
        progress(&known.folded(pos, a.clone()));
    });
    let mut a = known.folded(pos, mid);
    if plan.solver.is_none() || a.all_exact {
        return a;
    }

    // 2. The solver: the position first, unless the book knows it, so that its best move
    // becomes exact and no other move can score more than its value; then, for an
    // analysis of every move, the others, best estimate first.
    let wanted = SolveOptions {
        threads: opts.threads.max(1),
        hash_mb,
    };
    let mut kept = opts.kept_solver.as_ref().and_then(|k| k.0.try_lock().ok());
    // Without a solver of the caller's, one on a clock borrows a kept one ([`Lent`]).
    let mut own = Lent {
        solver: None,
        keep: deadline.is_some(),
    };
    let solver: &mut Solver = match kept.as_deref_mut() {
        Some(slot) => match slot {
            Some(s) if s.options() == wanted => s,
            _ => slot.insert(Solver::new(wanted)),
        },
        None => own.solver.insert(
            own.keep
                .then(|| KEPT_SOLVERS.take(|s| s.options() == wanted))
                .flatten()
                .unwrap_or_else(|| Solver::new(wanted)),
        ),
    };
    let control = || SolveControl {
        stop: opts.stop.as_deref(),
        deadline,
        clock: &*opts.clock,
        progress: None,
    };
    if known.value.is_none() {
        // Each selective pass that settles before the exact search gives a move and a score
        // surer than the midgame engine's: it replaces the estimate, with its confidence.
        // The solver's nodes so far count too (its reporting thread's: a lower bound).
        let midgame_nodes = a.nodes;
        let mut on_progress = |p: &Progress| {
            if let (true, Some((sq, v))) = (p.settled, p.best) {
                a.nodes = midgame_nodes + p.nodes;
                let percent = (p.pass.confidence() * 100.0).round() as u8;
                fold_selective(&mut a, sq, v.into(), percent, empties, opts.all_moves);
                progress(&a);
            }
        };
        let solved = solver.solve_with(
            pos,
            SolveControl {
                progress: Some(&mut on_progress),
                ..control()
            },
        );
        let Ok(r) = solved else {
            return a;
        };
        a.nodes = midgame_nodes;
        a.selective = None;
        let best = r.best_move.expect("the side to move has a move");
        let solved = MoveValue {
            square: best,
            score: r.score.into(),
            exact: true,
            depth: empties,
            book: false,
        };
        a.nodes += r.nodes;
        if opts.all_moves {
            known.value = Some(solved.score);
            known.moves.push(solved);
            a = known.folded(pos, a);
        } else {
            a.moves = vec![solved];
            a.best = Some(best);
            a.score = solved.score;
            a.proven = true;
            a.all_exact = true;
            a.depth = empties;
            a.engine = Engine::Solver;
        }
        if a.best == Some(best) {
            a.line = r.pv;
        }
        progress(&a);
    }
    if !opts.all_moves {
        return a;
    }
    let order: Vec<Square> = a
        .moves
        .iter()
        .filter(|m| !m.exact)
        .map(|m| m.square)
        .collect();
    // The one solve-each-move loop (the solver's own), which takes a move's score from a
    // symmetric image solved before it instead of searching it again.
    let found = |_: usize, sq: Square, score: WholeDiscs, r: Option<&solve::SolveResult>| {
        a.nodes += r.map_or(0, |r| r.nodes);
        let m = a
            .moves
            .iter_mut()
            .find(|m| m.square == sq)
            .expect("a legal move");
        *m = MoveValue {
            square: sq,
            score: score.into(),
            exact: true,
            depth: empties,
            book: false,
        };
        settle(&mut a, pos, sq, r.map_or(&[][..], |r| &r.pv));
        progress(&a);
    };
    // Stopped: the moves solved so far are in.
    let _ = solve::each_move(
        pos,
        &order,
        |child| solver.solve_with(child, control()).map(|r| (r.score, r)),
        found,
    );
    a
}

/// [`analyze_with`] without progress reports.
#[must_use]
pub fn analyze(pos: &Position, opts: &Options) -> Analysis {
    analyze_with(pos, opts, &mut |_| {})
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::BoardSize;

    /// A kept solver that another analysis holds is left alone: this one solves with a
    /// solver of its own, to the same answer in the same nodes as without one.
    /// Analyses on a clock keep their tables for the next one; an analysis to a fixed depth
    /// neither reads nor needs them: it comes out the same, nodes included, before and after.
    #[test]
    fn a_fixed_depth_analysis_is_untouched_by_the_tables_kept_from_clocked_ones() {
        let pos =
            crate::transcript::parse("f5d6c3d3c4f4f6f3e6e7", Position::start(BoardSize::Eight))
                .unwrap()
                .position();
        let fixed = Options {
            book: false,
            ..Options::depth(5)
        };
        let clocked = Options {
            book: false,
            ..Options::budget(Duration::from_millis(50))
        };
        let before = analyze(&pos, &fixed);
        for _ in 0..2 {
            assert!(analyze(&pos, &clocked).best.is_some());
        }
        assert_eq!(analyze(&pos, &fixed), before);
    }

    #[test]
    fn a_kept_solver_in_use_elsewhere_is_left_alone() {
        let pos = Position::start(BoardSize::Four);
        let opts = |kept: Option<KeptSolver>| Options {
            kept_solver: kept,
            ..Options::depth(16)
        };
        let own = analyze(&pos, &opts(None));
        let kept = KeptSolver::default();
        let held = kept.0.lock().expect("not poisoned");
        let a = analyze(&pos, &opts(Some(kept.clone())));
        assert!(held.is_none(), "the held solver was not made");
        assert!(a.proven);
        assert_eq!((a.score, a.best, a.nodes), (own.score, own.best, own.nodes));
        drop(held);
        // Free again, it is made and kept.
        assert!(analyze(&pos, &opts(Some(kept.clone()))).proven);
        assert!(kept.0.lock().expect("not poisoned").is_some());
    }
}
