//! The deep tier's move list: made where it lives, sorted lazily, with room to put moves off.

use std::mem::MaybeUninit;

use super::super::flips::flips;

/// Room for every legal move of a position: a position may have more than 32 (33 in real
/// games, more in constructed ones), never more than its 64 squares.
pub(super) const MAX_MOVES: usize = 64;

/// One candidate move of a sorted list.
#[derive(Clone, Copy, Default)]
pub(super) struct Candidate {
    pub(super) sq: u8,
    pub(super) flips: u64,
    pub(super) value: i32,
}

/// A move list for the deep tier, sorted lazily (best remaining candidate picked each time).
/// A popped candidate may be put off ([`MoveList::defer`]): it goes to the slots that the
/// pops freed at the end of the list, so the list never needs more room than its moves.
///
/// Only the first `total` slots are ever written (all of them by [`MoveList::generate`]) or read:
/// the room for 64 moves costs nothing at the many nodes that have a few.
pub(super) struct MoveList {
    moves: [MaybeUninit<Candidate>; MAX_MOVES],
    /// Candidates not yet popped: the slots `..len`.
    pub(super) len: usize,
    /// Moves in the list when it was made.
    total: usize,
    /// Candidates put off: the slots `total - deferred..total`, the first put off last.
    pub(super) deferred: usize,
}

impl MoveList {
    /// A list with no moves yet, for [`MoveList::generate`]. The list is made empty where
    /// it will live and then filled there: a filled list returned by value was copied
    /// whole (1 KB) at every node.
    #[inline]
    pub(super) fn empty() -> MoveList {
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
    pub(super) fn generate(&mut self, p: u64, o: u64, mut moves: u64) {
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
    pub(super) fn get(&self, i: usize) -> Candidate {
        assert!(i < self.total);
        // SAFETY: `generate` wrote every slot below `total`, and later writes only replace them.
        unsafe { self.moves[i].assume_init() }
    }

    /// The candidates not yet popped.
    #[inline]
    pub(super) fn remaining(&self) -> &[Candidate] {
        debug_assert!(self.len <= self.total);
        // SAFETY: the slots below `len <= total` were written by `generate` (`MaybeUninit<T>` has
        // the layout of `T`).
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Candidate>(), self.len) }
    }

    /// The candidates not yet popped, to rate them.
    #[inline]
    pub(super) fn remaining_mut(&mut self) -> &mut [Candidate] {
        debug_assert!(self.len <= self.total);
        // SAFETY: as in `remaining`.
        unsafe {
            std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Candidate>(), self.len)
        }
    }

    /// The next best candidate, removed from the list.
    #[inline]
    pub(super) fn pop_best(&mut self) -> Option<Candidate> {
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
    pub(super) fn defer(&mut self, c: Candidate) {
        // Every candidate put off was popped first, so a slot past `len` is free.
        assert!(self.len + self.deferred < self.total);
        self.deferred += 1;
        self.moves[self.total - self.deferred].write(c);
    }

    /// The `i`-th candidate put off, in the order they were.
    #[inline]
    pub(super) fn deferred(&self, i: usize) -> Candidate {
        debug_assert!(i < self.deferred);
        self.get(self.total - 1 - i)
    }
}
