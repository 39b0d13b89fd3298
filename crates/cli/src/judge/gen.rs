//! `ply judge gen`: random valid inputs, on stdout or in online-judge-tools' layout.
//!
//! Without `--seed` every call draws a fresh seed (clock and process id), so `oj
//! generate-input "ply judge gen boj-7682"`, which runs the generator with no arguments, gets
//! a new input each time. With `--dir DIR`, `--count N` is the number of test files: `DIR/
//! random-000.in` … with ply's answers beside them as `.out`, the layout `oj test` reads.

use std::{
    fs,
    io::{self, Write},
    path::PathBuf,
};

use anyhow::Context;
use ply_core::SplitMix64;

use super::problem;
use crate::error::{bad, judge_error};

/// `ply judge gen` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem.
    #[arg(value_name = "PROBLEM", value_parser = super::problem_names())]
    problem: String,
    /// Cases in the input [default: 10, or 1 for a problem whose input holds one case]; with
    /// --dir, the number of test files (each of the default number of cases).
    #[arg(long, value_name = "N")]
    count: Option<usize>,
    /// Seed of the random generator [default: a fresh one each call].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Write DIR/random-000.in, random-000.out, … (oj's layout) instead of stdout.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Write only case K (1-based) of the input, as an input of its own.
    #[arg(long, value_name = "K", conflicts_with = "dir")]
    case: Option<usize>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let p = problem(&a.problem)?;
    let default_count = if p.one_case() { 1 } else { 10 };
    let seed = a.seed.unwrap_or_else(SplitMix64::fresh_seed);
    if let Some(dir) = &a.dir {
        let files = a.count.unwrap_or(10);
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut seeds = SplitMix64::new(seed);
        for i in 0..files {
            let text = p
                .input(default_count, seeds.next_u64())
                .map_err(judge_error)?;
            let expected = p.answer(&text).map_err(|e| {
                anyhow::anyhow!("{}: ply's own answer to its generated input: {e}", p.name())
            })?;
            for (ext, body) in [("in", &text), ("out", &expected)] {
                let path = dir.join(format!("random-{i:03}.{ext}"));
                ply_cli_support::files::write_whole(&path, &[], body)?;
            }
        }
        return Ok(());
    }
    let count = a.count.unwrap_or(default_count);
    let mut text = p
        .input(count, seed)
        .map_err(|e| bad(format!("{}: generating an input: {e}", p.name())))?;
    if let Some(k) = a.case {
        let cases = p.cases(&text).with_context(|| {
            format!(
                "{}: the generated input does not split into cases",
                p.name()
            )
        })?;
        let n = cases.len();
        text = k
            .checked_sub(1)
            .and_then(|i| cases.into_iter().nth(i))
            .ok_or_else(|| bad(format!("--case {k}: the input has cases 1 to {n}")))?;
    }
    let mut out = io::stdout().lock();
    out.write_all(&text)?;
    out.flush()?;
    Ok(())
}
