//! Scores with their units. The solver and the books score in whole discs (a final disc
//! difference is a whole number); the evaluation, the midgame engine and the analysis in
//! 64ths of a disc ([`DISC`] of them to a disc), so that an estimate keeps its fraction. A
//! bare `i32` score says its unit in the docs of the field that holds it; where one unit
//! becomes the other, it goes through these types, and only here is [`DISC`] multiplied or
//! divided by.
//!
//! ```
//! use ply_othello::analyze::{Discs64, WholeDiscs, DISC};
//! assert_eq!(Discs64::from(WholeDiscs(-3)), Discs64(-3 * DISC));
//! assert_eq!(Discs64(5 * DISC + DISC / 3).tenths(), 5.3);
//! assert_eq!(Discs64(-10 * DISC).whole(), WholeDiscs(-10));
//! ```

/// One disc of score in 64ths: the evaluation's unit ([`crate::eval::UNIT`]), which the
/// midgame engine and the analysis score in. The one definition; `midgame::DISC` and
/// `analyze::DISC` name it.
pub const DISC: i32 = crate::eval::UNIT;

/// A score in whole discs: the solver's and the books'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WholeDiscs(pub i32);

/// A score in 64ths of a disc ([`DISC`] to a disc): the midgame engine's and the analysis's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Discs64(pub i32);

impl From<WholeDiscs> for Discs64 {
    fn from(d: WholeDiscs) -> Discs64 {
        Discs64(d.0 * DISC)
    }
}

impl Discs64 {
    /// The score in discs, with its fraction.
    #[must_use]
    pub fn discs(self) -> f64 {
        f64::from(self.0) / f64::from(DISC)
    }

    /// The score in discs rounded to a tenth: how an estimate is shown.
    #[must_use]
    pub fn tenths(self) -> f64 {
        (self.discs() * 10.0).round() / 10.0
    }

    /// The whole discs of an exact score (which has no fraction), rounded toward zero.
    #[must_use]
    pub fn whole(self) -> WholeDiscs {
        WholeDiscs(self.0 / DISC)
    }
}
