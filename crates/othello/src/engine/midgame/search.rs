//! Negamax alpha-beta with principal-variation search over the learnt evaluation, a
//! transposition table, move ordering by the evaluation, and Multi-ProbCut.
//!
//! Invariants: scores are fail-soft in [`UNIT`]s per disc; a pass costs no depth, so a
//! search as deep as the number of empty squares reaches the end of every line; a search
//! with `selective` off is plain minimax of its depth (the tests hold it to that), and only
//! such results are marked exact.

use super::Limits;
use crate::cpu::Cpu;
use crate::{
    engine::memory::Pool,
    eval::{Eval, EvalState, UNIT},
    final_score, moves,
    spine::{
        bounds,
        geometry::Geometry,
        hash,
        order::{self, MoveList, Weights},
        probcut as mpc,
        stop::StopControl,
    },
    BoardSize, Square,
};

/// Above any score a search can return.
pub(crate) const INF: i32 = 1_000_000;

/// Beyond every score a search stores (at most 64 discs of [`UNIT`]s): an open bound.
const OPEN: i16 = i16::MAX;

/// One remembered node: the full key (so a hit is never a collision), the depth it was
/// searched to, whether with selective pruning, the bounds on its score that the search
/// proved ([`bounds`]), and the best move.
#[derive(Clone, Copy, Debug)]
struct Entry {
    p: u64,
    o: u64,
    lower: i16,
    upper: i16,
    depth: u8,
    selective: bool,
    best: u8,
}

const NO_MOVE: u8 = 64;

/// Bytes of one entry of the table, as the compiler lays it out.
pub(crate) const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// From this depth on, moves are ordered by the evaluation of the child; below it (down
/// to depth 2) by the opponent's replies only.
const EVAL_ORDER_DEPTH: u32 = 3;

/// What a static value is for: the search's own value of a position, or a guess that
/// orders the moves ([`Eval::for_ordering`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Value,
    Order,
}

const EMPTY_ENTRY: Entry = Entry {
    p: 0,
    o: 0,
    lower: -OPEN,
    upper: OPEN,
    depth: 0,
    selective: false,
    best: NO_MOVE,
};

/// The state of one search: table, evaluation, counters, and whether time ran out. Its
/// recursive functions run compiled for the level of `C` ([`crate::cpu`]).
#[derive(Debug)]
pub(crate) struct Searcher<'a, C: Cpu> {
    cpu: C,
    size: BoardSize,
    mask: u64,
    table: Vec<Entry>,
    eval: Option<&'a Eval>,
    /// Multi-ProbCut's rule for `eval`.
    cut: mpc::MidgameCut,
    state: Option<EvalState>,
    pub(crate) nodes: u64,
    /// When to stop; looked at only once `may_abort` is set.
    control: StopControl<'a>,
    /// Multi-ProbCut on: the results are estimates even at the end of the game.
    pub(crate) selective: bool,
    /// Set once the deadline passed or the stop flag was raised; every result after that
    /// is garbage and is discarded by the caller.
    pub(crate) aborted: bool,
    /// Time is only checked once the first iteration is complete, so there is always an answer.
    pub(crate) may_abort: bool,
    /// The table goes back to the kept ones when the searcher is dropped.
    pooled: bool,
}

impl<C: Cpu> Drop for Searcher<'_, C> {
    fn drop(&mut self) {
        if self.pooled {
            KEPT.give((self.size, std::mem::take(&mut self.table)));
        }
    }
}

/// Nodes between two looks at the clock.
const POLL_EVERY: u64 = 1024;

/// Tables kept between the searches of analyses on a clock ([`Pool`]), with their board size.
static KEPT: Pool<(BoardSize, Vec<Entry>)> = Pool::new();

/// Multi-ProbCut's rule for a search of `size` over `eval`: the network's own, or the
/// tables'.
fn cut_for(size: BoardSize, eval: Option<&Eval>) -> mpc::MidgameCut {
    mpc::midgame_cut(size, eval.is_some_and(|e| e.network().is_some()))
}

impl<'a, C: Cpu> Searcher<'a, C> {
    /// A searcher within `limits`. On a clock its table comes from the tables kept by
    /// earlier searches on a clock, and goes back there when it is dropped ([`Pool`]).
    pub(crate) fn new(cpu: C, size: BoardSize, limits: &'a Limits) -> Searcher<'a, C> {
        let len = 1usize << limits.table_bits.clamp(4, 26);
        let pooled = limits.deadline.is_some();
        let kept = pooled
            .then(|| KEPT.take(|(s, t)| *s == size && t.len() == len))
            .flatten();
        let table = kept.map_or_else(
            || {
                let mut table = Vec::with_capacity(len);
                crate::engine::memory::advise_huge_pages(&table);
                table.resize(len, EMPTY_ENTRY);
                table
            },
            |(_, t)| t,
        );
        let eval = crate::eval::builtin(size);
        Searcher {
            cpu,
            size,
            mask: size.mask().0,
            table,
            pooled,
            eval,
            cut: cut_for(size, eval),
            state: None,
            nodes: 0,
            control: StopControl::new(
                None,
                limits.stop.as_deref(),
                limits.deadline,
                &*limits.clock,
                POLL_EVERY,
                0,
            ),
            selective: false,
            aborted: false,
            may_abort: false,
        }
    }

    /// The same searcher over `eval` instead of the shipped evaluation (the training's
    /// weights, phase by phase).
    pub(crate) fn with_eval(mut self, eval: &'a Eval) -> Searcher<'a, C> {
        // A kept table holds the shipped evaluation's values.
        assert!(!self.pooled, "another evaluation on a kept table");
        self.eval = Some(eval);
        self.cut = cut_for(self.size, Some(eval));
        self
    }

    /// Starts searching from the position with `p` to move.
    pub(crate) fn set_root(&mut self, p: u64, o: u64) {
        self.state = self.eval.map(|e| e.state(p, o));
    }

    fn slot(&self, p: u64, o: u64) -> usize {
        (hash::midgame(p, o) as usize) & (self.table.len() - 1)
    }

    /// The static value of the position (`p` to move), in [`UNIT`]s: the learnt evaluation,
    /// or the disc difference on 4x4.
    #[inline]
    pub(crate) fn static_value(&self, p: u64, o: u64) -> i32 {
        let empty = !(p | o) & self.mask;
        let mine = moves::legal_moves_in(self.cpu, p, o, empty).count_ones();
        let theirs = moves::legal_moves_in(self.cpu, o, p, empty).count_ones();
        self.static_value_counted(p, o, mine, theirs, None, Purpose::Value)
    }

    /// [`Searcher::static_value`] of a position whose legal moves are counted already:
    /// `mine` for `p`, `theirs` for `o`. With `child` (a move and the discs it turns), the
    /// position is this node's child after that move, read from the node's evaluation state
    /// without playing it. `purpose` picks the evaluation ([`Eval::for_ordering`] to order).
    #[inline]
    fn static_value_counted(
        &self,
        p: u64,
        o: u64,
        mine: u32,
        theirs: u32,
        child: Option<(u8, u64)>,
        purpose: Purpose,
    ) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                // No final score lies beyond the number of squares: neither may an estimate.
                let bound = self.size.squares() as i32 * UNIT;
                let eval = match purpose {
                    Purpose::Value => self.eval,
                    Purpose::Order => self.eval.map(Eval::for_ordering),
                };
                match (eval, &self.state) {
                    (Some(e), Some(s)) => match child {
                        None => e.evaluate_counted(s, p, o, mine, theirs),
                        Some((sq, flips)) => {
                            e.evaluate_child_counted(s, sq, flips, p, o, mine, theirs)
                        }
                    }
                    .clamp(-bound, bound),
                    _ => (p.count_ones() as i32 - o.count_ones() as i32) * UNIT,
                }
            },
        )
    }

    #[inline]
    pub(crate) fn make(&mut self, sq: u8, flips: u64) {
        if let Some(s) = &mut self.state {
            s.play(sq, flips);
        }
    }

    #[inline]
    pub(crate) fn unmake(&mut self, sq: u8, flips: u64) {
        if let Some(s) = &mut self.state {
            s.undo(sq, flips);
        }
    }

    #[inline]
    fn pass(&mut self) {
        if let Some(s) = &mut self.state {
            s.pass();
        }
    }

    /// The best move the table remembers for this position, if it is legal there.
    pub(crate) fn table_move(&self, p: u64, o: u64) -> Option<Square> {
        let e = &self.table[self.slot(p, o)];
        if e.p == p && e.o == o && e.best != NO_MOVE {
            let empty = !(p | o) & self.mask;
            if moves::legal_moves_in(self.cpu, p, o, empty) & (1u64 << e.best) != 0 {
                return Some(Square::from_index_unchecked(e.best));
            }
        }
        None
    }

    /// The children of `p` (its moves `legal`) in search order, through the one
    /// child-ordering step ([`order::rate`], then [`MoveList::sort`]): a wipe-out, the table's
    /// move, then fewest replies for the opponent (a disc of score each, a corner reply two),
    /// fewest empty squares beside our discs (a quarter disc each), most corners of ours with
    /// the edge squares of ours beside them (a disc each) and, from [`EVAL_ORDER_DEPTH`] on,
    /// the static value of the child (four points per unit of it, worst for the opponent
    /// first); at depth 2 without the evaluation (an evaluation per child costs there about
    /// what the search below it does). The corners, potential moves and anchored discs cut
    /// the nodes of fixed-depth analyses of FFO #40-#59 by 4.8% at depth 15 (84.9 M against
    /// 89.2 M) and 3.1% at depth 13.
    fn ordered(&mut self, p: u64, o: u64, legal: u64, table_move: u8, depth: u32) -> MoveList {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                let mut list = MoveList::empty();
                list.generate_in(self.cpu, p, o, legal);
                let empties = !(p | o) & self.mask;
                for c in list.remaining() {
                    // The child probes the table: its slot starts loading now.
                    let (np, no) = (o ^ c.flips, p | c.flips | 1u64 << c.sq);
                    crate::engine::memory::prefetch(&self.table[self.slot(np, no)]);
                }
                let g = Geometry::of(self.size);
                let weights = Weights {
                    replies: UNIT,
                    corners: g.corners,
                    potential: UNIT / 4,
                    anchored: UNIT,
                    c_squares: g.c_squares,
                    ..Weights::default()
                };
                order::rate(
                    self.cpu,
                    &mut list,
                    p,
                    o,
                    empties,
                    table_move,
                    &weights,
                    |c| {
                        if depth < EVAL_ORDER_DEPTH {
                            return 0;
                        }
                        let mine = moves::legal_moves_in(self.cpu, c.no, c.np, c.rest).count_ones();
                        let child = Some((c.sq, c.flips));
                        -4 * self.static_value_counted(
                            c.np,
                            c.no,
                            c.replies.count_ones(),
                            mine,
                            child,
                            Purpose::Order,
                        )
                    },
                );
                list.sort();
                list
            },
        )
    }

    /// Score of the position for the side with `p` to move, searched `depth` plies deep
    /// (passes are free). Fail-soft: the result may lie outside `alpha..beta`.
    pub(crate) fn search<const PV: bool>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                debug_assert!(alpha < beta);
                debug_assert!(PV || alpha + 1 == beta);
                // The incremental evaluation state follows the board (checked now and then: a
                // fresh reading costs more than the node).
                debug_assert!(
                    self.nodes & 63 != 0
                        || self
                            .eval
                            .zip(self.state.as_ref())
                            .is_none_or(|(e, s)| *s == e.state(p, o))
                );
                self.nodes += 1;
                if self.may_abort && self.control.poll(self.nodes) {
                    self.aborted = true;
                }
                if self.aborted {
                    return 0;
                }
                let empty = !(p | o) & self.mask;
                let legal = moves::legal_moves_in(self.cpu, p, o, empty);
                if legal == 0 {
                    if moves::legal_moves_in(self.cpu, o, p, empty) == 0 {
                        return final_score(p, o, self.size.squares()) * UNIT;
                    }
                    self.pass();
                    let v = -self.search::<PV>(o, p, depth, -beta, -alpha);
                    self.pass();
                    return v;
                }
                if depth == 0 {
                    return self.static_value(p, o);
                }

                let slot = self.slot(p, o);
                let mut table_move = NO_MOVE;
                let e = self.table[slot];
                if e.p == p && e.o == o {
                    table_move = e.best;
                    if !PV && u32::from(e.depth) >= depth && (self.selective || !e.selective) {
                        let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                        if let Some(v) = bounds::cutoff(lower, upper, alpha, beta) {
                            return v;
                        }
                    }
                }

                // Multi-ProbCut: a shallow search far outside the window predicts the deep one.
                if !PV && self.selective && depth >= mpc::MIDGAME_MIN_DEPTH {
                    let empties = empty.count_ones();
                    let shallow = mpc::midgame_depth(depth);
                    let margin = self.cut.margin(depth, empties);
                    let (up, down) = (beta + margin, alpha - margin);
                    // A probe beyond every final score cannot cut.
                    let (up, down) = (
                        (up < 64 * UNIT).then_some(up),
                        (down > -64 * UNIT).then_some(down),
                    );
                    match mpc::probe(up, down, |a, b| self.search::<false>(p, o, shallow, a, b)) {
                        Some(mpc::Cut::High) => return beta,
                        Some(mpc::Cut::Low) => return alpha,
                        None => {}
                    }
                    if self.aborted {
                        return 0;
                    }
                }

                let alpha_in = alpha;
                let (best, best_move) = if depth == 1 {
                    self.leaf_parent(p, o, legal, table_move, alpha, beta)
                } else {
                    self.interior::<PV>(p, o, legal, table_move, depth, alpha, beta)
                };
                if self.aborted {
                    return 0;
                }

                let open = i32::from(OPEN);
                let (lower, upper) = bounds::proven(best, alpha_in, beta, -open, open);
                debug_assert!(
                    lower.abs() <= open && upper.abs() <= open,
                    "{best} off the scale"
                );
                let old = &self.table[slot];
                // Keep the deeper result for the same position; otherwise the newer one.
                if !(old.p == p && old.o == o && u32::from(old.depth) > depth) {
                    self.table[slot] = Entry {
                        p,
                        o,
                        lower: lower as i16,
                        upper: upper as i16,
                        depth: depth.min(255) as u8,
                        selective: self.selective,
                        best: best_move,
                    };
                }
                best
            },
        )
    }

    /// The children of a depth-1 node (`p` to move, `legal` its moves), the table's move
    /// first: each child's static value straight away, with the legal moves its pass check
    /// counted (a child that must pass, or ends the game, goes through [`Searcher::search`]).
    /// The same (fail-soft) value and best move as the general loop; returns both.
    fn leaf_parent(
        &mut self,
        p: u64,
        o: u64,
        legal: u64,
        table_move: u8,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                let first = if table_move != NO_MOVE && legal & (1u64 << table_move) != 0 {
                    table_move
                } else {
                    legal.trailing_zeros() as u8
                };
                let mut rest = legal & !(1u64 << first);
                let mut sq = first;
                let mut best = -INF;
                let mut best_move = first;
                loop {
                    let f = moves::flips_in(self.cpu, p, o, sq);
                    let (np, no) = (o ^ f, p | f | 1u64 << sq);
                    let empty = !(np | no) & self.mask;
                    let replies = moves::legal_moves_in(self.cpu, np, no, empty);
                    let score = if replies == 0 {
                        self.make(sq, f);
                        let v = -self.search::<true>(np, no, 0, -beta, -alpha);
                        self.unmake(sq, f);
                        v
                    } else {
                        self.nodes += 1;
                        let mine = moves::legal_moves_in(self.cpu, no, np, empty).count_ones();
                        -self.static_value_counted(
                            np,
                            no,
                            replies.count_ones(),
                            mine,
                            Some((sq, f)),
                            Purpose::Value,
                        )
                    };
                    if self.aborted {
                        return (0, best_move);
                    }
                    if raise(score, sq, &mut best, &mut best_move, &mut alpha, beta) {
                        break;
                    }
                    if rest == 0 {
                        break;
                    }
                    sq = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                }
                (best, best_move)
            },
        )
    }

    /// The children of a node `depth` >= 2 plies deep, in [`Searcher::ordered`] order, by
    /// principal-variation search; returns the (fail-soft) value and the best move.
    #[allow(clippy::too_many_arguments)]
    fn interior<const PV: bool>(
        &mut self,
        p: u64,
        o: u64,
        legal: u64,
        table_move: u8,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                let list = self.ordered(p, o, legal, table_move, depth);
                let mut best = -INF;
                let mut best_move = list.get(0).sq;
                for (i, c) in list.remaining().iter().enumerate() {
                    let (sq, f) = (c.sq, c.flips);
                    let (np, no) = (o ^ f, p | f | 1u64 << sq);
                    self.make(sq, f);
                    let score = if i == 0 {
                        -self.search::<PV>(np, no, depth - 1, -beta, -alpha)
                    } else {
                        let s = -self.search::<false>(np, no, depth - 1, -alpha - 1, -alpha);
                        if PV && s > alpha && s < beta {
                            -self.search::<true>(np, no, depth - 1, -beta, -alpha)
                        } else {
                            s
                        }
                    };
                    self.unmake(sq, f);
                    if self.aborted {
                        return (0, best_move);
                    }
                    if raise(score, sq, &mut best, &mut best_move, &mut alpha, beta) {
                        break;
                    }
                }
                (best, best_move)
            },
        )
    }
}

/// A child's `score` (its move `sq`) against the best so far: raises the best, its move and
/// alpha where it is higher; true when alpha reaches beta (a cutoff).
#[inline]
fn raise(
    score: i32,
    sq: u8,
    best: &mut i32,
    best_move: &mut u8,
    alpha: &mut i32,
    beta: i32,
) -> bool {
    if score > *best {
        *best = score;
        *best_move = sq;
        if score > *alpha {
            *alpha = score;
            return *alpha >= beta;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::Position;

    fn used(table: &[Entry]) -> usize {
        table.iter().filter(|e| e.p != 0 || e.o != 0).count()
    }

    /// A searcher on a clock leaves its table to the next one on a clock; one without a
    /// clock starts from an empty table whatever was kept. (A table of 2^5 entries, which no
    /// other test asks for, so that the tests running beside this one take none of them.)
    #[test]
    fn a_searcher_on_a_clock_hands_its_table_on_and_one_without_starts_empty() {
        let pos = Position::start(BoardSize::Four);
        let (p, o) = (pos.player().0, pos.opponent().0);
        let clocked = Limits {
            table_bits: 5,
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
            ..Limits::default()
        };
        let mut first = Searcher::new(crate::cpu::Baseline, BoardSize::Four, &clocked);
        first.set_root(p, o);
        first.search::<true>(p, o, 6, -INF, INF);
        let left: Vec<(u64, u64)> = first.table.iter().map(|e| (e.p, e.o)).collect();
        assert!(used(&first.table) > 0);
        drop(first);
        let fixed = Limits {
            table_bits: 5,
            ..Limits::default()
        };
        assert_eq!(
            used(&Searcher::new(crate::cpu::Baseline, BoardSize::Four, &fixed).table),
            0
        );
        let next = Searcher::new(crate::cpu::Baseline, BoardSize::Four, &clocked);
        let found: Vec<(u64, u64)> = next.table.iter().map(|e| (e.p, e.o)).collect();
        assert_eq!(found, left);
    }

    /// Multi-ProbCut's margins follow the evaluation searched with: the network's own cut
    /// where a network evaluates, the tables' where tables do (the two differ, or the
    /// network would be searched with the tables' cut unseen).
    #[test]
    fn the_probe_margin_is_the_evaluations_own() {
        let small = Limits {
            table_bits: 5,
            ..Limits::default()
        };
        let size = BoardSize::Eight;
        let (network, tables) = (mpc::midgame_cut(size, true), mpc::midgame_cut(size, false));
        assert_ne!(network.margin(12, 40), tables.margin(12, 40));
        let net = crate::eval::builtin(size).unwrap();
        let tab = crate::eval::tables(size).unwrap();
        let shipped = Searcher::new(crate::cpu::Baseline, size, &small);
        assert_eq!(shipped.cut, mpc::midgame_cut(size, net.network().is_some()));
        let with_tables = Searcher::new(crate::cpu::Baseline, size, &small).with_eval(tab);
        assert_eq!(with_tables.cut, tables);
        let with_network = Searcher::new(crate::cpu::Baseline, size, &small).with_eval(net);
        if net.network().is_some() {
            assert_eq!(with_network.cut, network);
        }
        let six = Searcher::new(crate::cpu::Baseline, BoardSize::Six, &small);
        assert_eq!(six.cut, mpc::midgame_cut(BoardSize::Six, false));
    }
}
