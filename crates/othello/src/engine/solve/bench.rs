//! The exact endgame benchmark (`ply bench ffo`): FFO positions #40-#59 solved one by one,
//! every score checked against the file before its time is reported, the rows and the
//! totals in the benchmark's table; and the yardstick, a naive bitboard perft(11) from the
//! start (every leaf played, no table), whose time the solves' is given as a multiple of
//! (a figure that travels between machines better than seconds).

use std::{fmt, time::Instant};

use super::Solver;
use crate::{obf::ObfEntry, perft, BoardSize, Position};

/// Depth of the yardstick perft.
pub const YARDSTICK_DEPTH: u32 = 11;

/// Why the benchmark stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchError {
    /// The file's line scores no move (bad input).
    NoScores {
        /// The line of the file (1-based).
        line: usize,
    },
    /// The solver's score is not the file's (a bug).
    Wrong {
        /// The FFO number.
        number: usize,
        /// The score solved.
        solved: i32,
        /// The file's.
        want: i32,
    },
    /// The yardstick counted another number of leaves than the published one (a bug).
    Yardstick {
        /// Leaves counted.
        got: u64,
        /// The published count.
        want: u64,
    },
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::NoScores { line } => write!(f, "line {line}: no move scores"),
            BenchError::Wrong {
                number,
                solved,
                want,
            } => write!(
                f,
                "ffo #{number}: solved {solved:+} but the file says {want:+}"
            ),
            BenchError::Yardstick { got, want } => write!(
                f,
                "naive perft({YARDSTICK_DEPTH}) counted {got} leaves, expected {want}"
            ),
        }
    }
}

impl std::error::Error for BenchError {}

/// One run of the yardstick: its seconds, after checking its count.
///
/// # Errors
/// A count other than the published one.
pub fn yardstick() -> Result<f64, BenchError> {
    let want = perft::known_count(BoardSize::Eight, YARDSTICK_DEPTH).expect("a published count");
    let start = Instant::now();
    let got = perft::perft_naive(&Position::start(BoardSize::Eight), YARDSTICK_DEPTH);
    let seconds = start.elapsed().as_secs_f64();
    if got != want {
        return Err(BenchError::Yardstick { got, want });
    }
    Ok(seconds)
}

/// The heading of the table's rows.
#[must_use]
pub fn heading() -> String {
    format!(
        "{:>3} {:>7} {:>5} {:>4} {:>10} {:>14} {:>12}",
        "#", "empties", "score", "best", "seconds", "nodes", "nodes/s"
    )
}

/// The solves so far: their nodes and seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Nodes of every solve.
    pub nodes: u64,
    /// Their seconds.
    pub seconds: f64,
}

impl Totals {
    /// Solves FFO position `number` (`entry`, from a clear table) with `solver`, checks the
    /// score against the file's best, counts it, and returns its row.
    ///
    /// # Errors
    /// A line without scores, or a score that is not the file's.
    pub fn solve(
        &mut self,
        solver: &mut Solver,
        number: usize,
        entry: &ObfEntry,
    ) -> Result<String, BenchError> {
        let pos = entry.obf.position;
        let want = entry
            .obf
            .best_score()
            .ok_or(BenchError::NoScores { line: entry.line })?;
        solver.clear();
        let start = Instant::now();
        let r = solver.solve(&pos);
        let seconds = start.elapsed().as_secs_f64();
        if r.score.0 != want {
            return Err(BenchError::Wrong {
                number,
                solved: r.score.0,
                want,
            });
        }
        self.nodes += r.nodes;
        self.seconds += seconds;
        Ok(format!(
            "{number:>3} {:>7} {:>+5} {:>4} {seconds:>10.3} {:>14} {:>12.0}",
            pos.empties().count(),
            r.score,
            r.best_move.map_or(String::from("-"), |s| s.to_string()),
            r.nodes,
            r.nodes as f64 / seconds.max(1e-9)
        ))
    }

    /// The row of every solve together, marked checked.
    #[must_use]
    pub fn row(&self) -> String {
        format!(
            "all {:>7} {:>5} {:>4} {:>10.3} {:>14} {:>12.0}",
            "",
            "ok",
            "",
            self.seconds,
            self.nodes,
            self.nodes as f64 / self.seconds.max(1e-9)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{obf, solve::SolveOptions};

    #[test]
    fn a_score_the_file_does_not_give_fails_the_bench() {
        // Black to move with one empty square, a1, whose move takes b1: +64.
        let cells = format!("-O{}", "X".repeat(62));
        let lines = format!("{cells} X; A1:+64;\n{cells} X; A1:+62;\n{cells} X;\n");
        let entries = obf::parse_file(&lines).unwrap();
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 1,
        });
        let mut totals = Totals::default();
        let row = totals.solve(&mut solver, 40, &entries[0]).unwrap();
        assert!(row.starts_with(" 40       1   +64   a1"), "{row}");
        assert_eq!(
            totals.solve(&mut solver, 41, &entries[1]),
            Err(BenchError::Wrong {
                number: 41,
                solved: 64,
                want: 62
            })
        );
        assert_eq!(
            totals.solve(&mut solver, 42, &entries[2]),
            Err(BenchError::NoScores { line: 3 })
        );
    }

    #[test]
    fn the_total_row_marks_the_scores_checked() {
        let t = Totals {
            nodes: 2000,
            seconds: 2.0,
        };
        assert_eq!(
            t.row(),
            "all            ok           2.000           2000         1000"
        );
    }
}
