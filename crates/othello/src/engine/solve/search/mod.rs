//! The search proper: null-window alpha-beta (fail-soft) with a principal-variation search on
//! top, in three tiers by the number of empty squares `n`.
//!
//! - `n >= DEEP`: a transposition table (the thread's own small one below [`NEAR_END`]
//!   empties, the shared one from it on), stability cutoffs, enhanced transposition cutoffs
//!   and a move list sorted fastest-first (fewest replies for the opponent, corners counted
//!   twice, and fewer potential ones; then the move that keeps more corner-anchored discs,
//!   then odd quadrants, and from 12 empties on 6x6 and 8x8 by the learnt evaluation
//!   searched a few plies deep); the table's move is tried before the others are sorted, as
//!   it often cuts alone;
//! - `4 < n < DEEP`: no table; the empties tried in parity order (odd quadrants first),
//!   corners before ordinary squares before the squares next to a corner;
//! - `n <= 4`: the unrolled routines of [`super::last`].
//!
//! With several threads, all search the same tree over the shared table; at the root and at
//! nodes with at least `SPLIT_DEPTH` empties a thread puts off a move another thread is
//! searching (simplified ABDADA), so the threads spread over the tree instead of repeating
//! each other's work. A thread also looks now and then at the nodes of its current path: once
//! another thread has stored a result that settles one of them, it unwinds to that node and
//! takes the result, instead of finishing a subtree whose answer is already known (on FFO #48
//! with two threads this saved a fifth of the nodes). Each thread's result is exact, and the
//! first to finish stops the others.
//!
//! A search runs at a level: [`EXACT`], or one of the selective passes ([`SELECTIVITY`])
//! that go before an exact search of a position with many empties. A selective pass cuts a
//! node of the deep tier when the evaluation, searched a few plies, lands far outside the
//! window (Multi-ProbCut); its scores are only likely, and it stores them in the table marked
//! with its level, where the exact search uses their moves but not their bounds.
//!
//! The window is checked at the top of every search in debug builds; the scores of the
//! tiers are compared with plain negamax in the tests.
//!
//! The search is split by concern: [`ordering`] how the deep tier rates its moves (through
//! the one child-ordering step both searches share, [`crate::spine::order`]), [`probcut`] the selective passes' cuts,
//! [`threads`] how several threads share the work, [`root`] the root, and [`last`] the
//! unrolled routines of the last four empties.

mod last;
mod ordering;
mod probcut;
mod root;
mod threads;

use std::{sync::atomic::AtomicBool, time::Instant};

use super::flips::{flips_in, flips_near, legal_moves_in};
use super::{
    stability::{stable_discs, stable_discs_enough_in},
    tt::{self, Entry, Key, Tt, EXACT, NO_MOVE},
};
use crate::cpu::Cpu;
use crate::spine::probcut::ENDGAME_MIN_EMPTIES as PROBCUT_MIN;
pub(crate) use crate::spine::probcut::SELECTIVITY;
use crate::spine::{geometry::Geometry, order::MoveList};
use crate::{
    eval::Eval,
    spine::{bounds, clock::Clock, stop::StopControl},
};
pub(crate) use ordering::States;
pub(crate) use root::RootStep;
pub(crate) use threads::Busy;
use threads::SETTLED_EVERY;

/// How a node with the table opens ([`Search::open`]).
enum Node {
    /// Its value is known: from the table, or the game is over.
    Answered(i32),
    /// The side to move must pass.
    Pass,
    /// The moves to search: the node's key, the table's move (or `NO_MOVE`) and the legal
    /// moves.
    Moves(Key, u8, u64),
}

/// Score below every real score.
pub(crate) const NEG_INF: i32 = -1000;

/// Fewest empties at which the table, stability and sorted move lists are used. Below it the
/// squares are tried in a fixed order: sorting them by the opponent's replies at 6 empties
/// without a table (from 2026-11-25 to 11-27) saved nodes over the fixed order, but once the
/// nodes near the end kept to a table in the core's cache ([`NEAR_END`]), the table with its
/// sorted moves paid there too. `ply bench ffo --range 40-49`, one thread, alternately (with `ETC_DEPTH` 9):
/// from 6 empties 450.9 M nodes and 14.70-15.10 s, from 7 (sorted at 6) 477.4 M and
/// 14.63-15.02 s; fforum #20-#39, not tuned on, 59.8 M nodes and 2.11-2.14 s against 63.2 M
/// and 2.14-2.15 s.
pub(crate) const DEEP: u32 = 6;
/// Fewest empties at which enhanced transposition cutoffs are tried, before the moves are
/// rated (5% less time than after it). Measured on 2026-11-24 (2b9a183), before the
/// move-ordering work and the self-play weights: `ply bench ffo --range 40-49`, one thread:
/// from 10 empties 0.634 G nodes and 26.7-27.0 s, from 11 0.637 G and 25.6-25.9 s, from 12
/// 0.647 G and 25.6-26.1 s, from 14 0.665 G and 25.7 s; never, 0.83 G. Below 11 the
/// children's probes then cost more time than the cutoffs saved; since the children below
/// [`NEAR_END`] sit in a table in the core's cache, they cost less (2026-11-27, the table
/// from 7 empties: from 9 469.8 M nodes and 14.76-15.13 s, from 10 475.5 M, from 11 477.4 M
/// and 14.63-15.02 s).
const ETC_DEPTH: u32 = 9;

/// Fewest empties at which a node's result goes in the table all threads share; the nodes
/// of the deep tier with fewer (most of them: on FFO #45, 12.6 M of 14.9 M) go in a small
/// table of the thread's own ([`NEAR_END_MB`]), which stays in the core's cache, and leave
/// the shared one to the nodes whose subtrees cost more. Measured on 2026-11-27 (AMD EPYC,
/// 2 MB L2 and 32 MB L3 a core), `ply bench ffo --range 40-49`, one thread, alternately, a
/// data job on the other core paused: one shared 16 MB table 15.8-16.9 s (466.7 M nodes);
/// the own table below 10 empties 15.5-15.9 s (471.2 M), below 11 15.3-15.8 s (474.7 M),
/// below 12 14.8-15.5 s (477.5 M), below 14 14.8-15.2 s (484.7 M); below 12 with an own
/// table of 2 MB 15.0-15.5 s (473.5 M). The shared table's size then matters little: 4 MB
/// 14.9-15.1 s, 64 MB 15.1-15.3 s.
pub(crate) const NEAR_END: u32 = 12;
/// Size in megabytes of each thread's table for the nodes below [`NEAR_END`] empties.
pub(crate) const NEAR_END_MB: usize = 1;

/// Beyond any score of the evaluation: `-EVAL_BOUND..EVAL_BOUND` is an open window.
pub(crate) const EVAL_BOUND: i32 = 1 << 20;
/// How many nodes (the evaluation's searches included, which can make one deep node cost
/// thousands) pass between two looks at the stop flag and the clock.
const POLL_EVERY: u64 = 1 << 16;

/// What ends a search from outside: the caller's stop flag and deadline, and the clock the
/// deadline is read on (the system's, or a test's).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Halt<'a> {
    pub stop: Option<&'a AtomicBool>,
    pub deadline: Option<Instant>,
    pub clock: &'a dyn Clock,
}

/// One thread's search state over a shared table, at the level of the token `C`
/// ([`crate::cpu`]): every recursive function runs its body in [`Cpu::run`], so the search
/// is compiled once per level with its leaves inlined.
pub(crate) struct Search<'a, C: Cpu> {
    /// The processor's level this search is compiled for.
    cpu: C,
    /// The table shared by every thread, for nodes with [`NEAR_END`] empties or more.
    pub tt: &'a Tt,
    /// This thread's own small table, for the nodes of the deep tier below [`NEAR_END`].
    near: &'a Tt,
    pub geo: &'static Geometry,
    pub nodes: u64,
    /// When the search must end: a caller's stop, a deadline, or another thread's end (the
    /// threads of one search share a flag).
    control: StopControl<'a>,
    /// True once this search saw the stop: every score it returns from then on is garbage and
    /// nothing may be stored.
    pub aborted: bool,
    /// Positions being searched by some thread, when several share the work.
    busy: Option<&'a Busy>,
    /// The learnt evaluation that helps order moves high in the tree (6x6 and 8x8).
    eval: Option<&'static Eval>,
    /// [`EXACT`], or the index in [`SELECTIVITY`] of a selective pass.
    level: u8,
    /// The evaluation's states along the current path.
    states: States,
    /// With other threads about: for each number of empties from `SPLIT_DEPTH` on, the
    /// node of the current path that has it, as (key, alpha, beta) of its search.
    path: [(u64, i32, i32); 65],
    /// Empties of the root: `path` holds the current path's nodes below it.
    top: u32,
    /// The node count at which `path` is checked next.
    next_settled: u64,
    /// While this thread unwinds to a node of its path that another thread settled: that
    /// node's key and score. `aborted` is set meanwhile.
    unwind: Option<(u64, i32)>,
}

impl<'a, C: Cpu> Search<'a, C> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        cpu: C,
        tt: &'a Tt,
        near: &'a Tt,
        geo: &'static Geometry,
        stop: &'a AtomicBool,
        halt: Halt<'a>,
        busy: Option<&'a Busy>,
        level: u8,
    ) -> Search<'a, C> {
        debug_assert!(level == EXACT || usize::from(level) < SELECTIVITY.len());
        Search {
            cpu,
            tt,
            near,
            geo,
            nodes: 0,
            control: StopControl::new(
                Some(stop),
                halt.stop,
                halt.deadline,
                halt.clock,
                POLL_EVERY,
                POLL_EVERY,
            ),
            aborted: false,
            busy,
            eval: crate::BoardSize::from_n(geo.n as u8).and_then(crate::eval::ordering),
            level,
            states: States::new(geo.squares as u32),
            path: [(0, 0, 0); 65],
            top: 0,
            next_settled: SETTLED_EVERY,
            unwind: None,
        }
    }

    /// Looks at the stop flags and the clock now and then; true once the search must end.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.control.poll(self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Null-window search of `alpha..alpha + 1` with `n` empty squares, dispatched by tier.
    #[inline]
    pub fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                debug_assert_eq!((!(p | o) & self.geo.mask).count_ones(), n);
                debug_assert!(
                    alpha.abs() <= self.geo.squares + 1,
                    "window {alpha} off the scale"
                );
                debug_assert_eq!(p & o, 0);
                match n {
                    0 => {
                        self.nodes += 1;
                        self.final_score(p, o)
                    }
                    1..=4 => {
                        let mut e = !(p | o) & self.geo.mask;
                        let mut x = [0u8; 4];
                        for s in x.iter_mut().take(n as usize) {
                            *s = e.trailing_zeros() as u8;
                            e &= e - 1;
                        }
                        match n {
                            1 => self.solve1(p, o, x[0]),
                            2 => self.solve2(p, o, alpha, x[0], x[1]),
                            3 => self.solve3(p, o, alpha, [x[0], x[1], x[2]]),
                            _ => self.solve4(p, o, alpha, x),
                        }
                    }
                    _ if n < DEEP => self.nws_shallow(p, o, alpha, n),
                    _ => self.nws_deep(p, o, alpha, n),
                }
            },
        )
    }

    /// The score bound from the opponent's stable discs, if it fails low against `alpha`.
    #[inline]
    fn stability_cutoff(&self, p: u64, o: u64, alpha: i32) -> Option<i32> {
        let squares = self.geo.squares;
        // Cheap test first: even if every opponent disc were stable, could it cut?
        if alpha < squares - 2 * o.count_ones() as i32 {
            return None;
        }
        // The bound cuts once `2 * stable >= squares - alpha`: no more discs need finding.
        let enough = ((squares - alpha).max(0) as u32).div_ceil(2);
        let stable = stable_discs_enough_in(self.cpu, o, p, self.geo.mask, enough);
        debug_assert_eq!(stable & !stable_discs(o, p, self.geo.mask), 0);
        let bound = squares - 2 * stable.count_ones() as i32;
        (bound <= alpha).then_some(bound)
    }

    /// Null-window search without the table, below [`DEEP`] empties: the squares tried in
    /// parity order (odd quadrants first), corners before ordinary squares before the squares
    /// next to a corner.
    fn nws_shallow(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                self.nodes += 1;
                if let Some(bound) = self.stability_cutoff(p, o, alpha) {
                    return bound;
                }
                let g = self.geo;
                let empties = !(p | o) & g.mask;
                let odd = g.odd_quadrants(empties);
                let plain = !(g.corners | g.near_corners);
                let classes = [
                    odd & g.corners,
                    odd & plain,
                    odd & g.near_corners,
                    !odd & g.corners,
                    !odd & plain,
                    !odd & g.near_corners,
                ];
                let mut best = NEG_INF;
                for class in classes {
                    let mut m = empties & class;
                    while m != 0 {
                        let sq = m.trailing_zeros() as u8;
                        m &= m - 1;
                        let f = flips_near(self.cpu, p, o, sq);
                        if f == 0 {
                            continue;
                        }
                        let v = -self.nws(o ^ f, p | f | 1 << sq, -alpha - 1, n - 1);
                        if v > best {
                            best = v;
                            if v > alpha {
                                return v;
                            }
                        }
                    }
                }
                if best == NEG_INF {
                    if legal_moves_in(self.cpu, o, p, empties) == 0 {
                        return self.final_score(p, o);
                    }
                    return -self.nws(o, p, -alpha - 1, n);
                }
                best
            },
        )
    }

    /// Null-window search with the table.
    fn nws_deep(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                self.nodes += 1;
                if self.should_stop() || self.settled_above(n) {
                    return 0;
                }
                if let Some(bound) = self.stability_cutoff(p, o, alpha) {
                    return bound;
                }
                let beta = alpha + 1;
                let (key, hash_move, moves) = match self.open(p, o, alpha, beta, n) {
                    Node::Answered(v) => return v,
                    Node::Pass => return -self.nws(o, p, -beta, n),
                    Node::Moves(key, hash_move, moves) => (key, hash_move, moves),
                };
                // Marked busy before the probe of a selective pass, which costs as much as many
                // nodes: another thread then leaves this node for later.
                let shared = self.share(key, n, alpha, beta);
                if self.level != EXACT && n >= PROBCUT_MIN {
                    if let Some(v) = self.probcut(p, o, alpha, n) {
                        if let Some(busy) = shared {
                            busy.leave(key.hash);
                        }
                        return v;
                    }
                }
                let nodes_before = self.nodes;
                let mut best = NEG_INF;
                let mut best_move = NO_MOVE;
                // The table's move first, before the others are sorted: it often cuts alone.
                let mut moves = moves;
                if hash_move < 64 && moves >> hash_move & 1 != 0 {
                    let f = flips_in(self.cpu, p, o, hash_move);
                    let v = -self.nws(o ^ f, p | f | 1 << hash_move, -beta, n - 1);
                    if self.aborted {
                        return self.unwound(key, shared);
                    }
                    best = v;
                    best_move = hash_move;
                    moves &= !(1 << hash_move);
                    if v > alpha || moves == 0 {
                        if let Some(busy) = shared {
                            busy.leave(key.hash);
                        }
                        self.store(key, alpha, beta, best, best_move, self.nodes - nodes_before);
                        return best;
                    }
                }
                let mut list = MoveList::empty();
                list.generate_in(self.cpu, p, o, moves);
                // The children's buckets start loading now, all at once: the cutoff check below and
                // the children's own probes then find them in the cache.
                if n > DEEP {
                    for c in list.remaining() {
                        let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
                        self.table(n - 1)
                            .prefetch(tt::key(self.geo, np, no, n - 1).hash);
                    }
                }
                // Before the moves are rated: a cutoff here spares the rating's searches.
                if n >= ETC_DEPTH {
                    if let Some(v) = self.etc(&list, p, o, alpha, n) {
                        if let Some(busy) = shared {
                            busy.leave(key.hash);
                        }
                        return v;
                    }
                }
                self.rate(&mut list, p, o, NO_MOVE);
                // Children another thread is searching wait for the end (`next_child`).
                while let Some(c) = self.next_child(&mut list, shared, best > NEG_INF, (p, o, n)) {
                    let v = -self.nws(o ^ c.flips, p | c.flips | 1 << c.sq, -beta, n - 1);
                    if self.aborted {
                        return self.unwound(key, shared);
                    }
                    if v > best {
                        best = v;
                        best_move = c.sq;
                        if v > alpha {
                            break;
                        }
                    }
                }
                if let Some(busy) = shared {
                    busy.leave(key.hash);
                }
                self.store(key, alpha, beta, best, best_move, self.nodes - nodes_before);
                best
            },
        )
    }

    /// What every node with the table does first, `nws_deep` and `pvs` alike: the table's
    /// answer over `alpha..beta`, the final score where neither side can move, a pass, or
    /// the node's key, the table's move and the legal moves to search.
    #[inline(always)]
    fn open(&self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> Node {
        let key = tt::key(self.geo, p, o, n);
        let hash_move = match self.table_answer(key, alpha, beta) {
            Ok(hash_move) => hash_move,
            Err(v) => return Node::Answered(v),
        };
        let empties = !(p | o) & self.geo.mask;
        let moves = legal_moves_in(self.cpu, p, o, empties);
        if moves != 0 {
            Node::Moves(key, hash_move, moves)
        } else if legal_moves_in(self.cpu, o, p, empties) != 0 {
            Node::Pass
        } else {
            Node::Answered(self.final_score(p, o))
        }
    }

    /// What the table says of the node `key` searched over `alpha..beta`: `Err(score)` when
    /// its bounds settle the window, else `Ok` with its move to try first ([`NO_MOVE`] if
    /// none).
    #[inline(always)]
    fn table_answer(&self, key: Key, alpha: i32, beta: i32) -> Result<u8, i32> {
        let Some(e) = self.probe(key.hash, key.empties) else {
            return Ok(NO_MOVE);
        };
        match e.cutoff(alpha, beta) {
            Some(v) => Err(v),
            None => Ok(key.move_from_table(e.best, self.geo)),
        }
    }

    /// The table that holds the nodes with `n` empties: the thread's own small one below
    /// [`NEAR_END`], the shared one from it on.
    #[inline(always)]
    pub fn table(&self, n: u32) -> &'a Tt {
        if n < NEAR_END {
            self.near
        } else {
            self.tt
        }
    }

    /// The table's entry for `hash` (a node with `n` empties) as this search may use it: the
    /// bounds of an entry less sure than this search (a selective pass's, seen by a surer
    /// one) are opened beyond every score, so that only its move counts.
    #[inline]
    fn probe(&self, hash: u64, n: u32) -> Option<Entry> {
        let mut e = self.table(n).probe(hash)?;
        if e.level < self.level {
            (e.lower, e.upper) = (i8::MIN, i8::MAX);
        }
        Some(e)
    }

    /// Enhanced transposition cutoff: a child the table already knows to be bad enough for
    /// the opponent proves a fail-high without searching.
    #[inline]
    fn etc(&self, list: &MoveList, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                for c in list.remaining() {
                    let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
                    if let Some(e) = self.probe(tt::key(self.geo, np, no, n - 1).hash, n - 1) {
                        let v = -i32::from(e.upper);
                        if v > alpha {
                            return Some(v);
                        }
                    }
                }
                None
            },
        )
    }

    /// Records a fail-soft result of a search of `alpha..beta`.
    #[inline(always)]
    fn store(&self, key: Key, alpha: i32, beta: i32, best: i32, best_move: u8, nodes: u64) {
        let s = self.geo.squares;
        let (lower, upper) = bounds::proven(best, alpha, beta, -s, s);
        self.table(key.empties).store(
            key.hash,
            Entry {
                lower: lower as i8,
                upper: upper as i8,
                best: key.move_to_table(best_move, self.geo),
                cost: (64 - nodes.leading_zeros()) as u8,
                level: self.level,
            },
        );
    }

    /// The value of the child `(np, no)` of a principal-variation node with `n` empties and
    /// the window `alpha..beta`: with the whole window for the first child (`full`), else
    /// with a null window first, and again with the whole window only when that puts the
    /// child inside it.
    #[inline]
    fn pv_child(&mut self, np: u64, no: u64, alpha: i32, beta: i32, n: u32, full: bool) -> i32 {
        if full {
            return -self.pvs(np, no, -beta, -alpha, n - 1);
        }
        let v = -self.nws(np, no, -alpha - 1, n - 1);
        if v > alpha && v < beta && !self.aborted {
            return -self.pvs(np, no, -beta, -alpha, n - 1);
        }
        v
    }

    /// Principal-variation search of `alpha..beta`: the first move with the full window, the
    /// others with a null window first.
    pub fn pvs(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                debug_assert!(alpha < beta);
                if beta == alpha + 1 {
                    return self.nws(p, o, alpha, n);
                }
                self.nodes += 1;
                if self.should_stop() || self.settled_above(n) {
                    return 0;
                }
                let (key, hash_move, moves) = match self.open(p, o, alpha, beta, n) {
                    Node::Answered(v) => return v,
                    Node::Pass => return -self.pvs(o, p, -beta, -alpha, n),
                    Node::Moves(key, hash_move, moves) => (key, hash_move, moves),
                };
                let alpha0 = alpha;
                let mut list = self.sorted_moves(p, o, moves, hash_move);
                let nodes_before = self.nodes;
                let mut best = NEG_INF;
                let mut best_move = NO_MOVE;
                // Children another thread is searching wait for the end (`next_child`).
                let shared = self.share(key, n, alpha, beta);
                while let Some(c) = self.next_child(&mut list, shared, best > NEG_INF, (p, o, n)) {
                    let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
                    let v = self.pv_child(np, no, alpha, beta, n, best == NEG_INF);
                    if self.aborted {
                        return self.unwound(key, shared);
                    }
                    if v > best {
                        best = v;
                        best_move = c.sq;
                        if v >= beta {
                            break;
                        }
                        alpha = alpha.max(v);
                    }
                }
                if let Some(busy) = shared {
                    busy.leave(key.hash);
                }
                self.store(
                    key,
                    alpha0,
                    beta,
                    best,
                    best_move,
                    self.nodes - nodes_before,
                );
                best
            },
        )
    }
}
