//! Multi-ProbCut (Buro): the value of a deep search is predicted by a shallow one, with an
//! error whose spread was measured on positions ply plays. When the shallow value lies far
//! enough outside the window, the deep search is skipped.
//!
//! The spreads come from `cargo run --release -p ply-train --example calibrate-mpc`, which
//! searches positions of seeded games at every depth pair and fits
//! `sigma = a + b * depth + c * empties` (in discs) by least squares; its output is pasted
//! below.

use crate::{eval::UNIT, BoardSize};

/// Shallowest depth at which a node tries a probe.
pub const MIN_DEPTH: u32 = 3;

/// How many standard deviations of the prediction error a probe must clear.
pub const CONFIDENCE: f64 = 1.5;

/// The depth of the probe for a search of `depth` plies: about a quarter as deep, with the
/// same parity (the evaluation's side-to-move bias cancels).
#[must_use]
pub const fn shallow_depth(depth: u32) -> u32 {
    (depth / 4) * 2 + (depth & 1)
}

/// The fitted spread model `(a, b, c)` of each board size, in discs.
#[must_use]
pub const fn sigma_model(size: BoardSize) -> (f64, f64, f64) {
    match size {
        BoardSize::Eight => SIGMA_8,
        _ => SIGMA_6,
    }
}

/// Set by hand. `calibrate-mpc --size 8` (300 games) measured (7.842, -0.0345, -0.0976):
/// wider near the end, where the evaluation is least sure, narrower in the opening. With it
/// `ply bench eval --size 8` gave a worse mean error on FFO #40-#59 at 1 s (4.2-4.8 discs in
/// two runs, against 3.4-3.9 with these), and no better on fforum #60-#79, so these stay
/// until a match says otherwise.
const SIGMA_8: (f64, f64, f64) = (2.0, 0.2, 0.05);
/// `calibrate-mpc --size 6`.
const SIGMA_6: (f64, f64, f64) = (6.262, 0.0209, -0.1542);

/// How far outside the window the probe must land, in evaluation units.
#[must_use]
pub fn margin(size: BoardSize, depth: u32, empties: u32) -> i32 {
    let (a, b, c) = sigma_model(size);
    let sigma = (a + b * f64::from(depth) + c * f64::from(empties)).max(0.5);
    (CONFIDENCE * sigma * f64::from(UNIT)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_keep_the_parity_and_are_shallower() {
        for d in MIN_DEPTH..40 {
            let s = shallow_depth(d);
            assert!(s < d);
            assert_eq!(s % 2, d % 2);
        }
    }
}
