//! The making of ply's evaluation, kept out of the runtime library: the server and the Python
//! module never compile it; the `ply` command line does, for its `train` commands.
//!
//! - [`fit`]: the fitting of the shipped weights (positions from seeded games, labels from the
//!   exact solver and fixed-depth searches, ridge regression phase by phase).
//!
//! ```
//! use ply_othello::BoardSize;
//! use ply_train::fit;
//!
//! // The positions the fitting draws from one seeded game: one per game phase.
//! let positions = fit::game_positions(BoardSize::Eight, 7);
//! assert!(positions.len() >= 8);
//! assert_eq!(positions, fit::game_positions(BoardSize::Eight, 7));
//! ```

#![deny(missing_docs)]

pub mod fit;
