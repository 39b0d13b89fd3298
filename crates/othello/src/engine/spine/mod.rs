//! The parts of a search that the midgame engine ([`crate::midgame`]) and the exact solver
//! ([`crate::solve`]) share, so that a change to one of them is made once:
//!
//! - [`clock`]: where searches read the time (a test can drive it);
//! - `stop`: when a search must end (a caller's flag, a deadline, another thread's end),
//!   looked at every so many nodes;
//! - `bounds`: what a fail-soft result proves about a position, and when remembered bounds
//!   answer a search without searching (both transposition tables keep their entries in
//!   this form);
//! - [`probcut`]: Multi-ProbCut's error model, one linear spread per board size and use.
//!
//! The two tables themselves stay two: the solver's is shared lock-free between threads and
//! keyed by symmetry, with bounds in discs; the midgame engine's keeps one entry per slot
//! with the full position, its depth and bounds in evaluation units.
//!
//! Child ordering stays two as well, built from the same parts (the table's move first, the
//! opponent's replies by [`crate::moves::legal_moves`], the child's learnt evaluation by
//! playing the move on an incremental [`crate::eval::EvalState`]) but weighed for two
//! different costs. The midgame engine's nodes have a few plies below them: it keys each
//! child by one static evaluation and one disc per reply (replies alone two plies from its
//! horizon) and sorts once. The solver's nodes have the whole rest of the game below them:
//! it spends more per child (a wipe-out first, corner-weighted replies, potential mobility,
//! anchored corners, odd quadrants, and from 12 empties the evaluation searched up to six
//! plies deep), in its own units, picked best first from its move list. One key for both
//! would change the node counts of both searches, the measure every tuning of them was
//! made by.

pub(crate) mod bounds;
pub mod clock;
pub mod probcut;
pub(crate) mod stop;
