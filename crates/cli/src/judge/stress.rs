//! `ply judge stress`: someone's program against ply's answers on generated inputs. The
//! library's stress tester does the rounds and the shrinking, and its `shell` runs the
//! program (`sh -c`, in its own process group, killed after `--timeout`); this reads the
//! flags and prints the report.

use std::{io::Write, time::Duration};

use anyhow::bail;
use ply_judge::stress::{stress, Options, Outcome};

use super::problem;
use crate::error::{bad, judge_error};

/// `ply judge stress` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem.
    #[arg(value_name = "PROBLEM", value_parser = super::problem_names())]
    problem: String,
    /// The program to test, run with `sh -c`; it reads the input on stdin.
    #[arg(long, value_name = "PROGRAM")]
    cmd: String,
    /// Number of inputs to try.
    #[arg(long, value_name = "N", default_value_t = 100)]
    rounds: u64,
    /// Seed of the first round.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Most cases in one input (problems with one case per input always use 1).
    #[arg(long, value_name = "N", default_value_t = 8)]
    max_count: usize,
    /// Seconds the program may run on one input.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 10.0,
        allow_negative_numbers = true
    )]
    timeout: f64,
}

/// Runs the stress test; prints a report and fails on the first difference.
///
/// # Errors
///
/// Bad arguments (exit 2), a difference or a failing program (exit 1).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let p = problem(&args.problem)?;
    if args.max_count == 0 {
        return Err(bad("--max-count must be at least 1"));
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err(bad("--timeout must be a positive number of seconds"));
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    let options = Options {
        rounds: args.rounds,
        seed: args.seed,
        max_count: args.max_count,
    };
    let mut program = |input: &[u8]| ply_judge::shell::run(&args.cmd, input, timeout);
    let failure = match stress(p, &options, &mut program).map_err(judge_error)? {
        Outcome::Failed(f) => f,
        _ => {
            println!(
                "{}: {} rounds, the program agreed with ply on every input",
                p.name(),
                args.rounds
            );
            return Ok(());
        }
    };
    let mut out = std::io::stdout().lock();
    failure.write_report(&mut out)?;
    failure.write_reproduce(&mut out, p.name(), &args.cmd)?;
    out.flush()?;
    bail!("{}", failure.verdict(p.name(), args.rounds, &args.cmd));
}
