//! `ply judge swea-4615` (not built yet): the two entry points the judge framework calls.

use std::io::{BufRead, Write};

/// Reads the whole input and writes one answer line per case.
pub fn solve(_input: &mut dyn BufRead, _out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::bail!("swea-4615 is not built yet")
}

/// Writes a random valid input of `count` cases, reproducible from `seed`.
pub fn generate(_count: usize, _seed: u64, _out: &mut dyn Write) -> anyhow::Result<()> {
    anyhow::bail!("swea-4615 is not built yet")
}
