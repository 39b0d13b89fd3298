//! Othello engines behind one interface, the protocols they speak, and one match runner.
//!
//! The player itself (its game, clock and pondering) is `ply_othello::play`; this crate
//! puts it and other programs behind the protocols: the GTP and NBoard sessions that the
//! `ply gtp` and `ply nboard` commands run over standard input and output, the clients that
//! drive another program (or ply's HTTP API) as an engine, and the match runner that plays
//! engines against each other. It knows nothing of command lines.

pub mod gtp;
pub mod nboard;

#[cfg(test)]
mod damage;
