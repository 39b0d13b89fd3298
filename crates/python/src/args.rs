//! Arguments read the same way by every function: a wrong type is a `TypeError`, a bad value
//! a `ValueError` that names the argument and what it may be, never an `OverflowError`.

use std::fmt::Display;

use pyo3::{
    exceptions::{PyTypeError, PyValueError},
    prelude::*,
    sync::GILOnceCell,
    types::{PyBool, PyByteArray, PyInt, PyList, PyString},
};

/// A `ValueError` with this message.
pub fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A `TypeError` naming the argument, what it must be and what it was.
pub fn type_error(name: &str, expected: &str, got: &Bound<'_, PyAny>) -> PyErr {
    let ty = got
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string());
    PyTypeError::new_err(format!("{name}: expected {expected}, got {ty}"))
}

/// Whether `obj` is an integer and not a `bool` (which Python counts as one: `True` is not
/// square 1, nor one thread).
pub fn is_int(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>()
}

/// A text argument; `TypeError` naming it (`cells: expected a string, got int`) for anything
/// else.
pub fn text(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    if !obj.is_instance_of::<PyString>() {
        return Err(type_error(name, "a string", obj));
    }
    obj.extract()
}

/// [`text`] for an optional argument.
pub fn opt_text(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<String>> {
    obj.map(|o| text(o, name)).transpose()
}

/// An integer argument: `Some` within `i64`, `None` for an integer beyond it (a value the
/// caller then refuses as out of range). `TypeError` for anything but an integer.
pub fn integer(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i64>> {
    if !is_int(obj) {
        return Err(type_error(name, "an integer", obj));
    }
    Ok(obj.extract::<i64>().ok())
}

/// An integer argument from `lo` to `hi`: `ValueError` (`threads=0: expected 1 to 256`)
/// outside, `TypeError` for anything but an integer.
pub fn int_in(obj: &Bound<'_, PyAny>, name: &str, lo: i64, hi: i64) -> PyResult<i64> {
    match integer(obj, name)? {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(value_error(format!("{name}={obj}: expected {lo} to {hi}"))),
    }
}

/// `int_in` for an optional argument, `default` when it is `None`.
pub fn opt_int_in(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    lo: i64,
    hi: i64,
    default: i64,
) -> PyResult<i64> {
    obj.map_or(Ok(default), |o| int_in(o, name, lo, hi))
}

/// numpy, when it is installed (looked for once).
fn numpy(py: Python<'_>) -> Option<&Bound<'_, PyModule>> {
    static NUMPY: GILOnceCell<Option<Py<PyModule>>> = GILOnceCell::new();
    NUMPY
        .get_or_init(py, || py.import("numpy").ok().map(Bound::unbind))
        .as_ref()
        .map(|m| m.bind(py))
}

/// A flat float32 numpy array of `values`, or a list of floats without numpy.
pub fn f32_array(py: Python<'_>, values: &[f32]) -> PyResult<PyObject> {
    match numpy(py) {
        Some(np) => {
            let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
            let buffer = PyByteArray::new(py, &bytes);
            let dtype = np.getattr("float32")?;
            Ok(np.call_method1("frombuffer", (buffer, dtype))?.unbind())
        }
        None => Ok(PyList::new(py, values.iter().map(|&v| f64::from(v)))?
            .into_any()
            .unbind()),
    }
}

/// A numpy bool array of `values`, or a list of 0 and 1 (as OpenSpiel's) without numpy.
pub fn mask_array(py: Python<'_>, values: &[bool]) -> PyResult<PyObject> {
    match numpy(py) {
        Some(np) => {
            let list = PyList::new(py, values)?;
            let dtype = np.getattr("bool_")?;
            Ok(np.call_method1("array", (list, dtype))?.unbind())
        }
        None => Ok(PyList::new(py, values.iter().map(|&v| i32::from(v)))?
            .into_any()
            .unbind()),
    }
}
