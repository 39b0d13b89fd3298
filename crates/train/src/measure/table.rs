//! The engine's judgement of positions whose every move has a known score (Edax's problem
//! files, `hard-30.obf`): each position analysed as a user analyses it, its chosen move and
//! its estimate set against the file's scores ([`judge`]), and a set's [`Summary`], the
//! table the published engines print for those files (Neural Reversi's benchmark pages:
//! best move, top 2 and top 3 moves, the estimate within 3, 6 and 9 discs, the mean
//! absolute error, nodes and time), with the mean loss of the chosen move beside them.
//!
//! The analysis is the caller's [`Options`]: `ply bench eval --obf` reads its flags into the
//! same [`analyze::Request`] as `ply othello analyze --no-book --no-solver`, so the table
//! shows what a user gets. A row's time is the wall-clock time of that one analysis.

use std::time::{Duration, Instant};

use ply_othello::{
    analyze::{self, Options},
    obf::ObfLine,
    Move,
};

use super::moves_scoring;

/// The margins of the table's "score ±N" columns, in discs: an estimate within a margin of
/// the position's score counts (at the margin included, as the published tables count).
pub const MARGINS: [u32; 3] = [3, 6, 9];

/// The analysis the table measures: `ply othello analyze POS --no-book --no-solver`, every
/// move valued, to `depth` when given, else within `ms` milliseconds, on `threads`; its
/// [`analyze::Request::options`] checks it as that command does.
#[must_use]
pub fn request(depth: Option<u32>, ms: u64, threads: usize) -> analyze::Request {
    analyze::Request {
        time: depth.is_none().then(|| ms as f64 / 1000.0),
        depth,
        threads,
        book: false,
        book_file: None,
        solver: false,
        all_moves: true,
    }
}

/// A scored position judged by an analysis: its estimate against the position's score, and
/// the move chosen against the file's scores.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The position's score (its best scored move's).
    pub score: i32,
    /// The moves scored `score`.
    pub best: Vec<String>,
    /// The move chosen (`pass` when there is none).
    pub chose: String,
    /// Whether it is one of `best`.
    pub chose_best: bool,
    /// The chosen move's score in the file; `None` when the file does not score it.
    pub its: Option<i32>,
    /// The chosen move's place among the file's distinct scores of the position, 0 for the
    /// best (tied moves share a place); `None` when the file does not score it.
    pub rank: Option<usize>,
    /// The estimate, in discs.
    pub estimate: f64,
    /// Its absolute error against `score`, in discs.
    pub error: f64,
    /// The depth the search reached.
    pub depth: u32,
    /// The nodes the analysis searched.
    pub nodes: u64,
    /// The analysis's wall-clock time.
    pub time: Duration,
}

impl Judged {
    /// What the chosen move gives away against the best, in discs (`score - its`); `None`
    /// when the file does not score the chosen move.
    #[must_use]
    pub fn loss(&self) -> Option<i32> {
        self.its.map(|its| self.score - its)
    }
}

/// `line` analysed with `opts` and judged against its scores; `None` when no move of it is
/// scored.
#[must_use]
pub fn judge(line: &ObfLine, opts: &Options) -> Option<Judged> {
    let score = line.best_score()?;
    let started = Instant::now();
    let a = analyze::analyze(&line.position, opts);
    let time = started.elapsed();
    let est = a.score.discs();
    let chose = a.best.map_or(Move::Pass, Move::Play);
    let its = line.moves.iter().find(|m| m.mv == chose).map(|m| m.score);
    let mut distinct: Vec<i32> = line.moves.iter().map(|m| m.score).collect();
    distinct.sort_unstable_by(|a, b| b.cmp(a));
    distinct.dedup();
    let best = moves_scoring(line, score);
    let chose = chose.to_string();
    Some(Judged {
        score,
        chose_best: best.contains(&chose),
        best,
        chose,
        its,
        rank: its.and_then(|s| distinct.iter().position(|&d| d == s)),
        estimate: est,
        error: (est - f64::from(score)).abs(),
        depth: a.depth,
        nodes: a.nodes,
        time,
    })
}

/// The table of a set of judged positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Positions judged.
    pub positions: usize,
    /// Those whose chosen move is one scored best.
    pub best: usize,
    /// Those whose chosen move has one of the two best scores.
    pub top2: usize,
    /// Those whose chosen move has one of the three best scores.
    pub top3: usize,
    /// Those whose estimate is within each of [`MARGINS`] of the position's score.
    pub within: [usize; 3],
    /// Mean absolute error of the estimates, in discs.
    pub mae: f64,
    /// Positions whose chosen move the file scores (all of them in a file that scores every
    /// move): the ones [`Summary::mean_loss`] is over.
    pub scored_choices: usize,
    /// Mean loss of the chosen move, in discs ([`Judged::loss`]).
    pub mean_loss: f64,
    /// Nodes searched, all analyses together.
    pub nodes: u64,
    /// Wall-clock time, all analyses together.
    pub time: Duration,
}

impl Summary {
    /// The table of `rows`; means over no rows are 0.
    #[must_use]
    pub fn of(rows: &[Judged]) -> Summary {
        let mean = |sum: f64, n: usize| if n == 0 { 0.0 } else { sum / n as f64 };
        let ranked = |k: usize| {
            rows.iter()
                .filter(|j| j.rank.is_some_and(|r| r < k))
                .count()
        };
        let losses: Vec<i32> = rows.iter().filter_map(Judged::loss).collect();
        Summary {
            positions: rows.len(),
            best: rows.iter().filter(|j| j.chose_best).count(),
            top2: ranked(2),
            top3: ranked(3),
            within: MARGINS.map(|m| rows.iter().filter(|j| j.error <= f64::from(m)).count()),
            mae: mean(rows.iter().map(|j| j.error).sum(), rows.len()),
            scored_choices: losses.len(),
            mean_loss: mean(losses.iter().map(|&l| f64::from(l)).sum(), losses.len()),
            nodes: rows.iter().map(|j| j.nodes).sum(),
            time: rows.iter().map(|j| j.time).sum(),
        }
    }

    /// `count` as a percentage of the positions (0 when there are none).
    #[must_use]
    pub fn percent(&self, count: usize) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            100.0 * count as f64 / self.positions as f64
        }
    }

    /// Nodes per second over the whole set (0 when no time passed).
    #[must_use]
    pub fn nps(&self) -> f64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            self.nodes as f64 / s
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use ply_othello::{
        obf::ScoredMove,
        solve::{SolveOptions, Solver},
        BoardSize, Position,
    };

    use super::*;

    /// Positions of seeded 8x8 games with `empties` empty squares and every legal move
    /// solved exactly here: a scored file whose every score is known.
    fn solved_lines(empties: u32, count: usize) -> Vec<ObfLine> {
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 16,
        });
        let mut lines = Vec::new();
        for seed in 1.. {
            let mut pos = Position::start(BoardSize::Eight);
            let mut rng = ply_core::SplitMix64::new(seed);
            while pos.empties().count() > empties && !pos.is_game_over() {
                let moves: Vec<_> = pos.legal_moves().collect();
                pos = if moves.is_empty() {
                    pos.play_move(Move::Pass).unwrap()
                } else {
                    let k = rng.below_by_remainder(moves.len() as u64) as usize;
                    pos.play_move(Move::Play(moves[k])).unwrap()
                };
            }
            if pos.empties().count() != empties || pos.legal_moves().count() < 3 {
                continue;
            }
            let moves = solver
                .solve_all_moves(&pos)
                .into_iter()
                .map(|(sq, score)| ScoredMove {
                    mv: Move::Play(sq),
                    score: score.0,
                })
                .collect();
            lines.push(ObfLine {
                position: pos,
                moves,
                comment: None,
            });
            if lines.len() == count {
                return lines;
            }
        }
        unreachable!("the seeds never run out")
    }

    fn shallow() -> Options {
        Options {
            solver: false,
            book: false,
            ..Options::depth(3)
        }
    }

    /// Each column of a judged position is what the solver's exact scores and the same
    /// analysis run again say: the estimate and the move are the analysis's, the score is the
    /// best exact one, the chosen move's exact score, its loss and its place among the
    /// distinct scores follow from the solved moves.
    #[test]
    fn each_column_of_a_judged_position_follows_from_the_exact_scores() {
        let opts = shallow();
        for line in solved_lines(14, 3) {
            let j = judge(&line, &opts).unwrap();
            let again = analyze::analyze(&line.position, &opts);
            let chosen = again.best.unwrap();
            assert_eq!(j.chose, chosen.to_string());
            assert_eq!(j.estimate, again.score.discs());
            assert_eq!((j.depth, j.nodes), (3, again.nodes));
            assert!(j.nodes > 0);

            let solved: Vec<(Move, i32)> = line.moves.iter().map(|m| (m.mv, m.score)).collect();
            let score = solved.iter().map(|&(_, s)| s).max().unwrap();
            assert_eq!(j.score, score);
            let its = solved
                .iter()
                .find(|&&(m, _)| m == Move::Play(chosen))
                .unwrap()
                .1;
            assert_eq!(j.its, Some(its));
            assert_eq!(j.loss(), Some(score - its));
            assert_eq!(j.chose_best, its == score);
            let better: std::collections::BTreeSet<i32> = solved
                .iter()
                .map(|&(_, s)| s)
                .filter(|&s| s > its)
                .collect();
            assert_eq!(j.rank, Some(better.len()));
            assert_eq!(j.error, (again.score.discs() - f64::from(score)).abs());
            let mut best: Vec<String> = solved
                .iter()
                .filter(|&&(_, s)| s == score)
                .map(|(m, _)| m.to_string())
                .collect();
            best.sort();
            let mut got = j.best.clone();
            got.sort();
            assert_eq!(got, best);
        }
    }

    /// A chosen move the file does not score has no score, loss or place; a line without
    /// scores is not judged.
    #[test]
    fn an_unscored_choice_has_no_loss_and_an_unscored_line_no_judgement() {
        let opts = shallow();
        let mut line = solved_lines(14, 1).remove(0);
        let chosen = Move::Play(analyze::analyze(&line.position, &opts).best.unwrap());
        line.moves.retain(|m| m.mv != chosen);
        let j = judge(&line, &opts).unwrap();
        assert_eq!(
            (j.its, j.loss(), j.rank, j.chose_best),
            (None, None, None, false)
        );
        line.moves.clear();
        assert!(judge(&line, &opts).is_none());
    }

    fn row(error: f64, score: i32, its: Option<i32>, rank: Option<usize>) -> Judged {
        Judged {
            score,
            best: Vec::new(),
            chose: "a1".into(),
            chose_best: rank == Some(0),
            its,
            rank,
            estimate: f64::from(score) + error,
            error: error.abs(),
            depth: 5,
            nodes: 1000,
            time: Duration::from_millis(250),
        }
    }

    /// The summary counts each column over rows whose values are set by hand: places 0, 1, 2
    /// and 3 and an unscored move for the top-k columns; errors at and past each margin; the
    /// loss over the scored choices only.
    #[test]
    fn the_summary_counts_each_column() {
        let rows = [
            row(0.5, 10, Some(10), Some(0)),
            row(-3.0, 4, Some(2), Some(1)),
            row(3.5, 0, Some(-6), Some(2)),
            row(6.0, -8, Some(-20), Some(3)),
            row(-9.25, 2, None, None),
        ];
        let s = Summary::of(&rows);
        assert_eq!(s.positions, 5);
        assert_eq!((s.best, s.top2, s.top3), (1, 2, 3));
        assert_eq!(s.within, [2, 4, 4]);
        assert!((s.mae - (0.5 + 3.0 + 3.5 + 6.0 + 9.25) / 5.0).abs() < 1e-12);
        assert_eq!(s.scored_choices, 4);
        assert!((s.mean_loss - f64::from(2 + 6 + 12) / 4.0).abs() < 1e-12);
        assert_eq!((s.nodes, s.time), (5000, Duration::from_millis(1250)));
        assert!((s.percent(s.top3) - 60.0).abs() < 1e-12);
        assert!((s.nps() - 4000.0).abs() < 1e-9);
        let empty = Summary::of(&[]);
        assert_eq!(
            (empty.positions, empty.mae, empty.percent(0)),
            (0, 0.0, 0.0)
        );
        assert_eq!(empty.nps(), 0.0);
    }

    #[test]
    fn the_request_is_analyze_without_book_or_solver_every_move_valued() {
        let timed = request(None, 250, 2);
        assert_eq!(
            (timed.time, timed.depth, timed.threads),
            (Some(0.25), None, 2)
        );
        assert!(!timed.book && !timed.solver && timed.all_moves);
        let deep = request(Some(6), 250, 1);
        assert_eq!((deep.time, deep.depth), (None, Some(6)));
        let o = deep.options(ply_othello::BoardSize::Eight).unwrap();
        assert!(!o.solver && !o.book && o.all_moves);
    }
}
