//! `ply bench` (not built yet).

use clap::Subcommand;

/// `ply bench` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Not built yet.
    Todo,
}

pub fn run(_c: Command) -> anyhow::Result<()> {
    anyhow::bail!("ply bench is not built yet")
}
