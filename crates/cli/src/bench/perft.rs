//! `ply bench perft`: 8x8 perft from the start position, one thread, no hash table; the count
//! is checked against the published figure before any time is printed.

use std::{
    io::{self, Write},
    time::Instant,
};

use ply_othello::{perft, BoardSize, Position};
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
    let want = perft::known_count(a.size, a.depth).ok_or_else(|| {
        bad(format!(
            "no published perft({}) count for {n}x{n} to check against",
            a.depth,
            n = a.size.n()
        ))
    })?;
    if a.runs == 0 {
        return Err(bad("--runs must be at least 1"));
    }
    let pos = Position::start(a.size);
    let mut times = Vec::with_capacity(a.runs);
    for run in 1..=a.runs {
        let t = Instant::now();
        let got = perft::perft(&pos, a.depth);
        let seconds = t.elapsed().as_secs_f64();
        if got != want {
            anyhow::bail!(
                "perft({}) on {n}x{n} counted {got} leaves, expected {want} (run {run})",
                a.depth,
                n = a.size.n()
            );
        }
        times.push(seconds);
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let rate = want as f64 / median.max(1e-9);
    let mut out = io::stdout().lock();
    if a.json {
        let v = json!({
            "bench": "perft",
            "size": a.size.n(),
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
            n = a.size.n()
        )?;
    }
    out.flush()?;
    Ok(())
}
