//! Scores with their units. The solver and the books score in whole discs (a final disc
//! difference is a whole number), [`WholeDiscs`]; the evaluation, the midgame engine and the
//! analysis in 64ths of a disc ([`DISC`] of them to a disc), [`Discs64`], so that an
//! estimate keeps its fraction. The public fields and functions that hold a score carry one
//! of these types; where one unit becomes the other, or a score becomes a number of discs to
//! show, it goes through the methods here, and only here is [`DISC`] multiplied or divided
//! by. The hot loops of the searches keep their bare `i32`s and wrap them where a score
//! leaves them.
//!
//! Both serialize (with the `serde` feature) as the bare number they hold.
//!
//! ```
//! use ply_othello::analyze::{Discs64, WholeDiscs, DISC};
//! assert_eq!(Discs64::from(WholeDiscs(-3)), Discs64(-3 * DISC));
//! assert_eq!(Discs64(5 * DISC + DISC / 3).tenths(), 5.3);
//! assert_eq!(Discs64(-10 * DISC).whole(), WholeDiscs(-10));
//! ```

use std::{
    fmt,
    ops::{Add, Mul, Neg, Sub},
};

/// One disc of score in 64ths: the evaluation's unit ([`crate::eval::UNIT`]), which the
/// midgame engine and the analysis score in. The one definition; `midgame::DISC` and
/// `analyze::DISC` name it.
pub const DISC: i32 = crate::eval::UNIT;

/// A score in whole discs: the solver's and the books'. Its `Display` is the bare number.
///
/// ```
/// use ply_othello::analyze::{Discs64, WholeDiscs};
/// let s = WholeDiscs(-4);
/// assert_eq!((-s, s.to_string()), (WholeDiscs(4), "-4".to_string()));
/// assert_eq!(s.in_64ths(), Discs64(-4 * 64));
/// assert!(WholeDiscs(2) > s);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct WholeDiscs(pub i32);

/// A score in 64ths of a disc ([`DISC`] to a disc): the midgame engine's and the analysis's.
/// It has no `Display`: a front end shows it through [`Discs64::discs`], [`Discs64::tenths`]
/// or [`Discs64::whole`] (as [`crate::analyze::Shown`] does).
///
/// ```
/// use ply_othello::analyze::{Discs64, WholeDiscs, DISC};
/// let estimate = Discs64(-(2 * DISC + DISC / 4)); // -2.25 discs
/// assert_eq!(estimate.discs(), -2.25);
/// assert_eq!(estimate.tenths(), -2.3); // half a tenth away from zero
/// assert_eq!(estimate.whole(), WholeDiscs(-2)); // toward zero
/// assert_eq!(estimate.nearest(), WholeDiscs(-2));
/// assert_eq!(-estimate, Discs64(2 * DISC + DISC / 4));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Discs64(pub i32);

impl WholeDiscs {
    /// The same score in 64ths of a disc (`const`, as [`From`] is not).
    #[must_use]
    pub const fn in_64ths(self) -> Discs64 {
        Discs64(self.0 * DISC)
    }
}

impl From<WholeDiscs> for Discs64 {
    fn from(d: WholeDiscs) -> Discs64 {
        d.in_64ths()
    }
}

impl Discs64 {
    /// The score in discs, with its fraction.
    #[must_use]
    pub fn discs(self) -> f64 {
        f64::from(self.0) / f64::from(DISC)
    }

    /// The score in discs rounded to a tenth (halves away from zero): how an estimate is
    /// shown.
    #[must_use]
    pub fn tenths(self) -> f64 {
        (self.discs() * 10.0).round() / 10.0
    }

    /// The whole discs of an exact score (which has no fraction), rounded toward zero: how
    /// the report shows an exact score.
    #[must_use]
    pub const fn whole(self) -> WholeDiscs {
        WholeDiscs(self.0 / DISC)
    }

    /// The nearest whole number of discs (halves away from zero): an estimate stored where
    /// only whole discs fit (a searched book's leaves).
    #[must_use]
    pub fn nearest(self) -> WholeDiscs {
        let half = DISC / 2;
        let rounded = if self.0 >= 0 {
            (self.0 + half) / DISC
        } else {
            (self.0 - half) / DISC
        };
        WholeDiscs(rounded)
    }
}

impl Neg for WholeDiscs {
    type Output = WholeDiscs;
    /// The same score for the other side.
    fn neg(self) -> WholeDiscs {
        WholeDiscs(-self.0)
    }
}

impl Neg for Discs64 {
    type Output = Discs64;
    /// The same score for the other side.
    fn neg(self) -> Discs64 {
        Discs64(-self.0)
    }
}

/// The difference of two scores, as a book's deviations measure a move's loss.
impl Sub for WholeDiscs {
    type Output = WholeDiscs;
    fn sub(self, other: WholeDiscs) -> WholeDiscs {
        WholeDiscs(self.0 - other.0)
    }
}

/// A score plus a difference of scores (a loss summed along a line).
impl Add for WholeDiscs {
    type Output = WholeDiscs;
    fn add(self, other: WholeDiscs) -> WholeDiscs {
        WholeDiscs(self.0 + other.0)
    }
}

/// A score times a sign (`-1` after a move, `1` through a pass) or a count: still discs.
impl Mul<i32> for WholeDiscs {
    type Output = WholeDiscs;
    fn mul(self, k: i32) -> WholeDiscs {
        WholeDiscs(self.0 * k)
    }
}

/// The bare number of discs, `-4`, as an `i32` prints.
impl fmt::Display for WholeDiscs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_discs_become_64ths_and_back() {
        for d in -64..=64 {
            assert_eq!(Discs64::from(WholeDiscs(d)), Discs64(d * DISC));
            assert_eq!(Discs64::from(WholeDiscs(d)).whole(), WholeDiscs(d));
            assert_eq!(Discs64::from(WholeDiscs(d)).nearest(), WholeDiscs(d));
            assert_eq!(Discs64::from(WholeDiscs(d)).discs(), f64::from(d));
        }
    }

    #[test]
    fn negative_64ths_round_toward_zero_to_whole_discs_as_the_report_does() {
        // `whole` is the report's rounding of exact scores: toward zero, as `i32` division.
        assert_eq!(Discs64(-DISC - 1).whole(), WholeDiscs(-1));
        assert_eq!(Discs64(-2 * DISC + 1).whole(), WholeDiscs(-1));
        assert_eq!(Discs64(-DISC / 2).whole(), WholeDiscs(0));
        assert_eq!(Discs64(DISC + DISC / 2).whole(), WholeDiscs(1));
        // Signs are symmetric: -x rounds to minus what x rounds to.
        for v in -10 * DISC..=10 * DISC {
            assert_eq!(Discs64(-v).whole(), -Discs64(v).whole(), "{v}");
            assert_eq!(Discs64(-v).nearest(), -Discs64(v).nearest(), "{v}");
            assert_eq!(Discs64(-v).tenths(), -Discs64(v).tenths(), "{v}");
        }
    }

    #[test]
    fn nearest_rounds_halves_away_from_zero_as_f64_round() {
        assert_eq!(Discs64(-DISC / 2).nearest(), WholeDiscs(-1));
        assert_eq!(Discs64(-DISC / 2 + 1).nearest(), WholeDiscs(0));
        assert_eq!(Discs64(DISC / 2).nearest(), WholeDiscs(1));
        assert_eq!(Discs64(-3 * DISC - DISC / 2 - 1).nearest(), WholeDiscs(-4));
        for v in -70 * DISC..=70 * DISC {
            let by_float = Discs64(v).discs().round() as i32;
            assert_eq!(Discs64(v).nearest(), WholeDiscs(by_float), "{v}");
        }
    }

    #[test]
    fn estimates_show_to_a_tenth_with_negative_halves_away_from_zero() {
        assert_eq!(Discs64(-DISC / 2).tenths(), -0.5);
        assert_eq!(Discs64(-DISC / 64).tenths(), 0.0); // -0.016 discs
        assert_eq!(Discs64(-DISC / 4).tenths(), -0.3); // -0.25 discs
        assert_eq!(Discs64(-(5 * DISC + DISC / 3)).tenths(), -5.3);
        assert_eq!(Discs64(-DISC / 4).discs(), -0.25);
    }

    #[test]
    fn negation_and_order_follow_the_numbers() {
        assert_eq!(-WholeDiscs(3), WholeDiscs(-3));
        assert_eq!(WholeDiscs(6) - WholeDiscs(-2), WholeDiscs(8));
        assert_eq!(WholeDiscs(6) + WholeDiscs(-2), WholeDiscs(4));
        assert_eq!(WholeDiscs(6) * -1, WholeDiscs(-6));
        assert_eq!(-Discs64(-5), Discs64(5));
        assert!(WholeDiscs(-2) < WholeDiscs(1));
        assert!(Discs64(-DISC) < Discs64(0));
        assert_eq!(WholeDiscs(-12).to_string(), "-12");
        assert_eq!(format!("{:>4}", WholeDiscs(6)), "   6");
    }
}
