//! Multi-ProbCut in the selective passes: a node is cut when the evaluation, searched a few
//! plies, lands far enough outside the window (the model is [`crate::spine::probcut`]).

use super::Search;
use crate::cpu::Cpu;
use crate::{
    eval::UNIT,
    spine::order,
    spine::probcut::{endgame_depth, endgame_spread, probe, Cut, SELECTIVITY},
};

impl<C: Cpu> Search<'_, C> {
    /// Multi-ProbCut, in a selective pass: `alpha + 1` (a likely fail-high) when the
    /// evaluation searched [`endgame_depth`] plies lands far enough above the window, `alpha`
    /// when it lands far enough below it.
    pub(super) fn probcut(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                let e = self.eval?;
                let depth = endgame_depth(n);
                let t = SELECTIVITY[usize::from(self.level)];
                let size = crate::BoardSize::from_n(self.geo.n as u8)?;
                let margin = endgame_spread(size).margin(t, depth, n);
                let empties = !(p | o) & self.geo.mask;
                let squares = self.geo.squares;
                let state = self.states.get(e, p, o, n);
                let nodes = &mut self.nodes;
                let shallow = |a, b| {
                    order::eval_search(cpu, e, state, p, o, empties, depth, a, b, &mut *nodes)
                };
                let high = (alpha + 1 < squares).then_some((alpha + 1) * UNIT + margin);
                let low = (alpha > -squares).then_some(alpha * UNIT - margin);
                probe(high, low, shallow).map(|cut| match cut {
                    Cut::High => alpha + 1,
                    Cut::Low => alpha,
                })
            },
        )
    }
}
