//! `GET /api/ttt/analyze`: a tic-tac-toe position's value and every legal move's, in
//! GAMESMAN's shape. Every answer is a lookup in ply-tictactoe's solved table, so the handler
//! runs inline: there is nothing to wait for.

use axum::{
    extract::{rejection::QueryRejection, Query},
    Json,
};
use ply_core::{Outcome, Value};
use ply_tictactoe::{parse_board, Board, Cell, Mark, Notation, Position};
use serde::Serialize;

use crate::{error::ApiError, params::Params};

/// The answer of `/api/ttt/analyze`.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    /// The position asked about.
    pub position: PositionInfo,
    /// `win`, `lose` or `tie` for the side to move (GAMESMAN's words).
    pub position_value: &'static str,
    /// Moves to the end under perfect play.
    pub remoteness: u32,
    /// Every legal move, cell order.
    pub moves: Vec<MoveValue>,
}

/// The board, who moved first, whose turn it is and whether the game goes on.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct PositionInfo {
    /// Nine cells row by row, `X`, `O` or `.`.
    pub board: String,
    /// Who moved first.
    pub first: char,
    /// The side to move (once the game is over: the side that would move next).
    pub to_move: char,
    /// `playing`, `X wins`, `O wins` or `draw`.
    pub status: &'static str,
}

/// One legal move and its value for the side that makes it.
#[derive(Serialize, Debug)]
pub struct MoveValue {
    /// The cell, 0–8 row by row.
    #[serde(rename = "move")]
    pub cell: u8,
    /// The board after the move.
    pub board: String,
    /// `win`, `lose` or `tie` for the side that makes the move.
    pub value: &'static str,
    /// Moves to the end counting this one, under perfect play.
    pub remoteness: u32,
}

fn word(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "tie",
        Outcome::Loss => "lose",
    }
}

fn cells(board: Board) -> String {
    Cell::all()
        .map(|c| board.get(c).map_or('.', Mark::as_char))
        .collect()
}

const PARAMS: &[&str] = &["board", "first"];

/// Checks the parameters and reads the position.
///
/// # Errors
/// A 400 naming the parameter: a missing board, a bad character (with its place), the wrong
/// number of cells, an unknown first player, or a board no game reaches (and why).
pub fn parse_request(params: &Params) -> Result<Position, ApiError> {
    let first = match params.get("first").map(str::trim) {
        None | Some("x" | "X") => Mark::X,
        Some("o" | "O") => Mark::O,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "`first` must be x or o, found `{other}`"
            )))
        }
    };
    let text = params
        .get("board")
        .ok_or_else(|| ApiError::bad("`board` is missing: give 9 cells such as x.o/.x./..o"))?;
    let board =
        parse_board(text, Notation::Marks).map_err(|e| ApiError::bad(format!("`board`: {e}")))?;
    Position::new(board, first)
        .map_err(|e| ApiError::bad(format!("`board` cannot occur in a game: {e}")))
}

/// The analysis of a position (a few table lookups).
pub fn analyze(pos: &Position) -> Analysis {
    let value: Value = pos.value();
    let status = match pos.winner() {
        Some(Mark::X) => "X wins",
        Some(Mark::O) => "O wins",
        None if pos.is_over() => "draw",
        None => "playing",
    };
    let moves = pos
        .moves()
        .map(|cell| {
            let next = pos.play_unchecked(cell);
            let v = next.value().before_move();
            MoveValue {
                cell: cell.index(),
                board: cells(next.board()),
                value: word(v.outcome),
                remoteness: v.remoteness,
            }
        })
        .collect();
    Analysis {
        position: PositionInfo {
            board: cells(pos.board()),
            first: pos.first().as_char(),
            to_move: pos.to_move().as_char(),
            status,
        },
        position_value: word(value.outcome),
        remoteness: value.remoteness,
        moves,
    }
}

/// The handler.
pub async fn handler(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Analysis>, ApiError> {
    let params = Params::read(query, PARAMS)?;
    let pos = parse_request(&params)?;
    Ok(Json(analyze(&pos)))
}
