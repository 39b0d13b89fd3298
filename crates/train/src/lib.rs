//! The making of ply's evaluation, kept out of the runtime library: the server and the Python
//! module never compile it; the `ply` command line does, for its `train` commands.
//!
//! - [`selfplay`]: seeded self-play games (random opening, the midgame engine, a perfect end);
//! - [`recipe`]: how a set of such games is played ([`recipe::Params`]), checked, and the
//!   fingerprint of the engine that plays it;
//! - [`games`]: the compact file of such games (a few bytes a position, a versioned header
//!   holding the recipe, a checksum per record) and the reader of its labelled positions;
//! - [`error`]: the one error of those files and of what writes and reads them;
//! - [`datagen`]: writing those files, sharded and resumable, and merging the shards;
//! - [`learn`]: the fitting of the shipped 8x8 weights to the positions of such files, each
//!   labelled with its game's final score;
//! - [`fit`]: the fitting of the 6x6 weights (positions from seeded games, labels from the
//!   exact solver and fixed-depth searches, ridge regression phase by phase), with
//!   [`cache`], the exact labels it solved kept in a file between runs;
//! - [`tables`]: the positions as plain arrays for a training script, and its fitted
//!   table back into weights;
//! - [`duel`]: two sets of weights against each other at a fixed depth;
//! - [`measure`]: the evaluation's error against known scores, and the engine's judgement
//!   within a budget (`ply bench eval`);
//! - [`ridge`]: the regression both fits share (weight indices, conjugate gradients, the
//!   fitted table); the fit's games and labels run on ply-core's one parallel map,
//!   `ply_core::par_map`.
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

pub mod cache;
pub mod crc32;
pub mod datagen;
pub mod duel;
pub mod error;
pub mod fit;
pub mod games;
pub mod learn;
pub mod measure;
pub mod net;
pub mod recipe;
pub mod ridge;
pub mod selfplay;
pub mod summary;
pub mod tables;
pub mod testset;
