//! `ply judge check PROBLEM INPUT OUTPUT [ANSWER]`: a testlib-style checker.
//!
//! The arguments are testlib's (input, the contestant's output, the jury's answer), which is
//! also how `oj test --judge-command` calls a checker. Without ANSWER, ply answers INPUT
//! itself. The verdict is the exit status, with a line on stderr saying why:
//!
//! | exit | verdict | when |
//! |---|---|---|
//! | 0 | accepted | every answer line equals the expected one |
//! | 1 | wrong answer | the output is well formed but case K differs |
//! | 2 | presentation error | a line is not an answer of this problem, or answers are missing or extra |
//! | 3 | checker failure | INPUT, ANSWER or a file cannot be read, or ply cannot answer INPUT |
//!
//! Lines compare as the stress tester compares them: trailing whitespace on a line and blank
//! lines at the end do not count. Every problem answers one line per case, so case K is line K.

use std::{fs, path::PathBuf, process::ExitCode};

use super::{answer, problem, Problem};

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

/// A checker's verdict.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exit 0.
    Accepted(usize),
    /// Exit 1: the case (1-based) and why.
    Wrong(String),
    /// Exit 2: why the output cannot be read.
    Presentation(String),
}

/// The answer lines, trailing whitespace and blank lines at the end dropped.
fn lines(text: &str) -> Vec<&str> {
    let mut v: Vec<&str> = text.lines().map(str::trim_end).collect();
    while v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

/// Whether `token` is the kind of token `expected` is: one of the problem's words, a `#t`
/// label, or a whole number.
fn well_formed(p: &Problem, expected: &str, token: &str) -> bool {
    let number = |t: &str| !t.is_empty() && t.parse::<i64>().is_ok();
    if p.words.contains(&expected) {
        p.words.contains(&token)
    } else if let Some(label) = expected.strip_prefix('#') {
        number(label) && token.strip_prefix('#').is_some_and(number)
    } else {
        number(token)
    }
}

/// Judges `output` against `expected`, both answers of `p`.
#[must_use]
pub fn judge(p: &Problem, expected: &str, output: &str) -> Verdict {
    let (want, got) = (lines(expected), lines(output));
    for (k, (w, g)) in want.iter().zip(&got).enumerate() {
        let case = k + 1;
        let (wt, gt): (Vec<&str>, Vec<&str>) = (
            w.split_whitespace().collect(),
            g.split_whitespace().collect(),
        );
        let shaped = gt.len() == wt.len() && wt.iter().zip(&gt).all(|(w, t)| well_formed(p, w, t));
        if !shaped || g.starts_with(' ') {
            return Verdict::Presentation(format!(
                "case {case} (line {case}): `{g}` is not an answer like `{w}`"
            ));
        }
    }
    if got.len() != want.len() {
        return Verdict::Presentation(format!(
            "{} answer lines, expected {} (one per case)",
            got.len(),
            want.len()
        ));
    }
    for (k, (w, g)) in want.iter().zip(&got).enumerate() {
        if w != g {
            let case = k + 1;
            return Verdict::Wrong(format!(
                "case {case} (line {case}): expected `{w}`, found `{g}`"
            ));
        }
    }
    Verdict::Accepted(want.len())
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
            let out = answer(p, &input)
                .map_err(|e| anyhow::anyhow!("{}: INPUT {}: {e:#}", p.name, a.input.display()))?;
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
        Ok(Verdict::Accepted(n)) => {
            eprintln!("ok {n} cases");
            ExitCode::SUCCESS
        }
        Ok(Verdict::Wrong(why)) => {
            eprintln!("wrong answer {why}");
            ExitCode::from(1)
        }
        Ok(Verdict::Presentation(why)) => {
            eprintln!("wrong output format {why}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("FAIL {e:#}");
            ExitCode::from(3)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::PROBLEMS;

    #[test]
    fn verdicts() {
        let algospot = &PROBLEMS[0];
        assert_eq!(
            judge(algospot, "TIE\nx\n", "TIE \nx\n\n"),
            Verdict::Accepted(2)
        );
        assert!(
            matches!(judge(algospot, "TIE\nx\n", "TIE\no\n"), Verdict::Wrong(w) if w.contains("case 2"))
        );
        assert!(matches!(
            judge(algospot, "TIE\nx\n", "TIE\n"),
            Verdict::Presentation(_)
        ));
        assert!(matches!(
            judge(algospot, "TIE\nx\n", "TIE\nX\n"),
            Verdict::Presentation(_)
        ));
        let swea = &PROBLEMS[4];
        assert_eq!(judge(swea, "#1 0 16\n", "#1 0 16\n"), Verdict::Accepted(1));
        assert!(matches!(
            judge(swea, "#1 0 16\n", "#1 16 0\n"),
            Verdict::Wrong(_)
        ));
        assert!(matches!(
            judge(swea, "#1 0 16\n", "#1 0\n"),
            Verdict::Presentation(_)
        ));
    }
}
