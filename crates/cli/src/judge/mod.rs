//! `ply judge`: classic judge problems answered byte-exact, a generator of random valid inputs,
//! and a stress tester that runs someone's program against ply's answers.
//!
//! Every problem is the same pair of functions, a solver (`stdin` to `stdout`, streaming) and
//! a generator (`count` cases from a seed); [`PROBLEMS`] lists them. Adding a problem is one
//! module with those two functions and one line in the list.

use std::io::{self, BufRead, Write};

use anyhow::Context;
use clap::{builder::PossibleValuesParser, Subcommand};

mod algospot;
mod boj16571;
mod boj7682;
mod cells;
mod rng;
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
}

/// Every problem `ply judge` knows.
pub static PROBLEMS: [Problem; 5] = [
    Problem {
        name: "algospot-tictactoe",
        solve: algospot::solve,
        generate: algospot::generate,
        one_case: false,
    },
    Problem {
        name: "boj-7682",
        solve: boj7682::solve,
        generate: boj7682::generate,
        one_case: false,
    },
    Problem {
        name: "boj-16571",
        solve: boj16571::solve,
        generate: boj16571::generate,
        one_case: true,
    },
    Problem {
        name: "ttt-finals",
        solve: ttt_finals::solve,
        generate: ttt_finals::generate,
        one_case: false,
    },
    Problem {
        name: "swea-4615",
        solve: swea::solve,
        generate: swea::generate,
        one_case: false,
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

/// `ply judge PROBLEM`, `ply judge gen PROBLEM …` or `ply judge stress PROBLEM …`.
#[derive(clap::Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    subcommand_value_name = "gen|stress",
    override_usage = "ply judge <PROBLEM> < input > output\n       \
                      ply judge gen <PROBLEM> [--count N] [--seed S]\n       \
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
    /// Write a random valid input for PROBLEM (the same one for the same seed).
    Gen(GenArgs),
    /// Run a program on random inputs and compare its answers with ply's.
    Stress(stress::Args),
}

#[derive(clap::Args, Debug)]
struct GenArgs {
    /// The problem.
    #[arg(value_name = "PROBLEM", value_parser = problem_names())]
    problem: String,
    /// Number of cases [default: 10, or 1 for a problem whose input holds one case].
    #[arg(long, value_name = "N")]
    count: Option<usize>,
    /// Seed of the random generator.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
}

/// Runs `ply judge`.
///
/// # Errors
///
/// Bad input (exit 2) or a failure of the stress test (exit 1).
pub fn run(args: Args) -> anyhow::Result<()> {
    match (args.action, args.problem) {
        (Some(Action::Gen(g)), _) => {
            let p = problem(&g.problem)?;
            let count = g.count.unwrap_or(if p.one_case { 1 } else { 10 });
            let mut out = io::BufWriter::new(io::stdout().lock());
            (p.generate)(count, g.seed, &mut out)
                .with_context(|| format!("{}: generating an input", p.name))?;
            out.flush()?;
            Ok(())
        }
        (Some(Action::Stress(s)), _) => stress::run(s),
        (None, Some(name)) => {
            let p = problem(&name)?;
            let mut input = io::stdin().lock();
            let mut out = io::stdout().lock();
            (p.solve)(&mut input, &mut out).with_context(|| format!("{}: stdin", p.name))
        }
        (None, None) => Err(crate::error::bad("ply judge: name a problem")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn answer(p: &Problem, input: &[u8]) -> anyhow::Result<Vec<u8>> {
        let mut out = Vec::new();
        (p.solve)(&mut &input[..], &mut out)?;
        Ok(out)
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
