//! `ply.othello.Book`: an opening book file (ply's own or Edax's `.dat`), read by the
//! library's one book type ([`ply_othello::book::Book`]), to look positions up in or to hand
//! to `analyze(book=...)`.

use std::{path::Path, sync::Arc};

use pyo3::prelude::*;

use super::{analysis::MoveScore, board_arg};
use crate::{args::value_error, files};

/// An opening book read from a file: ply's own (`ply othello book build`, `book import`) or
/// an Edax book (`.dat`). `analyze(board, book=Book(path))` answers from it in place of the
/// shipped book of its board size; `book.moves(board)` and `book.lookup(board)` say what it
/// holds of a position (or of one of its mirror images).
#[pyclass(module = "ply.othello", frozen)]
#[derive(Clone, Debug)]
pub struct Book {
    inner: Arc<ply_othello::book::Book>,
    path: String,
}

impl Book {
    /// Reads a book file of either kind: `FileNotFoundError`/`OSError` when it cannot be
    /// read, `ValueError` naming the file and what is wrong when it is not a book.
    pub(super) fn read(path: &Path) -> PyResult<Book> {
        let name = path.display().to_string();
        let bytes = files::read(path)?;
        let inner = ply_othello::book::Book::read_any(&bytes)
            .map_err(|e| value_error(format!("{name}: {e}")))?;
        Ok(Book {
            inner: Arc::new(inner),
            path: name,
        })
    }

    /// The library's book, shared.
    pub(super) fn inner(&self) -> Arc<ply_othello::book::Book> {
        self.inner.clone()
    }
}

#[pymethods]
impl Book {
    /// Reads the book file at `path` (a `str` or a path).
    #[new]
    fn new(path: std::path::PathBuf) -> PyResult<Book> {
        Book::read(&path)
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

    /// The moves the book scores in `board`'s position (a `Board`, or a transcript or
    /// position as text), best first, each with its score for the side that plays it: an
    /// `int` in an exact book, a `float` estimate in a searched one. An exact book keeps the
    /// optimal move only, a searched one every move, a partial one some. `[]` when the book
    /// does not hold the position (nor any mirror image of it).
    fn moves(&self, board: &Bound<'_, PyAny>) -> PyResult<Vec<MoveScore>> {
        let pos = board_arg(board)?;
        let exact = self.inner.is_exact();
        Ok(self
            .inner
            .moves(&pos)
            .unwrap_or_default()
            .into_iter()
            .map(|m| MoveScore::from_book(m.square, pos.size(), m.score, exact, m.depth))
            .collect())
    }

    /// The book's best move in `board`'s position, with the position's value for the side to
    /// move (exact or not, as the book is); `None` when the book does not hold it.
    fn lookup(&self, board: &Bound<'_, PyAny>) -> PyResult<Option<MoveScore>> {
        let pos = board_arg(board)?;
        Ok(self
            .inner
            .lookup(&pos)
            .map(|m| MoveScore::from_book(m.best, pos.size(), m.score, m.exact, m.depth)))
    }

    /// True when the book holds `board`'s position (or a mirror image of it).
    fn __contains__(&self, board: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.lookup(&board_arg(board)?).is_some())
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

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Book>()
}
