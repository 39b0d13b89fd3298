//! `ply.othello`'s analysis: `analyze` and the report it returns (`Analysis`, `MoveScore`),
//! read from the library's one report ([`Report`]).
//!
//! Scores are `int` where they are exact and `float` where they are estimates, as the JSON
//! of `ply othello analyze --json` writes them. A forced pass is a move like any other: where
//! the side to move must pass, the report's moves are the pass alone, with the position's
//! score, and `best` is `"pass"` (the library reports the pass as the position's status and
//! the first move of its line, and scores squares only), so a game loop
//! `board.push(analyze(board).best)` plays through passes to the end.

use std::{
    collections::BTreeMap,
    sync::{atomic::AtomicBool, Arc},
    time::{Duration, Instant},
};

use ply_othello::{
    analyze::{Options, Report, Status},
    BoardSize, Move, Square,
};
use pyo3::prelude::*;

use super::{board_arg, book::Book, move_index, threads_arg};
use crate::{
    args::{int_in, seconds, type_error, value_error},
    interrupt, repr_bool, repr_opt,
};

/// A score in discs as Python gets it: an `int` when exact, a `float` when estimated.
pub(super) fn score_object(py: Python<'_>, discs: f64, exact: bool) -> PyResult<PyObject> {
    if exact {
        // Exact scores are whole numbers of discs, at most the board's squares.
        Ok((discs as i64).into_pyobject(py)?.into_any().unbind())
    } else {
        Ok(discs.into_pyobject(py)?.into_any().unbind())
    }
}

/// A score as Python's `repr` writes it: `14` when exact, `2.5` or `3.0` when estimated.
fn score_repr(discs: f64, exact: bool) -> String {
    if exact {
        format!("{}", discs as i64)
    } else {
        format!("{discs:?}")
    }
}

/// One move's score.
#[pyclass(module = "ply.othello", frozen)]
#[derive(Clone, Debug)]
pub struct MoveScore {
    /// The move's name: a square, or `"pass"`.
    #[pyo3(get, name = "move")]
    mv: String,
    /// The move's index (`row * n + col`, `n * n` for a pass).
    #[pyo3(get)]
    index: usize,
    /// The score after the move for the side that plays it, in discs.
    score: f64,
    /// True when the score is exact, false for an estimate.
    #[pyo3(get)]
    exact: bool,
    /// True when the score comes from the opening book.
    #[pyo3(get)]
    book: bool,
    /// Plies the score rests on (the empty squares when exact).
    #[pyo3(get)]
    depth: u32,
}

impl MoveScore {
    /// A move's exact score, `discs` for the side that plays it, on a board with `empties`
    /// empty squares.
    pub(super) fn exact(m: Move, size: BoardSize, discs: i32, empties: u32) -> MoveScore {
        MoveScore {
            mv: m.to_string(),
            index: move_index(m, size),
            score: f64::from(discs),
            exact: true,
            book: false,
            depth: empties,
        }
    }

    /// A move's score from an opening book: exact in an exact book, an estimate searched
    /// `depth` plies otherwise.
    pub(super) fn from_book(
        sq: Square,
        size: BoardSize,
        discs: i32,
        exact: bool,
        depth: u32,
    ) -> MoveScore {
        MoveScore {
            mv: sq.to_string(),
            index: move_index(Move::Play(sq), size),
            score: f64::from(discs),
            exact,
            book: true,
            depth,
        }
    }
}

#[pymethods]
impl MoveScore {
    /// The score after the move for the side that plays it, in discs: an `int` when exact,
    /// a `float` when estimated.
    #[getter]
    fn score(&self, py: Python<'_>) -> PyResult<PyObject> {
        score_object(py, self.score, self.exact)
    }

    fn __repr__(&self) -> String {
        format!(
            "MoveScore(move='{}', score={}, exact={}, book={}, depth={})",
            self.mv,
            score_repr(self.score, self.exact),
            repr_bool(self.exact),
            repr_bool(self.book),
            self.depth
        )
    }
}

/// What `analyze` found: the library's one report ([`Report`]), every field of the JSON
/// that `ply othello analyze --json` and the web API print, under the same names (but for a
/// forced pass, which is a move here: see the module's docs).
#[pyclass(module = "ply.othello", frozen)]
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Squares on a side.
    #[pyo3(get)]
    size: u8,
    /// The board as `size * size` cells row by row, `X` black, `O` white, `-` empty.
    #[pyo3(get)]
    position: String,
    /// The side to move, `"X"` or `"O"`.
    #[pyo3(get)]
    turn: String,
    /// `"play"`, `"pass"` (the side to move must pass) or `"over"`.
    #[pyo3(get)]
    status: &'static str,
    /// Empty squares.
    #[pyo3(get)]
    empties: u32,
    /// Discs per colour: `{"X": black, "O": white}`.
    #[pyo3(get)]
    discs: BTreeMap<&'static str, u32>,
    /// The position's score for the side to move, in discs: an `int` when proven, a `float`
    /// to a tenth when estimated.
    score: f64,
    /// True when `score` is the position's exact value.
    #[pyo3(get)]
    proven: bool,
    /// True when every move's score is exact.
    #[pyo3(get)]
    all_exact: bool,
    /// When the best move and the score come from a selective pass of the exact solver: its
    /// confidence in percent (`selective @ 73%`); `None` otherwise.
    #[pyo3(get)]
    confidence: Option<u8>,
    /// The move to play: a square, `"pass"` when the side to move must pass, `None` when the
    /// game is over.
    #[pyo3(get)]
    best: Option<String>,
    /// The expected line, passes included.
    #[pyo3(get)]
    line: Vec<String>,
    /// Every legal move, best first (the pass alone when it is forced).
    #[pyo3(get)]
    moves: Vec<MoveScore>,
    /// Plies the best move's estimate was searched to (the empty squares once exact).
    #[pyo3(get)]
    depth: u32,
    /// Positions searched.
    #[pyo3(get)]
    nodes: u64,
    /// Wall time the analysis took, in milliseconds.
    #[pyo3(get)]
    elapsed_ms: u64,
    /// `"solver"`, `"midgame"`, `"mixed"`, `"book"` or `"selective"`.
    #[pyo3(get)]
    engine: &'static str,
    /// The standard name of the opening the position is in (`"Tiger"`), `None` outside the
    /// named lines.
    #[pyo3(get)]
    opening: Option<&'static str>,
}

impl Analysis {
    /// The report as Python presents it: the same fields, the moves with their indices too,
    /// and a forced pass as the one move, scored as the position.
    fn of(report: Report, size: BoardSize) -> Analysis {
        let mut moves: Vec<MoveScore> = report
            .moves
            .into_iter()
            .map(|m| {
                let sq = Square::parse(&m.square).expect("the report names squares");
                MoveScore {
                    index: move_index(Move::Play(sq), size),
                    mv: m.square,
                    score: m.score.discs,
                    exact: m.exact,
                    book: m.book,
                    depth: m.depth,
                }
            })
            .collect();
        let mut best = report.best;
        if report.status == Status::Pass {
            moves = vec![MoveScore {
                mv: Move::Pass.to_string(),
                index: move_index(Move::Pass, size),
                score: report.score.discs,
                exact: report.proven,
                book: false,
                depth: report.depth,
            }];
            best = Some(Move::Pass.to_string());
        }
        Analysis {
            size: report.size,
            position: report.position,
            turn: report.turn.to_string(),
            status: report.status.name(),
            empties: report.empties,
            discs: BTreeMap::from([("X", report.discs.black), ("O", report.discs.white)]),
            score: report.score.discs,
            proven: report.proven,
            all_exact: report.all_exact,
            confidence: report.confidence,
            best,
            line: report.line,
            moves,
            depth: report.depth,
            nodes: report.nodes,
            elapsed_ms: report.elapsed_ms,
            engine: report.engine.name(),
            opening: report.opening,
        }
    }
}

#[pymethods]
impl Analysis {
    /// The position's score for the side to move, in discs: an `int` when proven, a `float`
    /// to a tenth when estimated.
    #[getter]
    fn score(&self, py: Python<'_>) -> PyResult<PyObject> {
        score_object(py, self.score, self.proven)
    }

    fn __repr__(&self) -> String {
        let confidence = self
            .confidence
            .map_or_else(String::new, |c| format!(", confidence={c}"));
        format!(
            "Analysis(score={}, proven={}, all_exact={}, best={}, engine='{}'{confidence}, depth={}, moves={})",
            score_repr(self.score, self.proven),
            repr_bool(self.proven),
            repr_bool(self.all_exact),
            repr_opt(self.best.as_deref()),
            self.engine,
            self.depth,
            self.moves.len()
        )
    }
}

/// Every legal move's score of `board` (a `Board`, or a transcript or position as text),
/// with the options of `ply othello analyze`: within `time`
/// seconds (1 by default), or with the midgame engine `depth` plies deep and no clock;
/// `threads`; `book`: `None` for the shipped opening book (6x6 exact, 8x8 searched),
/// `False` for none, a [`Book`] or a path to a book file (ply's or Edax's) to answer from
/// instead; `solver=False` to leave out the exact solver. Exact where the solver (or the
/// book) answers, else estimated. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (board, *, time = None, depth = None, threads = None, book = None, solver = true))]
fn analyze(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    time: Option<&Bound<'_, PyAny>>,
    depth: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    book: Option<&Bound<'_, PyAny>>,
    solver: bool,
) -> PyResult<Analysis> {
    let pos = board_arg(board)?;
    let mut opts = match (time, depth) {
        (Some(_), Some(_)) => return Err(value_error("give time or depth, not both")),
        (None, Some(d)) => {
            Options::depth(u32::try_from(int_in(d, "depth", 1, 64)?).expect("small"))
        }
        (Some(t), None) => Options::budget(Duration::from_secs_f64(seconds(t, "time", 86_400.0)?)),
        (None, None) => Options::budget(Duration::from_secs(1)),
    };
    opts.threads = threads_arg(threads)?;
    match book {
        None => {}
        Some(b) if b.is_instance_of::<pyo3::types::PyBool>() => opts.book = b.is_truthy()?,
        Some(b) => {
            let chosen = if let Ok(given) = b.downcast::<Book>() {
                given.get().inner()
            } else if let Ok(path) = b.extract::<std::path::PathBuf>() {
                Book::read(&path)?.inner()
            } else {
                return Err(type_error("book", "None, a bool, a Book or a path", b));
            };
            opts.book_file = Some(chosen);
        }
    }
    opts.solver = solver;
    let size = pos.size();
    let stop = Arc::new(AtomicBool::new(false));
    opts.stop = Some(stop.clone());
    // The library's one report, as every front end presents it.
    let report = interrupt::run(py, &stop, || {
        let started = Instant::now();
        let found = ply_othello::analyze::analyze(&pos, &opts);
        Report::new(&pos, &found, started.elapsed())
    })?;
    Ok(Analysis::of(report, size))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MoveScore>()?;
    m.add_class::<Analysis>()?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    Ok(())
}
