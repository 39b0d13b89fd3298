//! `ply bench judge`: judge throughput, boards answered per second by the
//! `algospot-tictactoe` path on a generated input held in memory, the answers checked first
//! ([`ply_judge::bench`] runs and checks it; this reads the flags and prints its line).

use ply_judge::bench::{throughput, BenchError};

use crate::error::judge_error;

/// `ply bench judge` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Boards in the input.
    #[arg(long, default_value_t = 1_000_000)]
    boards: usize,
    /// Timed runs; the median is reported.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Seed of the generated input.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Boards re-solved by the generic solver to check the answers.
    #[arg(long, default_value_t = 2000)]
    sample: usize,
}

/// Runs the benchmark.
///
/// # Errors
///
/// A wrong answer, or bad arguments.
pub fn run(a: Args) -> anyhow::Result<()> {
    if a.boards == 0 || a.runs == 0 {
        return Err(crate::error::bad("--boards and --runs must be at least 1"));
    }
    let t = throughput(a.boards, a.runs, a.seed, a.sample).map_err(|e| match e {
        BenchError::Judge(e) => judge_error(e),
        BenchError::Wrong(m) => anyhow::Error::msg(m),
    })?;
    println!("{}", t.line());
    Ok(())
}
