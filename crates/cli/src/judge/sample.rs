//! `ply judge sample`: the samples of a problem statement, input and expected output.

use std::io::Write;

use super::problem;

/// `ply judge sample` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem.
    #[arg(value_name = "PROBLEM", value_parser = super::problem_names())]
    problem: String,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    let p = problem(&a.problem)?;
    let mut out = std::io::stdout().lock();
    for (i, s) in p.samples().iter().enumerate() {
        let n = i + 1;
        writeln!(out, "== sample {n}: input")?;
        out.write_all(s.input.as_bytes())?;
        writeln!(out, "== sample {n}: output")?;
        out.write_all(s.output.as_bytes())?;
    }
    out.flush()?;
    Ok(())
}
