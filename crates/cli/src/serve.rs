//! `ply serve` (not built yet).

/// `ply serve` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_a: Args) -> anyhow::Result<()> {
    anyhow::bail!("ply serve is not built yet")
}
