//! How the deep tier rates its moves: fewest replies first, the table's move before the
//! rest, and high in the tree the learnt evaluation searched a few plies.

use super::{Search, EVAL_BOUND};
use crate::cpu::Cpu;
use crate::eval::{Eval, EvalState, UNIT};
use crate::spine::order::{self, MoveList, Weights};

/// Fewest empties at which the pattern evaluation (6x6 and 8x8) joins the move ordering.
const EVAL_ORDER: u32 = 12;

/// How many plies deep the learnt evaluation is searched to rate each child of a node with
/// `n` empties: the child itself below 16 empties, after the opponent's best reply below 18,
/// and deeper from there, as the subtrees to order grow (tuned by node counts and time on
/// FFO #41-#49). With the self-play weights, 4 plies from 22 empties on order as well as
/// 6 from 24 did: `ply bench ffo --range 40-49`, one thread, 0.469 G nodes with 6 from 24,
/// 0.459 G with 4 (0.467 G with 3 from 24, 0.470 G with 3 from 22); fforum #20-#39, not
/// tuned on, 71.4 M and 69.6 M nodes.
#[inline]
fn sort_depth(n: u32) -> u32 {
    match n {
        ..16 => 0,
        16..18 => 1,
        18..22 => 2,
        _ => 4,
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
    #[inline(always)]
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

impl<C: Cpu> Search<'_, C> {
    /// The moves `moves` of the deep tier, rated ([`Search::rate`]).
    #[inline]
    pub(super) fn sorted_moves(&mut self, p: u64, o: u64, moves: u64, hash_move: u8) -> MoveList {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                let mut list = MoveList::empty();
                list.generate_in(self.cpu, p, o, moves);
                self.rate(&mut list, p, o, hash_move);
                list
            },
        )
    }

    /// Rates the moves of `list` for sorting ([`order::rate`]): a wipe-out first, then the
    /// table's move, then fewest (weighted) replies for the opponent (16 points each),
    /// fewest empty squares beside our discs (the opponent's potential moves, 4 points each),
    /// most corner discs (with the edge squares beside them, 6 points each), then odd
    /// quadrants. With [`EVAL_ORDER`] empties or more on 6x6 and 8x8, the learnt evaluation
    /// of the child, searched [`sort_depth`] plies deep, is added with [`eval_weight`] points
    /// per predicted disc. (The corners' 6 points were 2 until they were tuned by node counts,
    /// one thread: FFO #40-#49 0.435 G nodes against 0.451 G, FFO #50-#53 1.740 G against
    /// 1.776 G, fforum #20-#39 58.4 M against 59.8 M; 4 and 5 did about as well.)
    #[inline]
    pub(super) fn rate(&mut self, list: &mut MoveList, p: u64, o: u64, hash_move: u8) {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                let g = self.geo;
                let empties = !(p | o) & g.mask;
                let n = empties.count_ones();
                let weights = Weights {
                    replies: 16,
                    corners: g.corners,
                    potential: 4,
                    anchored: 6,
                    c_squares: g.c_squares,
                    odd: g.odd_quadrants(empties),
                };
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
                let nodes = &mut self.nodes;
                order::rate(cpu, list, p, o, empties, hash_move, &weights, |c| {
                    match (eval, state.as_mut()) {
                        (Some(e), Some(st)) => {
                            *nodes += 1;
                            let ours = if depth == 0 {
                                // The child only evaluated: read in place, its replies counted.
                                let replies = c.replies.count_ones();
                                let ours = crate::moves::legal_moves_in(cpu, c.no, c.np, c.rest)
                                    .count_ones();
                                -e.evaluate_child_counted(
                                    st, c.sq, c.flips, c.np, c.no, replies, ours,
                                )
                            } else {
                                st.play(c.sq, c.flips);
                                let (a, b) = (-EVAL_BOUND, EVAL_BOUND);
                                let v = -order::eval_search(
                                    cpu, e, st, c.np, c.no, c.rest, depth, a, b, nodes,
                                );
                                st.undo(c.sq, c.flips);
                                v
                            };
                            ours * eval_weight(depth) / UNIT
                        }
                        _ => 0,
                    }
                });
            },
        )
    }
}
