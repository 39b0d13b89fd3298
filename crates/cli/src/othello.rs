//! `ply othello` (not built yet, but for the `solve` slot).

use clap::Subcommand;

/// `ply othello` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Exact solve of a position, a start position or an OBF file.
    Solve(crate::othello_solve::Args),
}

pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::Solve(a) => crate::othello_solve::run(a),
    }
}
