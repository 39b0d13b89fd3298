//! `ply bench ffo`: solves FFO positions #40–#59, checks every score against the file and
//! prints time, nodes and nodes/second per position and in total; with `--yardstick`, also
//! the time of a naive bitboard perft(11) before and after, and the solves' time as a
//! multiple of it (a figure that travels between machines better than seconds). The solves,
//! their checks and their rows are [`ply_othello::solve::bench`]'s.
//!
//! The positions come from `fforum-40-59.obf` in the data directory: `--data DIR`, else
//! `$PLY_DATA`, else the repository's `testdata/`, found as the first ancestor of the `ply`
//! binary or of the current directory that holds one (so `<repo>/target/release/ply` finds
//! `<repo>/testdata`).

use std::{
    io::{self, Write},
    path::PathBuf,
};

use anyhow::Context;
use ply_othello::{
    obf,
    solve::{
        bench::{self, yardstick, BenchError, Totals, YARDSTICK_DEPTH},
        SolveOptions,
    },
};

use crate::{
    error::bad,
    othello::common::{data_dir, FFO_FILE as FILE},
};

/// Arguments of `ply bench ffo`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// FFO numbers to solve, `FIRST-LAST` or one number, within 40-59.
    #[arg(long, default_value = "40-49")]
    pub range: String,
    /// Threads searching each position.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Transposition table size in megabytes, shared by the threads (each thread adds a
    /// table of its own of 1 MB; default: the solver's own, as `ply othello solve` uses it).
    // Before, 256 MB, then 64 MB: the smaller table is the faster one on this machine, as
    // more of it stays in the caches. FFO #40-#49, one thread: 64 MB 36.0-37.6 s, 256 MB
    // 38.5-39.8 s (0.617 G and 0.616 G nodes); FFO #50-#52: 70-73 s against 72-76 s. Now 16
    // MB (see `SolveOptions::default`).
    #[arg(long, default_value_t = SolveOptions::default().hash_mb, value_name = "M")]
    pub hash_mb: usize,
    /// Directory holding fforum-40-59.obf (default: $PLY_DATA, else the repository's
    /// testdata/).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Also time the yardstick, a naive bitboard perft(11) from the start (every leaf
    /// played, no table), before and after the solves, and give the solves' time as a
    /// multiple of its best run.
    #[arg(long)]
    pub yardstick: bool,
}

fn parse_range(text: &str) -> anyhow::Result<(usize, usize)> {
    let err = || {
        bad(format!(
            "--range {text}: expected FIRST-LAST within 40-59, such as 40-49"
        ))
    };
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let a: usize = a.trim().parse().map_err(|_| err())?;
    let b: usize = b.trim().parse().map_err(|_| err())?;
    if !(40..=59).contains(&a) || !(a..=59).contains(&b) {
        return Err(err());
    }
    Ok((a, b))
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let (first, last) = parse_range(&a.range)?;
    let mut solver = crate::othello::common::solver(a.threads, a.hash_mb)?;
    let path = data_dir(a.data.as_deref())?.join(FILE);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let entries = obf::parse_file(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    if entries.len() != 20 {
        return Err(bad(format!(
            "{}: expected 20 positions (#40-#59), found {}",
            path.display(),
            entries.len()
        )));
    }
    let bench_error = |e: BenchError| match e {
        BenchError::NoScores { .. } => bad(format!("{} {e}", path.display())),
        e => anyhow::Error::msg(e.to_string()),
    };
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "ffo {first}-{last}, {} thread(s), {} MB table, data {}",
        a.threads,
        a.hash_mb,
        path.display()
    )?;
    writeln!(out, "{}", bench::heading())?;
    let before = if a.yardstick {
        let t = yardstick().map_err(bench_error)?;
        writeln!(
            out,
            "yardstick: naive perft({YARDSTICK_DEPTH}) {t:.3} s (count checked)"
        )?;
        Some(t)
    } else {
        None
    };
    let mut totals = Totals::default();
    for number in first..=last {
        let row = totals
            .solve(&mut solver, number, &entries[number - 40])
            .map_err(bench_error)?;
        writeln!(out, "{row}")?;
        out.flush()?;
    }
    writeln!(out, "{}", totals.row())?;
    if let Some(before) = before {
        let after = yardstick().map_err(bench_error)?;
        let best = before.min(after);
        writeln!(
            out,
            "yardstick: naive perft({YARDSTICK_DEPTH}) {after:.3} s after; the solves took {:.2} \
             times its best run ({best:.3} s)",
            totals.seconds / best
        )?;
    }
    Ok(())
}
