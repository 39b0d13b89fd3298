//! What the boards of both games share, in one place: the position and the moves that led to
//! it, copies that keep a subclass and its attributes, equality and hashing on the position,
//! and pickling (the first position as the constructor's arguments, then the moves replayed,
//! then a subclass's attributes).

use std::hash::Hash;

use pyo3::{
    intern,
    prelude::*,
    pyclass::boolean_struct::False,
    types::{PyDict, PyTuple, PyType},
    PyClass,
};

use crate::hash_of;

/// A position and the moves that led to it, each with the position it was played from.
#[derive(Clone, Debug)]
pub struct History<P, M> {
    pos: P,
    stack: Vec<(P, M)>,
}

impl<P: Copy, M: Copy> History<P, M> {
    /// No move played yet.
    pub fn new(pos: P) -> Self {
        History {
            pos,
            stack: Vec::new(),
        }
    }

    /// A game played from `root`: each move with the position before it, and where it ends.
    pub fn of_game(plies: impl IntoIterator<Item = (P, M)>, pos: P) -> Self {
        History {
            pos,
            stack: plies.into_iter().collect(),
        }
    }

    /// The position now.
    pub fn pos(&self) -> P {
        self.pos
    }

    /// The position before the first move.
    pub fn root(&self) -> P {
        self.stack.first().map_or(self.pos, |&(p, _)| p)
    }

    /// Records `m`, which led to `next`.
    pub fn push(&mut self, m: M, next: P) {
        self.stack.push((self.pos, m));
        self.pos = next;
    }

    /// Takes back the last move; `None` when none was played.
    pub fn pop(&mut self) -> Option<M> {
        let (pos, m) = self.stack.pop()?;
        self.pos = pos;
        Some(m)
    }

    /// The moves in the order they were played.
    pub fn moves(&self) -> impl Iterator<Item = M> + '_ {
        self.stack.iter().map(|&(_, m)| m)
    }
}

/// A board class of the package: a [`History`] and the number Python gives each move.
pub trait Replay: PyClass<Frozen = False> + Sized {
    /// The game's position.
    type Pos: Copy + Eq + Hash;
    /// The game's move.
    type Move: Copy;
    /// The position and the moves.
    fn history(&self) -> &History<Self::Pos, Self::Move>;
    /// The same, to change.
    fn history_mut(&mut self) -> &mut History<Self::Pos, Self::Move>;
    /// The number of a move (OpenSpiel's action, tic-tac-toe's cell).
    fn code(&self, m: Self::Move) -> i64;
    /// The constructor's arguments that make the first position (the root of the history):
    /// positional, then keywords.
    ///
    /// # Errors
    /// Only when Python cannot make the objects.
    fn root_args<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)>;
    /// Plays a move given as Python gives it (its number or its name).
    ///
    /// # Errors
    /// `TypeError` or `ValueError` when it is not a legal move.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()>;
    /// What the board keeps beside its positions and moves (an Othello board read from an
    /// OBF line: the line's scores and comment), as copies and pickles carry it; `None` when
    /// there is nothing.
    ///
    /// # Errors
    /// Only when Python cannot make the objects.
    fn extra_state<'py>(&self, _py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        Ok(None)
    }
    /// Takes back what [`Replay::extra_state`] gave.
    ///
    /// # Errors
    /// `TypeError` or `ValueError` when `state` is not what `extra_state` gives.
    fn set_extra_state(&mut self, _state: &Bound<'_, PyAny>) -> PyResult<()> {
        Ok(())
    }
}

/// A new board of class `cls` (the class or a subclass) holding `history`.
pub fn new_of<'py, T: Replay>(
    cls: &Bound<'py, PyType>,
    history: History<T::Pos, T::Move>,
) -> PyResult<Bound<'py, T>> {
    let obj = cls.call_method1(intern!(cls.py(), "__new__"), (cls,))?;
    let board = obj.downcast_into::<T>()?;
    *board.borrow_mut().history_mut() = history;
    Ok(board)
}

/// A copy of the same class with the same position, moves and (for a subclass) attributes,
/// deep-copied when `memo` is given (`copy.deepcopy`).
pub fn copy<'py, T: Replay>(
    slf: &Bound<'py, T>,
    memo: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, T>>
where
    History<T::Pos, T::Move>: Clone,
{
    let py = slf.py();
    let history = slf.borrow().history().clone();
    let new = new_of::<T>(&slf.as_any().get_type(), history)?;
    if let Some(extra) = slf.borrow().extra_state(py)? {
        new.borrow_mut().set_extra_state(&extra)?;
    }
    if let Ok(dict) = slf.as_any().getattr(intern!(py, "__dict__")) {
        let dict = match memo {
            Some(memo) => py
                .import(intern!(py, "copy"))?
                .call_method1(intern!(py, "deepcopy"), (dict, memo))?,
            None => dict.call_method0(intern!(py, "copy"))?,
        };
        new.as_any()
            .getattr(intern!(py, "__dict__"))?
            .call_method1(intern!(py, "update"), (dict,))?;
    }
    Ok(new)
}

/// Boards are equal when their positions are; the moves that led there do not count.
pub fn eq<T: Replay>(slf: &T, other: &Bound<'_, PyAny>) -> bool {
    other
        .downcast::<T>()
        .is_ok_and(|o| o.borrow().history().pos() == slf.history().pos())
}

/// The hash of the position.
pub fn hash<T: Replay>(slf: &T) -> u64 {
    hash_of(&slf.history().pos())
}

/// `__reduce__` for every pickle protocol: the class made from the first position's
/// constructor arguments through `__new__` (`copyreg.__newobj_ex__`, what protocol 2 does
/// itself), then [`getstate`] given to `__setstate__`.
pub fn reduce<'py, T: Replay>(slf: &Bound<'py, T>) -> PyResult<Bound<'py, PyTuple>> {
    let py = slf.py();
    let (args, kwargs) = slf.borrow().root_args(py)?;
    let newobj = py
        .import(intern!(py, "copyreg"))?
        .getattr(intern!(py, "__newobj_ex__"))?;
    let cls = slf.as_any().get_type().into_any();
    let new_args = PyTuple::new(py, [cls, args.into_any(), kwargs.into_any()])?;
    PyTuple::new(py, [newobj, new_args.into_any(), getstate(slf)?.into_any()])
}

/// What `pickle` keeps besides the first position: the moves' numbers, a subclass's
/// attributes (`None` for the class itself), and the board's [`Replay::extra_state`] when it
/// has one.
pub fn getstate<'py, T: Replay>(slf: &Bound<'py, T>) -> PyResult<Bound<'py, PyTuple>> {
    let py = slf.py();
    let (moves, extra) = {
        let b = slf.borrow();
        let moves: Vec<i64> = b.history().moves().map(|m| b.code(m)).collect();
        (moves, b.extra_state(py)?)
    };
    let dict = slf
        .as_any()
        .getattr(intern!(py, "__dict__"))
        .unwrap_or_else(|_| py.None().into_bound(py));
    let mut items = vec![moves.into_pyobject(py)?.into_any(), dict];
    items.extend(extra);
    PyTuple::new(py, items)
}

/// Replays the moves of [`getstate`] and restores the attributes and the extra state.
pub fn setstate<T: Replay>(slf: &Bound<'_, T>, state: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = slf.py();
    type Moves<'py> = Vec<Bound<'py, PyAny>>;
    type Dict<'py> = Option<Bound<'py, PyDict>>;
    let (moves, dict, extra): (Moves<'_>, Dict<'_>, Option<Bound<'_, PyAny>>) =
        match state.extract::<(Moves<'_>, Dict<'_>)>() {
            Ok((moves, dict)) => (moves, dict, None),
            Err(_) => {
                let (moves, dict, extra) = state.extract()?;
                (moves, dict, Some(extra))
            }
        };
    {
        let mut b = slf.borrow_mut();
        for m in &moves {
            b.play(m)?;
        }
        if let Some(extra) = &extra {
            b.set_extra_state(extra)?;
        }
    }
    if let Some(dict) = dict {
        slf.as_any()
            .getattr(intern!(py, "__dict__"))?
            .call_method1(intern!(py, "update"), (dict,))?;
    }
    Ok(())
}

/// The methods every board class shares, as a second `#[pymethods]` block of `$board`
/// (PyO3's `multiple-pymethods`): copying, equality and hashing by position (`$eq` says what
/// makes two boards of the class equal), and pickling by the first position and the moves.
macro_rules! protocol {
    ($board:ty, $eq:literal) => {
        #[::pyo3::pymethods]
        impl $board {
            /// A copy with the same position and moves (and class, and a subclass's attributes).
            fn copy<'py>(
                slf: &::pyo3::Bound<'py, Self>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, Self>> {
                $crate::board::copy(slf, None)
            }

            fn __copy__<'py>(
                slf: &::pyo3::Bound<'py, Self>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, Self>> {
                $crate::board::copy(slf, None)
            }

            fn __deepcopy__<'py>(
                slf: &::pyo3::Bound<'py, Self>,
                memo: &::pyo3::Bound<'py, ::pyo3::PyAny>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, Self>> {
                $crate::board::copy(slf, Some(memo))
            }

            #[doc = $eq]
            fn __eq__(&self, other: &::pyo3::Bound<'_, ::pyo3::PyAny>) -> bool {
                $crate::board::eq(self, other)
            }

            fn __hash__(&self) -> u64 {
                $crate::board::hash(self)
            }

            /// Pickling, every protocol: the first position, then the moves.
            fn __reduce__<'py>(
                slf: &::pyo3::Bound<'py, Self>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::types::PyTuple>> {
                $crate::board::reduce(slf)
            }

            fn __getstate__<'py>(
                slf: &::pyo3::Bound<'py, Self>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::types::PyTuple>> {
                $crate::board::getstate(slf)
            }

            fn __setstate__(
                slf: &::pyo3::Bound<'_, Self>,
                state: &::pyo3::Bound<'_, ::pyo3::PyAny>,
            ) -> ::pyo3::PyResult<()> {
                $crate::board::setstate(slf, state)
            }
        }
    };
}
pub(crate) use protocol;
