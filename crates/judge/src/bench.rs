//! Judge throughput (`ply bench judge`): boards answered per second by the
//! `algospot-tictactoe` path on a generated input held in memory. The answers are checked
//! before any time is taken: every answer line is counted, and an evenly spread sample of
//! the boards is solved again by ply-core's generic memoised solver (no table involved) and
//! compared.

use std::{
    fmt,
    time::{Duration, Instant},
};

use ply_core::{Outcome, Solver};
use ply_tictactoe::{Mark, Position};

use crate::{problem, Error};

/// Why the benchmark gave no figure: the judge failed, or it answered wrongly (a bug).
#[derive(Debug)]
pub enum BenchError {
    /// The judge could not generate or answer.
    Judge(Error),
    /// An answer is wrong or missing, or a timed run answered differently.
    Wrong(String),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Judge(e) => e.fmt(f),
            BenchError::Wrong(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for BenchError {}

impl From<Error> for BenchError {
    fn from(e: Error) -> BenchError {
        BenchError::Judge(e)
    }
}

/// What the benchmark measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Throughput {
    /// Boards in the input.
    pub boards: usize,
    /// Bytes of the input.
    pub bytes: usize,
    /// Timed runs.
    pub runs: usize,
    /// The first run's time, the table's build included.
    pub cold: Duration,
    /// The timed runs' times, sorted.
    pub times: Vec<Duration>,
}

impl Throughput {
    /// The median of the timed runs.
    #[must_use]
    pub fn median(&self) -> Duration {
        self.times[self.times.len() / 2]
    }

    /// The report's line: boards, megabytes, the median, the fastest and the first run,
    /// boards and megabytes a second.
    #[must_use]
    pub fn line(&self) -> String {
        let secs = self.median().as_secs_f64();
        format!(
            "judge algospot-tictactoe: {} boards ({:.1} MB) in {:.4} s median of {} runs \
             (min {:.4} s, first run with table build {:.4} s): {:.1} M boards/s, {:.0} MB/s",
            self.boards,
            self.bytes as f64 / 1e6,
            secs,
            self.runs,
            self.times[0].as_secs_f64(),
            self.cold.as_secs_f64(),
            self.boards as f64 / secs / 1e6,
            self.bytes as f64 / secs / 1e6,
        )
    }
}

/// Answers `boards` generated boards (seed `seed`) once, checks the answers (`sample` of
/// them against the generic solver), then times `runs` more runs, each of which must answer
/// the same.
///
/// # Errors
/// No boards or no runs (bad input); a judge failure; a wrong answer.
pub fn throughput(
    boards: usize,
    runs: usize,
    seed: u64,
    sample: usize,
) -> Result<Throughput, BenchError> {
    if boards == 0 || runs == 0 {
        return Err(Error::input("boards and runs must be at least 1").into());
    }
    let algospot = problem("algospot-tictactoe")?;
    let input = algospot.input(boards, seed)?;
    let mut output = Vec::with_capacity(boards * 4);
    let cold = Instant::now();
    algospot.solve(&mut &input[..], &mut output)?;
    let cold = cold.elapsed();
    check_answers(&input, &output, boards, sample)?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let mut again = Vec::with_capacity(output.len());
        let t = Instant::now();
        algospot.solve(&mut &input[..], &mut again)?;
        times.push(t.elapsed());
        if again != output {
            return Err(BenchError::Wrong("a timed run answered differently".into()));
        }
    }
    times.sort();
    Ok(Throughput {
        boards,
        bytes: input.len(),
        runs,
        cold,
        times,
    })
}

/// Every board answered, and an evenly spread sample equal to the generic solver's answer.
fn check_answers(
    input: &[u8],
    output: &[u8],
    boards: usize,
    sample: usize,
) -> Result<(), BenchError> {
    let wrong = |e: &dyn fmt::Display| BenchError::Wrong(e.to_string());
    let text = std::str::from_utf8(input).map_err(|e| wrong(&e))?;
    let rows: Vec<&str> = text.lines().skip(1).collect();
    let answers: Vec<&str> = std::str::from_utf8(output)
        .map_err(|e| wrong(&e))?
        .lines()
        .collect();
    if answers.len() != boards || rows.len() != 3 * boards {
        return Err(BenchError::Wrong(format!(
            "expected {boards} answers, got {}",
            answers.len()
        )));
    }
    let mut solver = Solver::new();
    let step = (boards / sample.max(1)).max(1);
    for case in (0..boards).step_by(step) {
        let board = rows[3 * case..3 * case + 3]
            .concat()
            .parse()
            .map_err(|e| wrong(&e))?;
        let pos = Position::new(board, Mark::X).map_err(|e| wrong(&e))?;
        let v = solver.solve(&pos);
        let want = match (v.outcome, pos.to_move()) {
            (Outcome::Draw, _) => "TIE",
            (Outcome::Win, Mark::X) | (Outcome::Loss, Mark::O) => "x",
            _ => "o",
        };
        if answers[case] != want {
            return Err(BenchError::Wrong(format!(
                "case {}: the judge answered {} but the generic solver says {want}",
                case + 1,
                answers[case]
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_run_is_checked_and_timed() {
        let t = throughput(50, 3, 7, 10).unwrap();
        assert_eq!((t.boards, t.runs, t.times.len()), (50, 3, 3));
        assert!(t.times.windows(2).all(|w| w[0] <= w[1]));
        assert!(t
            .line()
            .starts_with("judge algospot-tictactoe: 50 boards ("));
    }

    #[test]
    fn a_wrong_answer_is_named_by_its_case() {
        let input = b"2\nxx.\noo.\n...\n...\n...\n...\n";
        let e = check_answers(input, b"x\no\n", 2, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "case 2: the judge answered o but the generic solver says TIE"
        );
        let short = check_answers(input, b"x\n", 2, 2).unwrap_err();
        assert_eq!(short.to_string(), "expected 2 answers, got 1");
    }

    #[test]
    fn no_boards_is_bad_input() {
        assert!(matches!(
            throughput(0, 1, 1, 1),
            Err(BenchError::Judge(Error::Input(_)))
        ));
    }
}
