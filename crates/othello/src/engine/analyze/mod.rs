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
//! assert_eq!(a.score, -10 * ply_othello::analyze::DISC);
//! ```

mod report;
mod request;

pub use report::{Discs, MoveReport, Report, Shown, Status};
pub use request::{Request, RequestError, MAX_DEPTH, MAX_TIME_S};

pub use crate::spine::MAX_THREADS;

use std::{
    sync::{atomic::AtomicBool, Arc, Mutex},
    time::Duration,
};

use crate::{
    book::{self, After, Book},
    engine::memory::Pool,
    midgame::{self, Limits},
    solve::{Progress, SolveControl, SolveOptions, Solver},
    spine::clock::{Clock, SystemClock},
    BoardSize, Move, Position, Square,
};

/// One disc of score in analysis units.
pub const DISC: i32 = midgame::DISC;

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
pub struct KeptSolver(Arc<Mutex<Option<Solver>>>);

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

/// The one analysis type, which the midgame engine returns too (its scores in [`DISC`]
/// units, its moves' [`MoveValue::book`] set here).
pub use crate::spine::analysis::{Analysis, Engine, MoveValue};

/// The tables' memory, in megabytes, for an analysis of a position of `size` (1 MB on 4x4,
/// 16 on 6x6, 64 on 8x8): enough for a search of a few seconds to keep its work, small
/// enough for several analyses at once; and as every analysis clears new tables, a small
/// board, whose whole tree fits in a little, does not pay for clearing a large one. The CLI,
/// the API, NBoard and Python all use it unless told otherwise.
///
/// ```
/// use ply_othello::{analyze::table_mb, BoardSize};
/// assert_eq!(table_mb(BoardSize::Eight), 64);
/// ```
#[must_use]
pub fn table_mb(size: BoardSize) -> usize {
    match size {
        BoardSize::Four => 1,
        BoardSize::Six => 16,
        BoardSize::Eight => 64,
    }
}

/// The midgame engine's table for `hash_mb` megabytes: half of them at most, in entries of
/// [`midgame::TABLE_ENTRY_BYTES`] (`2^20` entries for 64 MB).
fn midgame_table_bits(hash_mb: usize) -> u32 {
    let entries = (hash_mb.max(1) << 20) / 2 / midgame::TABLE_ENTRY_BYTES;
    entries.max(16).ilog2()
}

/// Empty squares at which the solver is tried, and the share of the budget the midgame
/// engine keeps before it: (empties up to, midgame share). An analysis of every move keeps
/// 40% for estimates of every move until the solver is quick; in play (the best move only),
/// from [`PLAY_SOLVE_FROM`] empties down the solver takes 90% at once: there a solve that
/// finishes is the answer, and the midgame engine's estimate is only the fallback (the
/// solver's selective passes, which settle early, replace it).
fn solver_plan(size: BoardSize, empties: u32, all_moves: bool) -> Option<f64> {
    let (quick, slow) = match size {
        BoardSize::Four => (16, 16),
        BoardSize::Six => (22, 30),
        BoardSize::Eight if all_moves => (20, 28),
        BoardSize::Eight => (PLAY_SOLVE_FROM, 28),
    };
    if empties <= 14 {
        // Solved in a blink: a one-ply estimate only orders the moves.
        Some(0.0)
    } else if empties <= quick {
        Some(0.1)
    } else if empties <= slow {
        Some(0.4)
    } else {
        None
    }
}

/// Empties from which, on 8x8 in play, the solver takes most of the budget. Measured with
/// `ply bench play --games 20 --ms 300` on 2026-11-26, one core busy with another job: with
/// the solver from 20 empties as for an analysis of every move (and a new solver each
/// move), the answers were proven from a median of 20 empties (1 game of 20 from 22); from
/// 24 with a new solver each move (`--fresh`), 21 (7 games); from 24 with the solver kept
/// from move to move, 22 (13 and 12 games in two runs); from 26, 22 (13 games), no better
/// within the noise, and the midgame engine's estimates are the surer guide there. A new
/// solve at 22 empties takes 0.2-0.9 s here: what the solver gains from 24 on is mostly
/// the selective passes' moves and the finished subtrees, which it keeps for the next.
const PLAY_SOLVE_FROM: u32 = 24;

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
    let plan = if opts.solver {
        match (deadline, opts.depth) {
            (Some(_), _) => solver_plan(pos.size(), empties, opts.all_moves),
            // No clock: the solver only when the midgame engine would search to the end.
            (None, Some(d)) if d >= empties => Some(0.0),
            (None, _) => None,
        }
    } else {
        None
    };

    // 1. Estimates for every move.
    let mid_deadline = match (deadline, plan) {
        (Some(d), Some(share)) => Some(started + (d - started).mul_f64(share)),
        (d, _) => d,
    };
    let limits = Limits {
        max_depth: match plan {
            Some(share) if deadline.is_none() || share == 0.0 => 1,
            _ => opts.depth.unwrap_or(u32::MAX),
        },
        deadline: mid_deadline,
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
    if plan.is_none() || a.all_exact {
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
                fold_selective(&mut a, sq, v * DISC, percent, empties, opts.all_moves);
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
            score: r.score * DISC,
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
    for sq in order {
        let child = pos.play_unchecked(sq);
        let Ok(r) = solver.solve_with(&child, control()) else {
            break;
        };
        a.nodes += r.nodes;
        let m = a
            .moves
            .iter_mut()
            .find(|m| m.square == sq)
            .expect("a legal move");
        *m = MoveValue {
            square: sq,
            score: -r.score * DISC,
            exact: true,
            depth: empties,
            book: false,
        };
        settle(&mut a, pos, sq, &r.pv);
        progress(&a);
    }
    a
}

/// What the opening book knows of a position: the scores of the moves it knows (every move
/// of a position a searched book holds; else those whose position after them is in the
/// book), and the position's own exact value when an exact book holds it.
#[derive(Default)]
struct Known<'b> {
    book: Option<&'b Book>,
    /// Moves with scores from the book, marked [`MoveValue::book`].
    moves: Vec<MoveValue>,
    /// The position's exact value (in [`DISC`] units), when an exact book holds it: no move
    /// scores more.
    value: Option<i32>,
    /// A searched book holds the position itself: its best move is the best of all, even
    /// where (in a partial book) it scores only some.
    held: bool,
}

impl<'b> Known<'b> {
    fn from_book(book: &'b Book, pos: &Position) -> Known<'b> {
        let exact = book.is_exact();
        let known = |square, score: i32, depth| MoveValue {
            square,
            score: score * DISC,
            exact,
            depth,
            book: true,
        };
        if !exact {
            if let Some(own) = book.moves(pos) {
                return Known {
                    book: Some(book),
                    moves: own
                        .iter()
                        .map(|m| known(m.square, m.score, m.depth))
                        .collect(),
                    value: None,
                    held: true,
                };
            }
        }
        let empties = pos.empties().count();
        let mut moves: Vec<MoveValue> = pos
            .legal_moves()
            .filter_map(|sq| match book::after(&pos.play_unchecked(sq)) {
                After::Over(score) => Some(MoveValue {
                    exact: true,
                    depth: empties,
                    ..known(sq, score, empties)
                }),
                After::Next(next, sign) => {
                    let m = book.lookup(&next)?;
                    let depth = if exact { empties } else { m.depth + 1 };
                    Some(known(sq, sign * m.score, depth))
                }
            })
            .collect();
        let own = book.lookup(pos);
        if let Some(m) = own {
            if !moves.iter().any(|k| k.square == m.best) {
                moves.push(known(m.best, m.score, empties));
            }
        }
        Known {
            book: Some(book),
            moves,
            value: own.map(|m| m.score * DISC),
            held: false,
        }
    }
}

impl Known<'_> {
    /// The whole analysis from the book, when it knows enough: every move, or (for play)
    /// the best one.
    fn complete(&self, pos: &Position, all_moves: bool) -> Option<Analysis> {
        let legal = pos.legal_moves().count() as usize;
        let enough = if all_moves {
            !self.moves.is_empty() && self.moves.len() == legal
        } else {
            self.value.is_some()
                || self.held
                || (!self.moves.is_empty() && self.moves.len() == legal)
        };
        if !enough {
            return None;
        }
        let mut moves = self.moves.clone();
        moves.sort_by_key(|m| (std::cmp::Reverse(m.score), !m.exact));
        if !all_moves {
            moves.truncate(1);
        }
        let best = moves[0];
        let all_exact = moves.iter().all(|m| m.exact);
        Some(Analysis {
            line: self.line(pos, best.square),
            best: Some(best.square),
            score: best.score,
            proven: all_exact || (best.exact && self.value == Some(best.score)),
            all_exact,
            selective: None,
            depth: best.depth,
            nodes: 0,
            engine: Engine::Book,
            moves,
        })
    }

    /// `a` with the book's scores in it, the estimates capped at the position's exact
    /// value when the book knows it, and the best move, score and line to match.
    fn folded(&self, pos: &Position, mut a: Analysis) -> Analysis {
        if self.moves.is_empty() || a.moves.is_empty() {
            return a;
        }
        // In play the midgame engine scores only its best move: the book's join it.
        for k in &self.moves {
            if let Some(m) = a.moves.iter_mut().find(|m| m.square == k.square) {
                *m = *k;
            } else {
                a.moves.push(*k);
            }
        }
        if let Some(v) = self.value {
            for m in a.moves.iter_mut().filter(|m| !m.exact) {
                m.score = m.score.min(v);
            }
        }
        a.moves
            .sort_by_key(|m| (std::cmp::Reverse(m.score), !m.exact));
        let best = a.moves[0];
        if a.best != Some(best.square) || self.moves.iter().any(|k| k.square == best.square) {
            a.line = self.line(pos, best.square);
        }
        a.best = Some(best.square);
        a.score = best.score;
        a.all_exact =
            a.moves.iter().all(|m| m.exact) && a.moves.len() == pos.legal_moves().count() as usize;
        // The book's value of the position, reached by an exact move, is the score.
        a.proven = a.all_exact || (best.exact && self.value == Some(best.score));
        a.engine = Engine::Mixed;
        if a.all_exact {
            a.depth = pos.empties().count();
        }
        a
    }

    /// `first`, then the book's moves for both sides while it knows the position.
    fn line(&self, pos: &Position, first: Square) -> Vec<Move> {
        let mut line = vec![Move::Play(first)];
        let Some(book) = self.book else {
            return line;
        };
        let mut cur = pos.play_unchecked(first);
        while !cur.is_game_over() {
            if !cur.can_move() {
                line.push(Move::Pass);
                cur = cur.passed();
                continue;
            }
            let Some(m) = book.lookup(&cur) else {
                break;
            };
            line.push(Move::Play(m.best));
            cur = cur.play_unchecked(m.best);
        }
        while line.last() == Some(&Move::Pass) {
            line.pop();
        }
        line
    }
}

/// [`analyze_with`] without progress reports.
#[must_use]
pub fn analyze(pos: &Position, opts: &Options) -> Analysis {
    analyze_with(pos, opts, &mut |_| {})
}

/// After move `solved` (with the line `pv` after it) became exact: the moves in order, the
/// best move, score, line and flags recomputed. An exact best move stays ahead of an
/// estimate of the same score.
fn settle(a: &mut Analysis, pos: &Position, solved: Square, pv: &[Move]) {
    a.moves
        .sort_by_key(|m| (std::cmp::Reverse(m.score), !m.exact));
    let best = a.moves[0];
    if best.square == solved {
        a.line = std::iter::once(Move::Play(solved))
            .chain(pv.iter().copied())
            .collect();
    } else if a.best != Some(best.square) {
        a.line = vec![Move::Play(best.square)];
    }
    a.best = Some(best.square);
    a.score = best.score;
    a.all_exact = a.moves.iter().all(|m| m.exact);
    // The position was solved (or its value known) before any single move was.
    a.proven |= a.all_exact;
    a.engine = if a.all_exact {
        Engine::Solver
    } else {
        Engine::Mixed
    };
    if a.all_exact {
        a.depth = pos.empties().count();
    }
}

/// A selective pass of the solver found `sq` worth `score` (in [`DISC`] units) with
/// `percent` confidence: it becomes the best move and the position's score, an estimate
/// searched to the end. The other moves' estimates are capped at it (the pass showed, as
/// surely, that none does better); in play mode it is the one move.
fn fold_selective(
    a: &mut Analysis,
    sq: Square,
    score: i32,
    percent: u8,
    empties: u32,
    all_moves: bool,
) {
    let found = MoveValue {
        square: sq,
        score,
        exact: false,
        depth: empties,
        book: false,
    };
    if all_moves {
        for m in a.moves.iter_mut().filter(|m| !m.exact) {
            m.score = m.score.min(score);
        }
        match a.moves.iter_mut().find(|m| m.square == sq) {
            Some(m) => *m = found,
            None => a.moves.push(found),
        }
        a.moves
            .sort_by_key(|m| (std::cmp::Reverse(m.score), m.square != sq));
    } else {
        a.moves = vec![found];
    }
    if a.line.first() != Some(&Move::Play(sq)) {
        a.line = vec![Move::Play(sq)];
    }
    a.best = Some(sq);
    a.score = score;
    a.proven = false;
    a.all_exact = false;
    a.selective = Some(percent);
    a.depth = empties;
    a.engine = Engine::Selective;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn estimate(s: &str, discs: i32) -> MoveValue {
        MoveValue {
            square: sq(s),
            score: discs * DISC,
            exact: false,
            depth: 16,
            book: false,
        }
    }

    #[test]
    fn the_midgame_table_takes_at_most_half_the_memory_and_more_than_a_quarter() {
        for mb in [1, 4, 16, 48, 64, 100, 1024] {
            let bytes = (1usize << midgame_table_bits(mb)) * midgame::TABLE_ENTRY_BYTES;
            let half = mb << 19;
            assert!(bytes <= half && 2 * bytes > half, "{mb} MB: {bytes} bytes");
        }
        assert_eq!(midgame_table_bits(64), 20);
    }

    #[test]
    fn a_selective_result_replaces_the_estimate_and_caps_the_others() {
        let mut a = Analysis {
            moves: vec![estimate("d7", 5), estimate("f8", 3), estimate("a4", -5)],
            best: Some(sq("d7")),
            score: 5 * DISC,
            proven: false,
            all_exact: false,
            selective: None,
            depth: 16,
            line: vec![Move::Play(sq("d7")), Move::Play(sq("c8"))],
            nodes: 1,
            engine: Engine::Midgame,
        };
        let mut play = a.clone();
        fold_selective(&mut a, sq("f8"), 4 * DISC, 97, 26, true);
        assert_eq!(a.best, Some(sq("f8")));
        assert_eq!((a.score, a.selective, a.depth), (4 * DISC, Some(97), 26));
        assert_eq!(a.engine, Engine::Selective);
        assert!(!a.proven && !a.all_exact);
        let scores: Vec<(Square, i32)> = a.moves.iter().map(|m| (m.square, m.score)).collect();
        // d7's estimate is capped at the selective score, and f8 stays ahead of it.
        assert_eq!(
            scores,
            [
                (sq("f8"), 4 * DISC),
                (sq("d7"), 4 * DISC),
                (sq("a4"), -5 * DISC)
            ]
        );
        assert_eq!(a.line, [Move::Play(sq("f8"))]);
        // Play mode keeps the one move.
        fold_selective(&mut play, sq("f8"), 4 * DISC, 73, 26, false);
        assert_eq!(play.moves.len(), 1);
        assert_eq!(play.moves[0].square, sq("f8"));
        assert_eq!(play.selective, Some(73));
    }

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
