//! What a front end shows of an exact solve: the result as text (one position, or a line of
//! a batch), the progress line while it runs, and which positions are out of its reach.
//! `ply othello solve` prints these; the results file's row is `results::Row::solved`.

use std::{cell::Cell, time::Instant};

use super::{Pass, Progress, SolveControl, SolveResult, Solver, Stopped};
use crate::{analyze::WholeDiscs, text, BoardSize, Position, Square};

/// The most empty squares of an 8x8 position whose exact solve can finish: the depth of the
/// 2023 weak solution of 8x8, whose positions of 36 empties were each a job of its own.
pub const REACH: u32 = 36;

/// Whether an exact solve of `pos` will not finish: an 8x8 position with more than
/// [`REACH`] empty squares (every 6x6 and 4x4 position is within reach).
#[must_use]
pub fn out_of_reach(pos: &Position) -> bool {
    pos.size() == BoardSize::Eight && pos.empties().count() > REACH
}

/// What a front end says before it solves `pos`, out of reach ([`out_of_reach`]), given as
/// `given`: that the solve will not finish, and the analysis to ask for instead.
#[must_use]
pub fn out_of_reach_warning(pos: &Position, given: &str) -> String {
    format!(
        "{} empty squares: an exact solve this far from the end will not finish (Ctrl-C \
         stops it); `ply othello analyze '{given}' --time 10` scores every move in the time \
         given, exactly where it reaches the end",
        pos.empties().count()
    )
}

/// The input lines of `positions` (a batch's, each with its line) whose solves will not
/// finish ([`out_of_reach`]).
#[must_use]
pub fn out_of_reach_lines(positions: &[(usize, Position)]) -> Vec<usize> {
    positions
        .iter()
        .filter(|(_, p)| out_of_reach(p))
        .map(|&(line, _)| line)
        .collect()
}

/// What a resumed batch says when `done` of its `total` positions are solved already.
#[must_use]
pub fn resume_note(done: usize, total: usize) -> String {
    let left = total - done;
    format!(
        "{done} of {total} already solved{}",
        if left == 0 {
            String::new()
        } else {
            format!("; solving the other {left}")
        }
    )
}

/// What a batch says of its positions out of reach (`far`, their input lines) in the input
/// `name`: how many, the first five lines, and that their solves will not finish.
#[must_use]
pub fn out_of_reach_note(name: &str, far: &[usize]) -> String {
    let lines = far
        .iter()
        .take(5)
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let more = if far.len() > 5 { ", ..." } else { "" };
    format!(
        "{name}: {} more than {REACH} empty squares (line {lines}{more}): their exact solves \
         will not finish",
        if far.len() == 1 {
            String::from("1 position has")
        } else {
            format!("{} positions have", far.len())
        }
    )
}

/// One solved position as a front end shows it: the result, every move's score when they
/// were asked for, and the time taken.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The solve's result (its nodes include those of every move's scores).
    pub result: SolveResult,
    /// The exact score of every legal move, best first, when asked for.
    pub moves: Option<Vec<(Square, WholeDiscs)>>,
    /// Seconds the solve took.
    pub seconds: f64,
}

impl Solved {
    /// Solves `pos` with `solver` (and, with `all_moves`, every move's exact score after
    /// it), telling `shown` the progress line after each of the solver's reports; the
    /// nodes of both searches are counted in the result, the time is the whole.
    ///
    /// # Errors
    /// When a search was stopped.
    pub fn solve(
        solver: &mut Solver,
        pos: &Position,
        all_moves: bool,
        shown: &mut dyn FnMut(&ProgressLine),
    ) -> Result<Solved, Stopped> {
        let start = Instant::now();
        let every_move = Cell::new(false);
        let mut latest: Option<ProgressLine> = None;
        let mut progress = |p: &Progress| {
            let line = ProgressLine::next(latest.as_ref(), p, every_move.get());
            shown(&line);
            latest = Some(line);
        };
        let control = SolveControl {
            progress: Some(&mut progress),
            ..SolveControl::default()
        };
        let mut result = solver.solve_with(pos, control)?;
        let moves = if all_moves {
            every_move.set(true);
            let control = SolveControl {
                progress: Some(&mut progress),
                ..SolveControl::default()
            };
            let (moves, nodes) = solver.solve_all_moves_with(pos, control)?;
            result.nodes += nodes;
            Some(moves)
        } else {
            None
        };
        Ok(Solved {
            result,
            moves,
            seconds: start.elapsed().as_secs_f64(),
        })
    }

    /// Nodes a second, rounded; 0 when no time was measured.
    #[must_use]
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            (self.result.nodes as f64 / self.seconds).round()
        } else {
            0.0
        }
    }

    /// The principal variation, move by move.
    #[must_use]
    pub fn pv(&self) -> Vec<String> {
        self.result.pv.iter().map(ToString::to_string).collect()
    }

    /// Every move's score, `d3:+2 c4:-4`, when they were asked for.
    fn moves_text(&self) -> Option<String> {
        self.moves.as_ref().map(|moves| {
            let list: Vec<String> = moves.iter().map(|(sq, v)| format!("{sq}:{v:+}")).collect();
            list.join(" ")
        })
    }

    /// The solve of `pos` as `ply othello solve POS` prints it: position, score, best move,
    /// line, every move's score when asked for, nodes, time and speed, a line each.
    #[must_use]
    pub fn text(&self, pos: &Position) -> String {
        let r = &self.result;
        let mut s = format!("position   {}\n", text::format_position(pos));
        s.push_str(&format!("score      {:+}\n", r.score));
        s.push_str(&format!("best move  {}\n", best_text(pos, r.best_move)));
        s.push_str(&format!("pv         {}\n", self.pv().join(" ")));
        if let Some(moves) = self.moves_text() {
            s.push_str(&format!("moves      {moves}\n"));
        }
        s.push_str(&format!("nodes      {}\n", r.nodes));
        s.push_str(&format!("time       {:.3} s\n", self.seconds));
        s.push_str(&format!("nodes/s    {:.0}\n", self.rate()));
        s
    }

    /// The solve of `pos`, input line `line` of a batch, as `ply othello solve --obf`
    /// prints it: one line, and a second with every move's score when asked for.
    #[must_use]
    pub fn batch_text(&self, pos: &Position, line: usize) -> String {
        let r = &self.result;
        let mut s = format!(
            "line {line:>3}  score {:+3}  best {:>4}  nodes {:>12}  {:>8.3} s  {:>11.0} n/s  pv {}\n",
            r.score,
            best_text(pos, r.best_move),
            r.nodes,
            self.seconds,
            self.rate(),
            self.pv().join(" ")
        );
        if let Some(moves) = self.moves_text() {
            s.push_str(&format!("          moves {moves}\n"));
        }
        s
    }
}

/// The best move as the text report shows it: the square, `pass` when the side to move
/// must pass, `none (game over)` at the end.
#[must_use]
pub fn best_text(pos: &Position, best: Option<Square>) -> String {
    match best {
        Some(sq) => sq.to_string(),
        None if pos.is_game_over() => String::from("none (game over)"),
        None => String::from("pass"),
    }
}

/// What the progress line of a solve shows: the solver's latest report, whether it comes
/// from the scores of every move, and which search window of its pass it is in.
#[derive(Clone, Debug)]
pub struct ProgressLine {
    /// The solver's latest report.
    pub progress: Progress,
    /// Whether it comes from the scores of every move.
    pub every_move: bool,
    /// The aspiration window of its pass, from 1.
    pub window: u32,
}

impl ProgressLine {
    /// The line after `last` once the solver reports `p`: a search of the same pass starting
    /// again is the next aspiration window.
    #[must_use]
    pub fn next(last: Option<&ProgressLine>, p: &Progress, every_move: bool) -> ProgressLine {
        let window = match last {
            Some(last) if p.done == 0 && last.progress.pass == p.pass => last.window + 1,
            Some(last) if last.progress.pass == p.pass => last.window,
            _ => 1,
        };
        ProgressLine {
            progress: p.clone(),
            every_move,
            window,
        }
    }

    /// The line `seconds` into the solve: which search it is in (a selective pass with its
    /// confidence, the exact search, or the exact scores of every move) and, past the first,
    /// in which aspiration window; how far that search is, its best move so far, the time.
    #[must_use]
    pub fn text(&self, seconds: f64) -> String {
        let p = &self.progress;
        let mut search = match (self.every_move, p.pass, p.pass.sigma()) {
            (true, _, _) => String::from("every move, exact"),
            (false, Pass::Selective { index, of }, Some(sigma)) => format!(
                "selective {sigma:.1}σ ~{:.0}% (pass {} of {})",
                p.pass.confidence() * 100.0,
                index + 1,
                of + 1
            ),
            _ => String::from("exact"),
        };
        if self.window > 1 && !self.every_move {
            search.push_str(&format!(", window {}", self.window));
        }
        let best = p
            .best
            .map_or(String::from("-"), |(sq, v)| format!("{sq} {v:+}"));
        format!(
            "{search}: {}/{} moves  best {best}  {seconds:.1} s",
            p.done, p.total
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(pass: Pass, every_move: bool, window: u32) -> ProgressLine {
        ProgressLine {
            progress: Progress {
                done: 4,
                total: 12,
                best: Some((Square::parse("d3").unwrap(), WholeDiscs(2))),
                nodes: 1000,
                pass,
                settled: false,
            },
            every_move,
            window,
        }
    }

    #[test]
    fn progress_names_the_pass_and_how_far_it_is() {
        let first = shown(Pass::Selective { index: 0, of: 2 }, false, 1);
        assert_eq!(
            first.text(3.25),
            "selective 1.1σ ~73% (pass 1 of 3): 4/12 moves  best d3 +2  3.2 s"
        );
        let second = shown(Pass::Selective { index: 1, of: 2 }, false, 2).text(5.0);
        assert!(
            second.starts_with("selective 2.2σ ~97% (pass 2 of 3), window 2: 4/12"),
            "{second}"
        );
        let exact = shown(Pass::Exact, false, 1).text(5.0);
        assert!(exact.starts_with("exact: 4/12 moves"), "{exact}");
        let every = shown(Pass::Exact, true, 3).text(5.0);
        assert!(every.starts_with("every move, exact: 4/12"), "{every}");
    }

    /// A search of the same pass that starts again is the next window; another pass starts
    /// at the first.
    #[test]
    fn a_restarted_pass_is_the_next_window() {
        let first = shown(Pass::Exact, false, 1);
        let mut again = first.progress.clone();
        again.done = 0;
        assert_eq!(ProgressLine::next(Some(&first), &again, false).window, 2);
        assert_eq!(
            ProgressLine::next(Some(&first), &first.progress, false).window,
            1
        );
        let other = Progress {
            pass: Pass::Selective { index: 0, of: 2 },
            ..again
        };
        assert_eq!(ProgressLine::next(Some(&first), &other, false).window, 1);
    }

    /// A solve with every move counts both searches' nodes and reports progress; the
    /// scores agree with the solver's own.
    #[test]
    fn a_solve_with_every_move_counts_both_searches() {
        let pos = Position::start(BoardSize::Four);
        let mut solver = Solver::new(crate::solve::SolveOptions::default());
        let mut lines = 0;
        let solved = Solved::solve(&mut solver, &pos, true, &mut |_| lines += 1).unwrap();
        assert!(lines > 0);
        assert_eq!(solved.result.score, WholeDiscs(-10));
        let moves = solved.moves.as_ref().unwrap();
        assert_eq!(moves.len(), 4);
        assert_eq!(moves[0].1, WholeDiscs(-10));
        let alone = Solved::solve(&mut solver, &pos, false, &mut |_| {}).unwrap();
        assert!(solved.result.nodes > alone.result.nodes);
    }

    /// The text of a game over names no move; a batch line lists every move when asked.
    #[test]
    fn the_text_names_a_pass_or_the_end_and_every_move() {
        let pos = Position::start(BoardSize::Four);
        let solved = Solved {
            result: SolveResult {
                score: WholeDiscs(-10),
                best_move: None,
                pv: Vec::new(),
                nodes: 1000,
            },
            moves: Some(vec![(Square::parse("a2").unwrap(), WholeDiscs(-10))]),
            seconds: 0.5,
        };
        let text = solved.text(&pos);
        assert!(text.contains("best move  pass\n"), "{text}");
        assert!(text.contains("moves      a2:-10\n"), "{text}");
        assert!(text.ends_with("nodes/s    2000\n"), "{text}");
        let line = solved.batch_text(&pos, 7);
        assert!(line.starts_with("line   7  score -10  best pass"), "{line}");
        assert!(line.ends_with("\n          moves a2:-10\n"), "{line}");
        assert_eq!(resume_note(3, 3), "3 of 3 already solved");
        let far = Position::start(BoardSize::Eight);
        assert!(out_of_reach_warning(&far, "x").starts_with("60 empty squares: "));
        assert_eq!(
            resume_note(1, 3),
            "1 of 3 already solved; solving the other 2"
        );
        assert_eq!(out_of_reach_lines(&[(1, pos), (4, far)]), [4]);
        assert_eq!(
            out_of_reach_note("in.obf", &[3]),
            "in.obf: 1 position has more than 36 empty squares (line 3): their exact solves \
             will not finish"
        );
    }
}
