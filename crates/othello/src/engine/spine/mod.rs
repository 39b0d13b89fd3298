//! The parts of a search that the midgame engine ([`crate::midgame`]) and the exact solver
//! ([`crate::solve`]) share (and the analysis type the midgame engine shares with
//! [`crate::analyze`]), so that a change to one of them is made once:
//!
//! - `analysis`: the one analysis type (`Analysis`, `MoveValue`, `Engine`), which the
//!   midgame engine returns and [`crate::analyze`] completes and re-exports;
//! - `aspiration`: the root's search in a window around a guess, widened on a fail;
//! - [`clock`]: where searches read the time (a test can drive it);
//! - `geometry`: the square classes of each board size (corners, the squares beside them,
//!   quadrants) that both searches' move ordering reads;
//! - `hash`: the hash of a position both tables index by;
//! - `stop`: when a search must end (a caller's flag, a deadline, another thread's end),
//!   looked at every so many nodes;
//! - `bounds`: what a fail-soft result proves about a position, and when remembered bounds
//!   answer a search without searching (both transposition tables keep their entries in
//!   this form);
//! - `line`: the principal variation, walked along the move each search names;
//! - [`probcut`]: Multi-ProbCut's error model, one linear spread per board size, evaluation
//!   and use, and its one test at a node (`probe`);
//! - `order`: child ordering, the step the midgame engine takes at every node and the solver at
//!   every node with the table (from its `DEEP` empties; nearer the end it orders by cheaper
//!   rules of its own, in `solve::search`): the children made in one move list, rated from the
//!   same parts (a wipe-out first, the table's move next, then the opponent's replies, and
//!   whatever else the search pays for: corners, potential mobility, anchored discs, parity,
//!   the learnt evaluation of the child), then sorted at once (midgame) or picked best first
//!   (solver). Each search weighs the parts for its own costs: the midgame engine's nodes have
//!   a few plies below them, the solver's the whole rest of the game.
//!
//! The two tables themselves stay two: the solver's is shared lock-free between threads and
//! keyed by symmetry, with bounds in discs; the midgame engine's keeps one entry per slot
//! with the full position, its depth and bounds in evaluation units.

/// The most threads a search is given, the one limit every front end checks (through
/// [`crate::analyze::Request`] or [`crate::solve::SolveOptions::checked`]) and both engines
/// honour: the solver splits each search among them, the midgame engine shares out the root
/// moves (a thread beyond the last root move would have nothing to search).
pub const MAX_THREADS: usize = 256;

pub(crate) mod analysis;
pub(crate) mod aspiration;
pub(crate) mod bounds;
pub mod clock;
pub(crate) mod geometry;
pub(crate) mod hash;
pub(crate) mod line;
pub(crate) mod order;
pub mod probcut;
pub(crate) mod stop;
pub mod units;
