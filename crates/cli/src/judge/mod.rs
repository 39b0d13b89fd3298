//! `ply judge`: classic judge problems answered byte-exact, and the tools competitive
//! programmers use around them: a generator of random valid inputs (oj's layout with `--dir`),
//! a testlib-style checker, the samples, and a stress tester that runs someone's program
//! against ply's answers.
//!
//! Every problem is the same pair of functions, a solver (`stdin` to `stdout`, streaming) and
//! a generator (`count` cases from a seed), plus its samples, the words its answers use and a
//! splitter of inputs into cases; [`PROBLEMS`] lists them. Adding a problem is one module with
//! those functions and one entry in the list.

use std::{
    io::{self, BufRead, Write},
    process::ExitCode,
};

use anyhow::Context;
use clap::{builder::PossibleValuesParser, Subcommand};

mod algospot;
mod boj16571;
mod boj7682;
mod cells;
mod check;
mod gen;
mod rng;
mod sample;
mod split;
mod stream;
mod stress;
mod swea;
mod ttt_finals;

pub use algospot::{generate as algospot_generate, solve as algospot_solve};
pub use rng::Rng;

/// Reads a whole input and writes one answer per case.
pub type SolveFn = fn(&mut dyn BufRead, &mut dyn Write) -> anyhow::Result<()>;
/// Writes a random valid input of `count` cases, reproducible from `seed`.
pub type GenerateFn = fn(usize, u64, &mut dyn Write) -> anyhow::Result<()>;
/// Cuts a valid input into one standalone input per case (`None` if it is not valid).
pub type SplitFn = fn(&[u8]) -> Option<Vec<Vec<u8>>>;

/// A sample of a problem statement: an input and its expected output.
#[derive(Debug)]
pub struct Sample {
    /// The input.
    pub input: &'static str,
    /// The expected output.
    pub output: &'static str,
}

/// A judge problem: its name on the command line and its two functions.
#[derive(Debug)]
pub struct Problem {
    /// The name on the command line.
    pub name: &'static str,
    /// Answers an input.
    pub solve: SolveFn,
    /// Writes a random input.
    pub generate: GenerateFn,
    /// Whether an input holds exactly one case (then `gen` takes `--count 1` only).
    pub one_case: bool,
    /// Cuts an input into its cases.
    pub split: SplitFn,
    /// The words an answer line may hold besides whole numbers (and `#t` case labels).
    pub words: &'static [&'static str],
    /// The samples of the problem statement.
    pub samples: &'static [Sample],
}

/// Every problem `ply judge` knows.
pub static PROBLEMS: [Problem; 5] = [
    Problem {
        name: "algospot-tictactoe",
        solve: algospot::solve,
        generate: algospot::generate,
        one_case: false,
        split: split::algospot,
        words: &["x", "o", "TIE"],
        samples: &[Sample {
            input: "3\n...\n...\n...\nxx.\noo.\n...\nxox\noo.\nx.x\n",
            output: "TIE\nx\no\n",
        }],
    },
    Problem {
        name: "boj-7682",
        solve: boj7682::solve,
        generate: boj7682::generate,
        one_case: false,
        split: split::boj7682,
        words: &["valid", "invalid"],
        samples: &[Sample {
            input: "XXXOO.XXX\nXOXOXOXOX\nOXOXOXOXO\nXXOOOXXOX\nXO.OX...X\n.XXX.XOOO\nX.OO..X..\nOOXXXOOXO\nend\n",
            output: "invalid\nvalid\ninvalid\nvalid\nvalid\ninvalid\ninvalid\ninvalid\n",
        }],
    },
    Problem {
        name: "boj-16571",
        solve: boj16571::solve,
        generate: boj16571::generate,
        one_case: true,
        split: split::whole,
        words: &["W", "D", "L"],
        // X (1) to move completes the top row; the empty board is a draw.
        samples: &[
            Sample {
                input: "1 1 0\n2 2 0\n0 0 0\n",
                output: "W\n",
            },
            Sample {
                input: "0 0 0\n0 0 0\n0 0 0\n",
                output: "D\n",
            },
        ],
    },
    Problem {
        name: "ttt-finals",
        solve: ttt_finals::solve,
        generate: ttt_finals::generate,
        one_case: false,
        split: split::one_per_line,
        words: &[],
        samples: &[Sample {
            input: "OX--X-XOO\nO-OXO-X--\nO-OXO-X-X\n",
            output: "4 1 2 1\n11 9 1 1\n4 2 1 1\n",
        }],
    },
    Problem {
        name: "swea-4615",
        solve: swea::solve,
        generate: swea::generate,
        one_case: false,
        split: split::swea,
        words: &[],
        samples: &[Sample {
            input: "1\n4 12\n1 2 1\n1 1 2\n4 3 1\n4 4 2\n2 1 1\n4 2 2\n3 4 1\n1 3 2\n2 4 1\n1 4 2\n4 1 2\n3 1 2\n",
            output: "#1 0 16\n",
        }],
    },
];

/// The problem called `name`.
///
/// # Errors
///
/// A bad-input error listing the known names.
pub fn problem(name: &str) -> anyhow::Result<&'static Problem> {
    PROBLEMS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PROBLEMS.iter().map(|p| p.name).collect();
        crate::error::bad(format!(
            "unknown problem {name:?} (known: {})",
            names.join(", ")
        ))
    })
}

fn problem_names() -> PossibleValuesParser {
    PossibleValuesParser::new(PROBLEMS.iter().map(|p| p.name))
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
                      ply judge sample <PROBLEM>\n       \
                      ply judge stress <PROBLEM> --cmd PROGRAM [--rounds N]"
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
    /// Print the problem's samples: each input and its expected output.
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
        (Some(Action::Stress(s)), _) => stress::run(s).map(|()| ExitCode::SUCCESS),
        (None, Some(name)) => {
            let p = problem(&name)?;
            let mut input = io::stdin().lock();
            let mut out = io::stdout().lock();
            (p.solve)(&mut input, &mut out).with_context(|| format!("{}: stdin", p.name))?;
            Ok(ExitCode::SUCCESS)
        }
        (None, None) => Err(crate::error::bad("ply judge: name a problem")),
    }
}

/// ply's answer to `input`.
///
/// # Errors
/// When `input` is not a valid input of the problem.
pub fn answer(p: &Problem, input: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    (p.solve)(&mut &input[..], &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn samples_are_answered_as_expected() {
        for p in &PROBLEMS {
            assert!(!p.samples.is_empty(), "{} has no sample", p.name);
            for s in p.samples {
                let out = answer(p, s.input.as_bytes()).unwrap();
                assert_eq!(String::from_utf8(out).unwrap(), s.output, "{}", p.name);
            }
        }
    }

    #[test]
    fn inputs_split_into_cases_answered_alike() {
        for p in &PROBLEMS {
            for seed in 0..10 {
                let count = if p.one_case { 1 } else { 1 + seed as usize };
                let mut input = Vec::new();
                (p.generate)(count, seed, &mut input).unwrap();
                let cases = (p.split)(&input).unwrap_or_else(|| panic!("{} seed {seed}", p.name));
                assert_eq!(cases.len(), count, "{} seed {seed}", p.name);
                let whole = String::from_utf8(answer(p, &input).unwrap()).unwrap();
                for (k, (case, line)) in cases.iter().zip(whole.lines()).enumerate() {
                    let one = String::from_utf8(answer(p, case).unwrap()).unwrap();
                    // swea numbers its cases: every single-case input is case #1.
                    let line = line.replacen(&format!("#{}", k + 1), "#1", 1);
                    assert_eq!(one.trim_end(), line, "{} seed {seed} case {k}", p.name);
                }
            }
        }
    }

    #[test]
    fn generated_inputs_are_answered_and_reproducible() {
        for p in PROBLEMS.iter().filter(|p| p.name != "swea-4615") {
            for seed in 0..20 {
                let count = if p.one_case { 1 } else { 1 + seed as usize };
                let mut a = Vec::new();
                (p.generate)(count, seed, &mut a).unwrap();
                let mut b = Vec::new();
                (p.generate)(count, seed, &mut b).unwrap();
                assert_eq!(a, b, "{} seed {seed}", p.name);
                let out = answer(p, &a).unwrap_or_else(|e| panic!("{} seed {seed}: {e:#}", p.name));
                let lines = out.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(lines, count, "{} seed {seed}", p.name);
            }
        }
    }

    #[test]
    fn generators_cover_the_edge_cases() {
        let mut algospot = Vec::new();
        algospot::generate(500, 9, &mut algospot).unwrap();
        let text = String::from_utf8(algospot).unwrap();
        let boards: Vec<String> = text
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .chunks(3)
            .map(|c| c.concat())
            .collect();
        assert!(boards.iter().any(|b| b == "........."), "the empty board");
        assert!(boards.iter().any(|b| !b.contains('.')), "a full board");
        let out = String::from_utf8(answer(&PROBLEMS[0], text.as_bytes()).unwrap()).unwrap();
        for a in ["x", "o", "TIE"] {
            assert!(out.lines().any(|l| l == a), "answer {a}");
        }
        let mut boj = Vec::new();
        boj7682::generate(300, 4, &mut boj).unwrap();
        let out = String::from_utf8(answer(&PROBLEMS[1], &boj).unwrap()).unwrap();
        assert!(out.lines().any(|l| l == "valid") && out.lines().any(|l| l == "invalid"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn random_bytes_never_panic_an_adapter(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            for p in PROBLEMS.iter().filter(|p| p.name != "swea-4615") {
                let _ = answer(p, &bytes);
            }
        }

        #[test]
        fn random_boards_never_panic_an_adapter(
            cells in prop::collection::vec(prop::sample::select(b"xoXO.-012 \n/".to_vec()), 0..60),
            count in 0u8..4,
        ) {
            for p in PROBLEMS.iter().filter(|p| p.name != "swea-4615") {
                let mut input = format!("{count}\n").into_bytes();
                input.extend_from_slice(&cells);
                let _ = answer(p, &input);
                let _ = answer(p, &cells);
            }
        }
    }
}
