//! `ply.othello`'s analysis: `analyze`, the report it returns (`Analysis`, `MoveScore`) and
//! the book files it may answer from (`Book`).

use std::{
    collections::BTreeMap,
    sync::{atomic::AtomicBool, Arc},
    time::{Duration, Instant},
};

use ply_othello::{
    analyze::{Options, Report},
    BoardSize, Move, Square,
};
use pyo3::{
    exceptions::{PyFileNotFoundError, PyOSError},
    prelude::*,
};

use super::{move_index, threads_arg, Board};
use crate::{
    args::{int_in, seconds, type_error, value_error},
    interrupt, repr_bool, repr_opt,
};

/// One move's score.
#[pyclass(module = "ply.othello", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct MoveScore {
    /// The square's name.
    #[pyo3(name = "move")]
    mv: String,
    /// The move's index (`row * n + col`).
    index: usize,
    /// The score after the move for the side that plays it, in discs.
    score: f64,
    /// True when the score is exact, false for an estimate.
    exact: bool,
    /// True when the score comes from the opening book.
    book: bool,
    /// Plies the score rests on (the empty squares when exact).
    depth: u32,
}

#[pymethods]
impl MoveScore {
    fn __repr__(&self) -> String {
        format!(
            "MoveScore(move='{}', score={}, exact={}, book={}, depth={})",
            self.mv,
            self.score,
            repr_bool(self.exact),
            repr_bool(self.book),
            self.depth
        )
    }
}

/// What `analyze` found: the library's one report ([`Report`]), every field of the JSON
/// that `ply othello analyze --json` and the web API print, under the same names.
#[pyclass(module = "ply.othello", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Squares on a side.
    size: u8,
    /// The board as `size * size` cells row by row, `X` black, `O` white, `-` empty.
    position: String,
    /// The side to move, `"X"` or `"O"`.
    turn: String,
    /// `"play"`, `"pass"` (the side to move must pass) or `"over"`.
    status: &'static str,
    /// Empty squares.
    empties: u32,
    /// Discs per colour: `{"X": black, "O": white}`.
    discs: BTreeMap<&'static str, u32>,
    /// The position's score for the side to move, in discs: whole when proven, to a tenth
    /// when estimated.
    score: f64,
    /// True when `score` is the position's exact value.
    proven: bool,
    /// True when every move's score is exact.
    all_exact: bool,
    /// When the best move and the score come from a selective pass of the exact solver: its
    /// confidence in percent (`selective @ 73%`); `None` otherwise.
    confidence: Option<u8>,
    /// The move to play; `None` for a pass or when the game is over.
    best: Option<String>,
    /// The expected line, passes included.
    line: Vec<String>,
    /// Every legal move, best first.
    moves: Vec<MoveScore>,
    /// Plies the best move's estimate was searched to (the empty squares once exact).
    depth: u32,
    /// Positions searched.
    nodes: u64,
    /// Wall time the analysis took, in milliseconds.
    elapsed_ms: u64,
    /// `"solver"`, `"midgame"`, `"mixed"`, `"book"` or `"selective"`.
    engine: &'static str,
}

impl Analysis {
    /// The report as Python presents it: the same fields, the moves with their indices too.
    fn of(report: Report, size: BoardSize) -> Analysis {
        let moves = report
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
            best: report.best,
            line: report.line,
            moves,
            depth: report.depth,
            nodes: report.nodes,
            elapsed_ms: report.elapsed_ms,
            engine: report.engine.name(),
        }
    }
}

#[pymethods]
impl Analysis {
    fn __repr__(&self) -> String {
        let confidence = self
            .confidence
            .map_or_else(String::new, |c| format!(", confidence={c}"));
        format!(
            "Analysis(score={}, proven={}, all_exact={}, best={}, engine='{}'{confidence}, depth={}, moves={})",
            self.score,
            repr_bool(self.proven),
            repr_bool(self.all_exact),
            repr_opt(self.best.as_deref()),
            self.engine,
            self.depth,
            self.moves.len()
        )
    }
}

/// An opening book read from a file: ply's own (`ply othello book build`, `book import`) or
/// an Edax book (`.dat`). `analyze(board, book=Book(path))` answers from it in place of the
/// shipped book of its board size.
#[pyclass(module = "ply.othello", frozen)]
#[derive(Clone, Debug)]
pub struct Book {
    inner: Arc<ply_othello::book::Book>,
    path: String,
}

/// Reads a book file of either kind: `FileNotFoundError`/`OSError` when it cannot be read,
/// `ValueError` naming the file and what is wrong when it is not a book.
fn read_book(path: &std::path::Path) -> PyResult<Book> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(format!("{name}: no such file"))
        }
        _ => PyOSError::new_err(format!("{name}: {e}")),
    })?;
    let inner = ply_othello::book::Book::read_any(&bytes)
        .map_err(|e| value_error(format!("{name}: {e}")))?;
    Ok(Book {
        inner: Arc::new(inner),
        path: name,
    })
}

#[pymethods]
impl Book {
    /// Reads the book file at `path` (a `str` or a path).
    #[new]
    fn new(path: std::path::PathBuf) -> PyResult<Book> {
        read_book(&path)
    }

    /// The board side: 4, 6 or 8.
    #[getter]
    fn size(&self) -> u8 {
        self.inner.size().n()
    }

    /// `"exact"`, `"searched"` (every move of a position scored) or `"partial"` (some, as an
    /// Edax book's).
    #[getter]
    fn kind(&self) -> &'static str {
        match (self.inner.is_exact(), self.inner.is_partial()) {
            (true, _) => "exact",
            (false, false) => "searched",
            (false, true) => "partial",
        }
    }

    /// Positions held, one per symmetry class.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Book(path='{}', size={}, kind='{}', positions={})",
            self.path,
            self.size(),
            self.kind(),
            self.inner.len()
        )
    }
}

/// Every legal move's score, with the options of `ply othello analyze`: within `time`
/// seconds (1 by default), or with the midgame engine `depth` plies deep and no clock;
/// `threads`; `book`: `None` for the shipped opening book (6x6 exact, 8x8 searched),
/// `False` for none, a [`Book`] or a path to a book file (ply's or Edax's) to answer from
/// instead; `solver=False` to leave out the exact solver. Exact where the solver (or the
/// book) answers, else estimated. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (board, *, time = None, depth = None, threads = None, book = None, solver = true))]
fn analyze(
    py: Python<'_>,
    board: &Board,
    time: Option<&Bound<'_, PyAny>>,
    depth: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    book: Option<&Bound<'_, PyAny>>,
    solver: bool,
) -> PyResult<Analysis> {
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
                given.get().inner.clone()
            } else if let Ok(path) = b.extract::<std::path::PathBuf>() {
                read_book(&path)?.inner
            } else {
                return Err(type_error("book", "None, a bool, a Book or a path", b));
            };
            opts.book_file = Some(chosen);
        }
    }
    opts.solver = solver;
    let pos = board.pos();
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
    m.add_class::<Book>()?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    Ok(())
}
