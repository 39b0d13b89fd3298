//! Othello engines behind one interface, the protocols they speak, and one match runner.
//!
//! The player itself (its game, clock and pondering) is `ply_othello::play`; this crate
//! puts it and other programs behind the protocols: the GTP and NBoard sessions that the
//! `ply gtp` and `ply nboard` commands run over standard input and output, the clients that
//! drive another program (or ply's HTTP API) as an engine, and the match runner that plays
//! engines against each other. It knows nothing of command lines.
//!
//! - [`engine`]: the one [`Engine`] interface, its [`Limit`], [`Answer`] and [`EngineError`];
//! - [`PlyEngine`] (ply in this process, over `ply_othello::play::Player`),
//!   [`GtpEngine`] and [`NboardEngine`] (programs run as child processes, through
//!   [`process`]), [`ApiEngine`] (a `ply serve`);
//! - [`matches`]: the one match runner (openings, both colours, clocks, each side's time,
//!   games as records) and [`proven`], the consistency check of proven values along a game
//!   (and the report of a self-play run by it); [`tally`], a match's figures and the lines
//!   that report them;
//! - [`xot`]: the one reader of opening lists;
//! - [`gtp`] and [`nboard`]: ply as the engine a GUI drives (each protocol's parser, answers
//!   and session over `ply_othello::play::Player`, run over any reader and writer).

#![deny(missing_docs)]

pub mod engine;
pub mod gtp;
pub mod gtp_client;
pub mod http_client;
pub mod matches;
pub mod nboard;
pub mod nboard_client;
pub mod ply_engine;
pub mod process;
pub mod proven;
pub mod tally;
pub mod xot;

#[cfg(test)]
mod damage;

pub use engine::{Answer, Engine, EngineError, Fault, Info, Limit};
pub use gtp_client::GtpEngine;
pub use http_client::ApiEngine;
pub use nboard_client::NboardEngine;
pub use ply_engine::PlyEngine;
