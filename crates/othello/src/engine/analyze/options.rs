//! What an analysis runs with ([`Options`]: the engine's side of a [`super::Request`]),
//! and the solver a player keeps from move to move ([`KeptSolver`]).

use std::{
    sync::{atomic::AtomicBool, Arc, Mutex},
    time::Duration,
};

use crate::{
    book::Book,
    solve::{SolveOptions, Solver},
    spine::clock::{Clock, SystemClock},
};

/// What to analyse with, and for how long.
#[derive(Clone, Debug)]
pub struct Options {
    /// Wall-clock budget; `None` to search to [`Options::depth`] (or to the end) instead.
    pub budget: Option<Duration>,
    /// Deepest midgame iteration; `None` for no limit but the budget.
    pub depth: Option<u32>,
    /// Threads: the midgame engine shares out the moves among them, the solver searches
    /// each position with all of them.
    pub threads: usize,
    /// Let the exact solver take over near the end of the game.
    pub solver: bool,
    /// Memory for the transposition tables in megabytes, half for the midgame engine's and
    /// all of it for the solver's (which runs after it); `None` for [`table_mb`] of the
    /// position's size, the one policy every front end uses unless told otherwise.
    pub hash_mb: Option<usize>,
    /// Stop as soon as this flag is raised, keeping what is done.
    pub stop: Option<Arc<AtomicBool>>,
    /// Score every move (analysis); `false` to find only the best move and its score
    /// (play), which searches deeper in the same time.
    pub all_moves: bool,
    /// Answer from the opening book where it knows the position: [`Options::book_file`], or
    /// the one shipped for the board size ([`Book::builtin`]).
    pub book: bool,
    /// A book to answer from in place of the shipped one of its board size (a file read with
    /// [`Book::read_any`]: ply's, or one imported from Edax); `None` for the shipped books.
    /// It must be of the position's size: [`Request::options`] refuses another, and one
    /// that reaches [`analyze_with`] anyway answers nothing.
    pub book_file: Option<Arc<Book>>,
    /// Where the budget is measured, by the midgame engine and the solver alike: the
    /// system's clock, or a test's.
    pub clock: Arc<dyn Clock>,
    /// A solver kept from one analysis to the next, for a player analysing the positions of
    /// one game in turn; `None` for a solver of this analysis's own.
    pub kept_solver: Option<KeptSolver>,
}

/// An exact solver kept from one analysis to the next, for a player that analyses the
/// positions of one game in turn (the NBoard and GTP engines, `ply bench play`): its table
/// still holds what the searches of the earlier moves found, the selective passes' moves
/// and the exact bounds of the subtrees they finished, so the solve of the next position
/// starts from their work instead of from an empty table. Near the end of a game, where
/// each position lies in the tree of the one before, that is what lets an answer become
/// exact a move or two earlier.
///
/// The solver is made, with the analysis's threads and table size, by the first analysis
/// that runs it, and again when a later one asks for others; an analysis that finds it in
/// use by another (a clone shares it) makes a solver of its own.
///
/// ```
/// use std::time::Duration;
/// use ply_othello::{analyze::{analyze, KeptSolver, Options}, BoardSize, Position};
///
/// let opts = Options {
///     kept_solver: Some(KeptSolver::default()),
///     ..Options::budget(Duration::from_secs(5))
/// };
/// let a = analyze(&Position::start(BoardSize::Four), &opts);
/// assert!(a.proven);
/// ```
#[derive(Clone, Debug, Default)]
pub struct KeptSolver(pub(super) Arc<Mutex<Option<Solver>>>);

impl KeptSolver {
    /// Whether the solver is made (one in use by an analysis is).
    #[must_use]
    pub fn is_made(&self) -> bool {
        self.0.try_lock().map_or(true, |slot| slot.is_some())
    }

    /// Makes the solver now, with `options`, unless it has them already: a player about to
    /// play on a clock calls it before the game, so that the first move that reaches the
    /// solver does not pay for its table (tens of megabytes written, a fifth of a second on
    /// a busy machine) out of its own time. A solver in use by an analysis is left alone.
    pub fn prepare(&self, options: SolveOptions) {
        if let Ok(mut slot) = self.0.try_lock() {
            if slot.as_ref().is_none_or(|s| s.options() != options) {
                *slot = Some(Solver::new(options));
            }
        }
    }
}

impl Options {
    /// One thread, the solver on, within `budget`.
    #[must_use]
    pub fn budget(budget: Duration) -> Options {
        Options {
            budget: Some(budget),
            ..Options::depth(u32::MAX)
        }
    }

    /// One thread, the solver on, the midgame engine to `depth` plies and no clock.
    #[must_use]
    pub fn depth(depth: u32) -> Options {
        Options {
            budget: None,
            depth: Some(depth),
            threads: 1,
            solver: true,
            hash_mb: None,
            stop: None,
            all_moves: true,
            book: true,
            book_file: None,
            clock: Arc::new(SystemClock),
            kept_solver: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepare_makes_the_solver_once_and_again_for_other_options() {
        let kept = KeptSolver::default();
        assert!(kept.0.lock().unwrap().is_none());
        let small = SolveOptions {
            threads: 1,
            hash_mb: 1,
        };
        kept.prepare(small);
        let first = kept.0.lock().unwrap().as_ref().map(Solver::options);
        assert_eq!(first, Some(small));
        // The same options: the solver, and what its table holds, is kept, not remade: a
        // second solve of the same position finds it in the table.
        let pos = crate::Position::start(crate::BoardSize::Four);
        let solve = |k: &KeptSolver| k.0.lock().unwrap().as_mut().map(|s| s.solve(&pos).nodes);
        let cold = solve(&kept).unwrap();
        kept.prepare(small);
        let warm = solve(&kept).unwrap();
        assert!(warm < cold, "{warm} nodes after {cold}: the table was lost");
        let two = SolveOptions {
            threads: 2,
            hash_mb: 2,
        };
        kept.prepare(two);
        assert_eq!(
            kept.0.lock().unwrap().as_ref().map(Solver::options),
            Some(two)
        );
        // In use by an analysis: left alone.
        let busy = kept.0.lock().unwrap();
        kept.prepare(small);
        assert_eq!(busy.as_ref().map(Solver::options), Some(two));
    }
}
