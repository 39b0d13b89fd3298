//! The midgame engine: plays and analyses positions too deep to solve within a time budget.
//!
//! Iterative deepening over [`search`](self) (negamax alpha-beta with principal-variation
//! search, a transposition table kept across iterations, move ordering and Multi-ProbCut)
//! on top of the learnt evaluation ([`crate::eval`]). In analysis mode
//! ([`Limits::all_moves`]) every legal move at the root gets its own score, each searched
//! with an aspiration window around its score of the previous iteration; in play mode only
//! the best move is proved best. Passes do not use up depth, so an iteration as deep as the
//! number of empty squares, searched without pruning, reaches the end of every line: its
//! scores are exact.
//!
//! Scores are in evaluation units, [`DISC`] per disc of final score (an analysis's in
//! [`Discs64`](crate::analyze::Discs64)), from the side to move's view. An analysis comes back as the one analysis type, [`crate::analyze::Analysis`], with
//! its own scores only (none from the book, no selective confidence), `proven` only when every
//! move is exact (then `all_exact` too).
//!
//! ```
//! use std::time::Duration;
//! use ply_othello::{analyze::WholeDiscs, midgame::{analyze, Limits}, BoardSize, Position};
//!
//! // 4x4 is small enough to search to the end: white wins by 8 discs, -10 with empties.
//! let a = analyze(&Position::start(BoardSize::Four), &Limits::budget(Duration::from_secs(10)));
//! assert!(a.proven && a.all_exact);
//! assert_eq!(a.score.whole(), WholeDiscs(-10));
//! assert_eq!(a.moves.len(), 4);
//! ```

/// Multi-ProbCut's model, shared with the solver's selective passes.
pub use crate::spine::probcut as mpc;
mod search;

use crate::cpu::{with_cpu, Cpu};
use std::{
    sync::{atomic::AtomicBool, Arc},
    time::{Duration, Instant},
};

use search::{Searcher, INF};

/// Bytes of one entry of the midgame engine's transposition table: the size of its entry
/// type, which [`Limits::table_bits`] and the analysis's memory share are counted in.
pub const TABLE_ENTRY_BYTES: usize = search::ENTRY_BYTES;

use crate::{
    spine::{
        analysis::{Analysis, Engine, MoveValue},
        aspiration::{self, Widen},
        clock::{Clock, SystemClock},
        line,
        units::{Discs64, WholeDiscs},
    },
    Move, Position, Square,
};

/// One disc of score in the engine's units: the one [`crate::spine::units::DISC`].
pub use crate::spine::units::DISC;

/// Half-width of the aspiration window around a move's previous score.
const ASPIRATION: i32 = WholeDiscs(2).in_64ths().0;

/// When to stop searching, and how. The first iteration (depth 1) always completes, so
/// every analysis has an answer however small the budget.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest iteration, in plies (passes are free).
    pub max_depth: u32,
    /// Stop at this instant, keeping the last complete iteration.
    pub deadline: Option<Instant>,
    /// Stop as soon as this flag is raised.
    pub stop: Option<Arc<AtomicBool>>,
    /// The transposition table has `2^table_bits` entries of [`TABLE_ENTRY_BYTES`] each
    /// (clamped to 4..=26).
    pub table_bits: u32,
    /// Score every legal move (analysis) rather than only prove the best one (play).
    pub all_moves: bool,
    /// Multi-ProbCut below the root, except in the iteration that reaches the end of the
    /// game.
    pub selective: bool,
    /// Threads sharing out the root moves (analysis mode only; play mode uses one).
    pub threads: usize,
    /// Where the deadline is read against: the system's clock, or a test's.
    pub clock: Arc<dyn Clock>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: u32::MAX,
            deadline: None,
            stop: None,
            table_bits: 20,
            all_moves: true,
            selective: true,
            threads: 1,
            clock: Arc::new(SystemClock),
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

    /// Search until `budget` from now has passed, on the system's clock.
    #[must_use]
    pub fn budget(budget: Duration) -> Limits {
        Limits::budget_on(Arc::new(SystemClock), budget)
    }

    /// Search until `budget` from now has passed on `clock`.
    ///
    /// ```
    /// use std::{sync::Arc, time::Duration};
    /// use ply_othello::{midgame::Limits, spine::clock::{Clock, SteppingClock}};
    ///
    /// let clock = Arc::new(SteppingClock::new(Duration::from_millis(1)));
    /// let limits = Limits::budget_on(clock.clone(), Duration::from_millis(50));
    /// // The deadline is 50 ms after the clock's one read.
    /// assert_eq!(limits.deadline.unwrap() - clock.now(), Duration::from_millis(49));
    /// ```
    #[must_use]
    pub fn budget_on(clock: Arc<dyn Clock>, budget: Duration) -> Limits {
        Limits {
            deadline: Some(clock.now() + budget),
            clock,
            ..Limits::default()
        }
    }
}

/// Analyses `pos` by iterative deepening within `limits`.
#[must_use]
pub fn analyze(pos: &Position, limits: &Limits) -> Analysis {
    analyze_with(pos, limits, &mut |_| {})
}

/// [`analyze`], calling `progress` with the analysis so far after every iteration.
pub fn analyze_with(
    pos: &Position,
    limits: &Limits,
    progress: &mut dyn FnMut(&Analysis),
) -> Analysis {
    with_cpu!(cpu => analyze_at(cpu, pos, limits, progress))
}

/// [`analyze_with`], the searches compiled for the level of `cpu` ([`crate::cpu`]).
fn analyze_at<C: Cpu>(
    cpu: C,
    pos: &Position,
    limits: &Limits,
    progress: &mut dyn FnMut(&Analysis),
) -> Analysis {
    let empties = pos.empties().count();
    if pos.is_game_over() {
        return Analysis::game_over(pos);
    }
    if !pos.can_move() {
        return analyze_with(&pos.passed(), limits, &mut |a| {
            progress(&a.clone().passed())
        })
        .passed();
    }

    // Up to the one limit every front end checks; a thread beyond the last root move would
    // have nothing to search, so none is made for it.
    let threads = if limits.all_moves {
        limits
            .threads
            .clamp(1, crate::spine::MAX_THREADS)
            .min(pos.legal_moves().count().max(1) as usize)
    } else {
        1
    };
    let mut searchers: Vec<Searcher<'_, C>> = (0..threads)
        .map(|_| {
            let mut s = Searcher::new(cpu, pos.size(), limits);
            s.set_root(pos.player().0, pos.opponent().0);
            s
        })
        .collect();
    let mut order: Vec<(Square, i32)> = pos.legal_moves().into_iter().map(|s| (s, 0)).collect();
    let first: Vec<Square> = order.iter().map(|&(sq, _)| sq).collect();
    let mut done: Option<Analysis> = None;
    let last_depth = limits.max_depth.clamp(1, empties);
    for depth in 1..=last_depth {
        let exact = depth >= empties;
        let selective = limits.selective && !exact;
        // Each thread searches its own root moves ([`shared_out`]), best first.
        let (mut results, complete) = if threads == 1 {
            searchers[0].selective = selective;
            root_moves(&mut searchers[0], pos, &order, depth, limits.all_moves)
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = searchers
                    .iter_mut()
                    .enumerate()
                    .map(|(t, searcher)| {
                        let mine = shared_out(&first, &order, t, threads);
                        searcher.selective = selective;
                        scope.spawn(move || root_moves(searcher, pos, &mine, depth, true))
                    })
                    .collect();
                let mut all = Vec::with_capacity(order.len());
                let mut complete = true;
                for h in handles {
                    let (part, whole) = h.join().expect("a search thread");
                    all.extend(part);
                    complete &= whole;
                }
                (all, complete)
            })
        };
        if !complete {
            // Time ran out inside this iteration. What it finished counts when it finished
            // the move searched first (the best of the last iteration), against which the
            // others were searched: the time spent on it is not thrown away.
            if let Some(a) = done.as_mut() {
                let unpruned = exact && !selective;
                if results.iter().any(|r| r.square == order[0].0)
                    && fold_partial(a, results, depth, unpruned, limits.all_moves)
                {
                    progress(a);
                }
            }
            break;
        }
        // Stable sort: among equal scores the earlier (better ordered) move stays first.
        results.sort_by_key(|r| std::cmp::Reverse(r.score));
        let line = results[0].line.clone();
        let mut scores: Vec<MoveValue> = results
            .iter()
            .map(|r| MoveValue {
                square: r.square,
                score: Discs64(r.score),
                exact: exact && !selective,
                depth,
                book: false,
            })
            .collect();
        if limits.all_moves {
            order = scores.iter().map(|m| (m.square, m.score.0)).collect();
        } else {
            scores.truncate(1);
            let first = scores[0].square;
            order.sort_by_key(|&(sq, _)| sq != first);
            order[0].1 = scores[0].score.0;
        }
        let all_exact = scores.iter().all(|m| m.exact);
        let a = Analysis {
            score: scores[0].score,
            best: Some(scores[0].square),
            proven: all_exact,
            all_exact,
            selective: None,
            depth,
            line,
            nodes: searchers.iter().map(|s| s.nodes).sum(),
            moves: scores,
            engine: Engine::Midgame,
        };
        progress(&a);
        done = Some(a);
        for s in &mut searchers {
            s.may_abort = true;
        }
        if limits.deadline.is_some_and(|d| limits.clock.now() >= d) {
            break;
        }
    }
    let mut a = done.expect("the first iteration runs without a clock");
    a.nodes = searchers.iter().map(|s| s.nodes).sum();
    debug_assert_eq!(a.line.first(), a.best.map(Move::Play).as_ref());
    a
}

/// The root moves of `order` (this iteration's order, best first) that thread `t` of
/// `threads` searches: those it searched in the last iteration, so that each move is
/// searched again over the table that holds its last search. Thread t keeps moves t,
/// t + `threads`, … of `first` (the root moves in the first iteration's order) throughout.
/// Shared out afresh each iteration, a move searched without the table entries of its
/// last search was valued up to two discs apart from its symmetric images at depth 6.
fn shared_out(
    first: &[Square],
    order: &[(Square, i32)],
    t: usize,
    threads: usize,
) -> Vec<(Square, i32)> {
    order
        .iter()
        .filter(|&&(sq, _)| first.iter().position(|&f| f == sq).map(|i| i % threads) == Some(t))
        .copied()
        .collect()
}

/// One root move's score after an iteration, and its expected line when it was the best of
/// its searcher's moves.
struct RootResult {
    square: Square,
    score: i32,
    line: Vec<Move>,
}

/// Searches the root moves `moves` (square, score of the last iteration) of `pos` to
/// `depth`: every one with an aspiration window around its last score (`all_moves`), or the
/// first that way and the others only as far as needed to show they are not better. In the
/// second case only moves found best so far are returned. Also whether every move was
/// searched: when time runs out, the moves finished before it.
fn root_moves<C: Cpu>(
    searcher: &mut Searcher<'_, C>,
    pos: &Position,
    moves: &[(Square, i32)],
    depth: u32,
    all_moves: bool,
) -> (Vec<RootResult>, bool) {
    let (p, o) = (pos.player().0, pos.opponent().0);
    let mut out = Vec::with_capacity(moves.len());
    let mut best = -INF;
    for (i, &(sq, previous)) in moves.iter().enumerate() {
        let f = pos.flips(sq).0;
        let (np, no) = (o ^ f, p | f | 1u64 << sq.index());
        searcher.make(sq.index(), f);
        let s = if all_moves || i == 0 {
            // Aspiration around the move's last score, the failing side opened on a fail.
            let delta = if depth > 1 { ASPIRATION } else { INF };
            aspiration::around(previous, delta, (-INF, INF), Widen::Open, |alpha, beta| {
                let s = -searcher.search::<true>(np, no, depth - 1, -beta, -alpha);
                if searcher.aborted {
                    Err(())
                } else {
                    Ok(s)
                }
            })
            // A stopped search's score is thrown away below.
            .unwrap_or(0)
        } else {
            // Play mode: prove the move worse than the best, or re-search it.
            let s = -searcher.search::<false>(np, no, depth - 1, -best - 1, -best);
            if s > best && !searcher.aborted {
                -searcher.search::<true>(np, no, depth - 1, -INF, -best)
            } else {
                s
            }
        };
        searcher.unmake(sq.index(), f);
        if searcher.aborted {
            return (out, false);
        }
        // In play mode a move that only ties the best is not returned: its null-window
        // search showed no more than that it is not better (its score is a bound).
        let improved = s > best;
        // Read the line at once, while the table still holds it: the searches of the other
        // root moves overwrite entries.
        let line = if improved || (all_moves && s == best) {
            best = s;
            principal_line(searcher, sq, &pos.play_unchecked(sq), depth)
        } else {
            Vec::new()
        };
        if all_moves || improved {
            out.push(RootResult {
                square: sq,
                score: s,
                line,
            });
        }
    }
    (out, true)
}

/// Folds the moves an iteration `depth` plies deep finished before time ran out into the
/// analysis of the last complete one: their scores and depth replace the older ones, and
/// the best move, score and line follow. In play mode (`all_moves` off) `results` are the
/// moves found best so far, the last the best; it replaces the one move of the analysis,
/// never as exact: a move the iteration did not reach may score more, so even a search to
/// the end does not prove the position's value.
///
/// Scores of different depths do not compare (an odd depth ends on the mover's ply, an even
/// one on the reply's), so a move the iteration did not reach cannot be ranked above the
/// moves it did: when one of them scored more at the last depth than every finished move at
/// this one, the partial iteration is left out and the complete one stands, its best move,
/// depth and line together. Returns whether the iteration was folded in.
fn fold_partial(
    a: &mut Analysis,
    results: Vec<RootResult>,
    depth: u32,
    exact: bool,
    all_moves: bool,
) -> bool {
    let Some(top) = results.iter().map(|r| r.score).max() else {
        return false;
    };
    let mut lines = Vec::new();
    if all_moves {
        let unreached = a
            .moves
            .iter()
            .filter(|m| results.iter().all(|r| r.square != m.square))
            .map(|m| m.score.0)
            .max();
        if unreached.is_some_and(|s| s > top) {
            return false;
        }
        for r in results {
            if let Some(m) = a.moves.iter_mut().find(|m| m.square == r.square) {
                *m = MoveValue {
                    square: r.square,
                    score: Discs64(r.score),
                    exact,
                    depth,
                    book: false,
                };
            }
            lines.push((r.square, r.line));
        }
        // Stable: among equal scores the deeper move, then the one searched first, leads.
        a.moves
            .sort_by_key(|m| (std::cmp::Reverse(m.score), std::cmp::Reverse(m.depth)));
    } else {
        let best = results
            .into_iter()
            .max_by_key(|r| r.score)
            .expect("a result, as top is");
        a.moves = vec![MoveValue {
            square: best.square,
            score: Discs64(best.score),
            exact: false,
            depth,
            book: false,
        }];
        lines.push((best.square, best.line));
    }
    let best = a.moves[0];
    debug_assert_eq!(best.depth, depth);
    a.best = Some(best.square);
    a.score = best.score;
    a.depth = depth;
    a.all_exact = a.moves.iter().all(|m| m.exact);
    // The midgame engine proves the position's value only with every move exact.
    a.proven = a.all_exact;
    // The best move was searched in this iteration, and the best of an iteration's moves
    // has its line read when it is found.
    a.line = lines
        .into_iter()
        .find(|(sq, l)| *sq == best.square && !l.is_empty())
        .map_or_else(|| vec![Move::Play(best.square)], |(_, l)| l);
    true
}

/// The expected line after the root move `first` (leading to `child`): the table's best
/// moves, at most `depth` plies, passes included.
fn principal_line<C: Cpu>(
    searcher: &Searcher<'_, C>,
    first: Square,
    child: &Position,
    depth: u32,
) -> Vec<Move> {
    let rest = line::walk(child, depth as usize - 1, |cur, _| {
        Ok::<_, std::convert::Infallible>(searcher.table_move(cur.player().0, cur.opponent().0))
    });
    let Ok((rest, _)) = rest;
    let mut line = vec![Move::Play(first)];
    line.extend(rest);
    line
}

/// The plain minimax value of `pos` for its side to move, searched `depth` plies (passes
/// free, the end of the game scored exactly) over `eval`, in [`DISC`] units: the engine's
/// search with Multi-ProbCut off, no clock and a fresh small table, so that the value
/// depends on nothing but the evaluation and the depth. The training labels positions and
/// the calibrations measure the evaluation with it.
///
/// ```
/// use ply_othello::{analyze::Discs64, eval, midgame, BoardSize, Position};
/// let e = eval::builtin(BoardSize::Six).unwrap();
/// let pos = Position::start(BoardSize::Six);
/// // Depth 1: the best child's value, negated.
/// let best = pos
///     .legal_moves()
///     .map(|sq| pos.play_unchecked(sq))
///     .map(|c| Discs64(-e.evaluate_reference(c.player().0, c.opponent().0)))
///     .max();
/// assert_eq!(Some(midgame::fixed_depth_value(e, &pos, 1)), best);
/// ```
#[must_use]
pub fn fixed_depth_value(eval: &crate::eval::Eval, pos: &Position, depth: u32) -> Discs64 {
    let limits = Limits {
        table_bits: 14,
        selective: false,
        ..Limits::default()
    };
    let (p, o) = (pos.player().0, pos.opponent().0);
    with_cpu!(cpu => {
        let mut s = Searcher::new(cpu, pos.size(), &limits).with_eval(eval);
        s.set_root(p, o);
        Discs64(s.search::<true>(p, o, depth, -INF, INF))
    })
}

/// The move the engine would play (`None` when it must pass or the game is over).
#[must_use]
pub fn best_move(pos: &Position, limits: &Limits) -> Option<Square> {
    let limits = Limits {
        all_moves: false,
        ..limits.clone()
    };
    analyze(pos, &limits).best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn discs(n: i32) -> Discs64 {
        WholeDiscs(n).into()
    }

    fn at(s: &str, discs: i32, depth: u32) -> MoveValue {
        MoveValue {
            square: sq(s),
            score: WholeDiscs(discs).into(),
            exact: false,
            depth,
            book: false,
        }
    }

    fn result(s: &str, discs: i32, line: &[&str]) -> RootResult {
        RootResult {
            square: sq(s),
            score: WholeDiscs(discs).in_64ths().0,
            line: line.iter().map(|m| Move::Play(sq(m))).collect(),
        }
    }

    fn depth_11() -> Analysis {
        Analysis {
            moves: vec![at("h6", 5, 11), at("f7", 4, 11), at("e2", 3, 11)],
            best: Some(sq("h6")),
            score: discs(5),
            proven: false,
            all_exact: false,
            selective: None,
            depth: 11,
            line: vec![Move::Play(sq("h6")), Move::Play(sq("a1"))],
            nodes: 1,
            engine: Engine::Midgame,
        }
    }

    #[test]
    fn a_move_the_partial_iteration_did_not_reach_is_not_ranked_above_it() {
        // h6 fell to +2 at depth 12; f7, still +4 at depth 11, was not reached: the
        // complete iteration stands.
        let mut a = depth_11();
        let folded = fold_partial(
            &mut a,
            vec![result("h6", 2, &["h6", "b2"])],
            12,
            false,
            true,
        );
        assert!(!folded);
        assert_eq!(a, depth_11());
        // Once e2 is searched to +4, a move of depth 12 leads, with its own line.
        let results = vec![
            result("h6", 2, &["h6", "b2"]),
            result("e2", 4, &["e2", "c1", "d1"]),
        ];
        assert!(fold_partial(&mut a, results, 12, false, true));
        assert_eq!((a.best, a.score, a.depth), (Some(sq("e2")), discs(4), 12));
        assert_eq!(a.moves[0], at("e2", 4, 12));
        assert_eq!(a.moves[1], at("f7", 4, 11));
        assert_eq!(a.line.len(), 3);
    }

    #[test]
    fn each_root_move_stays_with_one_thread_as_the_order_changes() {
        let first: Vec<Square> = ["d3", "c4", "f5", "e6", "a1"].map(sq).to_vec();
        // A later iteration's order: scores changed and the moves with them.
        let order: Vec<(Square, i32)> = [("e6", 9), ("a1", 7), ("c4", 3), ("d3", 1), ("f5", 0)]
            .map(|(m, v)| (sq(m), v))
            .to_vec();
        let names = |t: usize| -> Vec<Square> {
            shared_out(&first, &order, t, 2)
                .iter()
                .map(|&(m, _)| m)
                .collect()
        };
        // Thread 0 keeps d3, f5 and a1; thread 1 c4 and e6; each best first.
        assert_eq!(names(0), ["a1", "d3", "f5"].map(sq));
        assert_eq!(names(1), ["e6", "c4"].map(sq));
        // With as many threads as moves, each move has a thread of its own.
        for (t, &m) in first.iter().enumerate() {
            let mine = shared_out(&first, &order, t, first.len());
            assert_eq!(mine.len(), 1);
            assert_eq!(mine[0].0, m);
        }
    }

    /// 15 empties, white to move: g8 is worth -6 (exact), every other move less. In play
    /// mode the other moves' null-window searches return bounds, some of them -6 too; such a
    /// move once came back as a best move beside g8, and a budget that ran out inside the
    /// iteration made it the answer, "proven" at -6 (found by `ply bench play`).
    #[test]
    fn in_play_a_move_that_only_ties_the_best_is_not_returned() {
        let pos = crate::transcript::parse(
            "f5d6c4d3c2b3b4b5c5e2d2c6b6e6a4a6d7e3c3a5a7c1f3g4h3f4g3b7f1c7a8b8c8f7f6h4h5g5h6g7g6e7d8f8e8",
            Position::start(crate::BoardSize::Eight),
        )
        .unwrap()
        .position();
        assert_eq!(pos.empties().count(), 15);
        let limits = Limits {
            table_bits: 14,
            ..Limits::default()
        };
        let mut s = Searcher::new(crate::cpu::Baseline, pos.size(), &limits);
        s.set_root(pos.player().0, pos.opponent().0);
        let mut order: Vec<(Square, i32)> = pos.legal_moves().map(|m| (m, 0)).collect();
        order.sort_by_key(|&(m, _)| m != sq("g8"));
        let (results, complete) = root_moves(&mut s, &pos, &order, 15, false);
        assert!(complete);
        let found: Vec<(Square, Discs64)> = results
            .iter()
            .map(|r| (r.square, Discs64(r.score)))
            .collect();
        assert_eq!(found, [(sq("g8"), discs(-6))]);
        // Folded in as a partial iteration, it keeps g8, but proves nothing: the moves the
        // iteration did not reach might have scored more.
        let mut a = depth_11();
        assert!(fold_partial(&mut a, results, 15, true, false));
        assert_eq!((a.best, a.score), (Some(sq("g8")), discs(-6)));
        assert!(!a.proven && !a.all_exact && !a.moves[0].exact);
    }
}
