//! Multi-ProbCut in the selective passes: a node is cut when the evaluation, searched a few
//! plies, lands far enough outside the window.

use super::Search;
use crate::eval::UNIT;

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
pub(super) const PROBCUT_MIN: u32 = 10;

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
/// `cargo run --release -p ply-othello --example calibrate-mpc -- --size 8|6 --endgame`.
#[inline]
fn probcut_sigma(side: u32, n: u32, depth: u32) -> f64 {
    let (a, b, c) = if side == 8 {
        (4.178, -0.3968, 0.2177)
    } else {
        (5.929, -0.3212, -0.0100)
    };
    (a + b * f64::from(depth) + c * f64::from(n)).max(1.0)
}

impl Search<'_> {
    /// Multi-ProbCut, in a selective pass: `alpha + 1` (a likely fail-high) when the
    /// evaluation searched [`probcut_depth`] plies lands far enough above the window, `alpha`
    /// when it lands far enough below it.
    pub(super) fn probcut(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
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
}
