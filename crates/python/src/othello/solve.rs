//! `ply.othello`'s exact solver and perft: `solve` (the score, a best move and a line, and
//! with `all_moves=True` every move's exact score), `SolveResult`, `perft`.
//!
//! A forced pass is a move like any other here: where the side to move must pass,
//! `best_move` is `"pass"` (the library's solver names only squares as its best move, and
//! starts its line with the pass), so a game loop `board.push(solve(board).best_move)` plays
//! through passes to the end.

use std::sync::atomic::{AtomicBool, Ordering};

use ply_othello::{
    analyze::WholeDiscs,
    perft as lib_perft,
    solve::{SolveControl, SolveOptions, Solver},
    Move, Position,
};
use pyo3::{exceptions::PyMemoryError, prelude::*};

use super::{analysis::MoveScore, board_arg, forced_move};
use crate::{
    args::{int_in, opt_int_in, value_error},
    interrupt, repr_list, repr_opt,
};

/// The exact result of a position.
#[pyclass(module = "ply.othello", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// The exact score for the side to move (disc difference, empties to the winner).
    score: i32,
    /// A best move: a square, `"pass"` when the side to move must pass, `None` when the game
    /// is over.
    best_move: Option<String>,
    /// A principal variation from the position, passes included.
    line: Vec<String>,
    /// Positions searched.
    nodes: u64,
    /// With `all_moves=True`: every legal move's exact score, best first (the pass alone
    /// where the side to move must pass, nothing when the game is over); `None` otherwise.
    moves: Option<Vec<MoveScore>>,
}

#[pymethods]
impl SolveResult {
    fn __repr__(&self) -> String {
        let moves = self
            .moves
            .as_ref()
            .map_or_else(String::new, |m| format!(", moves={}", m.len()));
        format!(
            "SolveResult(score={}, best_move={}, line={}, nodes={}{moves})",
            self.score,
            repr_opt(self.best_move.as_deref()),
            repr_list(&self.line),
            self.nodes
        )
    }
}

/// `threads` (1 by default) within the solver's range.
fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let max = i64::try_from(SolveOptions::MAX_THREADS).expect("small");
    let t = opt_int_in(threads, "threads", 1, max, 1)?;
    Ok(usize::try_from(t).expect("positive"))
}

/// What the worker thread found: the solve, and every move's score when asked.
type Found = (
    ply_othello::solve::SolveResult,
    Option<(Vec<(Move, WholeDiscs)>, u64)>,
);

/// Solves the position and, with `all_moves`, each move (the pass where it is forced: its
/// score is the position's).
fn solve_on(
    solver: &mut Solver,
    pos: &Position,
    all_moves: bool,
    stop: &AtomicBool,
) -> Option<Found> {
    let control = || SolveControl {
        stop: Some(stop),
        ..SolveControl::default()
    };
    let r = solver.solve_with(pos, control()).ok()?;
    if !all_moves {
        return Some((r, None));
    }
    let every = match forced_move(pos) {
        Some(pass) => (vec![(pass, r.score)], 0),
        None => {
            let (moves, nodes) = solver.solve_all_moves_with(pos, control()).ok()?;
            let moves = moves
                .into_iter()
                .map(|(sq, v)| (Move::Play(sq), v))
                .collect();
            (moves, nodes)
        }
    };
    Some((r, Some(every)))
}

/// Solves `board` (a `Board`, or a transcript or position as text) exactly: score, best move
/// and line, and with `all_moves=True` every legal move's exact score. Releases the GIL;
/// Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (board, *, threads = None, hash_mb = None, all_moves = false))]
pub(super) fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    all_moves: bool,
) -> PyResult<SolveResult> {
    let pos = board_arg(board)?;
    let max_mb = i64::try_from(SolveOptions::MAX_HASH_MB).expect("small");
    // The same default as `ply othello solve` (it was 64 here while the solver's own fell to 16).
    let default_mb = i64::try_from(SolveOptions::default().hash_mb).expect("small");
    let hash_mb =
        usize::try_from(opt_int_in(hash_mb, "hash_mb", 1, max_mb, default_mb)?).expect("positive");
    let options = SolveOptions {
        threads: threads_arg(threads)?,
        hash_mb,
    };
    let stop = AtomicBool::new(false);
    // The table is made on the worker too: a large one takes a while to clear, and the GIL
    // stays free meanwhile.
    let found = interrupt::run(py, &stop, || {
        Solver::try_new(options).map(|mut solver| solve_on(&mut solver, &pos, all_moves, &stop))
    })?;
    let (r, every) = found
        .map_err(|e| PyMemoryError::new_err(format!("hash_mb={hash_mb}: {e}")))?
        .ok_or_else(|| value_error("the solve was stopped"))?;
    let empties = pos.empties().count();
    let (moves, more_nodes) = match every {
        Some((moves, nodes)) => {
            let size = pos.size();
            let scored = moves
                .into_iter()
                .map(|(m, v)| MoveScore::exact(m, size, v, empties))
                .collect();
            (Some(scored), nodes)
        }
        None => (None, 0),
    };
    let best = r.best_move.map(Move::Play).or_else(|| forced_move(&pos));
    Ok(SolveResult {
        score: r.score.0,
        best_move: best.map(|m| m.to_string()),
        line: r.pv.iter().map(ToString::to_string).collect(),
        nodes: r.nodes + more_nodes,
        moves,
    })
}

/// Subtrees at most this deep are counted by one library call (a fraction of a second on
/// 8x8); deeper ones are split, so that the stop flag is seen between the calls.
const PERFT_CHUNK: u32 = 9;

/// The library's perft, split into subtrees of at most [`PERFT_CHUNK`] plies with a look at
/// `stop` between them. `None` when stopped.
fn perft_stoppable(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= PERFT_CHUNK {
        return Some(lib_perft::perft(pos, depth));
    }
    let children = lib_perft::divide(pos, 1);
    if children.is_empty() {
        return Some(lib_perft::perft(pos, depth));
    }
    let mut total = 0;
    for (m, _) in children {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let child = pos.play_move(m).expect("divide lists legal moves");
        total += perft_stoppable(&child, depth - 1, stop)?;
    }
    Some(total)
}

/// Leaves of the game tree from `board` (a `Board`, or a transcript or position as text) to
/// `depth` plies (a pass is a ply; a finished game is one leaf at every depth past its end).
/// Releases the GIL; Ctrl-C stops it.
#[pyfunction]
pub(super) fn perft(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    depth: &Bound<'_, PyAny>,
) -> PyResult<u64> {
    let pos = board_arg(board)?;
    let depth = u32::try_from(int_in(depth, "depth", 0, 64)?).expect("small");
    let stop = AtomicBool::new(false);
    interrupt::run(py, &stop, || perft_stoppable(&pos, depth, &stop))?
        .ok_or_else(|| value_error("perft was stopped"))
}
