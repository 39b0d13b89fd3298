//! Stress testing: someone's program against ply's answers on generated inputs.
//!
//! Round `r` generates an input from a seed drawn from [`Options::seed`], with 1 to
//! [`Options::max_count`] cases. On the first difference the tester shrinks the input to the
//! single smallest case the program gets wrong (each case cut out as an input of its own,
//! smallest first); only if no case fails alone does it fall back to the shortest failing
//! prefix. The [`Failure`] holds that input, ply's answer, the program's, and the generator
//! arguments that write the input again ([`GenArgs`]).
//!
//! Running the program is the caller's part (a closure from input to [`Run`]): a shell
//! command with a timeout ([`crate::shell::run`], what `ply judge stress` passes), or a
//! function in a test. Outputs are compared
//! line by line, ignoring trailing whitespace on a line and blank lines at the end.

use std::{fmt, io::Write};

use ply_core::SplitMix64;

use crate::{Error, Problem};

/// What the program did with one input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// Its standard output.
    pub stdout: Vec<u8>,
    /// Its standard error.
    pub stderr: Vec<u8>,
    /// Why the run failed, if it did, in words (`exited with exit status: 3`, `ran longer
    /// than 10.0 s and was killed`).
    pub failure: Option<String>,
    /// Whether the program could not be run at all (the shell found no such command).
    pub not_found: bool,
}

/// How many rounds, from which seed, with how many cases at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Number of inputs to try.
    pub rounds: u64,
    /// Seed of the first round.
    pub seed: u64,
    /// Most cases in one input, at least 1 (a problem with one case per input always uses 1).
    pub max_count: usize,
}

/// The arguments of `ply judge gen` that write a failing input again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenArgs {
    /// The seed of the input.
    pub seed: u64,
    /// Its number of cases.
    pub count: usize,
    /// The one case (1-based) cut out of it, if the failure is a single case.
    pub case: Option<usize>,
}

impl fmt::Display for GenArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--seed {} --count {}", self.seed, self.count)?;
        if let Some(k) = self.case {
            write!(f, " --case {k}")?;
        }
        Ok(())
    }
}

/// An input the program gets wrong, shrunk, with both answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The round (1-based) that found it.
    pub round: u64,
    /// The seed of that round's input.
    pub seed: u64,
    /// The (shrunk) input.
    pub input: Vec<u8>,
    /// ply's answer to it.
    pub expected: Vec<u8>,
    /// What the program did with it.
    pub run: Run,
    /// The generator arguments that write `input` again.
    pub gen: GenArgs,
    /// ply's explanation of the first cases the program gets wrong (see
    /// [`Problem::explain`]).
    pub why: Vec<String>,
}

/// How a stress test ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The program agreed with ply on every input.
    Agreed,
    /// The program got an input wrong, or could not be run ([`Run::not_found`]; then the
    /// input is not shrunk).
    Failed(Box<Failure>),
}

/// Runs `program` on [`Options::rounds`] generated inputs and stops at the first it gets
/// wrong.
///
/// ```
/// use ply_judge::{problem, stress::{stress, Options, Outcome, Run}};
///
/// let p = problem("algospot-tictactoe")?;
/// let options = Options { rounds: 20, seed: 5, max_count: 8 };
/// // A program that answers x whenever ply answers TIE.
/// let mut buggy = |input: &[u8]| -> Result<Run, ply_judge::Error> {
///     let right = String::from_utf8(p.answer(input)?).unwrap();
///     Ok(Run { stdout: right.replace("TIE", "x").into_bytes(), ..Run::default() })
/// };
/// let Outcome::Failed(f) = stress(p, &options, &mut buggy)? else { panic!("found") };
/// assert_eq!(f.expected, b"TIE\n"); // shrunk to one case
/// assert_eq!(f.run.stdout, b"x\n");
/// assert!(f.why[0].contains(" -> TIE: ") && f.why[0].contains("draw in"), "{:?}", f.why);
/// assert_eq!(p.input(f.gen.count, f.gen.seed)?.len() > f.input.len(), f.gen.case.is_some());
/// # Ok::<(), ply_judge::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Input`] when `max_count` is 0; the error of `program`; [`Error::Internal`] if ply
/// cannot answer an input it generated.
pub fn stress(
    p: &Problem,
    options: &Options,
    program: &mut dyn FnMut(&[u8]) -> Result<Run, Error>,
) -> Result<Outcome, Error> {
    if options.max_count == 0 {
        return Err(Error::input(
            "the most cases in one input must be at least 1",
        ));
    }
    let mut seeds = SplitMix64::new(options.seed);
    for round in 1..=options.rounds {
        let seed = seeds.next_u64();
        let count = if p.one_case {
            1
        } else {
            1 + SplitMix64::new(seed).below(options.max_count)
        };
        if let Some((input, expected, run)) = attempt(p, program, count, seed)? {
            let gen = GenArgs {
                seed,
                count,
                case: None,
            };
            let first = Failure {
                round,
                seed,
                input,
                expected,
                run,
                gen,
                why: Vec::new(),
            };
            if first.run.not_found {
                return Ok(Outcome::Failed(Box::new(first)));
            }
            let mut smallest = shrink(p, program, first)?;
            smallest.why = explain_differences(p, &smallest);
            return Ok(Outcome::Failed(Box::new(smallest)));
        }
    }
    Ok(Outcome::Agreed)
}

/// The smallest input that still fails: a single case if one fails alone (smallest first),
/// else the shortest failing prefix.
fn shrink(
    p: &Problem,
    program: &mut dyn FnMut(&[u8]) -> Result<Run, Error>,
    first: Failure,
) -> Result<Failure, Error> {
    let GenArgs { seed, count, .. } = first.gen;
    let mut cases: Vec<(usize, Vec<u8>)> = p
        .cases(&first.input)
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .collect();
    if cases.len() > 1 {
        cases.sort_by_key(|(_, c)| c.len());
        for (k, case) in cases {
            if let Some((input, expected, run)) = check_input(p, program, case)? {
                let case = Some(k + 1);
                return Ok(Failure {
                    input,
                    expected,
                    run,
                    gen: GenArgs { seed, count, case },
                    ..first
                });
            }
        }
    }
    for fewer in 1..count {
        if let Some((input, expected, run)) = attempt(p, program, fewer, seed)? {
            return Ok(Failure {
                input,
                expected,
                run,
                gen: GenArgs {
                    seed,
                    count: fewer,
                    case: None,
                },
                ..first
            });
        }
    }
    Ok(first)
}

/// The most differing cases a failure explains.
const EXPLAINED: usize = 3;

/// ply's explanations of the first cases whose lines differ (every line is one case).
fn explain_differences(p: &Problem, f: &Failure) -> Vec<String> {
    let Ok(why) = p.explain(&f.input) else {
        return Vec::new();
    };
    let (want, got) = (lines(&f.expected), lines(&f.run.stdout));
    why.into_iter()
        .enumerate()
        .filter(|&(i, _)| got.get(i) != want.get(i))
        .map(|(_, w)| w)
        .take(EXPLAINED)
        .collect()
}

/// An input with ply's answer and the program's run.
type Miss = (Vec<u8>, Vec<u8>, Run);

/// One input of `count` cases from `seed`: `Some` if the program gets it wrong.
fn attempt(
    p: &Problem,
    program: &mut dyn FnMut(&[u8]) -> Result<Run, Error>,
    count: usize,
    seed: u64,
) -> Result<Option<Miss>, Error> {
    let input = p.input(count, seed)?;
    check_input(p, program, input)
}

/// `Some` if the program gets `input` wrong.
fn check_input(
    p: &Problem,
    program: &mut dyn FnMut(&[u8]) -> Result<Run, Error>,
    input: Vec<u8>,
) -> Result<Option<Miss>, Error> {
    let expected = p
        .answer(&input)
        .map_err(|e| Error::Internal(format!("{}: ply's own answer: {e}", p.name)))?;
    let run = program(&input)?;
    if run.failure.is_none() && !run.not_found && same_answers(&expected, &run.stdout) {
        Ok(None)
    } else {
        Ok(Some((input, expected, run)))
    }
}

impl Failure {
    /// Writes the report: the input, ply's answer, the program's with every differing line
    /// marked, how the program failed if it did, its stderr (the first 4 KiB), and why ply
    /// answers the differing cases as it does.
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn write_report(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "== input ({} bytes)", self.input.len())?;
        out.write_all(&self.input)?;
        ensure_newline(out, &self.input)?;
        writeln!(out, "== expected (ply)")?;
        out.write_all(&self.expected)?;
        ensure_newline(out, &self.expected)?;
        writeln!(out, "== actual (program)")?;
        write_marked(out, &self.expected, &self.run.stdout)?;
        if let Some(why) = &self.run.failure {
            writeln!(out, "== the program {why}")?;
        }
        if !self.run.stderr.is_empty() {
            writeln!(out, "== program stderr")?;
            let cut = &self.run.stderr[..self.run.stderr.len().min(4096)];
            out.write_all(cut)?;
            ensure_newline(out, cut)?;
        }
        if !self.why.is_empty() {
            writeln!(out, "== why ply answers so")?;
            for w in &self.why {
                writeln!(out, "{w}")?;
            }
        }
        Ok(())
    }

    /// How to write the input again and give it to the program `cmd` (problem `problem`):
    /// `== reproduce` and `ply judge gen PROBLEM ARGS | CMD`. Nothing when the program
    /// could not be run.
    ///
    /// # Errors
    /// A failed write.
    pub fn write_reproduce(
        &self,
        out: &mut dyn Write,
        problem: &str,
        cmd: &str,
    ) -> std::io::Result<()> {
        if self.run.not_found {
            return Ok(());
        }
        writeln!(
            out,
            "== reproduce\nply judge gen {problem} {} | {cmd}",
            self.gen
        )
    }

    /// What the failure is, in one line: the program could not be run, or its output
    /// differs from ply's in this round of `rounds`.
    #[must_use]
    pub fn verdict(&self, problem: &str, rounds: u64, cmd: &str) -> String {
        if self.run.not_found {
            format!("{problem}: the program could not be run (exit 127, command not found): {cmd}")
        } else {
            format!(
                "{problem}: round {} of {rounds}: the program's output differs from ply's (seed \
                 {})",
                self.round, self.seed
            )
        }
    }
}

/// The program's output with every line that differs from ply's marked, and the missing
/// lines named.
fn write_marked(out: &mut dyn Write, expected: &[u8], actual: &[u8]) -> std::io::Result<()> {
    let want = lines(expected);
    let got = lines(actual);
    for (i, g) in got.iter().enumerate() {
        out.write_all(g)?;
        match want.get(i) {
            Some(w) if w == g => {}
            Some(w) => write!(
                out,
                "    <-- line {}: expected `{}`",
                i + 1,
                String::from_utf8_lossy(w)
            )?,
            None => write!(out, "    <-- line {}: not expected", i + 1)?,
        }
        out.write_all(b"\n")?;
    }
    for (i, w) in want.iter().enumerate().skip(got.len()) {
        writeln!(
            out,
            "    <-- line {} missing: expected `{}`",
            i + 1,
            String::from_utf8_lossy(w)
        )?;
    }
    Ok(())
}

fn ensure_newline(out: &mut dyn Write, text: &[u8]) -> std::io::Result<()> {
    if !text.is_empty() && !text.ends_with(b"\n") {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Lines, trailing whitespace and blank lines at the end dropped.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii_end)
        .collect();
    while v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

/// Equal line by line, up to trailing whitespace on each line and blank lines at the end.
fn same_answers(expected: &[u8], actual: &[u8]) -> bool {
    lines(expected) == lines(actual)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_compare_up_to_trailing_whitespace() {
        assert!(same_answers(b"x\no\n", b"x \r\no\n\n"));
        assert!(same_answers(b"x\no\n", b"x\no"));
        assert!(!same_answers(b"x\no\n", b"x\nTIE\n"));
        assert!(!same_answers(b"x\no\n", b"x\n\no\n"));
    }

    #[test]
    fn the_verdict_and_the_reproduction_name_the_round_or_the_missing_program() {
        let mut f = Failure {
            round: 3,
            seed: 9,
            input: b"x\n".to_vec(),
            expected: b"y\n".to_vec(),
            run: Run::default(),
            gen: GenArgs {
                seed: 9,
                count: 2,
                case: Some(1),
            },
            why: Vec::new(),
        };
        let mut out = Vec::new();
        f.write_reproduce(&mut out, "boj-7682", "./a.out").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "== reproduce\nply judge gen boj-7682 --seed 9 --count 2 --case 1 | ./a.out\n"
        );
        assert_eq!(
            f.verdict("boj-7682", 10, "./a.out"),
            "boj-7682: round 3 of 10: the program's output differs from ply's (seed 9)"
        );
        f.run.not_found = true;
        let mut none = Vec::new();
        f.write_reproduce(&mut none, "boj-7682", "./a.out").unwrap();
        assert!(none.is_empty());
        assert!(f
            .verdict("boj-7682", 10, "./a.out")
            .contains("could not be run (exit 127"));
    }
}
