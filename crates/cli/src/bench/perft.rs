//! `ply bench perft`: 8x8 perft from the start position, one thread, no hash table; the count
//! is checked against the published figure before any time is printed.

use std::io::{self, Write};

use ply_othello::{
    perft::{self, TimedError},
    BoardSize,
};
use serde_json::json;

use crate::error::bad;

/// `ply bench perft` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Plies to count (the count must be a known one: 1..=14 on 8x8, 1..=13 on 6x6, any on 4x4).
    #[arg(long, default_value_t = 11)]
    pub depth: u32,
    /// Board size: 4, 6 or 8.
    #[arg(long, default_value = "8")]
    pub size: BoardSize,
    /// Runs to time; the median is reported.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let n = a.size.n();
    let t = perft::timed(a.size, a.depth, a.runs).map_err(|e| match e {
        TimedError::Unknown => bad(format!(
            "no published perft({}) count for {n}x{n} to check against",
            a.depth
        )),
        TimedError::NoRuns => bad("--runs must be at least 1"),
        TimedError::Miscounted { got, want, run } => anyhow::anyhow!(
            "perft({}) on {n}x{n} counted {got} leaves, expected {want} (run {run})",
            a.depth
        ),
    })?;
    let (want, median, rate) = (t.leaves, t.median(), t.rate());
    let mut out = io::stdout().lock();
    if a.json {
        let v = json!({
            "bench": "perft",
            "size": n,
            "depth": a.depth,
            "leaves": want,
            "runs": a.runs,
            "median_seconds": median,
            "leaves_per_second": rate,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(
            out,
            "perft({}) {n}x{n}: {want} leaves (checked), median of {} run(s) {median:.3} s, {:.1} M leaves/s",
            a.depth,
            a.runs,
            rate / 1e6,
        )?;
    }
    out.flush()?;
    Ok(())
}
