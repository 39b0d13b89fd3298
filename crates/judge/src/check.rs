//! A testlib-style checker: a contestant's output judged against the expected answer.
//!
//! The verdicts are testlib's, and [`Verdict::exit_code`] gives its exit statuses:
//!
//! | exit | verdict | when |
//! |---|---|---|
//! | 0 | accepted | every answer line equals the expected one |
//! | 1 | wrong answer | the output is well formed but case K differs |
//! | 2 | presentation error | a line is not an answer of this problem, or answers are missing or extra |
//! | 3 | checker failure | the test itself is broken: ply cannot answer the input, or the expected answer is malformed, has the wrong number of cases or contradicts ply ([`Broken`]) |
//!
//! Lines compare as the stress tester compares them: trailing whitespace on a line and blank
//! lines at the end do not count. Every problem answers one line per case, so case K is line K.
//! A number is an optional `-` and digits (`+4` is not a number, so it is a presentation
//! error, not a wrong answer).

use std::fmt;

use crate::{stream::integer, Error, Problem};

/// A checker's verdict on a contestant's output.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// Every case is right: how many cases there are.
    Accepted(usize),
    /// The output is well formed but a case is wrong.
    Wrong {
        /// The case, from 1 (and its line).
        case: usize,
        /// The expected answer line.
        expected: String,
        /// The line found.
        found: String,
    },
    /// The output cannot be read as answers of the problem: why.
    Presentation(String),
}

impl Verdict {
    /// testlib's exit status: 0 accepted, 1 wrong answer, 2 presentation error.
    #[must_use]
    pub const fn exit_code(&self) -> u8 {
        match self {
            Verdict::Accepted(_) => 0,
            Verdict::Wrong { .. } => 1,
            Verdict::Presentation(_) => 2,
        }
    }
}

impl fmt::Display for Verdict {
    /// testlib's words: `ok 4 cases`, `wrong answer case 3 (line 3): expected `invalid`,
    /// found `valid``, `wrong output format …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Accepted(n) => write!(f, "ok {n} cases"),
            Verdict::Wrong {
                case,
                expected,
                found,
            } => write!(
                f,
                "wrong answer case {case} (line {case}): expected `{expected}`, found `{found}`"
            ),
            Verdict::Presentation(why) => write!(f, "wrong output format {why}"),
        }
    }
}

/// Why a test cannot be judged (testlib's "fail", exit 3): the test is broken, not the
/// contestant's output.
#[derive(Debug)]
#[non_exhaustive]
pub enum Broken {
    /// ply cannot answer the input: the error names the case and the line.
    Input(Error),
    /// The expected answer is not text, is malformed, has the wrong number of cases, or
    /// contradicts ply's exact answer: why, naming the case.
    Answer(String),
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Broken::Input(e) => write!(f, "INPUT: {e}"),
            Broken::Answer(why) => write!(f, "ANSWER: {why}"),
        }
    }
}

impl std::error::Error for Broken {}

/// A verdict with, for a wrong answer, ply's explanation of the case (see
/// [`Problem::explain`]).
#[derive(Debug, PartialEq, Eq)]
pub struct Checked {
    /// The verdict.
    pub verdict: Verdict,
    /// Why ply answers the wrong case as it does.
    pub why: Option<String>,
}

/// Judges the contestant's `output` to `input`, against the jury's `answer` or, without one,
/// ply's own answer.
///
/// The answer is checked first, against ply's exact answer: a malformed answer, one with
/// the wrong number of cases or one that contradicts ply is a broken test (exit 3), never a
/// verdict on the contestant.
///
/// ```
/// use ply_judge::{check::{check, Verdict}, problem};
///
/// let p = problem("boj-7682")?;
/// let input = b"XXXOO.XXX\nXOXOXOXOX\nend\n";
/// let c = check(p, input, b"invalid\ninvalid\n", None).unwrap();
/// assert_eq!(c.verdict.exit_code(), 1);
/// assert_eq!(c.why.unwrap(), "case 2: XOXOXOXOX -> valid: a game ends here: X has three in a row");
/// // An answer file with a case missing is the test's fault.
/// let broken = check(p, input, b"invalid\nvalid\n", Some(b"invalid\n")).unwrap_err();
/// assert_eq!(broken.to_string(), "ANSWER: 1 answer line, expected 2 (one per case)");
/// # Ok::<(), ply_judge::Error>(())
/// ```
///
/// # Errors
///
/// [`Broken`] when the test cannot be judged.
pub fn check(
    p: &Problem,
    input: &[u8],
    output: &[u8],
    answer: Option<&[u8]>,
) -> Result<Checked, Broken> {
    let ply = p.answer(input).map_err(Broken::Input)?;
    let ply = String::from_utf8(ply).map_err(|_| Broken::Answer("ply wrote no text".into()))?;
    let expected = match answer {
        None => ply,
        Some(bytes) => {
            let text = std::str::from_utf8(bytes).map_err(|e| {
                Broken::Answer(format!("not UTF-8 text (byte {})", e.valid_up_to()))
            })?;
            match judge(p, &ply, text) {
                Verdict::Accepted(_) => text.to_string(),
                Verdict::Presentation(why) => return Err(Broken::Answer(why)),
                Verdict::Wrong {
                    case,
                    expected,
                    found,
                } => {
                    let why = explanation(p, input, case).unwrap_or_default();
                    return Err(Broken::Answer(format!(
                        "case {case} (line {case}): `{found}` contradicts ply's exact answer \
                         `{expected}` ({why})"
                    )));
                }
            }
        }
    };
    let Ok(output) = std::str::from_utf8(output) else {
        return Ok(Checked {
            verdict: Verdict::Presentation("the output is not UTF-8 text".into()),
            why: None,
        });
    };
    let verdict = judge(p, &expected, output);
    let why = match verdict {
        Verdict::Wrong { case, .. } => explanation(p, input, case),
        _ => None,
    };
    Ok(Checked { verdict, why })
}

/// ply's explanation of case `case` (from 1) of `input`.
fn explanation(p: &Problem, input: &[u8], case: usize) -> Option<String> {
    p.explain_case(input, case).ok().flatten()
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
    let number = |t: &str| integer(t).is_some();
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
        let lines = |n: usize| format!("{n} answer line{}", if n == 1 { "" } else { "s" });
        return Verdict::Presentation(format!(
            "{}, expected {} (one per case)",
            lines(got.len()),
            want.len()
        ));
    }
    for (k, (w, g)) in want.iter().zip(&got).enumerate() {
        if w != g {
            return Verdict::Wrong {
                case: k + 1,
                expected: (*w).to_string(),
                found: (*g).to_string(),
            };
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
        assert_eq!(
            judge(algospot, "TIE\nx\n", "TIE\no\n").to_string(),
            "wrong answer case 2 (line 2): expected `x`, found `o`"
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
        assert_eq!(judge(swea, "#1 0 16\n", "#1 16 0\n").exit_code(), 1);
        // Numbers are strict: `+16` is not an answer, whatever its value.
        assert_eq!(judge(swea, "#1 0 16\n", "#1 0 +16\n").exit_code(), 2);
        assert_eq!(judge(swea, "#1 0 16\n", "#+1 0 16\n").exit_code(), 2);
        assert!(matches!(
            judge(swea, "#1 0 16\n", "#1 0\n"),
            Verdict::Presentation(_)
        ));
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use crate::problem;

    const INPUT: &[u8] = b"XXXOO.XXX\nXOXOXOXOX\nOXOXOXOXO\nXXOOOXXOX\nend\n";

    fn exit(answer: &[u8]) -> Result<u8, String> {
        let p = problem("boj-7682").unwrap();
        check(p, INPUT, b"invalid\nvalid\ninvalid\nvalid\n", Some(answer))
            .map(|c| c.verdict.exit_code())
            .map_err(|b| b.to_string())
    }

    #[test]
    fn a_broken_answer_is_the_checker_s_failure() {
        assert_eq!(exit(b"invalid\nvalid\ninvalid\nvalid\n"), Ok(0));
        assert_eq!(
            exit(b"invalid\nvalid\ninvalid\n").unwrap_err(),
            "ANSWER: 3 answer lines, expected 4 (one per case)"
        );
        assert_eq!(
            exit(b"invalid\nVALID\ninvalid\nvalid\n").unwrap_err(),
            "ANSWER: case 2 (line 2): `VALID` is not an answer like `valid`"
        );
        assert!(exit(b"invalid\ninvalid\ninvalid\nvalid\n")
            .unwrap_err()
            .starts_with(
                "ANSWER: case 2 (line 2): `invalid` contradicts ply's exact answer `valid`"
            ));
        assert!(exit(b"invalid\n\xff\n").unwrap_err().contains("not UTF-8"));
        let p = problem("boj-7682").unwrap();
        let broken = check(p, b"XXQ\nend\n", b"valid\n", None).unwrap_err();
        assert!(matches!(broken, Broken::Input(Error::Input(_))), "{broken}");
    }
}
