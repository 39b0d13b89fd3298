//! The midgame engine: plays and analyses positions too deep to solve within a time budget.
//!
//! Iterative deepening over [`search`](self) (negamax alpha-beta with principal-variation
//! search, a transposition table and move ordering) on top of a hand-built evaluation
//! ([`evaluate`]: mobility, potential mobility, corners and the X- and C-squares next to
//! them, stable discs, parity). Every legal move at the root is searched with a full window,
//! so each gets its own score, not just a bound: an analysis page wants the value of every
//! move, not only the best one. Passes do not use up depth, so an iteration as deep as the
//! number of empty squares reaches the end of every line: from there on the scores are
//! exact, and the search stops.
//!
//! Scores are in evaluation units, [`DISC`] per disc of final score, from the side to move's
//! view.
//!
//! ```
//! use std::time::Duration;
//! use ply_othello::{midgame::{analyze, Limits, DISC}, BoardSize, Position};
//!
//! // 4x4 is small enough to search to the end: white wins by 8 discs, -10 with empties.
//! let a = analyze(&Position::start(BoardSize::Four), &Limits::budget(Duration::from_secs(10)));
//! assert!(a.exact);
//! assert_eq!(a.score, -10 * DISC);
//! assert_eq!(a.moves.len(), 4);
//! ```

mod eval;
mod search;

use std::{
    sync::{atomic::AtomicBool, Arc},
    time::{Duration, Instant},
};

pub use eval::{evaluate, stable_discs, DISC};
use search::{Searcher, INF};

use crate::{Move, Position, Square};

/// When to stop searching. The first iteration (depth 1) always completes, so every
/// analysis has an answer however small the budget.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest iteration, in plies (passes are free).
    pub max_depth: u32,
    /// Stop at this instant, keeping the last complete iteration.
    pub deadline: Option<Instant>,
    /// Stop as soon as this flag is raised.
    pub stop: Option<Arc<AtomicBool>>,
    /// The transposition table has `2^table_bits` entries (clamped to 4..=24).
    pub table_bits: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: u32::MAX,
            deadline: None,
            stop: None,
            table_bits: 16,
        }
    }
}

impl Limits {
    /// Search to a fixed depth, without a clock.
    #[must_use]
    pub fn depth(max_depth: u32) -> Limits {
        Limits {
            max_depth,
            ..Limits::default()
        }
    }

    /// Search until `budget` from now has passed.
    #[must_use]
    pub fn budget(budget: Duration) -> Limits {
        Limits {
            deadline: Some(Instant::now() + budget),
            ..Limits::default()
        }
    }
}

/// The score of one legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The move.
    pub square: Square,
    /// Score after the move for the side that played it, in [`DISC`] units.
    pub score: i32,
    /// True when the score is the exact result under perfect play, false for an estimate.
    pub exact: bool,
}

/// What an analysis found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Every legal move, best first. Empty when the side to move must pass or the game is over.
    pub moves: Vec<MoveScore>,
    /// The move to play; `None` for a pass or when the game is over.
    pub best: Option<Square>,
    /// Score of the position for the side to move, in [`DISC`] units.
    pub score: i32,
    /// True when `score` and every move's score are exact.
    pub exact: bool,
    /// Depth of the last complete iteration (0 when the game is over).
    pub depth: u32,
    /// The expected line from here, passes included.
    pub pv: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// Analyses every legal move of `pos` by iterative deepening within `limits`.
#[must_use]
pub fn analyze(pos: &Position, limits: &Limits) -> Analysis {
    let empties = pos.empties().count();
    if pos.is_game_over() {
        return Analysis {
            moves: Vec::new(),
            best: None,
            score: pos.final_score() * DISC,
            exact: true,
            depth: 0,
            pv: Vec::new(),
            nodes: 1,
        };
    }
    if !pos.can_move() {
        let mut a = analyze(&pos.passed(), limits);
        a.score = -a.score;
        a.pv.insert(0, Move::Pass);
        a.best = None;
        a.moves.clear();
        return a;
    }

    let mut searcher = Searcher::new(pos.size(), limits);
    let mut order: Vec<Square> = pos.legal_moves().collect();
    let mut done: Option<(u32, Vec<MoveScore>, Vec<Move>)> = None;
    let last_depth = limits.max_depth.clamp(1, empties);
    for depth in 1..=last_depth {
        let exact = depth >= empties;
        let mut scores: Vec<MoveScore> = Vec::with_capacity(order.len());
        let mut line = Vec::new();
        for &sq in &order {
            let child = pos.play_unchecked(sq);
            let s = -searcher.search::<true>(
                child.player().0,
                child.opponent().0,
                depth - 1,
                -INF,
                INF,
            );
            if searcher.aborted {
                break;
            }
            // Read the line at once, while the table still holds it: the searches of the
            // other root moves overwrite entries.
            if scores.iter().all(|m| s > m.score) {
                line = principal_line(&searcher, sq, &child, depth);
            }
            scores.push(MoveScore {
                square: sq,
                score: s,
                exact,
            });
        }
        if searcher.aborted {
            break;
        }
        // Stable sort: among equal scores the earlier (better ordered) move stays first.
        scores.sort_by_key(|m| std::cmp::Reverse(m.score));
        order = scores.iter().map(|m| m.square).collect();
        done = Some((depth, scores, line));
        searcher.may_abort = true;
        if searcher.aborted || limits.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    let (depth, moves, pv) = done.expect("the first iteration runs without a clock");
    let best = moves[0];
    debug_assert_eq!(pv.first(), Some(&Move::Play(best.square)));
    Analysis {
        score: best.score,
        best: Some(best.square),
        exact: best.exact,
        depth,
        pv,
        nodes: searcher.nodes,
        moves,
    }
}

/// The expected line after the root move `first` (leading to `child`): the table's best
/// moves, at most `depth` plies, passes included.
fn principal_line(
    searcher: &Searcher<'_>,
    first: Square,
    child: &Position,
    depth: u32,
) -> Vec<Move> {
    let mut line = vec![Move::Play(first)];
    let mut cur = *child;
    while line.len() < depth as usize && !cur.is_game_over() {
        if !cur.can_move() {
            line.push(Move::Pass);
            cur = cur.passed();
            continue;
        }
        match searcher.table_move(cur.player().0, cur.opponent().0) {
            Some(sq) => {
                line.push(Move::Play(sq));
                cur = cur.play_unchecked(sq);
            }
            None => break,
        }
    }
    line
}

/// The move the engine would play (`None` when it must pass or the game is over).
#[must_use]
pub fn best_move(pos: &Position, limits: &Limits) -> Option<Square> {
    analyze(pos, limits).best
}
