//! Multi-ProbCut (Buro): the value of a deep search is predicted by a shallow one, with an
//! error whose spread was measured on positions ply plays. When the shallow value lies far
//! enough outside the window, the deep search is skipped. Both searches use it:
//!
//! - the midgame engine ([`crate::midgame`]) predicts a search `depth` plies deep from one
//!   of [`midgame_depth`] plies, at nodes at least [`MIDGAME_MIN_DEPTH`] deep, with the
//!   [`midgame_cut`] of its board size and evaluation (a spread and how many of its
//!   deviations a probe must clear);
//! - the exact solver's selective passes ([`crate::solve`]) predict the exact score of a
//!   node with `n` empties from the evaluation searched [`endgame_depth`] plies, at nodes with
//!   at least [`ENDGAME_MIN_EMPTIES`] empties, with the [`endgame_spread`] and the deviations
//!   of the pass ([`SELECTIVITY`]).
//!
//! The spreads come from `cargo run --release -p ply-train --example calibrate-mpc`, which
//! searches positions of seeded games and fits `sigma = a + b * depth + c * empties` (in
//! discs) by least squares (`--endgame` against exact scores).

use crate::{eval::UNIT, BoardSize};

/// A fitted spread of the prediction error, in discs: `a + b * depth + c * empties`, never
/// below `floor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The constant term.
    pub a: f64,
    /// Per ply of the shallow search.
    pub b: f64,
    /// Per empty square.
    pub c: f64,
    /// The least spread the model gives.
    pub floor: f64,
}

impl Spread {
    /// The spread, in discs, for a shallow search `depth` plies deep at a node with
    /// `empties` empty squares.
    #[must_use]
    pub fn sigma(&self, depth: u32, empties: u32) -> f64 {
        (self.a + self.b * f64::from(depth) + self.c * f64::from(empties)).max(self.floor)
    }

    /// How far outside the window, in evaluation units, the shallow value must land to cut
    /// with `confidence` standard deviations.
    #[must_use]
    pub fn margin(&self, confidence: f64, depth: u32, empties: u32) -> i32 {
        (confidence * self.sigma(depth, empties) * f64::from(UNIT)) as i32
    }
}

/// Where a probe predicts the deep search's score: [`probe`]'s answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    /// At or above the window: the node fails high.
    High,
    /// At or below the window: the node fails low.
    Low,
}

/// Multi-ProbCut's test at one node, the step both searches take: `shallow(alpha, beta)`
/// searches the prediction in a null window, first at `high` (the window's top plus the
/// margin of the spread), where a value of at least `high` predicts a fail high, then at
/// `low` (its bottom less the margin), where a value of at most `low` predicts a fail low.
/// Each search leaves out (`None`) a probe that cannot cut: the midgame engine one beyond
/// every final score, the solver one on the side of the window no score lies beyond.
pub(crate) fn probe(
    high: Option<i32>,
    low: Option<i32>,
    mut shallow: impl FnMut(i32, i32) -> i32,
) -> Option<Cut> {
    if high.is_some_and(|h| shallow(h - 1, h) >= h) {
        return Some(Cut::High);
    }
    if low.is_some_and(|l| shallow(l, l + 1) <= l) {
        return Some(Cut::Low);
    }
    None
}

// --- The midgame engine --------------------------------------------------------------------

/// Shallowest depth at which a midgame node tries a probe.
pub const MIDGAME_MIN_DEPTH: u32 = 3;

/// The depth of the probe for a search of `depth` plies: about half as deep, with the
/// same parity (the evaluation's side-to-move bias cancels).
#[must_use]
pub const fn midgame_depth(depth: u32) -> u32 {
    (depth / 4) * 2 + (depth & 1)
}

/// How a midgame probe cuts: the spread of the prediction error and how many of its standard
/// deviations the shallow value must lie outside the window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MidgameCut {
    /// The spread of `deep - shallow`, in discs.
    pub spread: Spread,
    /// How many spreads outside the window the shallow value must land.
    pub confidence: f64,
}

impl MidgameCut {
    /// How far outside the window a probe must land, in evaluation units, for a search of
    /// `depth` plies at a node with `empties` empty squares.
    #[must_use]
    pub fn margin(&self, depth: u32, empties: u32) -> i32 {
        self.spread.margin(self.confidence, depth, empties)
    }
}

/// The 8x8 network's (`data/eval8-net.bin`, what ply evaluates 8x8 with): the spread
/// `calibrate-mpc --size 8 --games 150 --deepest 11` measured on it (2026-11-28, the network
/// of 31721c2; 3.2 discs at depth 10 and 36 empties, where the tables' hand-set spread below
/// gives 5.8), and the confidence the matches chose: at 100 ms a move against the build
/// before (806832b, the tables' cut; `ply bench match --gtp "OLD gtp --depth 60 --time 0.1
/// --no-ponder" --ms 100`, XOT openings 101-200, both colours, 200 games each) this spread
/// scored 51.8% with 2 deviations, 57.0% with 1.5, 61.0% with 1.25, 65.2% with 1, 67.5%
/// with 0.75, 70.2% with 0.5 and 59.0% with 0.25; 0.5 against 0.75 directly (openings
/// 201-300), 55.5%. Narrow, as a search that reaches deeper in the same time pays for
/// the nodes it cuts wrongly. The network shipped since (2026-11-29, a second round of
/// search labels on the same shape) keeps this cut unmeasured: it evaluates as close to the
/// first as two rounds of one recipe do (held-out games within 0.03 discs a phase).
const MIDGAME_8_NETWORK: MidgameCut = MidgameCut {
    spread: Spread {
        a: 5.533,
        b: -0.0396,
        c: -0.0528,
        floor: 0.5,
    },
    confidence: 0.5,
};

/// The 8x8 tables' (`data/eval8.bin`, `PLY_EVAL8` naming them), set by hand, with 1.5
/// deviations. `calibrate-mpc --size 8` (300 games) measured (7.842, -0.0345, -0.0976):
/// wider near the end, where the evaluation is least sure, narrower in the opening. With it
/// `ply bench eval --size 8` gave a worse mean error on FFO #40-#59 at 1 s (4.2-4.8 discs in
/// two runs, against 3.4-3.9 with these), and no better on fforum #60-#79. With the weights
/// fitted to self-play games it measured (7.18, -0.039, -0.078); a match of that spread
/// against these (`ply bench match`, XOT openings 1-100, both colours, 200 ms a move) scored
/// 48.3% for it (87 won, 19 drawn, 94 lost of 200), so these stay. With the weights of
/// `scripts/train-eval8` from the committed data (search labels from 24 empties), 100 games:
/// (6.62, -0.034, -0.071), the same shape; not tried in a match.
const MIDGAME_8_TABLES: MidgameCut = MidgameCut {
    spread: Spread {
        a: 2.0,
        b: 0.2,
        c: 0.05,
        floor: 0.5,
    },
    confidence: 1.5,
};

/// 6x6's tables: `calibrate-mpc --size 6`, with 1.5 deviations.
const MIDGAME_6: MidgameCut = MidgameCut {
    spread: Spread {
        a: 6.262,
        b: 0.0209,
        c: -0.1542,
        floor: 0.5,
    },
    confidence: 1.5,
};

/// The midgame engine's cut for a board size over an evaluation that is a `network` or
/// pattern tables (4x4 has no evaluation to predict with, and never probes).
#[must_use]
pub const fn midgame_cut(size: BoardSize, network: bool) -> MidgameCut {
    match (size, network) {
        (BoardSize::Eight, true) => MIDGAME_8_NETWORK,
        (BoardSize::Eight, false) => MIDGAME_8_TABLES,
        _ => MIDGAME_6,
    }
}

// --- The exact solver's selective passes ---------------------------------------------------

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
pub const SELECTIVITY: [f64; 2] = [1.1, 2.2];

/// Fewest empties at which a selective pass probes. `ply bench ffo --range 40-49`, one
/// thread (with the shallow nodes sorted from 6 empties): from 10, 0.590 G nodes; from 9,
/// 0.569 G (fforum #20-#39, not tuned on: 91.5 M -> 89.3 M); from 12, 0.661 G (measured
/// before that sorting, against 0.617 G from 10).
pub const ENDGAME_MIN_EMPTIES: u32 = 9;

/// The depth of the evaluation search that predicts the exact score of a node with `n`
/// empties, in a selective pass.
#[inline]
#[must_use]
pub fn endgame_depth(n: u32) -> u32 {
    match n {
        ..18 => 2,
        18..24 => 4,
        _ => 6,
    }
}

/// `calibrate-mpc --size 8 --endgame` (4.178 - 0.3968 depth + 0.2177 empties, on the weights
/// fitted before the self-play ones), half a disc narrower. On the weights fitted to 15 shards
/// (session 23), FFO #40-#49 / #50-#52 / fforum #20-#39 took 516.7 / 676.3 / 61.0 M nodes a
/// disc and a half narrower, 475.2 / 650.8 / 60.0 M a disc narrower, 466.7 / 641.0 / 62.7 M
/// half a disc narrower and 451.6 / 687.8 / 64.0 M as calibrated: half a disc narrower has
/// the fewest over the three sets. The session before, on the self-play weights, measured on
/// 2026-11-26 (300 games), the calibration gives 7.445 - 0.7237 depth + 0.1306 empties, but
/// the search is not what the calibration fits: `ply bench ffo --range 40-49`, one thread,
/// 0.508 G nodes with that spread, 0.477 G with the old one, 0.471 G half a disc narrower,
/// 0.466 G a disc narrower, 0.482 G one and a half. Checked on positions not tuned on:
/// fforum #20-#39 68.9 M -> 64.7 M nodes, FFO #50-#52 730.9 M -> 728.6 M.
const ENDGAME_8: Spread = Spread {
    a: 3.678,
    b: -0.3968,
    c: 0.2177,
    floor: 1.0,
};
/// `calibrate-mpc --size 6 --endgame`.
const ENDGAME_6: Spread = Spread {
    a: 5.929,
    b: -0.3212,
    c: -0.0100,
    floor: 1.0,
};

/// The spread of the exact score around the evaluation searched a few plies, by board size.
#[must_use]
pub const fn endgame_spread(size: BoardSize) -> Spread {
    match size {
        BoardSize::Eight => ENDGAME_8,
        _ => ENDGAME_6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_cut_above_first_then_below_and_only_where_given() {
        // A shallow search whose value is 50, recording its windows.
        let mut windows = Vec::new();
        let mut at_50 = |a, b| {
            windows.push((a, b));
            50
        };
        assert_eq!(probe(Some(40), Some(-40), &mut at_50), Some(Cut::High));
        assert_eq!(probe(Some(60), Some(55), &mut at_50), Some(Cut::Low));
        assert_eq!(probe(Some(60), Some(-40), &mut at_50), None);
        assert_eq!(probe(None, None, &mut at_50), None);
        assert_eq!(
            windows,
            [(39, 40), (59, 60), (55, 56), (59, 60), (-40, -39)]
        );
    }

    #[test]
    fn probes_keep_the_parity_and_are_shallower() {
        for d in MIDGAME_MIN_DEPTH..40 {
            let s = midgame_depth(d);
            assert!(s < d);
            assert_eq!(s % 2, d % 2);
        }
    }

    #[test]
    fn spreads_keep_their_floor() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let cuts = [midgame_cut(size, true), midgame_cut(size, false)];
            let spreads = cuts.map(|c| c.spread);
            for spread in spreads.into_iter().chain([endgame_spread(size)]) {
                for depth in 0..30 {
                    for empties in 0..=64 {
                        assert!(spread.sigma(depth, empties) >= spread.floor);
                    }
                }
            }
        }
    }
}
