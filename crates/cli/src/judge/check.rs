//! `ply judge check PROBLEM INPUT OUTPUT [ANSWER]`: a testlib-style checker.
//!
//! The arguments are testlib's (input, the contestant's output, the jury's answer), which is
//! also how `oj test --judge-command` calls a checker. Without ANSWER, ply answers INPUT
//! itself. The verdict is the exit status, with a line on stderr saying why: 0 accepted,
//! 1 wrong answer, 2 presentation error, 3 checker failure (a file cannot be read, or the
//! test itself is broken). The library's `check` module judges; this reads the files.

use std::{fs, path::PathBuf, process::ExitCode};

use ply_judge::check::{judge, Verdict};

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

/// The verdict, or why the checker could not give one.
fn verdict(a: &Args) -> anyhow::Result<Verdict> {
    let p = problem(&a.problem)?;
    let read = |path: &PathBuf| {
        fs::read(path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))
    };
    let text = |path: &PathBuf, bytes: Vec<u8>| {
        String::from_utf8(bytes)
            .map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", path.display()))
    };
    let input = read(&a.input)?;
    let expected = match &a.answer {
        Some(path) => text(path, read(path)?)?,
        None => {
            let out = p
                .answer(&input)
                .map_err(|e| anyhow::anyhow!("{}: INPUT {}: {e}", p.name(), a.input.display()))?;
            String::from_utf8(out).expect("ply writes text")
        }
    };
    if let Some(path) = &a.answer {
        if let Verdict::Presentation(why) = judge(p, &expected, &expected) {
            anyhow::bail!("ANSWER {}: {why}", path.display());
        }
    }
    let output = match text(&a.output, read(&a.output)?) {
        Ok(s) => s,
        Err(e) => return Ok(Verdict::Presentation(e.to_string())),
    };
    Ok(judge(p, &expected, &output))
}

/// Prints the verdict (testlib's words) on stderr and returns its exit status.
pub fn run(a: &Args) -> ExitCode {
    match verdict(a) {
        Ok(v) => {
            match &v {
                Verdict::Accepted(n) => eprintln!("ok {n} cases"),
                Verdict::Wrong(why) => eprintln!("wrong answer {why}"),
                Verdict::Presentation(why) => eprintln!("wrong output format {why}"),
                _ => eprintln!("{v:?}"),
            }
            ExitCode::from(v.exit_code())
        }
        Err(e) => {
            eprintln!("FAIL {e:#}");
            ExitCode::from(3)
        }
    }
}
