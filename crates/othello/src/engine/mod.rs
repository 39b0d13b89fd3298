//! Playing well: the learnt evaluation ([`eval`]), the parts both searches share ([`spine`]),
//! the midgame engine ([`midgame`]), the exact solver ([`solve`]), the opening books ([`book`]),
//! the one entry point every front end calls ([`analyze`]), the opening explorer over game
//! databases ([`explore`]), the names of the standard openings ([`opening`]), the player every protocol
//! front end drives ([`play`]: a game, its clock, pondering), the review of a
//! game's moves ([`review`]), the results files of batch solves (`results`, with the `serde`
//! feature), and the memory hints of the two transposition tables (`memory`).
//!
//! The engine builds on the rules (and reads its data files through the formats' `binfile`);
//! neither the rules nor the formats know it exists.

pub mod analyze;
pub mod book;
pub mod eval;
pub mod explore;
pub(crate) mod memory;
pub mod midgame;
pub mod opening;
pub mod play;
#[cfg(feature = "serde")]
pub mod results;
pub mod review;
pub mod solve;
pub mod spine;
