//! `ply.othello.opening_name(board)`: the standard name of the opening of a board's game, from
//! the library's list (`ply_othello::opening`), which names positions up to the board's eight
//! symmetries, so mirror images and transpositions are named too.

use ply_othello::{opening, GameRecord};
use pyo3::prelude::*;

use super::Board;

/// The standard name of the opening of `board` (`"Tiger"`, `"Rose"`, ...): the name of the
/// last position of its game that has one, so that a game that left the named lines keeps
/// its opening's name; for a board set up without moves, its position's own. `None` before
/// the first named position, off the named lines, and on 4x4 and 6x6 boards.
///
/// >>> from ply.othello import Board, opening_name
/// >>> b = Board()
/// >>> for m in ["f5", "d6", "c3", "d3", "c4"]:
/// ...     b.push(m)
/// >>> opening_name(b)
/// 'Tiger'
/// >>> b.push("g5")
/// >>> opening_name(b)
/// 'Tiger'
/// >>> opening_name(Board()) is None
/// True
#[pyfunction]
fn opening_name(board: &Board) -> Option<&'static str> {
    let mut game = GameRecord::new(board.h.root());
    for m in board.h.moves() {
        if game.play(m).is_err() {
            // Only legal moves are pushed; were one not, the position alone still has a name.
            return opening::name(&board.pos());
        }
    }
    opening::name_of_game(&game)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(opening_name, m)?)
}
