//! `ply judge` (not built yet).

/// `ply judge` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_a: Args) -> anyhow::Result<()> {
    anyhow::bail!("ply judge is not built yet")
}
