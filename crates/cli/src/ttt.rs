//! `ply ttt` (not built yet).

use clap::Subcommand;

/// `ply ttt` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Not built yet.
    Todo,
}

pub fn run(_c: Command) -> anyhow::Result<()> {
    anyhow::bail!("ply ttt is not built yet")
}
