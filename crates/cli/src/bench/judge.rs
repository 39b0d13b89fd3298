//! `ply bench judge`: judge throughput, boards answered per second by the
//! `algospot-tictactoe` path on a generated input held in memory.
//!
//! The answers are checked first: every answer line is counted, and a sample of the boards is
//! solved again by ply-core's generic memoised solver (no table involved) and compared.

use std::time::Instant;

use anyhow::{bail, ensure};
use ply_core::{Outcome, Solver};
use ply_tictactoe::{Mark, Position};

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
    let algospot = ply_judge::problem("algospot-tictactoe").map_err(judge_error)?;
    let input = algospot.input(a.boards, a.seed).map_err(judge_error)?;
    let mut output = Vec::with_capacity(a.boards * 4);
    let cold = Instant::now();
    algospot
        .solve(&mut &input[..], &mut output)
        .map_err(judge_error)?;
    let cold = cold.elapsed();
    check_answers(&input, &output, a.boards, a.sample)?;

    let mut times = Vec::with_capacity(a.runs);
    for _ in 0..a.runs {
        let mut again = Vec::with_capacity(output.len());
        let t = Instant::now();
        algospot
            .solve(&mut &input[..], &mut again)
            .map_err(judge_error)?;
        times.push(t.elapsed());
        ensure!(again == output, "a timed run answered differently");
    }
    times.sort();
    let median = times[times.len() / 2];
    let secs = median.as_secs_f64();
    println!(
        "judge algospot-tictactoe: {} boards ({:.1} MB) in {:.4} s median of {} runs \
         (min {:.4} s, first run with table build {:.4} s): {:.1} M boards/s, {:.0} MB/s",
        a.boards,
        input.len() as f64 / 1e6,
        secs,
        a.runs,
        times[0].as_secs_f64(),
        cold.as_secs_f64(),
        a.boards as f64 / secs / 1e6,
        input.len() as f64 / secs / 1e6,
    );
    Ok(())
}

/// Every board answered, and an evenly spread sample equal to the generic solver's answer.
fn check_answers(input: &[u8], output: &[u8], boards: usize, sample: usize) -> anyhow::Result<()> {
    let text = std::str::from_utf8(input)?;
    let rows: Vec<&str> = text.lines().skip(1).collect();
    let answers: Vec<&str> = std::str::from_utf8(output)?.lines().collect();
    ensure!(
        answers.len() == boards && rows.len() == 3 * boards,
        "expected {boards} answers, got {}",
        answers.len()
    );
    let mut solver = Solver::new();
    let step = (boards / sample.max(1)).max(1);
    for case in (0..boards).step_by(step) {
        let board = rows[3 * case..3 * case + 3].concat().parse()?;
        let pos = Position::new(board, Mark::X)?;
        let v = solver.solve(&pos);
        let want = match (v.outcome, pos.to_move()) {
            (Outcome::Draw, _) => "TIE",
            (Outcome::Win, Mark::X) | (Outcome::Loss, Mark::O) => "x",
            _ => "o",
        };
        if answers[case] != want {
            bail!(
                "case {}: the judge answered {} but the generic solver says {want}",
                case + 1,
                answers[case]
            );
        }
    }
    Ok(())
}
