//! Python bindings of ply: `ply.othello` and `ply.tictactoe`, built by maturin as the
//! extension module `ply._ply`.
//!
//! The binding only adapts: every rule, parser, formatter and solver is the one of
//! `ply-othello`, `ply-tictactoe` and `ply-core`. Library errors become `ValueError` with the
//! library's message (the text the CLI prints after `error:`); arguments are read by `args`
//! (`TypeError` for a wrong type, `ValueError` for a bad value, never `OverflowError`); both
//! games' boards share `board` (history, copies, equality, pickling). The OpenSpiel adapter
//! is pure Python (`ply/openspiel.py`) over `ply.othello.Board`. Calls that can run long
//! ([`othello::solve`], [`othello::analyze`], [`othello::perft`]) run on a worker thread with
//! the GIL released while the calling thread watches for Ctrl-C ([`interrupt`]).

mod args;
mod board;
mod files;
mod interrupt;
mod othello;
mod tictactoe;

use pyo3::prelude::*;

/// The extension module: `ply._ply.othello` and `ply._ply.tictactoe`.
#[pymodule]
fn _ply(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let o = PyModule::new(py, "othello")?;
    othello::register(&o)?;
    m.add_submodule(&o)?;
    let t = PyModule::new(py, "tictactoe")?;
    tictactoe::register(&t)?;
    m.add_submodule(&t)?;
    Ok(())
}

/// `'text'` or `None`, as Python's `repr` writes an optional string.
fn repr_opt(s: Option<&str>) -> String {
    s.map_or_else(|| "None".to_owned(), |s| format!("'{s}'"))
}

/// `['a', 'b']`, as Python's `repr` writes a list of strings.
fn repr_list(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    format!("[{}]", inner.join(", "))
}

/// `True` or `False`.
fn repr_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// Python's hash of a value: the standard library's hasher over its `Hash`.
fn hash_of(value: &impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}
