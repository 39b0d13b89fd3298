//! The files the package reads (opening books, WTHOR databases and names): one way to read
//! them, with the errors Python's own `open` would raise, each naming the file.

use std::path::Path;

use pyo3::{
    exceptions::{PyFileNotFoundError, PyOSError},
    prelude::*,
};

/// The bytes of the file at `path`: `FileNotFoundError` when there is none, `OSError` for any
/// other failure, each naming the file.
pub fn read(path: &Path) -> PyResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        let name = path.display();
        match e.kind() {
            std::io::ErrorKind::NotFound => {
                PyFileNotFoundError::new_err(format!("{name}: no such file"))
            }
            _ => PyOSError::new_err(format!("{name}: {e}")),
        }
    })
}
