//! Classic tic-tac-toe and Othello judge problems, answered byte-exact in their own input
//! formats, and the tools competitive programmers use around them: a generator of random
//! valid inputs, a testlib-style checker, the samples of each statement, and a stress tester
//! that compares someone's program with ply's answers and explains ply's answer.
//!
//! Every problem is a [`Problem`] in [`PROBLEMS`]: a streaming solver (input to output), a
//! generator (`count` cases from a seed, reproducible with [`ply_core::SplitMix64`]), an
//! explainer (why ply answers each case as it does), a splitter of inputs into one-case
//! inputs, and its samples. The answers come from the solved tables of [`ply_tictactoe`] and
//! the rules of [`ply_othello`]; nothing here solves a game again.
//!
//! ```
//! let p = ply_judge::problem("boj-7682")?;
//! let input = b"XXXOO.XXX\nXOXOXOXOX\nend\n";
//! assert_eq!(p.answer(input)?, b"invalid\nvalid\n");
//! // Why: the reachability rule the first board breaks, why the second is final.
//! let why = p.explain(input)?;
//! assert_eq!(
//!     why[0],
//!     "case 1: XXXOO.XXX -> invalid: the board cannot occur: \
//!      X has 6 marks but O only 2: X moves first, so it is at most one ahead",
//! );
//! assert_eq!(why[1], "case 2: XOXOXOXOX -> valid: a game ends here: X has three in a row");
//! # Ok::<(), ply_judge::Error>(())
//! ```
//!
//! # Formats
//!
//! Each input is read as its statement writes it: only the problem's own cell characters
//! (`x o .` for algospot, `X O .` for BOJ 7682, `0 1 2` separated by spaces for BOJ 16571,
//! `O X -` for ttt-finals) and numbers made of an optional `-` and digits (`+3` is not a
//! number). The leniencies, on purpose: CRLF line ends, blank lines and spaces around a line
//! are accepted everywhere; swea-4615's numbers are read as whitespace-separated tokens (a
//! case may wrap across lines); algospot's case count is not capped at 50, so that a million
//! boards can be answered.
//!
//! A broken input is an [`Error::Input`] naming the case, the line and what is wrong; the
//! answers of the cases before it are written, nothing of the bad case:
//!
//! ```
//! let p = ply_judge::problem("algospot-tictactoe")?;
//! let mut out = Vec::new();
//! let err = p.solve(&mut &b"2\nxx.\noo.\n...\nxO.\n...\n...\n"[..], &mut out).unwrap_err();
//! assert_eq!(out, b"x\n");
//! assert!(err.to_string().starts_with("case 2, line 5: unknown character 'O' at column 2"));
//! # Ok::<(), ply_judge::Error>(())
//! ```

#![deny(missing_docs)]

use std::io::{BufRead, Write};

mod algospot;
pub mod bench;
mod boj16571;
mod boj7682;
mod cells;
pub mod check;
mod error;
#[cfg(unix)]
pub mod shell;
mod split;
mod stream;
pub mod stress;
mod swea;
mod ttt_finals;

pub use error::Error;

/// Reads a whole input and writes one answer line per case.
type SolveFn = fn(&mut dyn BufRead, &mut dyn Write) -> Result<(), Error>;
/// Writes a random valid input of `count` cases, reproducible from `seed`.
type GenerateFn = fn(usize, u64, &mut dyn Write) -> Result<(), Error>;
/// One explanation per case of an input, for its first cases: why ply answers as it does.
type ExplainFn = fn(&[u8], usize) -> Result<Vec<String>, Error>;
/// Cuts a valid input into one standalone input per case (`None` if it is not valid).
type SplitFn = fn(&[u8]) -> Option<Vec<Vec<u8>>>;

/// A sample of a problem statement: an input and its expected output.
#[derive(Debug)]
pub struct Sample {
    /// The input.
    pub input: &'static str,
    /// The expected output.
    pub output: &'static str,
}

impl Sample {
    /// The sample's files in online-judge-tools' layout, as `oj download` names them:
    /// `sample-N.in` and `sample-N.out` (`number` from 1) with their contents.
    #[must_use]
    pub fn files(&self, number: usize) -> [(String, &'static str); 2] {
        [
            (format!("sample-{number}.in"), self.input),
            (format!("sample-{number}.out"), self.output),
        ]
    }
}

/// A judge problem: its name, where it comes from, and what ply does with its inputs.
#[derive(Debug)]
pub struct Problem {
    name: &'static str,
    source: &'static str,
    statement: &'static str,
    solve: SolveFn,
    generate: GenerateFn,
    explain: ExplainFn,
    one_case: bool,
    split: SplitFn,
    words: &'static [&'static str],
    samples: &'static [Sample],
}

/// Every problem ply answers.
pub static PROBLEMS: [Problem; 5] = [
    Problem {
        name: "algospot-tictactoe",
        source: "algospot TICTACTOE, https://algospot.com/judge/problem/read/TICTACTOE",
        statement: "C cases, each 3 lines of x, o and . (x moves first);\n\
                    print the winner under perfect play: x, o or TIE.",
        solve: algospot::solve,
        generate: algospot::generate,
        explain: algospot::explain,
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
        source: "Baekjoon 7682, https://www.acmicpc.net/problem/7682",
        statement: "lines of 9 characters X, O and . (X moves first), then `end`;\n\
                    print valid if the board is a final position of some game, else invalid.",
        solve: boj7682::solve,
        generate: boj7682::generate,
        explain: boj7682::explain,
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
        source: "Baekjoon 16571, https://www.acmicpc.net/problem/16571",
        statement: "3 lines of 3 cells 0, 1, 2 (empty, X, O) separated by spaces; X moves first;\n\
                    print W, D or L: the result of perfect play for the side to move.",
        solve: boj16571::solve,
        generate: boj16571::generate,
        explain: boj16571::explain,
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
        source: "source unknown (no online judge found): the statement is the whole problem",
        statement: "lines of 9 characters O, X and - (O moves first);\n\
                    print `total o_wins x_wins draws`: the distinct final boards reachable.",
        solve: ttt_finals::solve,
        generate: ttt_finals::generate,
        explain: ttt_finals::explain,
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
        source: "SW Expert Academy 4615, https://swexpertacademy.com (problem 4615)",
        statement: "T cases: N M (N is 4, 6 or 8), then M moves `col row color` (1 black, 2 white);\n\
                    print `#t black white`: the discs of each colour after the moves.",
        solve: swea::solve,
        generate: swea::generate,
        explain: swea::explain,
        one_case: false,
        split: split::swea,
        words: &[],
        samples: &[Sample {
            input: "1\n4 12\n1 2 1\n1 1 2\n4 3 1\n4 4 2\n2 1 1\n4 2 2\n3 4 1\n1 3 2\n2 4 1\n1 4 2\n4 1 2\n3 1 2\n",
            output: "#1 0 16\n",
        }],
    },
];

/// Every problem in words, for a command's help: each name, its source and its two-line
/// statement, then how strictly inputs are read.
#[must_use]
pub fn catalogue() -> String {
    let mut s = String::from("Problems:\n");
    for p in &PROBLEMS {
        s.push_str(&format!("  {}: {}\n", p.name(), p.source()));
        for line in p.statement().lines() {
            s.push_str(&format!("      {line}\n"));
        }
    }
    s.push_str(
        "\nCells and numbers are read strictly as each statement writes them (a lowercase o is \
         not a BOJ 7682 cell, +3 is not a number). Lenient: CRLF line ends, blank lines and \
         spaces around a line; swea-4615's numbers may wrap across lines; algospot's C is not \
         capped at 50.",
    );
    s
}

/// The problem called `name`.
///
/// ```
/// assert_eq!(ply_judge::problem("ttt-finals")?.name(), "ttt-finals");
/// assert!(ply_judge::problem("nope").is_err());
/// # Ok::<(), ply_judge::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Input`] listing the known names.
pub fn problem(name: &str) -> Result<&'static Problem, Error> {
    PROBLEMS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PROBLEMS.iter().map(|p| p.name).collect();
        Error::input(format!(
            "unknown problem {name:?} (known: {})",
            names.join(", ")
        ))
    })
}

impl Problem {
    /// Its name on the command line (`boj-7682`).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Where the problem comes from: the judge, its number and the page of the statement.
    #[must_use]
    pub const fn source(&self) -> &'static str {
        self.source
    }

    /// The statement in two lines: the input, then the output.
    #[must_use]
    pub const fn statement(&self) -> &'static str {
        self.statement
    }

    /// The samples of the statement.
    #[must_use]
    pub const fn samples(&self) -> &'static [Sample] {
        self.samples
    }

    /// Whether an input holds exactly one case (then it is generated with `count` 1 only).
    #[must_use]
    pub const fn one_case(&self) -> bool {
        self.one_case
    }

    /// Reads a whole input from `input` and writes one answer line per case to `out`,
    /// streaming: memory stays flat whatever the length of the input.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] naming the case, the line and what is wrong; the answers of the cases
    /// before it are written, nothing of the bad case. [`Error::Io`] if reading or writing
    /// fails.
    pub fn solve(&self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), Error> {
        (self.solve)(input, out)
    }

    /// ply's answer to a whole input held in memory.
    ///
    /// # Errors
    ///
    /// As [`Problem::solve`].
    pub fn answer(&self, input: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        (self.solve)(&mut &input[..], &mut out)?;
        Ok(out)
    }

    /// Writes a random valid input of `count` cases, the same for the same `seed`.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] if the problem's inputs cannot hold `count` cases (a one-case
    /// problem asked for another count); [`Error::Io`] if writing fails.
    pub fn generate(&self, count: usize, seed: u64, out: &mut dyn Write) -> Result<(), Error> {
        (self.generate)(count, seed, out)
    }

    /// A random valid input of `count` cases, the same for the same `seed`.
    ///
    /// ```
    /// let p = ply_judge::problem("boj-7682")?;
    /// let input = p.input(5, 42)?;
    /// assert_eq!(input, p.input(5, 42)?);
    /// assert_eq!(p.answer(&input)?.iter().filter(|&&b| b == b'\n').count(), 5);
    /// # Ok::<(), ply_judge::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Problem::generate`].
    pub fn input(&self, count: usize, seed: u64) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        (self.generate)(count, seed, &mut out)?;
        Ok(out)
    }

    /// Why ply answers each case of `input` as it does, one line (or a few) per case: the
    /// board, ply's answer, and its reason: the reachability rule an impossible board breaks,
    /// the value and remoteness for the side to move, the final boards counted, the Othello
    /// board after the moves.
    ///
    /// ```
    /// let p = ply_judge::problem("algospot-tictactoe")?;
    /// let why = p.explain(b"2\nxx.\noo.\n...\n...\n...\n...\n")?;
    /// assert_eq!(why[0], "case 1: xx./oo./... -> x: x to move, win in 1 under perfect play");
    /// assert_eq!(why[1], "case 2: .../.../... -> TIE: x to move, draw in 9 under perfect play");
    /// # Ok::<(), ply_judge::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Problem::solve`].
    pub fn explain(&self, input: &[u8]) -> Result<Vec<String>, Error> {
        (self.explain)(input, usize::MAX)
    }

    /// Why ply answers case `case` (from 1) of `input` as it does (see [`Problem::explain`]);
    /// `None` if the input has fewer cases. Reads the input only as far as that case.
    ///
    /// ```
    /// let p = ply_judge::problem("ttt-finals")?;
    /// let why = p.explain_case(b"OX--X-XOO\nO-OXO-X--\n", 2)?.unwrap();
    /// assert!(why.starts_with("case 2: O-OXO-X-- -> 11 9 1 1: "), "{why}");
    /// assert_eq!(p.explain_case(b"OX--X-XOO\n", 2)?, None);
    /// # Ok::<(), ply_judge::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Problem::solve`], for the cases up to `case`.
    pub fn explain_case(&self, input: &[u8], case: usize) -> Result<Option<String>, Error> {
        let Some(index) = case.checked_sub(1) else {
            return Ok(None);
        };
        Ok((self.explain)(input, case)?.into_iter().nth(index))
    }

    /// The samples as text: for each, a line `== sample N: input`, the input, a line
    /// `== sample N: output` and the expected output.
    #[must_use]
    pub fn samples_text(&self) -> String {
        let mut s = String::new();
        for (i, sample) in self.samples.iter().enumerate() {
            let n = i + 1;
            s.push_str(&format!("== sample {n}: input\n{}", sample.input));
            s.push_str(&format!("== sample {n}: output\n{}", sample.output));
        }
        s
    }

    /// A valid input cut into one standalone input per case, in order (`None` if `input` is
    /// not in the problem's format as the generator writes it).
    #[must_use]
    pub fn cases(&self, input: &[u8]) -> Option<Vec<Vec<u8>>> {
        (self.split)(input)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn samples_are_answered_as_expected() {
        for p in &PROBLEMS {
            assert!(!p.samples.is_empty(), "{} has no sample", p.name);
            for s in p.samples {
                let out = p.answer(s.input.as_bytes()).unwrap();
                assert_eq!(String::from_utf8(out).unwrap(), s.output, "{}", p.name);
            }
        }
    }

    #[test]
    fn statements_are_two_lines() {
        for p in &PROBLEMS {
            assert_eq!(p.statement.lines().count(), 2, "{}", p.name);
            assert!(!p.source.is_empty(), "{}", p.name);
        }
    }

    #[test]
    fn inputs_split_into_cases_answered_alike() {
        for p in &PROBLEMS {
            for seed in 0..10 {
                let count = if p.one_case { 1 } else { 1 + seed as usize };
                let input = p.input(count, seed).unwrap();
                let cases = p
                    .cases(&input)
                    .unwrap_or_else(|| panic!("{} seed {seed}", p.name));
                assert_eq!(cases.len(), count, "{} seed {seed}", p.name);
                let whole = String::from_utf8(p.answer(&input).unwrap()).unwrap();
                for (k, (case, line)) in cases.iter().zip(whole.lines()).enumerate() {
                    let one = String::from_utf8(p.answer(case).unwrap()).unwrap();
                    // swea numbers its cases: every single-case input is case #1.
                    let line = line.replacen(&format!("#{}", k + 1), "#1", 1);
                    assert_eq!(one.trim_end(), line, "{} seed {seed} case {k}", p.name);
                }
            }
        }
    }

    #[test]
    fn every_case_is_explained_with_ply_s_answer() {
        for p in &PROBLEMS {
            for seed in 0..10 {
                let count = if p.one_case { 1 } else { 1 + seed as usize };
                let input = p.input(count, seed).unwrap();
                let answer = String::from_utf8(p.answer(&input).unwrap()).unwrap();
                let why = p.explain(&input).unwrap();
                assert_eq!(why.len(), count, "{} seed {seed}", p.name);
                for (k, (w, a)) in why.iter().zip(answer.lines()).enumerate() {
                    let head = format!("case {}: ", k + 1);
                    assert!(w.starts_with(&head), "{} seed {seed}: {w}", p.name);
                    assert!(
                        w.contains(&format!(" -> {a}: ")),
                        "{} seed {seed}: {w} / {a}",
                        p.name
                    );
                }
            }
        }
    }

    #[test]
    fn explanations_give_reasons_values_and_remoteness() {
        let why =
            |name: &str, input: &str| problem(name).unwrap().explain(input.as_bytes()).unwrap();
        let boj = why(
            "boj-7682",
            "XXOOOXXOX\nXO.OX...X\nX.OO..X..\nOOXXXOOXO\nend\n",
        );
        assert_eq!(
            boj[0],
            "case 1: XXOOOXXOX -> valid: a game ends here: the board is full"
        );
        assert_eq!(
            boj[1],
            "case 2: XO.OX...X -> valid: a game ends here: X has three in a row"
        );
        assert_eq!(
            boj[2],
            "case 3: X.OO..X.. -> invalid: the game is not over: X to move, win in 3 under perfect play"
        );
        assert_eq!(
            boj[3],
            "case 4: OOXXXOOXO -> invalid: the board cannot occur: \
             O has more marks than X but X moves first"
        );
        assert_eq!(
            why("boj-16571", "1 2 1\n0 0 0\n2 0 1\n")[0],
            "case 1: 1 2 1/0 0 0/2 0 1 -> L: 2 to move, loss in 2 under perfect play (1 is X, 2 is O)"
        );
        assert_eq!(
            why("ttt-finals", "OX--X-XOO\n")[0],
            "case 1: OX--X-XOO -> 4 1 2 1: O to move, draw in 3 under perfect play; 4 distinct \
             final boards reachable, 1 won by O, 2 by X, 1 drawn: \
             OXOOXXXOO OXOXXOXOO OXX-XOXOO OXXOX-XOO"
        );
        // One case is explained without reading the rest, whatever follows it.
        let algospot = problem("algospot-tictactoe").unwrap();
        let first = algospot
            .explain_case(b"3\nxx.\noo.\n...\nzzz\n", 1)
            .unwrap();
        assert_eq!(
            first.as_deref(),
            Some("case 1: xx./oo./... -> x: x to move, win in 1 under perfect play")
        );
        assert!(algospot
            .explain_case(b"3\nxx.\noo.\n...\nzzz\n", 2)
            .is_err());
        let swea = why("swea-4615", PROBLEMS[4].samples[0].input);
        assert_eq!(
            swea[0],
            "case 1: -> #1 0 16: after 12 moves the 4x4 board is (row 1 first, column 1 left; \
             1 black, 2 white, . empty):\n    2222\n    2222\n    2222\n    2222"
        );
    }

    #[test]
    fn generated_inputs_are_answered_and_reproducible() {
        for p in PROBLEMS.iter().filter(|p| p.name != "swea-4615") {
            for seed in 0..20 {
                let count = if p.one_case { 1 } else { 1 + seed as usize };
                let a = p.input(count, seed).unwrap();
                assert_eq!(a, p.input(count, seed).unwrap(), "{} seed {seed}", p.name);
                let out = p
                    .answer(&a)
                    .unwrap_or_else(|e| panic!("{} seed {seed}: {e:#}", p.name));
                let lines = out.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(lines, count, "{} seed {seed}", p.name);
            }
        }
    }

    #[test]
    fn generators_cover_the_edge_cases() {
        let text = String::from_utf8(PROBLEMS[0].input(500, 9).unwrap()).unwrap();
        let boards: Vec<String> = text
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .chunks(3)
            .map(|c| c.concat())
            .collect();
        assert!(boards.iter().any(|b| b == "........."), "the empty board");
        assert!(boards.iter().any(|b| !b.contains('.')), "a full board");
        let out = String::from_utf8(PROBLEMS[0].answer(text.as_bytes()).unwrap()).unwrap();
        for a in ["x", "o", "TIE"] {
            assert!(out.lines().any(|l| l == a), "answer {a}");
        }
        let boj = PROBLEMS[1].input(300, 4).unwrap();
        let out = String::from_utf8(PROBLEMS[1].answer(&boj).unwrap()).unwrap();
        assert!(out.lines().any(|l| l == "valid") && out.lines().any(|l| l == "invalid"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn random_bytes_never_panic_a_judge(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            for p in &PROBLEMS {
                let _ = p.answer(&bytes);
            }
        }

        #[test]
        fn random_boards_never_panic_a_judge(
            cells in prop::collection::vec(prop::sample::select(b"xoXO.-012 \n/".to_vec()), 0..60),
            count in 0u8..4,
        ) {
            for p in &PROBLEMS {
                let mut input = format!("{count}\n").into_bytes();
                input.extend_from_slice(&cells);
                let _ = p.answer(&input);
                let _ = p.answer(&cells);
            }
        }
    }

    #[test]
    fn the_catalogue_and_the_samples_text_name_every_problem_and_sample() {
        let c = catalogue();
        assert!(PROBLEMS
            .iter()
            .all(|p| c.contains(&format!("  {}: ", p.name()))));
        let p = problem("ttt-finals").unwrap();
        let text = p.samples_text();
        assert!(
            text.starts_with(
                "== sample 1: input\nOX--X-XOO\nO-OXO-X--\nO-OXO-X-X\n== sample 1: output\n4 1 2 \
                 1\n11 9 1 1\n4 2 1 1\n"
            ),
            "{text}"
        );
        let [(input, _), (output, body)] = p.samples()[0].files(1);
        assert_eq!(
            (input.as_str(), output.as_str(), body),
            (
                "sample-1.in",
                "sample-1.out",
                "4 1 2 1\n11 9 1 1\n4 2 1 1\n"
            )
        );
    }
}
