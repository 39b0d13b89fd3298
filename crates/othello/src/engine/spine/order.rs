//! Child ordering, the step the midgame engine takes before it visits any node's children and
//! the solver before it visits those of a node with the table (`DEEP` empties and more; below
//! that it tries squares by parity, corners and replies without a list, in `solve::search`), as
//! Edax's `movelist_evaluate` serves its midgame and its endgame: the children made in a
//! [`MoveList`], rated by [`rate`] from the same parts in the same units, then visited best
//! first.
//!
//! [`rate`] puts a wipe-out first and the table's move next; every other child is rated by
//! the opponent's replies after it, and by whatever else the search's [`Weights`] pay for:
//! replies on corners counted twice, the opponent's potential moves, our corner-anchored
//! discs, odd quadrants, and the learnt evaluation of the child (searched
//! [`eval_search`] a few plies deep, or read statically). The two searches weigh these for
//! their own costs: the midgame engine's nodes have a few plies below them, so it pays for
//! replies and one static evaluation only, and sorts the whole list at once
//! ([`MoveList::sort`]); the solver's nodes have the rest of the game below them, so it pays
//! for everything and picks its children best first as it goes ([`MoveList::pop_best`]),
//! putting off those another thread is searching ([`MoveList::defer`]).

use std::mem::MaybeUninit;

use crate::cpu::Cpu;
use crate::eval::{Eval, EvalState, UNIT};
use crate::moves::{flips_in, legal_moves_in};

/// Room for every legal move of a position: a position may have more than 32 (33 in real
/// games, more in constructed ones), never more than its 64 squares.
pub(crate) const MAX_MOVES: usize = 64;

/// One candidate move of a sorted list.
#[derive(Clone, Copy, Default)]
pub(crate) struct Candidate {
    pub(crate) sq: u8,
    pub(crate) flips: u64,
    pub(crate) value: i32,
}

/// A node's children, rated by [`rate`] and then sorted at once ([`MoveList::sort`]) or
/// lazily ([`MoveList::pop_best`]: the best remaining candidate picked each time).
/// A popped candidate may be put off ([`MoveList::defer`]): it goes to the slots that the
/// pops freed at the end of the list, so the list never needs more room than its moves.
///
/// Only the first `total` slots are ever written (all of them by [`MoveList::generate`]) or read:
/// the room for 64 moves costs nothing at the many nodes that have a few.
pub(crate) struct MoveList {
    moves: [MaybeUninit<Candidate>; MAX_MOVES],
    /// Candidates not yet popped: the slots `..len`.
    pub(crate) len: usize,
    /// Moves in the list when it was made.
    total: usize,
    /// Candidates put off: the slots `total - deferred..total`, the first put off last.
    deferred: usize,
    /// Candidates put off and since taken back ([`MoveList::pop_deferred`]).
    revisited: usize,
}

impl MoveList {
    /// A list with no moves yet, for [`MoveList::generate`]. The list is made empty where
    /// it will live and then filled there: a filled list returned by value was copied
    /// whole (1 KB) at every node.
    #[inline]
    pub(crate) fn empty() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
            total: 0,
            deferred: 0,
            revisited: 0,
        }
    }

    /// Fills an empty list with the moves `moves` of `p` against `o` and the discs each
    /// turns, not yet rated, at the level of `cpu`.
    #[inline(always)]
    pub(crate) fn generate_in<C: Cpu>(&mut self, cpu: C, p: u64, o: u64, mut moves: u64) {
        debug_assert_eq!(self.total, 0, "a list is filled once");
        let mut len = 0;
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            self.moves[len].write(Candidate {
                sq,
                flips: flips_in(cpu, p, o, sq),
                value: 0,
            });
            len += 1;
        }
        (self.len, self.total) = (len, len);
    }

    /// The slot `i`, which must be below `total`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Candidate {
        assert!(i < self.total);
        // SAFETY: `generate` wrote every slot below `total`, and later writes only replace them.
        unsafe { self.moves[i].assume_init() }
    }

    /// The candidates not yet popped.
    #[inline]
    pub(crate) fn remaining(&self) -> &[Candidate] {
        debug_assert!(self.len <= self.total);
        // SAFETY: the slots below `len <= total` were written by `generate` (`MaybeUninit<T>` has
        // the layout of `T`).
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Candidate>(), self.len) }
    }

    /// The candidates not yet popped, to rate them.
    #[inline]
    pub(crate) fn remaining_mut(&mut self) -> &mut [Candidate] {
        debug_assert!(self.len <= self.total);
        // SAFETY: as in `remaining`.
        unsafe {
            std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Candidate>(), self.len)
        }
    }

    /// Sorts the candidates best first, for a search that visits them in order from
    /// [`MoveList::remaining`] (the highest value first; equal values in the order the sort
    /// leaves them).
    #[inline]
    pub(crate) fn sort(&mut self) {
        self.remaining_mut()
            .sort_unstable_by_key(|c| std::cmp::Reverse(c.value));
    }

    /// The next best candidate, removed from the list.
    #[inline]
    pub(crate) fn pop_best(&mut self) -> Option<Candidate> {
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
    pub(crate) fn defer(&mut self, c: Candidate) {
        // Every candidate put off was popped first, so a slot past `len` is free.
        assert!(self.len + self.deferred < self.total);
        self.deferred += 1;
        self.moves[self.total - self.deferred].write(c);
    }

    /// The next candidate put off, in the order they were, each once; `None` after the
    /// last.
    #[inline]
    pub(crate) fn pop_deferred(&mut self) -> Option<Candidate> {
        if self.revisited == self.deferred {
            return None;
        }
        self.revisited += 1;
        Some(self.get(self.total - self.revisited))
    }
}

/// The rating of a child that ends the game with the opponent wiped out: first of all.
pub(crate) const WIPE_OUT: i32 = 1 << 30;

/// The rating of the table's move: next, before every rated child.
pub(crate) const TABLE_MOVE: i32 = 1 << 29;

/// What a search pays for in a child's rating, in points ([`rate`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Weights {
    /// Points off per reply of the opponent after the move.
    pub replies: i32,
    /// Squares where a reply counts twice (the corners; 0: none).
    pub corners: u64,
    /// Points off per empty square beside our discs: the opponent's potential moves.
    pub potential: i32,
    /// Points per corner of ours, and per edge square of ours beside it (`c_squares`).
    pub anchored: i32,
    /// The edge squares beside the corners, for `anchored`.
    pub c_squares: u64,
    /// Squares in a quadrant with an odd number of empties: one point for a move there.
    pub odd: u64,
}

/// One child as [`rate`] sees it, for the search's own part of the rating.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    /// The move and the discs it turns.
    pub sq: u8,
    pub flips: u64,
    /// The child: the opponent `np` to move against us, `no`.
    pub np: u64,
    pub no: u64,
    /// The child's empty squares.
    pub rest: u64,
    /// The opponent's legal moves there.
    pub replies: u64,
}

/// Rates the candidates of `list`, the children of `p` to move against `o` (`empties`: its
/// empty squares), for [`MoveList::sort`] or [`MoveList::pop_best`]: a wipe-out
/// ([`WIPE_OUT`]), then the table's move `table_move` ([`TABLE_MOVE`]), then every other
/// child by the parts `w` pays for plus `learnt(child)`, the search's own points for the
/// child's learnt evaluation (0 where it pays for none).
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn rate<C: Cpu>(
    cpu: C,
    list: &mut MoveList,
    p: u64,
    o: u64,
    empties: u64,
    table_move: u8,
    w: &Weights,
    mut learnt: impl FnMut(&Child) -> i32,
) {
    for c in list.remaining_mut() {
        let (sq, f) = (c.sq, c.flips);
        let (np, no) = (o ^ f, p | f | 1 << sq);
        c.value = if np == 0 {
            WIPE_OUT
        } else if sq == table_move {
            TABLE_MOVE
        } else {
            let rest = empties & !(1 << sq);
            let replies = legal_moves_in(cpu, np, no, rest);
            let mobility = (replies.count_ones() + (replies & w.corners).count_ones()) as i32;
            let parity = (w.odd >> sq & 1) as i32;
            let mut value = parity - mobility * w.replies;
            if w.potential != 0 {
                let potential = (crate::moves::neighbours(no) & rest).count_ones() as i32;
                value -= potential * w.potential;
            }
            if w.anchored != 0 {
                // Our corners and the edge squares beside them: discs that stay ours.
                let corners = no & w.corners;
                let beside = ((corners << 1 & 0xfefe_fefe_fefe_fefe)
                    | (corners >> 1 & 0x7f7f_7f7f_7f7f_7f7f)
                    | corners << 8
                    | corners >> 8)
                    & w.c_squares;
                let anchored = (corners | (beside & no)).count_ones() as i32;
                value += anchored * w.anchored;
            }
            let child = Child {
                sq,
                flips: f,
                np,
                no,
                rest,
                replies,
            };
            value + learnt(&child)
        };
    }
}

/// Puts `kid` (a rating, a square, the discs it turns) into `kids`, whose last slot is free
/// and whose others are sorted best first: after the kids rated as high or higher, so equal
/// ratings keep the order they came in. For the short lists of searches that rate every
/// child at once by a cheap key.
#[inline]
pub(crate) fn insert_best_first(kids: &mut [(i32, u8, u64)], kid: (i32, u8, u64)) {
    let mut i = kids.len() - 1;
    while i > 0 && kids[i - 1].0 < kid.0 {
        kids[i] = kids[i - 1];
        i -= 1;
    }
    kids[i] = kid;
}

/// The static value for `p` of its move `sq` against `o` (turning `f`): the learnt
/// evaluation of the child, read on `state` (the indices of `p`, `o`, left as they were)
/// with the move played.
#[inline]
fn child_value(e: &Eval, state: &EvalState, p: u64, o: u64, sq: u8, f: u64) -> i32 {
    -e.evaluate_child(state, sq, f, o ^ f, p | f | 1 << sq)
}

/// The learnt evaluation searched `depth` plies deep (negamax with alpha-beta; a pass
/// costs no ply, the end of the game scores its disc count), in [`UNIT`]s per disc: how the
/// solver rates its children high in the tree, and what its Multi-ProbCut predicts with.
/// `state` holds the evaluation's indices of `p`, `o`; it is updated as moves are made and
/// unmade, and left as it was. `nodes` counts the positions searched below this one. It
/// runs compiled for the level of `cpu` ([`Cpu::run`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn eval_search<C: Cpu>(
    cpu: C,
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
    cpu.run(
        #[inline(always)]
        move || {
            if depth == 0 {
                return e.evaluate(state, p, o);
            }
            let mut moves = legal_moves_in(cpu, p, o, empties);
            if moves == 0 {
                if legal_moves_in(cpu, o, p, empties) == 0 {
                    let squares = (p | o | empties).count_ones();
                    return crate::final_score(p, o, squares) * UNIT;
                }
                state.pass();
                *nodes += 1;
                let v = -eval_search(cpu, e, state, o, p, empties, depth, -beta, -alpha, nodes);
                state.pass();
                return v;
            }
            if depth == 1 {
                // The children are leaves: their values need no window and no order.
                let mut best = i32::MIN + 1;
                while moves != 0 {
                    let sq = moves.trailing_zeros() as u8;
                    moves &= moves - 1;
                    *nodes += 1;
                    let v = child_value(e, state, p, o, sq, flips_in(cpu, p, o, sq));
                    if v > best {
                        best = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
                return best;
            }
            // Children as (our static score, square, flips), best first.
            let mut kids = [(0i32, 0u8, 0u64); MAX_MOVES];
            let mut len = 0;
            while moves != 0 {
                let sq = moves.trailing_zeros() as u8;
                moves &= moves - 1;
                let f = flips_in(cpu, p, o, sq);
                let score = child_value(e, state, p, o, sq, f);
                insert_best_first(&mut kids[..=len], (score, sq, f));
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
                    v = -eval_search(cpu, e, state, np, no, rest, d, -beta, -alpha, nodes);
                } else {
                    v = -eval_search(cpu, e, state, np, no, rest, d, -alpha - 1, -alpha, nodes);
                    if v > alpha && v < beta {
                        *nodes += 1;
                        v = -eval_search(cpu, e, state, np, no, rest, d, -beta, -alpha, nodes);
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
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::{flips, legal_moves};
    use crate::{transcript, BoardSize, Position};

    const EIGHT: u64 = u64::MAX;

    /// A `table_move` that is no square: no move comes first.
    const NO_TABLE_MOVE: u8 = 64;

    /// The moves of `p` against `o` rated by `w` and `learnt`, best first by
    /// [`MoveList::sort`], as (square, rating).
    fn sorted(
        p: u64,
        o: u64,
        table_move: u8,
        w: &Weights,
        learnt: impl FnMut(&Child) -> i32,
    ) -> Vec<(u8, i32)> {
        let empties = !(p | o) & EIGHT;
        let mut list = MoveList::empty();
        list.generate_in(crate::cpu::Baseline, p, o, legal_moves(p, o, empties));
        rate(
            crate::cpu::Baseline,
            &mut list,
            p,
            o,
            empties,
            table_move,
            w,
            learnt,
        );
        list.sort();
        list.remaining().iter().map(|c| (c.sq, c.value)).collect()
    }

    /// The position after `line` from the 8x8 start, as the side to move's discs and the
    /// other side's.
    fn after(line: &str) -> (u64, u64) {
        let pos = transcript::parse(line, Position::start(BoardSize::Eight))
            .expect("a legal line")
            .position();
        (pos.player().0, pos.opponent().0)
    }

    #[test]
    fn a_wipe_out_comes_first_then_the_table_move_then_the_ratings() {
        let w = Weights {
            replies: 1,
            ..Weights::default()
        };
        let (p, o) = after("f5d6c3d3c4f4f6f3e6e7");
        let plain = sorted(p, o, NO_TABLE_MOVE, &w, |_| 0);
        assert!(plain.len() > 3);
        for &(sq, value) in &plain {
            let f = flips(p, o, sq);
            let (np, no) = (o ^ f, p | f | 1 << sq);
            let replies = legal_moves(np, no, !(np | no));
            assert_eq!(value, -(replies.count_ones() as i32), "square {sq}");
        }
        assert!(plain.windows(2).all(|w| w[0].1 >= w[1].1), "{plain:?}");
        // The table's move goes first whatever its rating.
        let worst = plain.last().expect("moves").0;
        assert_eq!(sorted(p, o, worst, &w, |_| 0)[0], (worst, TABLE_MOVE));
        // The search's own points are added to the rating.
        let learnt = sorted(p, o, NO_TABLE_MOVE, &w, |c| i32::from(c.sq) * 100);
        assert!(learnt.windows(2).all(|w| w[0].0 > w[1].0), "{learnt:?}");

        // Black a1 and a3, White b1 and b2: c1 takes both White discs, c3 only b2. The
        // wipe-out goes before the table's move.
        let (p, o) = (1 << 0 | 1 << 16, 1 << 1 | 1 << 9);
        let (c1, c3) = (2, 18);
        assert_eq!(
            sorted(p, o, c3, &w, |_| 0),
            vec![(c1, WIPE_OUT), (c3, TABLE_MOVE)]
        );
    }

    #[test]
    fn sorting_and_picking_visit_the_same_order() {
        let w = Weights {
            replies: 16,
            corners: 0x8100_0000_0000_0081,
            potential: 4,
            anchored: 2,
            c_squares: 0x4281_0000_0000_8142,
            odd: 0x0f0f_0f0f_0000_0000,
        };
        let (p, o) = after("f5d6c3d3c4f4f6f3e6e7c6g6g5");
        let empties = !(p | o);
        let mut picked = MoveList::empty();
        picked.generate_in(crate::cpu::Baseline, p, o, legal_moves(p, o, empties));
        rate(
            crate::cpu::Baseline,
            &mut picked,
            p,
            o,
            empties,
            NO_TABLE_MOVE,
            &w,
            |c| i32::from(c.sq),
        );
        let mut by_pick = Vec::new();
        while let Some(c) = picked.pop_best() {
            by_pick.push(c.value);
        }
        let by_sort: Vec<i32> = sorted(p, o, NO_TABLE_MOVE, &w, |c| i32::from(c.sq))
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        assert!(by_sort.len() > 3);
        assert_eq!(by_pick, by_sort);
    }

    #[test]
    fn put_off_moves_come_back_after_the_rest_in_the_order_they_were_put_off() {
        let (p, o) = after("f5d6c3d3c4f4f6f3e6e7c6g6g5");
        let empties = !(p | o);
        let mut list = MoveList::empty();
        list.generate_in(crate::cpu::Baseline, p, o, legal_moves(p, o, empties));
        let total = list.len;
        assert!(total > 3);
        // Every other move is put off, as a thread does with moves another is searching.
        let (mut kept, mut put_off) = (Vec::new(), Vec::new());
        while let Some(c) = list.pop_best() {
            if kept.len() > put_off.len() {
                list.defer(c);
                put_off.push(c.sq);
            } else {
                kept.push(c.sq);
            }
        }
        let mut back = Vec::new();
        while let Some(c) = list.pop_deferred() {
            back.push(c.sq);
        }
        assert_eq!(back, put_off);
        assert_eq!(kept.len() + back.len(), total);
        assert!(list.pop_deferred().is_none());
    }
}
