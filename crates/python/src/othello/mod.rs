//! `ply.othello`: a python-chess style `Board` over `ply_othello::Position`, and the solver,
//! the analysis and perft.
//!
//! Moves have two spellings: square names (`"d3"`, `"pass"`) and indices as OpenSpiel and
//! pgx number them: `row * n + col` with a1 = 0 (row 1 at the top), and `n * n` for a pass —
//! 0..=63 and 64 on 8x8, 0..=35 and 36 on 6x6, 0..=15 and 16 on 4x4.

use ply_othello::{
    input,
    obf::{ObfLine, ScoredMove},
    text, transcript, BoardSize, Color, Move, Position, Square,
};
use pyo3::{
    exceptions::PyIndexError,
    prelude::*,
    types::{PyDict, PyString, PyTuple, PyType},
};

use crate::{
    args::{
        f32_array, int_in, integer, is_int, mask_array, opt_text, text as text_arg, type_error,
        value_error,
    },
    board::{self, History, Replay},
    repr_opt,
};

mod analysis;
mod book;
mod engines;
mod games;
mod opening;
mod solve;

/// OpenSpiel's player id of a finished game (`pyspiel.PlayerId.TERMINAL`).
const TERMINAL_PLAYER: i64 = -4;

/// A board size given as Python gives it: 4, 6 or 8, the 8x8 board when `None`.
fn size_arg(size: Option<&Bound<'_, PyAny>>) -> PyResult<BoardSize> {
    let Some(size) = size else {
        return Ok(BoardSize::Eight);
    };
    // An int, read by the library's one reader of a size, with its message.
    let n = integer(size, "size")?;
    let text = n.map_or_else(|| size.to_string(), |n| n.to_string());
    text.parse::<BoardSize>()
        .map_err(|e| value_error(format!("size={size}: {e}")))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "X",
        Color::White => "O",
    }
}

/// OpenSpiel's player number: 0 for black, 1 for white.
fn player_of(c: Color) -> i64 {
    match c {
        Color::Black => 0,
        Color::White => 1,
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

/// The move with index `index` (`None`: beyond `i64`) on a board of `size`.
fn move_of_index(
    index: Option<i64>,
    shown: &dyn std::fmt::Display,
    size: BoardSize,
) -> PyResult<Move> {
    let n = i64::from(size.n());
    let pass = n * n;
    match index {
        Some(i) if i == pass => Ok(Move::Pass),
        Some(i) if (0..pass).contains(&i) => {
            let (row, col) = (i / n, i % n);
            Ok(Move::Play(
                Square::new(
                    u8::try_from(col).expect("below 8"),
                    u8::try_from(row).expect("below 8"),
                )
                .expect("on the board"),
            ))
        }
        _ => Err(value_error(format!(
            "move index {shown}: expected 0 to {last} (a square) or {pass} (a pass) on the {n}x{n} board",
            last = pass - 1
        ))),
    }
}

/// A move given as a name (`"d3"`, `"pass"`) or an index; `TypeError` for anything else.
fn parse_move(mv: &Bound<'_, PyAny>, size: BoardSize) -> PyResult<Move> {
    if is_int(mv) {
        return move_of_index(mv.extract::<i64>().ok(), mv, size);
    }
    if !mv.is_instance_of::<PyString>() {
        return Err(type_error(
            "move",
            "a square name like \"d3\", \"pass\" or an index",
            mv,
        ));
    }
    let name: String = mv.extract()?;
    let name = name.trim();
    if name.eq_ignore_ascii_case("pass") || name.eq_ignore_ascii_case("pa") {
        return Ok(Move::Pass);
    }
    let sq = Square::parse(name).map_err(value_error)?;
    if sq.col() >= size.n() || sq.row() >= size.n() {
        return Err(value_error(format!(
            "{sq} is not on the {n}x{n} board",
            n = size.n()
        )));
    }
    Ok(Move::Play(sq))
}

/// The constructor's arguments for `pos`: its cells and the side to move.
fn cells_and_turn(pos: &Position) -> (String, &'static str) {
    let s = text::format_position(pos);
    (s[..s.len() - 2].to_owned(), color_name(pos.turn()))
}

/// The position of a board argument: a [`Board`] (or a subclass), or text read as the command
/// line reads a position (the library's one reader, [`input::parse_position_or_transcript`]):
/// a transcript from the start (`"f5d6"`), cells and side to move, an OBF line or a GGF game.
fn board_arg(obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(b) = obj.downcast::<Board>() {
        return Ok(b.borrow().pos());
    }
    if !obj.is_instance_of::<PyString>() {
        return Err(type_error(
            "board",
            "a Board or a string (a transcript like \"f5d6\", a position, an OBF line)",
            obj,
        ));
    }
    let text: String = obj.extract()?;
    // The reader refuses a position without its centre discs.
    let game = input::parse_position_or_transcript(&text, BoardSize::Eight)
        .map_err(|e| value_error(format!("board: {e}")))?;
    Ok(game.position())
}

/// The pass, where the side to move must pass; `None` where it has a move or the game is over.
fn forced_move(pos: &Position) -> Option<Move> {
    (!pos.can_move() && !pos.is_game_over()).then_some(Move::Pass)
}

/// What an OBF line says besides its position: its scored moves and its comment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct ObfNotes {
    scores: Vec<ScoredMove>,
    comment: Option<String>,
}

/// An Othello position and the moves that led to it (python-chess style), with OpenSpiel's
/// state methods (`current_player`, `returns`, `history`, `observation_tensor`,
/// `legal_actions_mask`).
///
/// `Board()` is the 8x8 start, `Board(size=6)` the 6x6 start, `Board(cells, turn)` any
/// position: `cells` are the n*n squares row by row (`X`/`*`/`B` black, `O`/`W` white,
/// `-`/`.` empty), `turn` is `"X"` (black) or `"O"` (white). Moves are pushed by name
/// (`"d3"`, `"pass"`) or index (`row * n + col`, `n * n` for a pass, as in OpenSpiel).
/// Boards pickle (the moves included) and may be subclassed.
#[pyclass(module = "ply.othello", subclass)]
#[derive(Clone, Debug)]
pub struct Board {
    h: History<Position, Move>,
    /// The OBF line's scores and comment, for a board read by `from_obf`.
    notes: ObfNotes,
}

impl Board {
    fn pos(&self) -> Position {
        self.h.pos()
    }

    fn legal(&self) -> Vec<Move> {
        let pos = self.pos();
        if pos.is_game_over() {
            Vec::new()
        } else if pos.can_move() {
            pos.legal_moves().map(Move::Play).collect()
        } else {
            vec![Move::Pass]
        }
    }

    /// The player whose view a tensor takes: `player`, or the side to move.
    fn viewer(&self, player: Option<&Bound<'_, PyAny>>) -> PyResult<Color> {
        match player {
            Some(p) => Ok(if int_in(p, "player", 0, 1)? == 0 {
                Color::Black
            } else {
                Color::White
            }),
            None if self.pos().is_game_over() => Err(value_error(
                "the game is over: give the player (0 for black, 1 for white)",
            )),
            None => Ok(self.pos().turn()),
        }
    }
}

impl Replay for Board {
    type Pos = Position;
    type Move = Move;

    fn history(&self) -> &History<Position, Move> {
        &self.h
    }

    fn history_mut(&mut self) -> &mut History<Position, Move> {
        &mut self.h
    }

    fn code(&self, m: Move) -> i64 {
        i64::try_from(move_index(m, self.pos().size())).expect("below 65")
    }

    fn root_args<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let (cells, turn) = cells_and_turn(&self.h.root());
        Ok((PyTuple::new(py, [cells, turn.to_owned()])?, PyDict::new(py)))
    }

    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = parse_move(mv, self.pos().size())?;
        let next = self.pos().play_move(m).map_err(value_error)?;
        self.h.push(m, next);
        Ok(())
    }

    /// The OBF line's scores (as `(move, score)` pairs, in the line's order) and comment.
    fn extra_state<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.notes == ObfNotes::default() {
            return Ok(None);
        }
        let scores: Vec<(String, i32)> = self
            .notes
            .scores
            .iter()
            .map(|m| (m.mv.to_string(), m.score))
            .collect();
        Ok(Some(
            (scores, self.notes.comment.clone())
                .into_pyobject(py)?
                .into_any(),
        ))
    }

    fn set_extra_state(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let (scores, comment): (Vec<(Bound<'_, PyAny>, i32)>, Option<String>) = state.extract()?;
        let size = self.h.root().size();
        let scores = scores
            .iter()
            .map(|(mv, score)| {
                Ok(ScoredMove {
                    mv: parse_move(mv, size)?,
                    score: *score,
                })
            })
            .collect::<PyResult<_>>()?;
        self.notes = ObfNotes { scores, comment };
        Ok(())
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (cells = None, turn = None, *, size = None))]
    fn new(
        cells: Option<&Bound<'_, PyAny>>,
        turn: Option<&Bound<'_, PyAny>>,
        size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Board> {
        let (cells, turn) = (opt_text(cells, "cells")?, opt_text(turn, "turn")?);
        let pos = match (cells, turn) {
            (None, None) => Position::start(size_arg(size)?),
            (None, Some(_)) => return Err(value_error("turn given without cells")),
            (Some(cells), turn) => {
                let text = match turn {
                    Some(t) => format!("{cells} {t}"),
                    None => cells,
                };
                let pos = text::parse_position(&text).map_err(value_error)?;
                if size.is_some() {
                    let n = size_arg(size)?;
                    if pos.size() != n {
                        return Err(value_error(format!(
                            "size={}: the cells make a {m}x{m} board",
                            n.n(),
                            m = pos.size().n()
                        )));
                    }
                }
                pos
            }
        };
        Ok(Board {
            h: History::new(pos),
            notes: ObfNotes::default(),
        })
    }

    /// The position of an OBF line (`board turn;`, then optional scored moves `G8:+18;` and a
    /// `% comment`), read as `ply othello solve --obf` reads it (Edax's unused slots
    /// `--:-127` skipped). The board keeps the line's scores (`scores`) and comment
    /// (`comment`).
    #[classmethod]
    fn from_obf<'py>(
        cls: &Bound<'py, PyType>,
        line: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Board>> {
        let line = text_arg(line, "line")?;
        let obf = ObfLine::parse(&line).map_err(value_error)?;
        let pos = obf.position;
        let board = board::new_of::<Board>(cls, History::new(pos))?;
        board.borrow_mut().notes = ObfNotes {
            scores: obf.moves,
            comment: obf.comment,
        };
        Ok(board)
    }

    /// The scores of the OBF line the board was read from (`from_obf`), move name to exact
    /// score in discs for the side to move, in the line's order; `{}` for any other board.
    /// They score the line's position: the board's first, before any move pushed.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for m in &self.notes.scores {
            d.set_item(m.mv.to_string(), m.score)?;
        }
        Ok(d)
    }

    /// The comment of the OBF line the board was read from (the text after its `%`);
    /// `None` when it had none, or the board was not read from one.
    #[getter]
    fn comment(&self) -> Option<String> {
        self.notes.comment.clone()
    }

    /// The game of a transcript (`"f5d6c3"`, passes implicit or written `pass`/`PA`) from
    /// the start of a `size` board: its moves are the board's `move_stack`.
    #[classmethod]
    #[pyo3(signature = (transcript, *, size = None))]
    fn from_transcript<'py>(
        cls: &Bound<'py, PyType>,
        transcript: &Bound<'py, PyAny>,
        size: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Board>> {
        let transcript = text_arg(transcript, "transcript")?;
        let game = transcript::parse(&transcript, Position::start(size_arg(size)?))
            .map_err(value_error)?;
        board::new_of(cls, History::of_game(game.plies(), game.position()))
    }

    /// The board's side: 4, 6 or 8.
    #[getter]
    fn size(&self) -> u8 {
        self.pos().size().n()
    }

    /// The side to move: `"X"` (black) or `"O"` (white).
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.pos().turn())
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
        let size = self.pos().size();
        self.legal().iter().map(|&m| move_index(m, size)).collect()
    }

    /// The moves played since the board was made, by name.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.h.moves().map(|m| m.to_string()).collect()
    }

    /// Black's and white's disc counts.
    #[getter]
    fn discs(&self) -> (u32, u32) {
        (
            self.pos().disc_count(Color::Black),
            self.pos().disc_count(Color::White),
        )
    }

    /// True when `mv` (a name or an index) can be played now.
    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> bool {
        parse_move(mv, self.pos().size()).is_ok_and(|m| self.pos().play_move(m).is_ok())
    }

    /// Plays `mv`: a name (`"d3"`, `"pass"`) or an index. `ValueError` when it is not
    /// legal, saying why; `TypeError` when it is neither a name nor an index.
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play(mv)
    }

    /// Takes back the last move and returns its name; `IndexError` when none was played.
    fn pop(&mut self) -> PyResult<String> {
        self.h
            .pop()
            .map(|m| m.to_string())
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no moves played"))
    }

    /// The index of the move named `name` on this board's size.
    fn move_index(&self, name: &Bound<'_, PyAny>) -> PyResult<usize> {
        let size = self.pos().size();
        Ok(move_index(parse_move(name, size)?, size))
    }

    /// The name of the move with index `index` on this board's size.
    fn move_name(&self, index: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(move_of_index(integer(index, "index")?, index, self.pos().size())?.to_string())
    }

    /// True when neither side can move.
    fn is_game_over(&self) -> bool {
        self.pos().is_game_over()
    }

    /// OpenSpiel's player to move: 0 (black), 1 (white), or -4
    /// (`pyspiel.PlayerId.TERMINAL`) when the game is over.
    fn current_player(&self) -> i64 {
        if self.pos().is_game_over() {
            TERMINAL_PLAYER
        } else {
            player_of(self.pos().turn())
        }
    }

    /// OpenSpiel's returns, black's then white's: 1 for the side with more discs at the end,
    /// -1 for the other, 0 each for a draw and before the end.
    fn returns(&self) -> [f64; 2] {
        let pos = self.pos();
        if !pos.is_game_over() {
            return [0.0, 0.0];
        }
        match pos
            .disc_count(Color::Black)
            .cmp(&pos.disc_count(Color::White))
        {
            std::cmp::Ordering::Greater => [1.0, -1.0],
            std::cmp::Ordering::Less => [-1.0, 1.0],
            std::cmp::Ordering::Equal => [0.0, 0.0],
        }
    }

    /// The moves played since the board was made, as OpenSpiel's actions (`history()` of
    /// an OpenSpiel state), passes included.
    fn history(&self) -> Vec<i64> {
        self.h.moves().map(|m| self.code(m)).collect()
    }

    /// OpenSpiel's observation tensor for `player` (the side to move by default): three
    /// planes of n*n cells, flat (reshape to `(3, n, n)`): empty squares, `player`'s discs,
    /// the opponent's. A float32 numpy array when numpy is installed, else a list of floats.
    #[pyo3(signature = (player = None))]
    fn observation_tensor(
        &self,
        py: Python<'_>,
        player: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyObject> {
        let me = self.viewer(player)?;
        let pos = self.pos();
        let n = pos.size().n();
        let cells = usize::from(n) * usize::from(n);
        let mut values = vec![0.0f32; 3 * cells];
        let (mine, theirs) = (pos.discs(me), pos.discs(me.other()));
        for row in 0..n {
            for col in 0..n {
                let sq = Square::new(col, row).expect("on the board");
                let plane = if mine.contains(sq) {
                    1
                } else if theirs.contains(sq) {
                    2
                } else {
                    0
                };
                let cell = usize::from(row) * usize::from(n) + usize::from(col);
                values[plane * cells + cell] = 1.0;
            }
        }
        f32_array(py, &values)
    }

    /// OpenSpiel's legal actions mask: n*n+1 entries, true for the legal actions (a numpy
    /// bool array when numpy is installed, else a list of 0 and 1).
    fn legal_actions_mask(&self, py: Python<'_>) -> PyResult<PyObject> {
        let n = usize::from(self.pos().size().n());
        let mut mask = vec![false; n * n + 1];
        for a in self.legal_actions() {
            mask[a] = true;
        }
        mask_array(py, &mask)
    }

    /// The result when the game is over, else `None`.
    fn outcome(&self) -> Option<Outcome> {
        let pos = self.pos();
        if !pos.is_game_over() {
            return None;
        }
        let own = pos.final_score();
        let score = match pos.turn() {
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
            black: pos.disc_count(Color::Black),
            white: pos.disc_count(Color::White),
            score,
        })
    }

    /// The position as an OBF line: `cells turn;`.
    fn obf(&self) -> String {
        ObfLine {
            position: self.pos(),
            moves: Vec::new(),
            comment: None,
        }
        .to_string()
    }

    /// The board drawn for the terminal, legal moves marked `.`.
    fn __str__(&self) -> String {
        text::picture(&self.pos(), self.pos().legal_moves())
    }

    fn __repr__(&self) -> String {
        let (cells, turn) = cells_and_turn(&self.pos());
        format!("Board('{cells}', '{turn}')")
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<solve::SolveResult>()?;
    analysis::register(m)?;
    book::register(m)?;
    games::register(m)?;
    engines::register(m)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::perft, m)?)?;
    opening::register(m)?;
    Ok(())
}

board::protocol!(Board, "Boards are equal when their positions are (size, discs, side to move); the moves that led there do not count.");
