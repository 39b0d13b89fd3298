//! `ply.othello`: a python-chess style `Board` over `ply_othello::Position`, and the solver,
//! the analysis and perft.
//!
//! Moves have two spellings: square names (`"d3"`, `"pass"`) and indices as OpenSpiel and
//! pgx number them: `row * n + col` with a1 = 0 (row 1 at the top), and `n * n` for a pass —
//! 0..=63 and 64 on 8x8, 0..=35 and 36 on 6x6, 0..=15 and 16 on 4x4.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::Duration,
};

use ply_othello::{
    obf::ObfLine,
    perft as lib_perft,
    solve::{SolveControl, SolveOptions, Solver},
    text, BoardSize, Color, Move, Position, Square,
};
use pyo3::{exceptions::PyIndexError, exceptions::PyValueError, prelude::*};

use crate::{analyze as analysis, hash_of, interrupt, repr_bool, repr_list, repr_opt};

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn size_of(n: u8) -> PyResult<BoardSize> {
    BoardSize::from_n(n).ok_or_else(|| value_error(format!("size {n}: expected 4, 6 or 8")))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "X",
        Color::White => "O",
    }
}

/// The index of a move on a board of `size` (`row * n + col`, `n * n` for a pass).
fn move_index(m: Move, size: BoardSize) -> usize {
    let n = usize::from(size.n());
    match m {
        Move::Play(sq) => usize::from(sq.row()) * n + usize::from(sq.col()),
        Move::Pass => n * n,
    }
}

/// The move with index `index` on a board of `size`.
fn move_of_index(index: i64, size: BoardSize) -> PyResult<Move> {
    let n = i64::from(size.n());
    let pass = n * n;
    if index == pass {
        return Ok(Move::Pass);
    }
    if !(0..pass).contains(&index) {
        return Err(value_error(format!(
            "move index {index}: expected 0 to {last} (a square) or {pass} (a pass) on the {n}x{n} board",
            last = pass - 1
        )));
    }
    let (row, col) = (index / n, index % n);
    Square::new(
        u8::try_from(col).expect("below 8"),
        u8::try_from(row).expect("below 8"),
    )
    .map(Move::Play)
    .ok_or_else(|| value_error(format!("move index {index} is off the board")))
}

/// A move given as a name (`"d3"`, `"pass"`) or an index.
fn parse_move(mv: &Bound<'_, PyAny>, size: BoardSize) -> PyResult<Move> {
    if let Ok(index) = mv.extract::<i64>() {
        return move_of_index(index, size);
    }
    let Ok(name) = mv.extract::<String>() else {
        return Err(value_error(format!(
            "move {mv}: expected a square name like \"d3\", \"pass\" or an index"
        )));
    };
    let name = name.trim();
    if name.eq_ignore_ascii_case("pass") || name.eq_ignore_ascii_case("pa") {
        Ok(Move::Pass)
    } else {
        Square::parse(name).map(Move::Play).map_err(value_error)
    }
}

/// An Othello position and the moves that led to it (python-chess style).
///
/// `Board()` is the 8x8 start, `Board(size=6)` the 6x6 start, `Board(cells, turn)` any
/// position: `cells` are the n*n squares row by row (`X`/`*`/`B` black, `O`/`W` white,
/// `-`/`.` empty), `turn` is `"X"` (black) or `"O"` (white). Moves are pushed by name
/// (`"d3"`, `"pass"`) or index (`row * n + col`, `n * n` for a pass, as in OpenSpiel).
#[pyclass(module = "ply.othello")]
#[derive(Clone, Debug)]
pub struct Board {
    pos: Position,
    stack: Vec<(Position, Move)>,
}

impl Board {
    fn of(pos: Position) -> Board {
        Board {
            pos,
            stack: Vec::new(),
        }
    }

    fn legal(&self) -> Vec<Move> {
        if self.pos.is_game_over() {
            Vec::new()
        } else if self.pos.can_move() {
            self.pos.legal_moves().map(Move::Play).collect()
        } else {
            vec![Move::Pass]
        }
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (cells = None, turn = None, *, size = None))]
    fn new(cells: Option<&str>, turn: Option<&str>, size: Option<u8>) -> PyResult<Board> {
        let pos = match (cells, turn) {
            (None, None) => Position::start(size_of(size.unwrap_or(8))?),
            (None, Some(_)) => return Err(value_error("turn given without cells")),
            (Some(cells), turn) => {
                let text = match turn {
                    Some(t) => format!("{cells} {t}"),
                    None => cells.to_owned(),
                };
                let pos = text::parse_position(&text).map_err(value_error)?;
                if let Some(n) = size {
                    if pos.size() != size_of(n)? {
                        return Err(value_error(format!(
                            "size {n}: the cells make a {m}x{m} board",
                            m = pos.size().n()
                        )));
                    }
                }
                pos
            }
        };
        Ok(Board::of(pos))
    }

    /// The position of an OBF line (`board turn;` and optional scored moves).
    #[staticmethod]
    fn from_obf(line: &str) -> PyResult<Board> {
        ObfLine::parse(line)
            .map(|l| Board::of(l.position))
            .map_err(value_error)
    }

    /// The board's side: 4, 6 or 8.
    #[getter]
    fn size(&self) -> u8 {
        self.pos.size().n()
    }

    /// The side to move: `"X"` (black) or `"O"` (white).
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.pos.turn())
    }

    /// Legal moves by name: squares in index order, `["pass"]` when the side to move must
    /// pass, `[]` when the game is over.
    #[getter]
    fn legal_moves(&self) -> Vec<String> {
        self.legal().iter().map(ToString::to_string).collect()
    }

    /// Legal moves by index (`row * n + col`, `n * n` for a pass), as OpenSpiel lists them.
    #[getter]
    fn legal_actions(&self) -> Vec<usize> {
        let size = self.pos.size();
        self.legal().iter().map(|&m| move_index(m, size)).collect()
    }

    /// The moves played since the board was made, by name.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.stack.iter().map(|(_, m)| m.to_string()).collect()
    }

    /// Black's and white's disc counts.
    #[getter]
    fn discs(&self) -> (u32, u32) {
        (
            self.pos.disc_count(Color::Black),
            self.pos.disc_count(Color::White),
        )
    }

    /// True when `mv` (a name or an index) can be played now.
    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> bool {
        parse_move(mv, self.pos.size()).is_ok_and(|m| self.pos.play_move(m).is_ok())
    }

    /// Plays `mv`: a name (`"d3"`, `"pass"`) or an index. Raises `ValueError` when it is not
    /// legal, saying why.
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = parse_move(mv, self.pos.size())?;
        let next = self.pos.play_move(m).map_err(value_error)?;
        self.stack.push((self.pos, m));
        self.pos = next;
        Ok(())
    }

    /// Takes back the last move and returns its name; `IndexError` when none was played.
    fn pop(&mut self) -> PyResult<String> {
        let (pos, m) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no moves played"))?;
        self.pos = pos;
        Ok(m.to_string())
    }

    /// The index of the move named `name` on this board's size.
    fn move_index(&self, name: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(move_index(
            parse_move(name, self.pos.size())?,
            self.pos.size(),
        ))
    }

    /// The name of the move with index `index` on this board's size.
    fn move_name(&self, index: i64) -> PyResult<String> {
        Ok(move_of_index(index, self.pos.size())?.to_string())
    }

    /// True when neither side can move.
    fn is_game_over(&self) -> bool {
        self.pos.is_game_over()
    }

    /// The result when the game is over, else `None`.
    fn outcome(&self) -> Option<Outcome> {
        if !self.pos.is_game_over() {
            return None;
        }
        let own = self.pos.final_score();
        let score = match self.pos.turn() {
            Color::Black => own,
            Color::White => -own,
        };
        let winner = match score.signum() {
            1 => Some("X"),
            -1 => Some("O"),
            _ => None,
        };
        Some(Outcome {
            winner,
            black: self.pos.disc_count(Color::Black),
            white: self.pos.disc_count(Color::White),
            score,
        })
    }

    /// The position as an OBF line: `cells turn;`.
    fn obf(&self) -> String {
        ObfLine {
            position: self.pos,
            moves: Vec::new(),
        }
        .to_string()
    }

    /// A copy with the same position and moves.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// Boards are equal when their positions are (size, discs, side to move); the moves that
    /// led there do not count.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, Board>>()
            .is_ok_and(|o| o.pos == self.pos)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.pos)
    }

    /// The board drawn for the terminal, legal moves marked `.`.
    fn __str__(&self) -> String {
        text::picture(&self.pos, self.pos.legal_moves())
    }

    fn __repr__(&self) -> String {
        let s = text::format_position(&self.pos);
        let (cells, turn) = s.split_at(s.len() - 2);
        format!("Board('{cells}', '{}')", turn.trim())
    }
}

/// How a finished game ended.
#[pyclass(module = "ply.othello", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Outcome {
    /// `"X"` (black), `"O"` (white) or `None` for a draw.
    winner: Option<&'static str>,
    /// Black's discs on the board.
    black: u32,
    /// White's discs on the board.
    white: u32,
    /// The final score from black's view, empty squares to the winner.
    score: i32,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(winner={}, black={}, white={}, score={})",
            repr_opt(self.winner),
            self.black,
            self.white,
            self.score
        )
    }
}

/// The exact result of a position.
#[pyclass(module = "ply.othello", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// The exact score for the side to move (disc difference, empties to the winner).
    score: i32,
    /// A best move, or `None` when the side to move must pass or the game is over.
    best_move: Option<String>,
    /// A principal variation from the position, passes included.
    line: Vec<String>,
    /// Positions searched.
    nodes: u64,
}

#[pymethods]
impl SolveResult {
    fn __repr__(&self) -> String {
        format!(
            "SolveResult(score={}, best_move={}, line={}, nodes={})",
            self.score,
            repr_opt(self.best_move.as_deref()),
            repr_list(&self.line),
            self.nodes
        )
    }
}

/// Solves `board` exactly: score, best move and line. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (board, *, threads = 1, hash_mb = 64))]
fn solve(py: Python<'_>, board: &Board, threads: usize, hash_mb: usize) -> PyResult<SolveResult> {
    let options = SolveOptions { threads, hash_mb }.checked().map_err(|e| {
        let name = e.option.replace('-', "_");
        value_error(format!("{name}={}: expected 1 to {}", e.value, e.max))
    })?;
    let pos = board.pos;
    let stop = AtomicBool::new(false);
    // The table is made on the worker too: a large one takes a while to clear, and the GIL
    // stays free meanwhile.
    let found = interrupt::run(py, &stop, || {
        Solver::try_new(options).map(|mut solver| {
            solver.solve_with(
                &pos,
                SolveControl {
                    stop: Some(&stop),
                    ..SolveControl::default()
                },
            )
        })
    })?;
    let r = found
        .map_err(|e| pyo3::exceptions::PyMemoryError::new_err(format!("hash_mb={hash_mb}: {e}")))?
        .map_err(|_| value_error("the solve was stopped"))?;
    Ok(SolveResult {
        score: r.score,
        best_move: r.best_move.map(|s| s.to_string()),
        line: r.pv.iter().map(ToString::to_string).collect(),
        nodes: r.nodes,
    })
}

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
}

#[pymethods]
impl MoveScore {
    fn __repr__(&self) -> String {
        format!(
            "MoveScore(move='{}', score={}, exact={})",
            self.mv,
            self.score,
            repr_bool(self.exact)
        )
    }
}

/// What `analyze` found.
#[pyclass(module = "ply.othello", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Every legal move, best first.
    moves: Vec<MoveScore>,
    /// The move to play; `None` for a pass or when the game is over.
    best: Option<String>,
    /// The position's score for the side to move, in discs.
    score: f64,
    /// True when `score` and every move's score are exact.
    exact: bool,
    /// The expected line, passes included.
    line: Vec<String>,
    /// Plies searched (the empty squares when the solver answered).
    depth: u32,
    /// Positions searched.
    nodes: u64,
    /// `"solver"`, `"midgame"`, `"mixed"` or `"book"`.
    engine: &'static str,
}

#[pymethods]
impl Analysis {
    fn __repr__(&self) -> String {
        format!(
            "Analysis(score={}, exact={}, best={}, engine='{}', depth={}, moves={})",
            self.score,
            repr_bool(self.exact),
            repr_opt(self.best.as_deref()),
            self.engine,
            self.depth,
            self.moves.len()
        )
    }
}

/// Every legal move's score within `time` seconds: exact when the solver finishes, else
/// estimated by the midgame engine. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (board, *, time = 1.0))]
fn analyze(py: Python<'_>, board: &Board, time: f64) -> PyResult<Analysis> {
    if !(time.is_finite() && time > 0.0 && time <= 86_400.0) {
        return Err(value_error(format!(
            "time={time}: expected seconds, more than 0 and at most 86400"
        )));
    }
    let pos = board.pos;
    let size = pos.size();
    let stop = Arc::new(AtomicBool::new(false));
    let found = interrupt::run(py, &stop, || {
        analysis::analyze(&pos, Duration::from_secs_f64(time), &stop)
    })?;
    Ok(Analysis {
        moves: found
            .moves
            .iter()
            .map(|m| MoveScore {
                mv: m.square.to_string(),
                index: move_index(Move::Play(m.square), size),
                score: m.score,
                exact: m.exact,
            })
            .collect(),
        best: found.best.map(|s| s.to_string()),
        score: found.score,
        exact: found.exact,
        line: found.line.iter().map(ToString::to_string).collect(),
        depth: found.depth,
        nodes: found.nodes,
        engine: found.engine,
    })
}

/// Subtrees at most this deep are counted by one library call (a fraction of a second on
/// 8x8); deeper ones are split, so that the stop flag is seen between the calls.
const PERFT_CHUNK: u32 = 9;

/// The library's perft, split into subtrees of at most [`PERFT_CHUNK`] plies with a look at
/// `stop` between them. `None` when stopped.
fn perft_stoppable(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= PERFT_CHUNK {
        return Some(lib_perft::perft(pos, depth));
    }
    let children = lib_perft::divide(pos, 1);
    if children.is_empty() {
        return Some(lib_perft::perft(pos, depth));
    }
    let mut total = 0;
    for (m, _) in children {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let child = pos.play_move(m).expect("divide lists legal moves");
        total += perft_stoppable(&child, depth - 1, stop)?;
    }
    Some(total)
}

/// Leaves of the game tree from `board` to `depth` plies (a pass is a ply; a finished game is
/// one leaf at every depth past its end). Releases the GIL; Ctrl-C stops it.
#[pyfunction]
fn perft(py: Python<'_>, board: &Board, depth: u32) -> PyResult<u64> {
    if depth > 64 {
        return Err(value_error(format!("depth {depth}: expected 0 to 64")));
    }
    let pos = board.pos;
    let stop = AtomicBool::new(false);
    interrupt::run(py, &stop, || perft_stoppable(&pos, depth, &stop))?
        .ok_or_else(|| value_error("perft was stopped"))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<SolveResult>()?;
    m.add_class::<MoveScore>()?;
    m.add_class::<Analysis>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    Ok(())
}
