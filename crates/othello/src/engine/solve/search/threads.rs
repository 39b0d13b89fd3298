//! Several threads over one table: a node another thread is searching is put off
//! (simplified ABDADA), and a thread unwinds to a node of its path that another settled.

use crate::cpu::Cpu;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::{
    super::tt::{self, Key},
    Search, NEAR_END,
};
use crate::spine::order::{Candidate, MoveList};

/// Fewest empties at which threads share out the moves of a node: where results go in the
/// shared table (below it each thread keeps its own, and a move another thread searches would
/// be searched again anyway). With the own tables, `ply bench ffo --range 40-49 --threads 2`,
/// alternately: from 10 empties 8.43-8.56 s (497-500 M nodes), from 12 8.26-8.33 s (494-498 M).
pub(super) const SPLIT_DEPTH: u32 = NEAR_END;
/// How many nodes pass between two looks, with other threads about, at whether another
/// thread has settled a node this one is inside.
pub(super) const SETTLED_EVERY: u64 = 1 << 12;

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
    pub(super) fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    #[inline]
    pub(super) fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }

    #[inline]
    pub(super) fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }
}

impl<'a, C: Cpu> Search<'a, C> {
    /// With other threads about, now and then: whether another thread has stored a result
    /// that settles a node of this thread's path above a node with `n` empties (the one
    /// nearest the root, if several); if so, the search unwinds to it (see [`Self::unwound`]).
    #[inline(always)]
    pub(super) fn settled_above(&mut self, n: u32) -> bool {
        if self.busy.is_none() || self.nodes < self.next_settled {
            return false;
        }
        self.settled_above_now(n)
    }

    /// [`Self::settled_above`] once its time has come: out of line, as it is rare.
    #[cold]
    #[inline(never)]
    fn settled_above_now(&mut self, n: u32) -> bool {
        self.next_settled = self.nodes + SETTLED_EVERY;
        // The thread that finished first waits for this one to see its stop.
        if self.control.shared_raised() {
            self.aborted = true;
            return true;
        }
        for m in ((n + 1).max(SPLIT_DEPTH)..self.top).rev() {
            let (hash, alpha, beta) = self.path[m as usize];
            if let Some(v) = self.probe(hash, m).and_then(|e| e.cutoff(alpha, beta)) {
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
    pub(super) fn share(&mut self, key: Key, n: u32, alpha: i32, beta: i32) -> Option<&'a Busy> {
        let busy = self.busy.filter(|_| n >= SPLIT_DEPTH)?;
        busy.enter(key.hash);
        self.path[n as usize] = (key.hash, alpha, beta);
        Some(busy)
    }

    /// The next child of `(p, o)` (`n` empties) to search, best first from `list`; `None`
    /// when every child has been searched. With other threads about (`shared`), once a
    /// child has a value (`searched`), a child another thread is searching now is put off
    /// until the others are done: by then its result is usually in the table.
    #[inline]
    pub(super) fn next_child(
        &self,
        list: &mut MoveList,
        shared: Option<&Busy>,
        searched: bool,
        (p, o, n): (u64, u64, u32),
    ) -> Option<Candidate> {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                while let Some(c) = list.pop_best() {
                    if let Some(busy) = shared {
                        let (np, no) = (o ^ c.flips, p | c.flips | 1 << c.sq);
                        if searched && busy.contains(tt::key(self.geo, np, no, n - 1).hash) {
                            list.defer(c);
                            continue;
                        }
                    }
                    return Some(c);
                }
                list.pop_deferred()
            },
        )
    }

    /// What a node of the deep tier returns when its child came back aborted: the settled
    /// score, when this is the node the search was unwinding to (the search then goes on
    /// from here), else nothing that counts.
    #[inline]
    pub(super) fn unwound(&mut self, key: Key, shared: Option<&Busy>) -> i32 {
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
}
