//! Exact endgame solving: the score of a position under perfect play to the end of the game,
//! the best move, the principal variation, and the score of every legal move.
//!
//! The search is null-window alpha-beta with a principal-variation search at the top, a
//! shared lock-free transposition table (`tt`), fastest-first move ordering, stability
//! cutoffs (`stability`) and unrolled code for the last four empty squares (`search/last`).
//! Early positions are keyed by their least symmetric image (`rules::symmetry`), so the images of a
//! searched position (the four first moves of 6x6, say) cost nothing.
//! From 18 empties on (6x6 and 8x8), selective passes that cut nodes where the learnt
//! evaluation is confident go first; they leave the table the moves to try first and the
//! score to centre the exact search's window on. Only the last, exact search's bounds are
//! trusted. Several threads search one position together over the shared table.
//! [`crate::reference::minimax`] is the plain negamax it is all tested against.
//!
//! ```
//! use ply_othello::{solve::{SolveOptions, Solver}, BoardSize, Position};
//! let mut solver = Solver::new(SolveOptions::default());
//! let result = solver.solve(&Position::start(BoardSize::Four));
//! assert_eq!(result.score.0, -10); // white wins 11-3 with two squares left empty
//! ```

pub mod bench;
mod flips;
mod report;
mod search;
mod stability;
mod tt;

use std::{
    fmt,
    sync::atomic::{AtomicBool, Ordering::Relaxed},
    time::Instant,
};

use crate::cpu::{with_cpu, Cpu};
use crate::spine::geometry::Geometry;
pub use report::{
    best_text, out_of_reach, out_of_reach_lines, out_of_reach_note, out_of_reach_warning,
    resume_note, ProgressLine, Solved, REACH,
};
use search::{Halt, Search, EVAL_BOUND, SELECTIVITY};
pub use tt::TableTooLarge;
use tt::{Tt, EXACT, NO_MOVE};

use crate::{
    rules::symmetry,
    spine::{
        aspiration::{self, Widen},
        clock::{Clock, SYSTEM},
        line,
        units::{Discs64, WholeDiscs},
    },
    Move, Position, Square,
};

/// How a [`Solver`] searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Threads that search one position together (at least one is used).
    pub threads: usize,
    /// Size of the transposition table all threads share, in megabytes. Each thread also
    /// keeps a table of its own of one megabyte for the nodes nearest the end, which stays in
    /// its core's cache: a solver takes `hash_mb + threads` megabytes in all.
    pub hash_mb: usize,
}

impl Default for SolveOptions {
    /// One thread and a 16 MB table: a table that stays in the last-level cache is the
    /// faster one for the endgames this solver is measured on, though it loses a few nodes.
    /// Measured on 2026-11-26 (AMD EPYC, 32 MB L3), `ply bench ffo --range 40-49 --hash-mb M`
    /// alternately, one thread: 64 MB 16.3-16.4 s (466.3 M nodes), 32 MB 15.4-16.1 s
    /// (467.6 M), 16 MB 14.5-15.2 s (469.8 M), 8 MB 14.0 s (473.1 M); FFO #40-#59 on two
    /// threads 239.7 s with 64 MB, 211.6 s with 16 MB.
    fn default() -> SolveOptions {
        SolveOptions {
            threads: 1,
            hash_mb: 16,
        }
    }
}

impl SolveOptions {
    /// The most threads a solver is given: the one limit, [`crate::spine::MAX_THREADS`].
    pub const MAX_THREADS: usize = crate::spine::MAX_THREADS;
    /// The largest table a solver is given, in megabytes (64 GB).
    pub const MAX_HASH_MB: usize = 1 << 16;

    /// These options, when both are within range (1 to [`Self::MAX_THREADS`] threads, 1 to
    /// [`Self::MAX_HASH_MB`] megabytes): what every front end asks before it makes a solver.
    ///
    /// # Errors
    /// [`OptionOutOfRange`] naming the first option out of range.
    ///
    /// ```
    /// use ply_othello::solve::SolveOptions;
    /// assert!(SolveOptions::default().checked().is_ok());
    /// let e = SolveOptions { threads: 1, hash_mb: 0 }.checked().unwrap_err();
    /// assert_eq!(format!("--{e}"), "--hash-mb 0: expected 1 to 65536");
    /// ```
    pub fn checked(self) -> Result<SolveOptions, OptionOutOfRange> {
        let check = |option, value, max| {
            if (1..=max).contains(&value) {
                Ok(())
            } else {
                Err(OptionOutOfRange { option, value, max })
            }
        };
        check("threads", self.threads, Self::MAX_THREADS)?;
        check("hash-mb", self.hash_mb, Self::MAX_HASH_MB)?;
        Ok(self)
    }
}

/// A [`SolveOptions`] field out of its range; shown as `hash-mb 0: expected 1 to 65536`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionOutOfRange {
    /// The option, as the command line spells it without its dashes: `threads` or `hash-mb`.
    pub option: &'static str,
    /// The value given.
    pub value: usize,
    /// The largest value allowed (the smallest is 1).
    pub max: usize,
}

impl std::fmt::Display for OptionOutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: expected 1 to {}",
            self.option, self.value, self.max
        )
    }
}

impl std::error::Error for OptionOutOfRange {}

/// The one solve-each-move loop: each of `moves` of `pos` in turn, the position after it
/// scored by `search` (its exact score for the side to move there, and what else the search
/// returns), except a move whose position after it is a symmetric image of one searched
/// before: that one takes the earlier score without a search. `found` sees the move's index
/// in `moves`, the move, its score for the side that plays it and the search's result
/// (`None` for an image). [`Solver::solve_all_moves_with`] and the analysis of every move
/// ([`crate::analyze`]) both solve their moves through it.
///
/// # Errors
/// The first error of `search` (a stop), after `found` has seen the moves before it.
pub fn each_move<R, E>(
    pos: &Position,
    moves: &[Square],
    mut search: impl FnMut(&Position) -> Result<(WholeDiscs, R), E>,
    mut found: impl FnMut(usize, Square, WholeDiscs, Option<&R>),
) -> Result<(), E> {
    let n = Geometry::of(pos.size()).n;
    let mut images: Vec<((u64, u64), WholeDiscs)> = Vec::with_capacity(moves.len());
    for (i, &sq) in moves.iter().enumerate() {
        let child = pos.play_unchecked(sq);
        let (ip, io, _) = symmetry::canonical(child.player().0, child.opponent().0, n);
        if let Some(&(_, v)) = images.iter().find(|(image, _)| *image == (ip, io)) {
            found(i, sq, -v, None);
            continue;
        }
        let (v, r) = search(&child)?;
        images.push(((ip, io), v));
        found(i, sq, -v, Some(&r));
    }
    Ok(())
}

/// The exact value of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// Disc difference at the end of perfect play, from the side to move's view, empty
    /// squares given to the winner.
    pub score: WholeDiscs,
    /// A move that reaches that score; `None` when the side to move must pass or the game is
    /// over.
    pub best_move: Option<Square>,
    /// A line of perfect play from the position to the end of the game.
    pub pv: Vec<Move>,
    /// Positions visited by all threads.
    pub nodes: u64,
}

/// Where a search stands, reported when a search of the root starts and after each of its
/// moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Root moves finished (0 when a search starts).
    pub done: usize,
    /// Root moves in all.
    pub total: usize,
    /// The best move so far and its provisional score, for the side to move of the searched
    /// position. The root is searched through narrow windows, so the score is a bound until
    /// the last search ends.
    pub best: Option<(Square, WholeDiscs)>,
    /// Nodes visited so far by the reporting thread.
    pub nodes: u64,
    /// Which search of the position this is: a selective pass or the exact one.
    pub pass: Pass,
    /// True for the one report after a selective pass has settled its score (all its windows
    /// searched): `best` is then that pass's move and score, and `done == total`.
    pub settled: bool,
}

/// Which search of a position a [`Progress`] report comes from. From 18 empties on (6x6 and
/// 8x8), selective passes of rising confidence go before the exact search.
///
/// ```
/// use ply_othello::solve::Pass;
/// let first = Pass::Selective { index: 0, of: 2 };
/// assert!(first.sigma().is_some_and(|s| s > 1.0));
/// assert_eq!(Pass::Exact.sigma(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Selective pass `index` (from 0) of `of`: it cuts a node where the evaluation predicts
    /// the score outside the window with [`Pass::sigma`] standard deviations to spare.
    Selective {
        /// Which selective pass, from 0.
        index: u8,
        /// How many selective passes go before the exact search.
        of: u8,
    },
    /// The exact search, whose result is the answer.
    Exact,
}

impl Pass {
    /// The pass searching at `level` ([`EXACT`] or an index of [`SELECTIVITY`]).
    fn at(level: u8) -> Pass {
        if level == EXACT {
            Pass::Exact
        } else {
            Pass::Selective {
                index: level,
                of: SELECTIVITY.len() as u8,
            }
        }
    }

    /// How sure a selective pass's cuts are, in standard deviations of the evaluation's
    /// error; `None` for the exact search.
    #[must_use]
    pub fn sigma(self) -> Option<f64> {
        match self {
            Pass::Selective { index, .. } => SELECTIVITY.get(usize::from(index)).copied(),
            Pass::Exact => None,
        }
    }

    /// The chance that each cut of the pass is right: that a normal error lies within
    /// [`Pass::sigma`] deviations (Edax prints it: `+6 @ 73%`); 1 for the exact search.
    ///
    /// ```
    /// use ply_othello::solve::Pass;
    /// let first = Pass::Selective { index: 0, of: 2 };
    /// assert_eq!((first.confidence() * 100.0).round(), 73.0);
    /// assert_eq!(Pass::Exact.confidence(), 1.0);
    /// ```
    #[must_use]
    pub fn confidence(self) -> f64 {
        self.sigma().map_or(1.0, normal_within)
    }
}

/// The chance that a normal error lies within `sigma` standard deviations: erf(σ/√2), by
/// Abramowitz and Stegun's 7.1.26 (error below 1.5e-7). 1.1σ is 73%, Edax's first level.
fn normal_within(sigma: f64) -> f64 {
    let x = sigma.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    1.0 - poly * (-x * x).exp()
}

/// Limits and observers of a search. The default has none (and the system's clock): the
/// search runs to the end.
pub struct SolveControl<'a> {
    /// The search gives up soon after this flag becomes true.
    pub stop: Option<&'a AtomicBool>,
    /// The search gives up soon after this instant.
    pub deadline: Option<Instant>,
    /// Where the deadline is read against: the system's clock, or a test's. The search reads
    /// it once every 65,536 nodes or so.
    pub clock: &'a dyn Clock,
    /// Called when each search of the root starts and after each of its moves (from the
    /// calling thread).
    pub progress: Option<&'a mut dyn FnMut(&Progress)>,
}

impl Default for SolveControl<'_> {
    fn default() -> Self {
        SolveControl {
            stop: None,
            deadline: None,
            clock: &SYSTEM,
            progress: None,
        }
    }
}

impl<'a> SolveControl<'a> {
    /// The limits a search thread reads.
    fn halt(&self) -> Halt<'a> {
        Halt {
            stop: self.stop,
            deadline: self.deadline,
            clock: self.clock,
        }
    }
}

impl fmt::Debug for SolveControl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SolveControl")
            .field("stop", &self.stop)
            .field("deadline", &self.deadline)
            .field("clock", &self.clock)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// The search was given up because of [`SolveControl::stop`] or [`SolveControl::deadline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the search was stopped before it finished")
    }
}

impl std::error::Error for Stopped {}

/// Half-width of the first root window.
const ASPIRATION: i32 = 1;
/// Fewest empties at which the selective passes go before the exact search (6x6 and 8x8).
const SELECTIVE_FROM: u32 = 18;

/// Where the first root window is centred: on 6x6 and 8x8, the learnt evaluation's score two
/// plies on (our best move against the opponent's best reply), rounded to an even score; on
/// 4x4, 0.
fn first_guess(pos: &Position) -> i32 {
    let Some(eval) = crate::eval::ordering(pos.size()) else {
        return 0;
    };
    let (p, o) = (pos.player().0, pos.opponent().0);
    let empty = !(p | o) & pos.size().mask().0;
    let mut state = eval.state(p, o);
    let (a, b) = (-EVAL_BOUND, EVAL_BOUND);
    let best = with_cpu!(cpu => crate::spine::order::eval_search(cpu, eval, &mut state, p, o, empty, 2, a, b, &mut 0));
    let discs = Discs64(best).whole().0;
    let squares = pos.size().squares() as i32;
    (discs & !1).clamp(-squares, squares)
}

/// An exact solver that keeps its transposition table from one position to the next.
#[derive(Debug)]
pub struct Solver {
    /// The table all threads share, for the nodes with `search::NEAR_END` empties or more.
    tt: Tt,
    /// Each thread's own small table, for the nodes nearer the end (the first is the
    /// calling thread's).
    near: Vec<Tt>,
    options: SolveOptions,
}

impl Solver {
    /// A solver with a table of `options.hash_mb` megabytes (and one of a megabyte a thread
    /// for the nodes near the end).
    ///
    /// # Panics
    /// When the machine cannot give the table's memory; [`Solver::try_new`] says so instead.
    #[must_use]
    pub fn new(options: SolveOptions) -> Solver {
        Solver::try_new(options).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver with a table of `options.hash_mb` megabytes, or an error naming the size when
    /// the machine cannot give that much memory.
    ///
    /// # Errors
    /// [`TableTooLarge`] when the table cannot be allocated.
    ///
    /// ```
    /// use ply_othello::solve::{SolveOptions, Solver};
    /// assert!(Solver::try_new(SolveOptions { threads: 1, hash_mb: 1 }).is_ok());
    /// let e = Solver::try_new(SolveOptions { threads: 1, hash_mb: 1 << 43 }).unwrap_err();
    /// assert_eq!(e.mb, 1 << 43);
    /// ```
    pub fn try_new(options: SolveOptions) -> Result<Solver, TableTooLarge> {
        let near = (0..options.threads.max(1))
            .map(|_| Tt::try_new(search::NEAR_END_MB))
            .collect::<Result<_, _>>()?;
        Ok(Solver {
            tt: Tt::try_new(options.hash_mb)?,
            near,
            options,
        })
    }

    /// The options this solver was made with.
    #[must_use]
    pub fn options(&self) -> SolveOptions {
        self.options
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.near.iter().for_each(Tt::clear);
    }

    /// Starts a new search in every table: older entries become the first to be replaced.
    fn new_search(&self) {
        self.tt.new_search();
        self.near.iter().for_each(Tt::new_search);
    }

    /// The exact score, a best move and a principal variation of `pos`.
    ///
    /// ```
    /// use ply_othello::{solve::{SolveOptions, Solver}, BoardSize, Position};
    /// let mut solver = Solver::new(SolveOptions { threads: 1, hash_mb: 1 });
    /// let r = solver.solve(&Position::start(BoardSize::Four));
    /// assert_eq!(r.pv.len() >= 10, true);
    /// assert!(r.best_move.is_some());
    /// ```
    pub fn solve(&mut self, pos: &Position) -> SolveResult {
        match self.solve_with(pos, SolveControl::default()) {
            Ok(r) => r,
            Err(Stopped) => unreachable!("a search without limits never stops early"),
        }
    }

    /// [`Solver::solve`] under limits, with progress reports.
    ///
    /// # Errors
    /// [`Stopped`] when the stop flag was raised or the deadline passed first.
    pub fn solve_with(
        &mut self,
        pos: &Position,
        mut control: SolveControl<'_>,
    ) -> Result<SolveResult, Stopped> {
        self.new_search();
        let (score, best, mut nodes) = self.exact_score(pos, first_guess(pos), &mut control)?;
        let best_move = best.and_then(Square::from_index);
        let (pv, pv_nodes) =
            with_cpu!(cpu => self.principal_variation(cpu, pos, score, best, &control))?;
        nodes += pv_nodes;
        Ok(SolveResult {
            score: WholeDiscs(score),
            best_move,
            pv,
            nodes,
        })
    }

    /// The exact score of every legal move of `pos`, best first (ties in square order).
    /// Empty when the side to move has no legal move.
    ///
    /// ```
    /// use ply_othello::{solve::{SolveOptions, Solver}, BoardSize, Position};
    /// let mut solver = Solver::new(SolveOptions::default());
    /// let scores = solver.solve_all_moves(&Position::start(BoardSize::Four));
    /// assert_eq!(scores.len(), 4);
    /// assert!(scores.iter().all(|&(_, s)| s.0 == -10)); // the start is symmetric
    /// ```
    pub fn solve_all_moves(&mut self, pos: &Position) -> Vec<(Square, WholeDiscs)> {
        match self.solve_all_moves_with(pos, SolveControl::default()) {
            Ok(r) => r.0,
            Err(Stopped) => unreachable!("a search without limits never stops early"),
        }
    }

    /// [`Solver::solve_all_moves`] under limits, with progress reports; also returns the
    /// nodes visited.
    ///
    /// # Errors
    /// [`Stopped`] when the stop flag was raised or the deadline passed first.
    pub fn solve_all_moves_with(
        &mut self,
        pos: &Position,
        mut control: SolveControl<'_>,
    ) -> Result<(Vec<(Square, WholeDiscs)>, u64), Stopped> {
        self.new_search();
        let mut nodes = 0;
        let moves: Vec<Square> = pos.legal_moves().collect();
        let mut scores = Vec::with_capacity(moves.len());
        let mut best: Option<(Square, WholeDiscs)> = None;
        // Sibling moves often score alike: each search starts around the last score.
        let mut guess = 0;
        let halt = (control.stop, control.deadline, control.clock);
        let searched = std::cell::Cell::new(0);
        each_move(
            pos,
            &moves,
            |child| {
                let (v, _, n) = self.exact_score(
                    child,
                    guess,
                    &mut SolveControl {
                        stop: halt.0,
                        deadline: halt.1,
                        clock: halt.2,
                        progress: None,
                    },
                )?;
                searched.set(searched.get() + n);
                guess = v;
                Ok((WholeDiscs(v), ()))
            },
            |i, sq, score, was_searched| {
                scores.push((sq, score));
                if was_searched.is_none() {
                    return;
                }
                nodes = searched.get();
                if best.is_none_or(|(_, b)| score > b) {
                    best = Some((sq, score));
                }
                if let Some(report) = control.progress.as_mut() {
                    report(&Progress {
                        done: i + 1,
                        total: moves.len(),
                        best,
                        nodes,
                        pass: Pass::Exact,
                        settled: false,
                    });
                }
            },
        )?;
        let nodes = searched.get();
        scores.sort_by_key(|&(sq, v)| (-v, sq));
        Ok((scores, nodes))
    }

    /// The exact score of `pos` (with a best move and the nodes visited), searched around
    /// `guess`. From [`SELECTIVE_FROM`] empties on, selective passes of rising confidence go
    /// first, each starting around the score of the one before: each is a small fraction of
    /// the exact search's cost, and leaves the table the moves it will want to try first.
    fn exact_score(
        &self,
        pos: &Position,
        mut guess: i32,
        control: &mut SolveControl<'_>,
    ) -> Result<(i32, Option<u8>, u64), Stopped> {
        let s = Geometry::of(pos.size()).squares;
        let mut nodes = 0;
        if pos.empties().count() >= SELECTIVE_FROM && crate::eval::ordering(pos.size()).is_some() {
            let total = pos.legal_moves().count() as usize;
            for level in 0..SELECTIVITY.len() as u8 {
                let (v, best, n) = self.aspiration(pos, s, guess, level, control)?;
                nodes += n;
                guess = v;
                if let Some(report) = control.progress.as_mut() {
                    report(&Progress {
                        done: total,
                        total,
                        best: best
                            .and_then(Square::from_index)
                            .map(|sq| (sq, WholeDiscs(v))),
                        nodes,
                        pass: Pass::at(level),
                        settled: true,
                    });
                }
            }
        }
        let (v, best, n) = self.aspiration(pos, s, guess, EXACT, control)?;
        Ok((v, best, nodes + n))
    }

    /// Searches `pos` on all threads at `level` (of [`SELECTIVITY`], or [`EXACT`]): score,
    /// best move (`None` for a pass or the end), nodes.
    fn search(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        level: u8,
        control: &mut SolveControl<'_>,
    ) -> Result<(i32, Option<u8>, u64), Stopped> {
        let geo = Geometry::of(pos.size());
        let (p, o) = (pos.player().0, pos.opponent().0);
        let empties = !(p | o) & geo.mask;
        if crate::moves::legal_moves(p, o, empties) == 0 {
            if crate::moves::legal_moves(o, p, empties) == 0 {
                return Ok((pos.final_score(), None, 1));
            }
            let (v, _, n) = self.search(&pos.passed(), -beta, -alpha, level, control)?;
            return Ok((-v, None, n + 1));
        }
        let done = AtomicBool::new(false);
        let threads = self.options.threads.max(1);
        let tt = &self.tt;
        let near = &self.near;
        let halt = control.halt();
        let mut report = |step: &search::RootStep, nodes: u64| {
            if let Some(progress) = control.progress.as_mut() {
                progress(&Progress {
                    done: step.done,
                    total: step.total,
                    best: Square::from_index(step.best_move).map(|sq| (sq, WholeDiscs(step.best))),
                    nodes,
                    pass: Pass::at(level),
                    settled: false,
                });
            }
        };
        let busy = search::Busy::new();
        let busy = (threads > 1).then_some(&busy);
        // Every thread searches the whole tree and each result is exact; the first to finish
        // stops the others. Only the calling thread reports progress. The searches run
        // compiled for the processor's level (`crate::cpu`).
        with_cpu!(cpu => std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|i| {
                    let done = &done;
                    let near = &near[i];
                    scope.spawn(move || {
                        let mut s = Search::new(cpu, tt, near, geo, done, halt, busy, level);
                        let (v, best) = s.root(p, o, alpha, beta, &mut |_, _| {});
                        done.store(true, Relaxed);
                        (s.nodes, (!s.aborted).then_some((v, best)))
                    })
                })
                .collect();
            let mut main = Search::new(cpu, tt, &near[0], geo, &done, halt, busy, level);
            let (v, best) = main.root(p, o, alpha, beta, &mut report);
            done.store(true, Relaxed);
            let mut nodes = main.nodes;
            let mut result = (!main.aborted).then_some((v, best));
            for h in helpers {
                let (n, r) = h.join().unwrap_or((0, None));
                nodes += n;
                result = result.or(r);
            }
            match result {
                Some((v, best)) => Ok((v, (best != NO_MOVE).then_some(best), nodes)),
                None => Err(Stopped),
            }
        }))
    }

    /// The exact score of `pos` by a series of narrow windows: a full window would make
    /// every node under the first root move a wide-window node, while a window that holds
    /// the score costs half as much, and one that misses it fails fast. Each miss moves the
    /// window to the fail-soft bound and doubles its width.
    fn aspiration(
        &self,
        pos: &Position,
        s: i32,
        guess: i32,
        level: u8,
        control: &mut SolveControl<'_>,
    ) -> Result<(i32, Option<u8>, u64), Stopped> {
        let (mut best, mut nodes) = (None, 0);
        let limits = (-s - 1, s + 1);
        let v = aspiration::around(guess, ASPIRATION, limits, Widen::Follow, |alpha, beta| {
            let (v, b, n) = self.search(pos, alpha, beta, level, control)?;
            (best, nodes) = (b, nodes + n);
            Ok(v)
        })?;
        Ok((v, best, nodes))
    }

    /// A line of perfect play from `pos`, whose exact score is `score`, starting with `best`
    /// when it is given: at each step the first move (the table's first) whose child proves
    /// to have exactly the opposite score.
    fn principal_variation<C: Cpu>(
        &self,
        cpu: C,
        pos: &Position,
        score: i32,
        best: Option<u8>,
        control: &SolveControl<'_>,
    ) -> Result<(Vec<Move>, u64), Stopped> {
        let geo = Geometry::of(pos.size());
        let done = AtomicBool::new(false);
        let mut s = Search::new(
            cpu,
            &self.tt,
            &self.near[0],
            geo,
            &done,
            control.halt(),
            None,
            EXACT,
        );
        let (pv, end) = line::walk(pos, usize::MAX, |pos, pv| {
            // The score of the side to move here: it changes sides at every move and pass.
            let score = if pv.len() % 2 == 0 { score } else { -score };
            let moves = pos.legal_moves();
            let n = pos.empties().count();
            let key = tt::key(geo, pos.player().0, pos.opponent().0, n);
            let first = match (pv.is_empty(), best) {
                (true, Some(b)) => b,
                _ => s
                    .table(n)
                    .probe(key.hash)
                    .map_or(NO_MOVE, |e| key.move_from_table(e.best, geo)),
            };
            let mut order: Vec<Square> = moves.collect();
            order.sort_by_key(|sq| sq.index() != first);
            for sq in order {
                let child = pos.play_unchecked(sq);
                let (cp, co) = (child.player().0, child.opponent().0);
                let v = -s.pvs(cp, co, -score - 1, -score + 1, n - 1);
                if s.aborted {
                    return Err(Stopped);
                }
                if v == score {
                    return Ok(Some(sq));
                }
            }
            unreachable!("no move of a solved position reaches its score");
        })?;
        debug_assert_eq!(
            end.final_score(),
            if pv.len() % 2 == 0 { score } else { -score }
        );
        Ok((pv, s.nodes))
    }
}

#[cfg(test)]
mod tests;
