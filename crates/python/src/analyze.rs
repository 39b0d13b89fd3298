//! Every move's score: exact where the solver finishes, else the midgame engine's estimate.
//!
//! This is the composition the server's `/api/othello/analyze` uses today (solver first for
//! at most [`SOLVER_EMPTIES`] empty squares with 60% of the budget, then the midgame engine).
//! It is kept to this one function so that it becomes a call of the library's own analysis
//! entry point (`ply_othello::analyze`) when that exists.

use std::{
    sync::{atomic::AtomicBool, Arc},
    time::{Duration, Instant},
};

use ply_othello::{
    midgame::{self, Limits, DISC},
    solve::{SolveControl, SolveOptions, Solver},
    Move, Position, Square,
};

/// Positions with at most this many empty squares go to the exact solver first (as the
/// server does).
const SOLVER_EMPTIES: u32 = 24;

/// One move's score, in discs, for the side that plays it.
#[derive(Clone, Copy, Debug)]
pub struct MoveScore {
    pub square: Square,
    pub score: f64,
    pub exact: bool,
}

/// What the analysis found, scores in discs from the side to move's view.
#[derive(Clone, Debug)]
pub struct Found {
    pub score: f64,
    pub exact: bool,
    pub best: Option<Square>,
    pub line: Vec<Move>,
    pub moves: Vec<MoveScore>,
    pub depth: u32,
    pub nodes: u64,
    pub engine: &'static str,
}

/// Analyses `pos` within `budget`, stopping early when `stop` is raised.
pub fn analyze(pos: &Position, budget: Duration, stop: &Arc<AtomicBool>) -> Found {
    let started = Instant::now();
    let exact = if !pos.is_game_over() && pos.empties().count() <= SOLVER_EMPTIES {
        solve_exactly(pos, started + budget.mul_f64(0.6), stop)
    } else {
        None
    };
    exact.unwrap_or_else(|| search(pos, started + budget, stop.clone()))
}

/// The exact solver within `deadline`; `None` when it did not finish in time.
fn solve_exactly(pos: &Position, deadline: Instant, stop: &AtomicBool) -> Option<Found> {
    let empties = pos.empties().count();
    let hash_mb = if empties <= 14 { 1 } else { 16 };
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb,
    });
    let control = || SolveControl {
        stop: Some(stop),
        deadline: Some(deadline),
        progress: None,
    };
    if !pos.can_move() {
        let r = solver.solve_with(pos, control()).ok()?;
        return Some(Found {
            score: f64::from(r.score),
            exact: true,
            best: None,
            line: r.pv,
            moves: Vec::new(),
            depth: empties,
            nodes: r.nodes,
            engine: "solver",
        });
    }
    let (scores, mut nodes) = solver.solve_all_moves_with(pos, control()).ok()?;
    let &(best, score) = scores.first()?;
    let mut line = vec![Move::Play(best)];
    if let Ok(r) = solver.solve_with(&pos.play_unchecked(best), control()) {
        line.extend(r.pv);
        nodes += r.nodes;
    }
    Some(Found {
        score: f64::from(score),
        exact: true,
        best: Some(best),
        line,
        moves: scores
            .iter()
            .map(|&(square, v)| MoveScore {
                square,
                score: f64::from(v),
                exact: true,
            })
            .collect(),
        depth: empties,
        nodes,
        engine: "solver",
    })
}

/// The midgame engine until `deadline`.
fn search(pos: &Position, deadline: Instant, stop: Arc<AtomicBool>) -> Found {
    let limits = Limits {
        deadline: Some(deadline),
        stop: Some(stop),
        table_bits: 18,
        ..Limits::default()
    };
    let a = midgame::analyze(pos, &limits);
    let discs = |score: i32| f64::from(score) / f64::from(DISC);
    Found {
        score: discs(a.score),
        exact: a.exact,
        best: a.best,
        line: a.pv,
        moves: a
            .moves
            .iter()
            .map(|m| MoveScore {
                square: m.square,
                score: discs(m.score),
                exact: m.exact,
            })
            .collect(),
        depth: a.depth,
        nodes: a.nodes,
        engine: "midgame",
    }
}
