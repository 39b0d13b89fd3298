//! Negamax alpha-beta with principal-variation search, a small transposition table and
//! move ordering. A pass does not use up depth, so a search as deep as the number of empty
//! squares reaches the end of every line and is exact.

use std::sync::atomic::Ordering;

use super::{
    eval::{evaluate, DISC},
    Limits,
};
use crate::{final_score, moves, BoardSize, Square};

/// Above any score a search can return.
pub(crate) const INF: i32 = 1_000_000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One remembered node: the full key (so a hit is never a collision), the depth it was
/// searched to, the score and what kind of bound it is, and the best move found.
#[derive(Clone, Copy, Debug)]
struct Entry {
    p: u64,
    o: u64,
    score: i32,
    depth: u8,
    bound: Bound,
    best: u8,
}

const NO_MOVE: u8 = 64;

const EMPTY_ENTRY: Entry = Entry {
    p: 0,
    o: 0,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
    best: NO_MOVE,
};

/// The state of one search: table, counters, and whether time ran out.
#[derive(Debug)]
pub(crate) struct Searcher<'a> {
    size: BoardSize,
    mask: u64,
    table: Vec<Entry>,
    pub(crate) nodes: u64,
    limits: &'a Limits,
    /// Set once the deadline passed or the stop flag was raised; every result after that
    /// is garbage and is discarded by the caller.
    pub(crate) aborted: bool,
    /// Time is only checked once the first iteration is complete, so there is always an answer.
    pub(crate) may_abort: bool,
    /// Ordering bonus of each square: corners first, the squares next to empty corners last.
    square_bonus: [i32; 64],
}

fn hash(p: u64, o: u64) -> u64 {
    // Products carry low bits upwards only: fold the high half back down before use.
    let mut h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^= h >> 32;
    h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^ (h >> 32)
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(size: BoardSize, limits: &'a Limits) -> Searcher<'a> {
        let bits = limits.table_bits.clamp(4, 24);
        let mut square_bonus = [0; 64];
        let n = size.n();
        for (i, b) in square_bonus.iter_mut().enumerate() {
            let (c, r) = (i as u8 % 8, i as u8 / 8);
            let edge = |v: u8| v == 0 || v == n - 1;
            let near = |v: u8| v == 1 || v == n - 2;
            *b = if edge(c) && edge(r) {
                3000
            } else if near(c) && near(r) && n > 4 {
                -2000
            } else if (edge(c) && near(r) || near(c) && edge(r)) && n > 4 {
                -500
            } else if edge(c) || edge(r) {
                200
            } else {
                0
            };
        }
        Searcher {
            size,
            mask: size.mask().0,
            table: vec![EMPTY_ENTRY; 1 << bits],
            nodes: 0,
            limits,
            aborted: false,
            may_abort: false,
            square_bonus,
        }
    }

    fn slot(&self, p: u64, o: u64) -> usize {
        (hash(p, o) as usize) & (self.table.len() - 1)
    }

    fn out_of_time(&self) -> bool {
        self.limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self
                .limits
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
    }

    /// The best move the table remembers for this position, if it is legal there.
    pub(crate) fn table_move(&self, p: u64, o: u64) -> Option<Square> {
        let e = &self.table[self.slot(p, o)];
        if e.p == p && e.o == o && e.best != NO_MOVE {
            let sq = Square::from_index_unchecked(e.best);
            let empty = !(p | o) & self.mask;
            if moves::legal_moves(p, o, empty) & (1u64 << e.best) != 0 {
                return Some(sq);
            }
        }
        None
    }

    /// Moves of `p` in search order: the table's move, then by square and by how few
    /// replies they leave the opponent.
    fn ordered(&self, p: u64, o: u64, legal: u64, table_move: u8, depth: u32) -> ([u8; 64], usize) {
        let mut keyed = [(0i32, 0u8); 64];
        let mut n = 0;
        let mut rest = legal;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let mut key = self.square_bonus[sq as usize];
            if sq == table_move {
                key = INF;
            } else if depth >= 3 {
                let f = moves::flips(p, o, sq);
                let (np, no) = (o ^ f, p | f | 1u64 << sq);
                let empty = !(np | no) & self.mask;
                key -= 300 * moves::legal_moves(np, no, empty).count_ones() as i32;
            }
            keyed[n] = (key, sq);
            n += 1;
        }
        keyed[..n].sort_unstable_by_key(|k| std::cmp::Reverse(k.0));
        let mut out = [0u8; 64];
        for (slot, &(_, sq)) in out.iter_mut().zip(&keyed[..n]) {
            *slot = sq;
        }
        (out, n)
    }

    /// Score of the position for the side with `p` to move, searched `depth` plies deep
    /// (passes are free). Fail-soft: the result may lie outside `alpha..beta`.
    pub(crate) fn search<const PV: bool>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(PV || alpha + 1 == beta);
        self.nodes += 1;
        if self.may_abort && self.nodes & 1023 == 0 && self.out_of_time() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let empty = !(p | o) & self.mask;
        let legal = moves::legal_moves(p, o, empty);
        if legal == 0 {
            if moves::legal_moves(o, p, empty) == 0 {
                return final_score(p, o, self.size.squares()) * DISC;
            }
            return -self.search::<PV>(o, p, depth, -beta, -alpha);
        }
        if depth == 0 {
            return evaluate(p, o, self.size);
        }

        let slot = self.slot(p, o);
        let mut table_move = NO_MOVE;
        let e = self.table[slot];
        if e.p == p && e.o == o {
            table_move = e.best;
            if !PV && u32::from(e.depth) >= depth {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if usable {
                    return e.score;
                }
            }
        }

        let (order, count) = self.ordered(p, o, legal, table_move, depth);
        let alpha_in = alpha;
        let mut best = -INF;
        let mut best_move = order[0];
        for (i, &sq) in order[..count].iter().enumerate() {
            let f = moves::flips(p, o, sq);
            let (np, no) = (o ^ f, p | f | 1u64 << sq);
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
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let old = &self.table[slot];
        // Keep the deeper result for the same position; otherwise the newer one.
        if !(old.p == p && old.o == o && u32::from(old.depth) > depth) {
            self.table[slot] = Entry {
                p,
                o,
                score: best,
                depth: depth.min(255) as u8,
                bound,
                best: best_move,
            };
        }
        best
    }
}
