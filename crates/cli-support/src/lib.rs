//! What the `ply` binary needs beyond its flags, as ripgrep's `grep-cli` is for ripgrep: a
//! library with its own tests, so that the binary keeps flags and wiring only. It knows
//! nothing of the games.
//!
//! - [`error`]: bad input as an error type ([`BadInput`], [`bad`]), exit statuses, a closed
//!   pipe, the error line or JSON object on stderr;
//! - [`files`]: inputs read whole (a file, or stdin for `-`) with the path named in every
//!   error, and outputs written whole or not at all, never over an input;
//! - [`status`]: the line a long command redraws on a terminal's stderr;
//! - [`data`]: the folder of the test vectors (`--data`, `$PLY_DATA`, the repository's
//!   `testdata/`).

#![deny(missing_docs)]

pub mod data;
pub mod error;
pub mod files;
pub mod status;

pub use error::{bad, BadInput};
