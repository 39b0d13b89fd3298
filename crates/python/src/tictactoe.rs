//! `ply.tictactoe`: positions, GAMESMAN values, reachability with reasons, final-board counts
//! and the state-space figures, all from `ply_tictactoe`'s solved tables.
//!
//! Cells are numbered 0 to 8 row by row (0 is the top left, `a1`); boards are written in any
//! of the library's spellings (`"xo./.x./..o"`, `"XO..X...O"`, rows separated by `/`, spaces or
//! newlines).

use ply_core::Value as LibValue;
use ply_tictactoe::{self as ttt, Board as LibBoard, Cell, Counts as LibCounts, Mark};
use pyo3::{
    exceptions::PyIndexError,
    prelude::*,
    types::{PyDict, PyString, PyTuple},
};

use crate::{
    args::{integer, is_int, opt_text, text, type_error, value_error},
    board::{self, History, Replay},
    repr_bool, repr_opt,
};

/// `first`: `"X"` (the default, when `None`) or `"O"`.
fn mark_of(first: Option<&Bound<'_, PyAny>>) -> PyResult<Mark> {
    let first = opt_text(first, "first")?.unwrap_or_else(|| "X".to_owned());
    match first.as_str() {
        "X" | "x" => Ok(Mark::X),
        "O" | "o" => Ok(Mark::O),
        _ => Err(value_error(format!(
            "first={first:?}: expected \"X\" or \"O\""
        ))),
    }
}

fn mark_name(m: Mark) -> String {
    m.as_char().to_string()
}

fn parse_board(cells: &str) -> PyResult<LibBoard> {
    cells.parse::<LibBoard>().map_err(value_error)
}

/// A value in GAMESMAN's words: `"win"`, `"draw"` or `"loss"` for the side to move, and the
/// remoteness (moves to the end under perfect play).
#[pyclass(module = "ply.tictactoe", frozen, eq, hash, get_all)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// `"win"`, `"draw"` or `"loss"`.
    outcome: &'static str,
    /// Moves to the end: wins as fast as possible, losses as slow as possible.
    remoteness: u32,
}

impl From<LibValue> for Value {
    fn from(v: LibValue) -> Value {
        Value {
            outcome: v.outcome.as_str(),
            remoteness: v.remoteness,
        }
    }
}

#[pymethods]
impl Value {
    fn __str__(&self) -> String {
        format!("{} in {}", self.outcome, self.remoteness)
    }

    fn __repr__(&self) -> String {
        format!(
            "Value(outcome='{}', remoteness={})",
            self.outcome, self.remoteness
        )
    }
}

/// Counts by result: `x` wins, `o` wins, draws.
#[pyclass(module = "ply.tictactoe", frozen, eq, get_all)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// The sum of the three.
    total: u64,
    /// Won by X.
    x: u64,
    /// Won by O.
    o: u64,
    /// Drawn.
    draw: u64,
}

impl From<LibCounts> for Counts {
    fn from(c: LibCounts) -> Counts {
        Counts {
            total: c.total(),
            x: c.x,
            o: c.o,
            draw: c.draw,
        }
    }
}

#[pymethods]
impl Counts {
    fn __repr__(&self) -> String {
        format!(
            "Counts(total={}, x={}, o={}, draw={})",
            self.total, self.x, self.o, self.draw
        )
    }
}

/// Whether a board can occur in a game, and why not.
#[pyclass(module = "ply.tictactoe", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Check {
    /// True when some game reaches the board.
    reachable: bool,
    /// Why no game reaches it (`None` when one does).
    reason: Option<String>,
    /// True when the board is reachable and the game is over on it.
    is_final: bool,
}

#[pymethods]
impl Check {
    fn __bool__(&self) -> bool {
        self.reachable
    }

    fn __repr__(&self) -> String {
        format!(
            "Check(reachable={}, reason={}, is_final={})",
            repr_bool(self.reachable),
            repr_opt(self.reason.as_deref()),
            repr_bool(self.is_final)
        )
    }
}

/// A cell given as Python gives it: its index 0 to 8 or its name `a1` to `c3`.
fn parse_cell(cell: &Bound<'_, PyAny>) -> PyResult<Cell> {
    if is_int(cell) {
        return integer(cell, "cell")?
            .and_then(|i| u8::try_from(i).ok())
            .and_then(Cell::new)
            .ok_or_else(|| value_error(format!("cell {cell}: expected 0 to 8 or a1 to c3")));
    }
    if !cell.is_instance_of::<PyString>() {
        return Err(type_error(
            "cell",
            "an index 0 to 8 or a name a1 to c3",
            cell,
        ));
    }
    let name: String = cell.extract()?;
    name.trim().parse::<Cell>().map_err(value_error)
}

/// A tic-tac-toe position that can occur in a game, with who moved first.
///
/// `Board()` is the empty board with X to move; `Board("xo./.x./..o", first="X")` any
/// reachable board (`ValueError`, saying which rule it breaks, otherwise). Cells are pushed
/// by index (0 to 8, row by row) or name (`"b2"`). Boards pickle (the moves included) and
/// may be subclassed.
#[pyclass(module = "ply.tictactoe", subclass)]
#[derive(Clone, Debug)]
pub struct Board {
    h: History<ttt::Position, Cell>,
}

impl Board {
    fn pos(&self) -> ttt::Position {
        self.h.pos()
    }
}

impl Replay for Board {
    type Pos = ttt::Position;
    type Move = Cell;

    fn history(&self) -> &History<ttt::Position, Cell> {
        &self.h
    }

    fn history_mut(&mut self) -> &mut History<ttt::Position, Cell> {
        &mut self.h
    }

    fn code(&self, m: Cell) -> i64 {
        i64::from(m.index())
    }

    fn root_args<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let root = self.h.root();
        let kwargs = PyDict::new(py);
        kwargs.set_item("first", mark_name(root.first()))?;
        Ok((PyTuple::new(py, [root.board().to_string()])?, kwargs))
    }

    fn play(&mut self, cell: &Bound<'_, PyAny>) -> PyResult<()> {
        let c = parse_cell(cell)?;
        let next = self.pos().play(c).map_err(value_error)?;
        self.h.push(c, next);
        Ok(())
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (cells = None, *, first = None))]
    fn new(cells: Option<&Bound<'_, PyAny>>, first: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        let first = mark_of(first)?;
        let cells = opt_text(cells, "cells")?;
        let pos = match cells {
            None => ttt::Position::start(first),
            Some(c) => ttt::Position::new(parse_board(&c)?, first).map_err(value_error)?,
        };
        Ok(Board {
            h: History::new(pos),
        })
    }

    /// Who moved first: `"X"` or `"O"`.
    #[getter]
    fn first(&self) -> String {
        mark_name(self.pos().first())
    }

    /// Who moves next: `"X"` or `"O"` (also on a finished board).
    #[getter]
    fn turn(&self) -> String {
        mark_name(self.pos().to_move())
    }

    /// The empty cells (0 to 8) that can be played; `[]` when the game is over.
    #[getter]
    fn legal_moves(&self) -> Vec<usize> {
        self.pos().moves().map(|c| usize::from(c.index())).collect()
    }

    /// The cells played since the board was made (0 to 8).
    #[getter]
    fn move_stack(&self) -> Vec<usize> {
        self.h.moves().map(|c| usize::from(c.index())).collect()
    }

    /// Plays `cell`: its index (0 to 8, row by row) or its name (`"b2"`). `ValueError` when
    /// it is taken or the game is over; `TypeError` when it is neither.
    fn push(&mut self, cell: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play(cell)
    }

    /// Takes back the last move; `IndexError` when none was played.
    fn pop(&mut self) -> PyResult<()> {
        self.h
            .pop()
            .map(|_| ())
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no moves played"))
    }

    /// True when a side has three in a row or the board is full.
    fn is_game_over(&self) -> bool {
        self.pos().is_over()
    }

    /// `"X"` or `"O"` when that side has three in a row, else `None`.
    fn winner(&self) -> Option<String> {
        self.pos().winner().map(mark_name)
    }

    /// The value for the side to move under perfect play.
    fn value(&self) -> Value {
        self.pos().value().into()
    }

    /// Every legal move (cell) and its value for the side that plays it.
    fn moves(&self) -> Vec<(u8, Value)> {
        self.pos()
            .analyze()
            .into_iter()
            .map(|(c, v)| (c.index(), v.into()))
            .collect()
    }

    /// Distinct final boards reachable from here, by result.
    fn count_finals(&self) -> Counts {
        self.pos().count_finals().into()
    }

    /// Three rows of `X`, `O` and `.`.
    fn __str__(&self) -> String {
        let rows = self.pos().board().rows();
        rows.iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "Board('{}', first='{}')",
            self.pos().board(),
            self.pos().first().as_char()
        )
    }
}

/// Whether `cells` can occur in a game `first` starts, why not, and whether it is final.
/// `ValueError` only when `cells` cannot be read as a board.
#[pyfunction]
#[pyo3(signature = (cells, *, first = None))]
fn check(cells: &Bound<'_, PyAny>, first: Option<&Bound<'_, PyAny>>) -> PyResult<Check> {
    let (board, first) = (parse_board(&text(cells, "cells")?)?, mark_of(first)?);
    Ok(match ttt::Position::new(board, first) {
        Ok(pos) => Check {
            reachable: true,
            reason: None,
            is_final: pos.is_over(),
        },
        Err(why) => Check {
            reachable: false,
            reason: Some(why.to_string()),
            is_final: false,
        },
    })
}

/// The state-space figures of the game from the empty board.
#[pyclass(module = "ply.tictactoe", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Stats {
    /// Positions reachable from the empty board, the empty board included.
    reachable: u64,
    /// The same, symmetric positions counted once.
    reachable_up_to_symmetry: u64,
    /// Distinct final positions, by result.
    finals: Counts,
    /// Games (move sequences to the end), by result.
    games: Counts,
    /// Games when moves to symmetric positions count as one, by result.
    games_up_to_symmetry: Counts,
}

#[pymethods]
impl Stats {
    fn __repr__(&self) -> String {
        format!(
            "Stats(reachable={}, reachable_up_to_symmetry={}, finals={}, games={}, games_up_to_symmetry={})",
            self.reachable,
            self.reachable_up_to_symmetry,
            self.finals.__repr__(),
            self.games.__repr__(),
            self.games_up_to_symmetry.__repr__()
        )
    }
}

/// The state-space figures (5478 positions, 958 finals, 255168 games with X first).
#[pyfunction]
#[pyo3(signature = (*, first = None))]
fn stats(py: Python<'_>, first: Option<&Bound<'_, PyAny>>) -> PyResult<Stats> {
    let first = mark_of(first)?;
    let s = py.allow_threads(|| ttt::stats(first));
    Ok(Stats {
        reachable: s.reachable,
        reachable_up_to_symmetry: s.reachable_up_to_symmetry,
        finals: s.finals.into(),
        games: s.games.into(),
        games_up_to_symmetry: s.games_up_to_symmetry.into(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Value>()?;
    m.add_class::<Counts>()?;
    m.add_class::<Check>()?;
    m.add_class::<Stats>()?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(stats, m)?)?;
    Ok(())
}

board::protocol!(
    Board,
    "Boards are equal when their marks and who moved first are."
);
