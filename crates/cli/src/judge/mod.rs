//! `ply judge`: the glue between the command line and the judge library (`ply-judge`):
//! arguments, files, processes, exit statuses. The problems, their answers, generators,
//! checker and stress tester live in the library.

use std::{
    io::{self, Write},
    process::ExitCode,
};

use clap::{builder::PossibleValuesParser, Subcommand};
use ply_judge::{Problem, PROBLEMS};

use crate::error::judge_error;

mod check;
mod gen;
mod sample;
mod stress;

/// The problem called `name`.
///
/// # Errors
///
/// A bad-input error listing the known names.
pub fn problem(name: &str) -> anyhow::Result<&'static Problem> {
    ply_judge::problem(name).map_err(judge_error)
}

fn problem_names() -> PossibleValuesParser {
    PossibleValuesParser::new(PROBLEMS.iter().map(Problem::name))
}

/// `ply judge PROBLEM` or `ply judge gen|check|sample|stress PROBLEM …`.
#[derive(clap::Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    subcommand_value_name = "gen|check|sample|stress",
    override_usage = "ply judge <PROBLEM> < input > output\n       \
                      ply judge gen <PROBLEM> [--count N] [--seed S] [--dir DIR] [--case K]\n       \
                      ply judge check <PROBLEM> <INPUT> <OUTPUT> [ANSWER]\n       \
                      ply judge sample <PROBLEM> [--dir DIR]\n       \
                      ply judge stress <PROBLEM> --cmd PROGRAM [--rounds N]",
    after_help = ply_judge::catalogue()
)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// The problem to answer: reads its input on stdin, writes the answers on stdout.
    #[arg(value_name = "PROBLEM", value_parser = problem_names(), required = true)]
    problem: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Write a random valid input for PROBLEM: a fresh one each call, or the same one for the
    /// same --seed; with --dir, oj's layout (DIR/random-000.in and ply's .out).
    Gen(gen::Args),
    /// testlib-style checker: exit 0 accepted, 1 wrong answer, 2 presentation error, 3 failure.
    Check(check::Args),
    /// Print the problem's samples: each input and its expected output; with --dir, oj's
    /// layout (DIR/sample-1.in, sample-1.out, …).
    Sample(sample::Args),
    /// Run a program on random inputs and compare its answers with ply's.
    Stress(stress::Args),
}

/// Runs `ply judge`; the exit code is the checker's verdict for `check`, else success.
///
/// # Errors
///
/// Bad input (exit 2) or a failure of the stress test (exit 1).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match (args.action, args.problem) {
        (Some(Action::Gen(g)), _) => gen::run(g).map(|()| ExitCode::SUCCESS),
        (Some(Action::Check(c)), _) => Ok(check::run(&c)),
        (Some(Action::Sample(s)), _) => sample::run(&s).map(|()| ExitCode::SUCCESS),
        (Some(Action::Stress(s)), _) => stress::run(&s).map(|()| ExitCode::SUCCESS),
        (None, Some(name)) => {
            let p = problem(&name)?;
            let mut input = io::stdin().lock();
            let mut out = io::stdout().lock();
            p.solve(&mut input, &mut out)
                .map_err(judge_error)
                .map_err(|e| e.context(format!("{}: stdin", p.name())))?;
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        (None, None) => Err(crate::error::bad("ply judge: name a problem")),
    }
}
