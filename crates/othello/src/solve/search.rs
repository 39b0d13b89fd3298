//! The search proper: null-window alpha-beta (fail-soft) with a principal-variation search on
//! top, in three tiers by the number of empty squares `n`.
//!
//! - `n >= DEEP`: the transposition table, stability cutoffs, enhanced transposition cutoffs
//!   and a move list sorted fastest-first (fewest replies for the opponent, corners counted
//!   twice, and fewer potential ones; then the move that keeps more corner-anchored discs,
//!   then odd quadrants, and from 12 empties on 6x6 and 8x8 by the learnt evaluation
//!   searched a few plies deep); the table's move is tried before the others are sorted, as
//!   it often cuts alone;
//! - `4 < n < DEEP`: no table; empties tried in parity order (odd quadrants first), corners
//!   before ordinary squares before the squares next to a corner;
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

use std::{
    mem::MaybeUninit,
    sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed},
    time::Instant,
};

use super::flips::{flips, flips_near, legal_moves};
use super::{
    geometry::Geometry,
    last::NEG_INF,
    stability::stable_discs,
    symmetry,
    tt::{self, Entry, Key, Tt, EXACT, NO_MOVE},
};
use crate::eval::{Eval, EvalState, UNIT};

/// Fewest empties at which the table, stability and sorted move lists are used.
pub(crate) const DEEP: u32 = 7;
/// Fewest empties at which enhanced transposition cutoffs are tried, before the moves are
/// rated (5% less time than after it). `ply bench ffo --range 40-49`, one thread: from 10
/// empties 0.634 G nodes and 26.7-27.0 s, from 11 0.637 G and 25.6-25.9 s, from 12 0.647 G
/// and 25.6-26.1 s, from 14 0.665 G and 25.7 s; never, 0.83 G. Below 11 the children's
/// probes cost more time than the cutoffs save.
const ETC_DEPTH: u32 = 11;
/// Fewest empties at which threads share out the moves of a node.
const SPLIT_DEPTH: u32 = 10;
/// Fewest empties at which the pattern evaluation (6x6 and 8x8) joins the move ordering.
const EVAL_ORDER: u32 = 12;

/// How many plies deep the learnt evaluation is searched to rate each child of a node with
/// `n` empties: the child itself below 16 empties, after the opponent's best reply below 18,
/// and deeper from there, as the subtrees to order grow (tuned by node counts and time on
/// FFO #41-#49).
#[inline]
fn sort_depth(n: u32) -> u32 {
    match n {
        ..16 => 0,
        16..18 => 1,
        18..22 => 2,
        22..24 => 4,
        _ => 6,
    }
}

/// Most moves at a node whose children are rated deeper than two plies.
const WIDE: usize = 20;

/// Sorting points per predicted disc of a rating `depth` plies deep (one opponent reply
/// costs 16): a deeper rating is trusted more.
#[inline]
fn eval_weight(depth: u32) -> i32 {
    if depth >= 2 {
        12
    } else {
        4
    }
}

/// The selective passes that may go before an exact search: each is the number of standard
/// deviations of the evaluation's error that a probe must clear to cut a node (Multi-ProbCut
/// in the endgame, as Edax and Egaroucid do it). A pass's bounds are only likely; what it
/// leaves in the table is a good first move at most nodes and a good first window at the
/// root, which the exact search then proves. Tuned by the nodes of
/// `ply bench ffo --range 40-49`, one thread (with the evaluation of the time: 0.90 G nodes
/// with three passes, 1.73 G without selective passes, 0.98 G with each value a quarter
/// wider). With today's evaluation a middle pass at 1.6 no longer pays: 0.659 G nodes with
/// it, 0.634 G without (checked on positions not tuned on: FFO #50-#52 1.143 G -> 1.115 G,
/// fforum #20-#39 98.8 M -> 95.4 M; the 6x6 start 0.329 G either way).
pub(crate) const SELECTIVITY: [f64; 2] = [1.1, 2.2];
/// Fewest empties at which a selective pass probes.
const PROBCUT_MIN: u32 = 10;

/// The depth of the evaluation search that predicts the exact score of a node with `n`
/// empties, in a selective pass.
#[inline]
fn probcut_depth(n: u32) -> u32 {
    match n {
        ..18 => 2,
        18..24 => 4,
        _ => 6,
    }
}

/// The spread (in discs) of the exact score of a node with `n` empties around the evaluation
/// searched `depth` plies deep on a board of `side` squares a side, as fitted by
/// `cargo run --release -p ply-train --example calibrate-mpc -- --size 8|6 --endgame`.
#[inline]
fn probcut_sigma(side: u32, n: u32, depth: u32) -> f64 {
    let (a, b, c) = if side == 8 {
        (4.178, -0.3968, 0.2177)
    } else {
        (5.929, -0.3212, -0.0100)
    };
    (a + b * f64::from(depth) + c * f64::from(n)).max(1.0)
}

/// Beyond any score of the evaluation: `-EVAL_BOUND..EVAL_BOUND` is an open window.
pub(crate) const EVAL_BOUND: i32 = 1 << 20;
/// How many nodes (the evaluation's searches included, which can make one deep node cost
/// thousands) pass between two looks at the stop flag and the clock.
const POLL_EVERY: u64 = 1 << 16;
/// How many nodes pass between two looks, with other threads about, at whether another
/// thread has settled a node this one is inside.
const SETTLED_EVERY: u64 = 1 << 12;

/// One thread's search state over a shared table.
pub(crate) struct Search<'a> {
    pub tt: &'a Tt,
    pub geo: &'static Geometry,
    pub nodes: u64,
    /// Set when the search must end (a caller's stop, a deadline, or another thread's end).
    stop: &'a AtomicBool,
    external: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    /// True once this search saw the stop: every score it returns from then on is garbage and
    /// nothing may be stored.
    pub aborted: bool,
    /// The node count at which the flags and the clock are looked at next.
    next_poll: u64,
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

/// Positions some thread is searching now: one slot per hash index, holding the key.
/// Collisions only make a thread defer a move needlessly or search one twice.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    pub fn new() -> Busy {
        Busy {
            slots: (0..1 << 14).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 40) as usize & (self.slots.len() - 1)]
    }

    #[inline]
    fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    #[inline]
    fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }

    #[inline]
    fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }
}

/// The evaluation's state of the last node that needed one, for each number of empties:
/// a node whose parent's state is still there gets its own by playing one move on it (a few
/// vector adds) instead of reading the board afresh.
pub(crate) struct States {
    slots: Vec<(u64, u64, Option<EvalState>)>,
}

impl States {
    pub fn new(squares: u32) -> States {
        States {
            slots: vec![(0, 0, None); squares as usize + 2],
        }
    }

    /// The state of `p` to move against `o`, with `n` empty squares: kept from the last call
    /// for the same position, the position with the other side to move (a pass), or the
    /// position one move before it at `n + 1`; else made from scratch.
    #[inline]
    pub fn get(&mut self, e: &Eval, p: u64, o: u64, n: u32) -> &mut EvalState {
        let i = n as usize;
        let derived = match self.slots[i] {
            (sp, so, Some(st)) if (sp, so) == (p, o) => Some(st),
            (sp, so, Some(mut st)) if (sp, so) == (o, p) => {
                st.pass();
                Some(st)
            }
            _ => match self.slots[i + 1] {
                (pp, po, Some(mut st)) => {
                    // One move of `pp` from (pp, po) leads to (p, o): the disc placed and the
                    // discs turned.
                    let placed = (p | o) & !(pp | po);
                    let turned = o & !pp & !placed;
                    let one_move = placed.count_ones() == 1
                        && turned != 0
                        && turned & po == turned
                        && p == po & !turned
                        && o == pp | turned | placed;
                    one_move.then(|| {
                        st.play(placed.trailing_zeros() as u8, turned);
                        st
                    })
                }
                _ => None,
            },
        };
        let st = derived.unwrap_or_else(|| e.state(p, o));
        debug_assert!(
            st == e.state(p, o),
            "a derived state differs from a fresh one"
        );
        self.slots[i] = (p, o, Some(st));
        self.slots[i].2.as_mut().expect("just stored")
    }
}

/// Room for every legal move of a position: a position may have more than 32 (33 in real
/// games, more in constructed ones), never more than its 64 squares.
const MAX_MOVES: usize = 64;

/// One candidate move of a sorted list.
#[derive(Clone, Copy, Default)]
struct Candidate {
    sq: u8,
    flips: u64,
    value: i32,
}

/// A move list for the deep tier, sorted lazily (best remaining candidate picked each time).
/// A popped candidate may be put off ([`MoveList::defer`]): it goes to the slots that the
/// pops freed at the end of the list, so the list never needs more room than its moves.
///
/// Only the first `total` slots are ever written (all of them by [`MoveList::generate`]) or read:
/// the room for 64 moves costs nothing at the many nodes that have a few.
struct MoveList {
    moves: [MaybeUninit<Candidate>; MAX_MOVES],
    /// Candidates not yet popped: the slots `..len`.
    len: usize,
    /// Moves in the list when it was made.
    total: usize,
    /// Candidates put off: the slots `total - deferred..total`, the first put off last.
    deferred: usize,
}

impl MoveList {
    /// A list with no moves yet, for [`MoveList::generate`]. The list is made empty where
    /// it will live and then filled there: a filled list returned by value was copied
    /// whole (1 KB) at every node.
    #[inline]
    fn empty() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
            total: 0,
            deferred: 0,
        }
    }

    /// Fills an empty list with the moves `moves` of `p` against `o` and the discs each
    /// turns, not yet rated.
    #[inline]
    fn generate(&mut self, p: u64, o: u64, mut moves: u64) {
        debug_assert_eq!(self.total, 0, "a list is filled once");
        let mut len = 0;
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            self.moves[len].write(Candidate {
                sq,
                flips: flips(p, o, sq),
                value: 0,
            });
            len += 1;
        }
        (self.len, self.total) = (len, len);
    }

    /// The slot `i`, which must be below `total`.
    #[inline]
    fn get(&self, i: usize) -> Candidate {
        assert!(i < self.total);
        // SAFETY: `generate` wrote every slot below `total`, and later writes only replace them.
        unsafe { self.moves[i].assume_init() }
    }

    /// The candidates not yet popped.
    #[inline]
    fn remaining(&self) -> &[Candidate] {
        debug_assert!(self.len <= self.total);
        // SAFETY: the slots below `len <= total` were written by `generate` (`MaybeUninit<T>` has
        // the layout of `T`).
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Candidate>(), self.len) }
    }

    /// The candidates not yet popped, to rate them.
    #[inline]
    fn remaining_mut(&mut self) -> &mut [Candidate] {
        debug_assert!(self.len <= self.total);
        // SAFETY: as in `remaining`.
        unsafe {
            std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Candidate>(), self.len)
        }
    }

    /// The next best candidate, removed from the list.
    #[inline]
    fn pop_best(&mut self) -> Option<Candidate> {
        let rest = self.remaining();
        let (mut b, mut best) = (0, rest.first()?.value);
        for (i, c) in rest.iter().enumerate().skip(1) {
            if c.value > best {
                (b, best) = (i, c.value);
            }
        }
        let c = rest[b];
        let last = rest[rest.len() - 1];
        self.len -= 1;
        self.moves[b].write(last);
        Some(c)
    }

    /// Keeps a popped candidate for later, after the ones put off before it.
    #[inline]
    fn defer(&mut self, c: Candidate) {
        // Every candidate put off was popped first, so a slot past `len` is free.
        assert!(self.len + self.deferred < self.total);
        self.deferred += 1;
        self.moves[self.total - self.deferred].write(c);
    }

    /// The `i`-th candidate put off, in the order they were.
    #[inline]
    fn deferred(&self, i: usize) -> Candidate {
        debug_assert!(i < self.deferred);
        self.get(self.total - 1 - i)
    }
}

impl<'a> Search<'a> {
    pub fn new(
        tt: &'a Tt,
        geo: &'static Geometry,
        stop: &'a AtomicBool,
        external: Option<&'a AtomicBool>,
        deadline: Option<Instant>,
        busy: Option<&'a Busy>,
        level: u8,
    ) -> Search<'a> {
        debug_assert!(level == EXACT || usize::from(level) < SELECTIVITY.len());
        Search {
            tt,
            geo,
            nodes: 0,
            stop,
            external,
            deadline,
            aborted: false,
            next_poll: POLL_EVERY,
            busy,
            eval: crate::BoardSize::from_n(geo.n as u8).and_then(crate::eval::builtin),
            level,
            states: States::new(geo.squares as u32),
            path: [(0, 0, 0); 65],
            top: 0,
            next_settled: SETTLED_EVERY,
            unwind: None,
        }
    }

    /// With other threads about, now and then: whether another thread has stored a result
    /// that settles a node of this thread's path above a node with `n` empties (the one
    /// nearest the root, if several); if so, the search unwinds to it (see [`Self::unwound`]).
    #[inline]
    fn settled_above(&mut self, n: u32) -> bool {
        if self.busy.is_none() || self.nodes < self.next_settled {
            return false;
        }
        self.next_settled = self.nodes + SETTLED_EVERY;
        // The thread that finished first waits for this one to see its stop.
        if self.stop.load(Relaxed) {
            self.aborted = true;
            return true;
        }
        for m in ((n + 1).max(SPLIT_DEPTH)..self.top).rev() {
            let (hash, alpha, beta) = self.path[m as usize];
            if let Some(v) = self.probe(hash).and_then(|e| e.cutoff(alpha, beta)) {
                self.aborted = true;
                self.unwind = Some((hash, v));
                return true;
            }
        }
        false
    }

    /// With other threads about, at a node with at least `SPLIT_DEPTH` empties searched over
    /// `alpha..beta`: marks it busy and records it on the path (every such node is, which
    /// [`Self::settled_above`] relies on); the busy set to leave it in, if so.
    #[inline]
    fn share(&mut self, key: Key, n: u32, alpha: i32, beta: i32) -> Option<&'a Busy> {
        let busy = self.busy.filter(|_| n >= SPLIT_DEPTH)?;
        busy.enter(key.hash);
        self.path[n as usize] = (key.hash, alpha, beta);
        Some(busy)
    }

    /// What a node of the deep tier returns when its child came back aborted: the settled
    /// score, when this is the node the search was unwinding to (the search then goes on
    /// from here), else nothing that counts.
    #[inline]
    fn unwound(&mut self, key: Key, shared: Option<&Busy>) -> i32 {
        if let Some(busy) = shared {
            busy.leave(key.hash);
        }
        match self.unwind {
            Some((hash, v)) if hash == key.hash => {
                self.unwind = None;
                self.aborted = false;
                v
            }
            _ => 0,
        }
    }

    /// Looks at the stop flags and the clock now and then; true once the search must end.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL_EVERY;
            let external = self.external.is_some_and(|e| e.load(Relaxed));
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if external || late {
                self.stop.store(true, Relaxed);
            }
            if self.stop.load(Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Null-window search of `alpha..alpha + 1` with `n` empty squares, dispatched by tier.
    #[inline]
    pub fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
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
    }

    /// The score bound from the opponent's stable discs, if it fails low against `alpha`.
    #[inline]
    fn stability_cutoff(&self, p: u64, o: u64, alpha: i32) -> Option<i32> {
        let squares = self.geo.squares;
        // Cheap test first: even if every opponent disc were stable, could it cut?
        if alpha < squares - 2 * o.count_ones() as i32 {
            return None;
        }
        let bound = squares - 2 * stable_discs(o, p, self.geo.mask).count_ones() as i32;
        (bound <= alpha).then_some(bound)
    }

    /// Null-window search without the table: parity order, corners first.
    fn nws_shallow(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
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
                let f = flips_near(p, o, sq);
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
            if legal_moves(o, p, empties) == 0 {
                return self.final_score(p, o);
            }
            return -self.nws(o, p, -alpha - 1, n);
        }
        best
    }

    /// The moves `moves` of the deep tier, rated ([`Search::rate`]).
    #[inline]
    fn sorted_moves(&mut self, p: u64, o: u64, moves: u64, hash_move: u8) -> MoveList {
        let mut list = MoveList::empty();
        list.generate(p, o, moves);
        self.rate(&mut list, p, o, hash_move);
        list
    }

    /// Rates the moves of `list` for sorting: a wipe-out first, then the table's move, then
    /// fewest (weighted) replies for the opponent (16 points each), fewest empty squares
    /// beside our discs (the opponent's potential moves, 4 points each), most corner discs
    /// (with the edge squares beside them), then odd quadrants. With [`EVAL_ORDER`] empties
    /// or more on 6x6 and 8x8, the learnt evaluation of the child, searched [`sort_depth`]
    /// plies deep, is added with [`eval_weight`] points per predicted disc.
    #[inline]
    fn rate(&mut self, list: &mut MoveList, p: u64, o: u64, hash_move: u8) {
        let g = self.geo;
        let empties = !(p | o) & g.mask;
        let odd = g.odd_quadrants(empties);
        let n = empties.count_ones();
        let eval = self.eval.filter(|_| n >= EVAL_ORDER);
        // A rating's cost grows with the number of moves to the power of half its depth:
        // past `WIDE` moves (never in the FFO sets, common in constructed positions) the
        // deeper ratings would cost seconds at one node, so they stop at two plies.
        let depth = if list.len > WIDE {
            sort_depth(n).min(2)
        } else {
            sort_depth(n)
        };
        // The evaluation's indices for this node, updated move by move below it.
        let mut state = eval.map(|e| self.states.get(e, p, o, n));
        for c in list.remaining_mut() {
            let (sq, f) = (c.sq, c.flips);
            let (np, no) = (o ^ f, p | f | 1 << sq);
            c.value = if np == 0 {
                1 << 30
            } else if sq == hash_move {
                1 << 29
            } else {
                let rest = empties & !(1 << sq);
                let replies = legal_moves(np, no, rest);
                let mobility = replies.count_ones() + (replies & g.corners).count_ones();
                let parity = (odd >> sq & 1) as i32;
                // Our corners and the edge squares beside them: discs that stay ours.
                let corners = no & g.corners;
                let beside = ((corners << 1 & 0xfefe_fefe_fefe_fefe)
                    | (corners >> 1 & 0x7f7f_7f7f_7f7f_7f7f)
                    | corners << 8
                    | corners >> 8)
                    & g.c_squares;
                let anchored = (corners | (beside & no)).count_ones() as i32;
                // The opponent's potential moves: empty squares beside our discs.
                let potential = (crate::moves::neighbours(no) & rest).count_ones() as i32;
                let mut value =
                    -((mobility as i32) << 4) - (potential << 2) + (anchored << 1) + parity;
                if let (Some(e), Some(st)) = (eval, state.as_mut()) {
                    st.play(sq, f);
                    let (a, b) = (-EVAL_BOUND, EVAL_BOUND);
                    self.nodes += 1;
                    let nodes = &mut self.nodes;
                    let ours = -Self::eval_search(e, st, np, no, rest, depth, a, b, nodes);
                    st.undo(sq, f);
                    value += ours * eval_weight(depth) / UNIT;
                }
                value
            };
        }
    }

    /// The learnt evaluation searched `depth` plies deep (negamax with alpha-beta; a pass
    /// costs no ply, the end of the game scores its disc count), in [`UNIT`]s per disc.
    /// `state` holds the evaluation's indices of `p`, `o`; it is updated as moves are made
    /// and unmade, and left as it was. `nodes` counts the positions searched below this one.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn eval_search(
        e: &Eval,
        state: &mut EvalState,
        p: u64,
        o: u64,
        empties: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> i32 {
        if depth == 0 {
            return e.evaluate(state, p, o);
        }
        let mut moves = legal_moves(p, o, empties);
        if moves == 0 {
            if legal_moves(o, p, empties) == 0 {
                let squares = (p | o | empties).count_ones();
                return crate::final_score(p, o, squares) * UNIT;
            }
            state.pass();
            *nodes += 1;
            let v = -Self::eval_search(e, state, o, p, empties, depth, -beta, -alpha, nodes);
            state.pass();
            return v;
        }
        if depth == 1 {
            // The children are leaves: their values need no window and no order.
            let mut best = i32::MIN + 1;
            while moves != 0 {
                let sq = moves.trailing_zeros() as u8;
                moves &= moves - 1;
                let f = flips(p, o, sq);
                state.play(sq, f);
                *nodes += 1;
                let v = -e.evaluate(state, o ^ f, p | f | 1 << sq);
                state.undo(sq, f);
                if v > best {
                    best = v;
                    if v >= beta {
                        break;
                    }
                }
            }
            return best;
        }
        // Children as (our static score, square, flips), best first from two plies on.
        let mut kids = [(0i32, 0u8, 0u64); MAX_MOVES];
        let mut len = 0;
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips(p, o, sq);
            let score = if depth >= 2 {
                state.play(sq, f);
                let v = -e.evaluate(state, o ^ f, p | f | 1 << sq);
                state.undo(sq, f);
                v
            } else {
                0
            };
            let mut i = len;
            while i > 0 && kids[i - 1].0 < score {
                kids[i] = kids[i - 1];
                i -= 1;
            }
            kids[i] = (score, sq, f);
            len += 1;
        }
        let mut best = i32::MIN + 1;
        for (i, &(_, sq, f)) in kids[..len].iter().enumerate() {
            let (np, no) = (o ^ f, p | f | 1 << sq);
            let rest = empties & !(1 << sq);
            state.play(sq, f);
            let d = depth - 1;
            let mut v;
            *nodes += 1;
            if i == 0 {
                v = -Self::eval_search(e, state, np, no, rest, d, -beta, -alpha, nodes);
            } else {
                v = -Self::eval_search(e, state, np, no, rest, d, -alpha - 1, -alpha, nodes);
                if v > alpha && v < beta {
                    *nodes += 1;
                    v = -Self::eval_search(e, state, np, no, rest, d, -beta, -alpha, nodes);
                }
            }
            state.undo(sq, f);
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }

    /// Null-window search with the table.
    fn nws_deep(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        self.nodes += 1;
        if self.should_stop() || self.settled_above(n) {
            return 0;
        }
        if let Some(bound) = self.stability_cutoff(p, o, alpha) {
            return bound;
        }
        let beta = alpha + 1;
        let key = tt::key(self.geo, p, o, n);
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.probe(key.hash) {
            if let Some(v) = e.cutoff(alpha, beta) {
                return v;
            }
            hash_move = key.move_from_table(e.best, self.geo);
        }
        let empties = !(p | o) & self.geo.mask;
        let moves = legal_moves(p, o, empties);
        if moves == 0 {
            if legal_moves(o, p, empties) == 0 {
                return self.final_score(p, o);
            }
            return -self.nws(o, p, -beta, n);
        }
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
            let f = flips(p, o, hash_move);
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
        list.generate(p, o, moves);
        // The children's buckets start loading now, all at once: the cutoff check below and
        // the children's own probes then find them in the cache.
        if n > DEEP {
            for c in list.remaining() {
                let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
                self.tt.prefetch(tt::key(self.geo, np, no, n - 1).hash);
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
        // With other threads about, a child one of them is searching now waits for a second
        // pass (simplified ABDADA): by then its result is usually in the table.
        while let Some(c) = list.pop_best() {
            let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
            if let Some(busy) = shared {
                if best > NEG_INF && busy.contains(tt::key(self.geo, np, no, n - 1).hash) {
                    list.defer(c);
                    continue;
                }
            }
            let v = -self.nws(np, no, -beta, n - 1);
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
        if best <= alpha {
            for i in 0..list.deferred {
                let c = list.deferred(i);
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
        }
        if let Some(busy) = shared {
            busy.leave(key.hash);
        }
        self.store(key, alpha, beta, best, best_move, self.nodes - nodes_before);
        best
    }

    /// Multi-ProbCut, in a selective pass: `alpha + 1` (a likely fail-high) when the
    /// evaluation searched [`probcut_depth`] plies lands far enough above the window, `alpha`
    /// when it lands far enough below it.
    fn probcut(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        let e = self.eval?;
        let depth = probcut_depth(n);
        let t = SELECTIVITY[usize::from(self.level)];
        let margin = (t * probcut_sigma(self.geo.n, n, depth) * f64::from(UNIT)) as i32;
        let empties = !(p | o) & self.geo.mask;
        let squares = self.geo.squares;
        let state = self.states.get(e, p, o, n);
        let nodes = &mut self.nodes;
        let mut shallow =
            |a, b| Self::eval_search(e, state, p, o, empties, depth, a, b, &mut *nodes);
        let high = (alpha + 1) * UNIT + margin;
        if alpha + 1 < squares && shallow(high - 1, high) >= high {
            return Some(alpha + 1);
        }
        let low = alpha * UNIT - margin;
        if alpha > -squares && shallow(low, low + 1) <= low {
            return Some(alpha);
        }
        None
    }

    /// The table's entry for `hash` as this search may use it: the bounds of an entry less
    /// sure than this search (a selective pass's, seen by a surer one) are opened beyond
    /// every score, so that only its move counts.
    #[inline]
    fn probe(&self, hash: u64) -> Option<Entry> {
        let mut e = self.tt.probe(hash)?;
        if e.level < self.level {
            (e.lower, e.upper) = (i8::MIN, i8::MAX);
        }
        Some(e)
    }

    /// Enhanced transposition cutoff: a child the table already knows to be bad enough for
    /// the opponent proves a fail-high without searching.
    #[inline]
    fn etc(&self, list: &MoveList, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        for c in list.remaining() {
            let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
            if let Some(e) = self.probe(tt::key(self.geo, np, no, n - 1).hash) {
                let v = -i32::from(e.upper);
                if v > alpha {
                    return Some(v);
                }
            }
        }
        None
    }

    /// Records a fail-soft result of a search of `alpha..beta`.
    #[inline]
    fn store(&self, key: Key, alpha: i32, beta: i32, best: i32, best_move: u8, nodes: u64) {
        let s = self.geo.squares;
        let (lower, upper) = if best >= beta {
            (best, s)
        } else if best <= alpha {
            (-s, best)
        } else {
            (best, best)
        };
        self.tt.store(
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

    /// Principal-variation search of `alpha..beta`: the first move with the full window, the
    /// others with a null window first.
    pub fn pvs(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
        debug_assert!(alpha < beta);
        if beta == alpha + 1 {
            return self.nws(p, o, alpha, n);
        }
        self.nodes += 1;
        if self.should_stop() || self.settled_above(n) {
            return 0;
        }
        let key = tt::key(self.geo, p, o, n);
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.probe(key.hash) {
            if let Some(v) = e.cutoff(alpha, beta) {
                return v;
            }
            hash_move = key.move_from_table(e.best, self.geo);
        }
        let empties = !(p | o) & self.geo.mask;
        let moves = legal_moves(p, o, empties);
        if moves == 0 {
            if legal_moves(o, p, empties) == 0 {
                return self.final_score(p, o);
            }
            return -self.pvs(o, p, -beta, -alpha, n);
        }
        let alpha0 = alpha;
        let mut list = self.sorted_moves(p, o, moves, hash_move);
        let nodes_before = self.nodes;
        let mut best = NEG_INF;
        let mut best_move = NO_MOVE;
        // Threads put off moves another is searching, as in `nws_deep`.
        let shared = self.share(key, n, alpha, beta);
        let mut next_deferred = 0;
        loop {
            let c = if let Some(c) = list.pop_best() {
                if let Some(busy) = shared {
                    let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
                    if best > NEG_INF && busy.contains(tt::key(self.geo, np, no, n - 1).hash) {
                        list.defer(c);
                        continue;
                    }
                }
                c
            } else if next_deferred < list.deferred {
                next_deferred += 1;
                list.deferred(next_deferred - 1)
            } else {
                break;
            };
            let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
            let mut v;
            if best == NEG_INF {
                v = -self.pvs(np, no, -beta, -alpha, n - 1);
            } else {
                v = -self.nws(np, no, -alpha - 1, n - 1);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.pvs(np, no, -beta, -alpha, n - 1);
                }
            }
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
    }
}

/// What the root search reports after each root move.
pub(crate) struct RootStep {
    pub done: usize,
    pub total: usize,
    pub best: i32,
    pub best_move: u8,
}

impl Search<'_> {
    /// Principal-variation search at the root: the score within `alpha..beta` (fail-soft)
    /// and the best move. Of moves whose children are symmetric images of each other only
    /// the first is searched. With several threads, a move another thread is searching is put
    /// off to the end. `report` hears after each root move.
    pub fn root(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        report: &mut dyn FnMut(&RootStep, u64),
    ) -> (i32, u8) {
        debug_assert!(alpha < beta);
        let n = (!(p | o) & self.geo.mask).count_ones();
        self.top = n;
        self.nodes += 1;
        let empties = !(p | o) & self.geo.mask;
        let moves = legal_moves(p, o, empties);
        debug_assert!(moves != 0, "the root needs a legal move");
        let key = tt::key(self.geo, p, o, n);
        let hash_move = self
            .tt
            .probe(key.hash)
            .map_or(NO_MOVE, |e| key.move_from_table(e.best, self.geo));
        let mut list = self.sorted_moves(p, o, moves, hash_move);
        let mut order = Vec::with_capacity(list.len);
        // A move whose child is an image of an earlier move's child has the same score.
        let mut images = Vec::with_capacity(list.len);
        while let Some(c) = list.pop_best() {
            let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
            let (ip, io, _) = symmetry::canonical(np, no, self.geo.n);
            let image = (ip, io);
            if !images.contains(&image) {
                images.push(image);
                order.push(c);
            }
        }
        let total = order.len();
        let shared = self.busy.filter(|_| n > SPLIT_DEPTH);
        let alpha0 = alpha;
        let mut best = NEG_INF;
        let mut best_move = NO_MOVE;
        // Moves another thread is searching go to the end of the list (once).
        let (mut i, mut finished) = (0, 0);
        while i < order.len() {
            let c = order[i];
            i += 1;
            let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
            if let Some(busy) = shared {
                if best > NEG_INF
                    && i <= total
                    && busy.contains(tt::key(self.geo, np, no, n - 1).hash)
                {
                    order.push(c);
                    continue;
                }
            }
            let mut v;
            if best == NEG_INF || n <= 1 {
                v = -self.pvs(np, no, -beta, -alpha, n - 1);
            } else {
                v = -self.nws(np, no, -alpha - 1, n - 1);
                if v > alpha && v < beta && !self.aborted {
                    v = -self.pvs(np, no, -beta, -alpha, n - 1);
                }
            }
            if self.aborted {
                debug_assert!(self.unwind.is_none(), "unwound past the root");
                return (0, NO_MOVE);
            }
            if v > best {
                best = v;
                best_move = c.sq;
            }
            finished += 1;
            report(
                &RootStep {
                    done: finished,
                    total,
                    best,
                    best_move,
                },
                self.nodes,
            );
            if v >= beta {
                break;
            }
            alpha = alpha.max(v);
        }
        self.store(key, alpha0, beta, best, best_move, self.nodes);
        (best, best_move)
    }
}
