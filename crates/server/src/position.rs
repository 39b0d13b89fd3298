//! `GET /api/othello/position`: reads what a person pastes — a position, an OBF line, a
//! transcript or a GGF game — with the same reader as the command line
//! ([`ply_othello::input::parse_position_or_transcript`]), so that the page and `ply othello
//! show` accept and refuse the same texts with the same messages. A transcript is played on
//! `size` when it is legal there, else on the board size it is written for. The page calls
//! it on Load and after every edit of a set-up board, and keeps its own rules only for
//! playing moves.

use axum::{
    extract::{rejection::QueryRejection, Query},
    Json,
};
use ply_othello::{analyze::Status, input, text, transcript, BoardSize, GameRecord, Move};
use serde::Serialize;

use crate::{error::ApiError, params::Params};

/// One position of the game read.
#[derive(Serialize, Debug)]
pub struct Step {
    /// The board as `n * n` cells, `X`, `O` or `.`, row by row.
    pub position: String,
    /// The side to move, `X` or `O`.
    pub turn: char,
    /// `play`, `pass` or `over`.
    pub status: &'static str,
}

/// The answer: the game the text describes.
#[derive(Serialize, Debug)]
pub struct Read {
    /// Squares on a side.
    pub size: u8,
    /// The moves played from the first position (`pass` for a pass); empty for a position.
    pub moves: Vec<String>,
    /// The first position and the one after every move: `moves.len() + 1` entries.
    pub positions: Vec<Step>,
    /// The moves as a transcript (`f5d6c3…`, passes left out but at the end).
    pub transcript: String,
    /// The last position as the board part of an OBF line (`X`/`O`/`-`, then the side to move).
    pub obf: String,
}

const PARAMS: &[&str] = &["text", "size"];

/// Reads the text.
///
/// # Errors
/// A 400 naming the parameter: a missing text, a bad size, or the reader's message (which
/// names the character or the move that is wrong), or a position no game reaches.
pub fn read(params: &Params) -> Result<Read, ApiError> {
    let game = read_game(params)?;
    let mut positions = vec![step(&game.start())];
    let mut moves = Vec::with_capacity(game.moves().len());
    for (before, m) in game.plies() {
        let after = before.play_move(m).expect("a move the reader accepted");
        moves.push(match m {
            Move::Pass => "pass".to_owned(),
            Move::Play(sq) => sq.to_string(),
        });
        positions.push(step(&after));
    }
    let last = game.position();
    Ok(Read {
        size: last.size().n(),
        moves,
        positions,
        transcript: transcript::format(&game),
        obf: text::format_position(&last),
    })
}

/// The game that `text` (on `size`) describes: the one reader of pasted text that this
/// endpoint and `/api/othello/image` share with the command line.
///
/// # Errors
/// A 400 naming the parameter: a missing or empty text, a bad size, the reader's message, or
/// a position no game reaches.
pub fn read_game(params: &Params) -> Result<GameRecord, ApiError> {
    let size = match params.get("size") {
        None => BoardSize::Eight,
        Some(t) => t
            .parse::<BoardSize>()
            .map_err(|e| ApiError::bad(format!("`size`: {e}")))?,
    };
    let Some(input) = params.get("text") else {
        return Err(ApiError::bad(
            "`text` is missing: a position, an OBF line, a transcript or a GGF game",
        ));
    };
    if input.trim().is_empty() {
        return Err(ApiError::bad(
            "`text` is empty: paste a position, an OBF line, a transcript or a GGF game",
        ));
    }
    // The reader refuses a position without its centre discs.
    input::parse_position_or_transcript(input, size)
        .map_err(|e| ApiError::bad(format!("`text`: {e}")))
}

fn step(pos: &ply_othello::Position) -> Step {
    Step {
        position: ply_othello::text::cells(pos),
        turn: pos.turn().symbol(),
        status: Status::of(pos).name(),
    }
}

/// The handler; reading is cheap, so it runs inline.
pub async fn handler(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Read>, ApiError> {
    let params = Params::read(query, PARAMS)?;
    Ok(Json(read(&params)?))
}
