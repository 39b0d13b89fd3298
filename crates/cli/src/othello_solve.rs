//! (not built yet)

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_a: Args) -> anyhow::Result<()> {
    anyhow::bail!("not built yet")
}
