//! A testlib-style checker: a contestant's output judged against the expected answer.
//!
//! The verdicts are testlib's, and [`Verdict::exit_code`] gives its exit statuses:
//!
//! | exit | verdict | when |
//! |---|---|---|
//! | 0 | accepted | every answer line equals the expected one |
//! | 1 | wrong answer | the output is well formed but case K differs |
//! | 2 | presentation error | a line is not an answer of this problem, or answers are missing or extra |
//! | 3 | checker failure | the test itself is broken (see [`check`]) |
//!
//! Lines compare as the stress tester compares them: trailing whitespace on a line and blank
//! lines at the end do not count. Every problem answers one line per case, so case K is line K.

use crate::Problem;

/// A checker's verdict on a contestant's output.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// Every case is right: how many cases there are.
    Accepted(usize),
    /// The output is well formed but a case is wrong: which and why.
    Wrong(String),
    /// The output cannot be read as answers of the problem: why.
    Presentation(String),
}

impl Verdict {
    /// testlib's exit status: 0 accepted, 1 wrong answer, 2 presentation error.
    #[must_use]
    pub const fn exit_code(&self) -> u8 {
        match self {
            Verdict::Accepted(_) => 0,
            Verdict::Wrong(_) => 1,
            Verdict::Presentation(_) => 2,
        }
    }
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
///
/// ```
/// use ply_judge::{check::{judge, Verdict}, problem};
///
/// let p = problem("algospot-tictactoe")?;
/// assert_eq!(judge(p, "TIE\nx\n", "TIE \nx\n\n"), Verdict::Accepted(2));
/// assert_eq!(judge(p, "TIE\nx\n", "TIE\no\n").exit_code(), 1);
/// assert_eq!(judge(p, "TIE\nx\n", "TIE\nX\n").exit_code(), 2);
/// # Ok::<(), ply_judge::Error>(())
/// ```
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PROBLEMS;

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
