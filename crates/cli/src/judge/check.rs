//! `ply judge check PROBLEM INPUT OUTPUT [ANSWER]`: a testlib-style checker.
//!
//! The arguments are testlib's (input, the contestant's output, the jury's answer), which is
//! also how `oj test --judge-command` calls a checker. Without ANSWER, ply answers INPUT
//! itself. The verdict is the exit status, with testlib's words on stderr: 0 accepted, 1 wrong
//! answer (with ply's explanation of the case), 2 presentation error (the contestant's output
//! only), 3 checker failure: a file cannot be read, ply cannot answer INPUT, or ANSWER is
//! malformed, has the wrong number of cases or contradicts ply. The library judges; this
//! reads the files.

use std::{fs, path::PathBuf, process::ExitCode};

use ply_judge::check::{check, Broken};

use super::problem;

/// `ply judge check` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem.
    #[arg(value_name = "PROBLEM", value_parser = super::problem_names())]
    problem: String,
    /// The test's input.
    #[arg(value_name = "INPUT")]
    input: PathBuf,
    /// The output to judge.
    #[arg(value_name = "OUTPUT")]
    output: PathBuf,
    /// The expected output [default: ply's answer to INPUT].
    #[arg(value_name = "ANSWER")]
    answer: Option<PathBuf>,
}

/// Prints the verdict (testlib's words) on stderr and returns its exit status.
pub fn run(a: &Args) -> ExitCode {
    match verdict(a) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("FAIL {e:#}");
            ExitCode::from(3)
        }
    }
}

/// Prints the verdict and returns its exit status, or why the checker could not give one.
fn verdict(a: &Args) -> anyhow::Result<u8> {
    let p = problem(&a.problem)?;
    let read = |path: &PathBuf| {
        fs::read(path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))
    };
    let input = read(&a.input)?;
    let answer = a.answer.as_ref().map(read).transpose()?;
    let output = read(&a.output)?;
    let checked = check(p, &input, &output, answer.as_deref()).map_err(|b| match b {
        Broken::Input(e) => anyhow::anyhow!("{}: INPUT {}: {e}", p.name(), a.input.display()),
        Broken::Answer(why) => anyhow::anyhow!(
            "{}: ANSWER {}: {why}",
            p.name(),
            a.answer
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string())
        ),
        b => anyhow::anyhow!("{}: {b}", p.name()),
    })?;
    eprintln!("{}", checked.verdict);
    if let Some(why) = checked.why {
        eprintln!("ply: {why}");
    }
    Ok(checked.verdict.exit_code())
}
