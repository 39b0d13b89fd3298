//! The root: every move searched once (symmetric images skipped), progress reported after each.

use super::{
    super::{
        flips::legal_moves_in,
        tt::{self, NO_MOVE},
    },
    threads::SPLIT_DEPTH,
    Search, NEG_INF,
};
use crate::cpu::Cpu;
use crate::rules::symmetry;

/// What the root search reports at its start and after each root move.
pub(crate) struct RootStep {
    pub done: usize,
    pub total: usize,
    pub best: i32,
    pub best_move: u8,
}

impl<C: Cpu> Search<'_, C> {
    /// Principal-variation search at the root: the score within `alpha..beta` (fail-soft)
    /// and the best move. Of moves whose children are symmetric images of each other only
    /// the first is searched. With several threads, a move another thread is searching is put
    /// off to the end. `report` hears at the start (no move done) and after each root move.
    pub fn root(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        report: &mut dyn FnMut(&RootStep, u64),
    ) -> (i32, u8) {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                debug_assert!(alpha < beta);
                let n = (!(p | o) & self.geo.mask).count_ones();
                self.top = n;
                self.nodes += 1;
                let empties = !(p | o) & self.geo.mask;
                let moves = legal_moves_in(self.cpu, p, o, empties);
                debug_assert!(moves != 0, "the root needs a legal move");
                let key = tt::key(self.geo, p, o, n);
                let hash_move = self
                    .table(n)
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
                report(
                    &RootStep {
                        done: 0,
                        total,
                        best: NEG_INF,
                        best_move: NO_MOVE,
                    },
                    self.nodes,
                );
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
                    let v = self.pv_child(np, no, alpha, beta, n, best == NEG_INF || n <= 1);
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
            },
        )
    }
}
