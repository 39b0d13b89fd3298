//! How the deep tier rates its moves: fewest replies first, the table's move before the
//! rest, and high in the tree the learnt evaluation searched a few plies.

use super::super::flips::{flips, legal_moves};
use super::{
    movelist::{MoveList, MAX_MOVES},
    Search, EVAL_BOUND,
};
use crate::eval::{Eval, EvalState, UNIT};

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

impl Search<'_> {
    /// The moves `moves` of the deep tier, rated ([`Search::rate`]).
    #[inline]
    pub(super) fn sorted_moves(&mut self, p: u64, o: u64, moves: u64, hash_move: u8) -> MoveList {
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
    pub(super) fn rate(&mut self, list: &mut MoveList, p: u64, o: u64, hash_move: u8) {
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
}
