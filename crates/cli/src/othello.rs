//! `ply othello` (not built yet).

use clap::Subcommand;

/// `ply othello` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Not built yet.
    Todo,
}

pub fn run(_c: Command) -> anyhow::Result<()> {
    anyhow::bail!("ply othello is not built yet")
}
