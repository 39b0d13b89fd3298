//! `ply judge sample`: the samples of a problem statement, input and expected output, on
//! stdout or as files in online-judge-tools' layout (`oj download` writes the same names).

use std::{fs, io::Write, path::PathBuf};

use anyhow::Context;

use super::problem;

/// `ply judge sample` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem.
    #[arg(value_name = "PROBLEM", value_parser = super::problem_names())]
    problem: String,
    /// Write DIR/sample-1.in, sample-1.out, … (oj's layout) instead of stdout.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    let p = problem(&a.problem)?;
    if let Some(dir) = &a.dir {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (i, s) in p.samples().iter().enumerate() {
            for (name, body) in s.files(i + 1) {
                ply_cli_support::files::write_whole(&dir.join(name), &[], body.as_bytes())?;
            }
        }
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    out.write_all(p.samples_text().as_bytes())?;
    out.flush()?;
    Ok(())
}
