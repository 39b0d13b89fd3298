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
    sync::{atomic::AtomicBool, Arc},
    time::Instant,
};

use ply_othello::{
    analyze::{Report, Request, Status, WholeDiscs, MAX_DEPTH, MAX_THREADS},
    BoardSize, Move, Square,
};
use pyo3::prelude::*;

use super::{board_arg, book::Book, move_index};
use crate::{
    args::{integer, is_int, type_error, value_error},
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
    pub(super) fn exact(m: Move, size: BoardSize, discs: WholeDiscs, empties: u32) -> MoveScore {
        MoveScore {
            mv: m.to_string(),
            index: move_index(m, size),
            score: f64::from(discs.0),
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
        discs: WholeDiscs,
        exact: bool,
        depth: u32,
    ) -> MoveScore {
        MoveScore {
            mv: sq.to_string(),
            index: move_index(Move::Play(sq), size),
            score: f64::from(discs.0),
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
///
/// The fields are not declared again here: the report is serialized through serde (its one
/// declaration, the JSON's) and each field read from that as a Python value, so a field the
/// report gains reaches Python at once. Only what Python presents in its own way is built
/// here: the moves as [`MoveScore`]s with their indices, and a forced pass as a move.
#[pyclass(module = "ply.othello", frozen)]
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The report, for the `repr`.
    report: Report,
    /// The report's fields as its JSON has them (but `moves` and `best`, below).
    fields: serde_json::Map<String, serde_json::Value>,
    /// Every legal move, best first (the pass alone when it is forced).
    #[pyo3(get)]
    moves: Vec<MoveScore>,
    /// The move to play: a square, `"pass"` when the side to move must pass, `None` when the
    /// game is over.
    #[pyo3(get)]
    best: Option<String>,
}

impl Analysis {
    /// The report as Python presents it: the same fields, the moves with their indices too,
    /// and a forced pass as the one move, scored as the position.
    fn of(report: Report, size: BoardSize) -> PyResult<Analysis> {
        let serde_json::Value::Object(mut fields) =
            serde_json::to_value(&report).map_err(|e| value_error(format!("the report: {e}")))?
        else {
            return Err(value_error("the report is not a JSON object"));
        };
        fields.remove("moves");
        fields.remove("best");
        let mut moves: Vec<MoveScore> = report
            .moves
            .iter()
            .map(|m| {
                let sq = Square::parse(&m.square).expect("the report names squares");
                MoveScore {
                    index: move_index(Move::Play(sq), size),
                    mv: m.square.clone(),
                    score: m.score.discs,
                    exact: m.exact,
                    book: m.book,
                    depth: m.depth,
                }
            })
            .collect();
        let mut best = report.best.clone();
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
        Ok(Analysis {
            report,
            fields,
            moves,
            best,
        })
    }
}

/// A JSON value as the Python value `json.loads` would give.
fn to_python(py: Python<'_>, v: &serde_json::Value) -> PyResult<PyObject> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any().unbind(),
            _ => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        Value::String(s) => pyo3::types::PyString::new(py, s).into_any().unbind(),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|x| to_python(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            pyo3::types::PyList::new(py, items)?.into_any().unbind()
        }
        Value::Object(map) => {
            let d = pyo3::types::PyDict::new(py);
            for (k, x) in map {
                d.set_item(k, to_python(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

#[pymethods]
impl Analysis {
    /// A field of the report (`score`: an `int` when proven, a `float` to a tenth when
    /// estimated, as the JSON writes it).
    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<PyObject> {
        match self.fields.get(name) {
            Some(v) => to_python(py, v),
            None => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "'Analysis' object has no attribute '{name}'"
            ))),
        }
    }

    fn __repr__(&self) -> String {
        let r = &self.report;
        let confidence = r
            .confidence
            .map_or_else(String::new, |c| format!(", confidence={c}"));
        format!(
            "Analysis(score={}, proven={}, all_exact={}, best={}, engine='{}'{confidence}, depth={}, moves={})",
            score_repr(r.score.discs, r.proven),
            repr_bool(r.proven),
            repr_bool(r.all_exact),
            repr_opt(self.best.as_deref()),
            r.engine.name(),
            r.depth,
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
    // Each argument's type here; their ranges, and the book's size, in the library's one
    // check ([`Request::options`]), with its messages.
    let mut req = Request {
        time: time.map(|t| number(t, "time")).transpose()?,
        depth: depth
            .map(|d| whole::<u32>(d, "depth", i64::from(MAX_DEPTH)))
            .transpose()?,
        threads: match threads {
            None => 1,
            Some(t) => whole::<usize>(t, "threads", MAX_THREADS as i64)?,
        },
        solver,
        ..Request::default()
    };
    match book {
        None => {}
        Some(b) if b.is_instance_of::<pyo3::types::PyBool>() => req.book = b.is_truthy()?,
        Some(b) => {
            let chosen = if let Ok(given) = b.downcast::<Book>() {
                given.get().inner()
            } else if let Ok(path) = b.extract::<std::path::PathBuf>() {
                Book::read(&path)?.inner()
            } else {
                return Err(type_error("book", "None, a bool, a Book or a path", b));
            };
            req.book_file = Some(chosen);
        }
    }
    let size = pos.size();
    let mut opts = req.options(size).map_err(value_error)?;
    let stop = Arc::new(AtomicBool::new(false));
    opts.stop = Some(stop.clone());
    // The library's one report, as every front end presents it.
    let report = interrupt::run(py, &stop, || {
        let started = Instant::now();
        let found = ply_othello::analyze::analyze(&pos, &opts);
        Report::new(&pos, &found, started.elapsed())
    })?;
    Analysis::of(report, size)
}

/// A number of seconds (an int or a float), its range left to [`Request::options`].
fn number(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    if !(is_int(obj) || obj.is_instance_of::<pyo3::types::PyFloat>()) {
        return Err(type_error(name, "seconds (a number)", obj));
    }
    obj.extract()
}

/// A whole number, its range left to [`Request::options`] where it fits the field (an int
/// that does not, below 0 say, is refused here, with the range).
fn whole<T: TryFrom<i64>>(obj: &Bound<'_, PyAny>, name: &str, max: i64) -> PyResult<T> {
    integer(obj, name)?
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| value_error(format!("{name}={obj}: expected 1 to {max}")))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MoveScore>()?;
    m.add_class::<Analysis>()?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    Ok(())
}
