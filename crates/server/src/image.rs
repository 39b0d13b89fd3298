//! `GET /api/othello/image`: a picture of a position as SVG (`image/svg+xml`), drawn by the
//! library ([`ply_othello::picture`]) as the page draws its board.
//!
//! The position is read from `text` with the reader `/api/othello/position` and the command
//! line use (a position, an OBF line, a transcript or a GGF game); the last move is the
//! transcript's last, or `last=` names it (the page sends it for a set-up position).
//! `values=d3:+2,c4:~-1.5` writes values on the squares of legal moves, `~` before an
//! estimate, as the page shows them; the server runs no analysis for a picture, so the
//! picture shows what the page showed. Reading and drawing are cheap, so it runs inline.

use axum::{
    extract::{rejection::QueryRejection, Query},
    http::header,
    response::IntoResponse,
};
use ply_othello::{
    picture::{self, Options, Value},
    Move, Position, Square,
};

use crate::{error::ApiError, params::Params, position::read_game};

const PARAMS: &[&str] = &["text", "size", "last", "values", "legal"];

/// The picture's options from the parameters, checked against the position.
///
/// # Errors
/// A 400 naming the parameter and what is wrong: a last move on an empty square, a value on
/// a square that is not a legal move, a value that is not a number of discs, a square given
/// twice, `legal` other than 0 or 1.
pub fn options(params: &Params, pos: &Position, last: Option<Square>) -> Result<Options, ApiError> {
    let last_move = match params.get("last").map(str::trim) {
        None => last,
        Some("" | "none" | "pass") => None,
        Some(t) => {
            let sq = Square::parse(t).map_err(|e| ApiError::bad(format!("`last`: {e}")))?;
            if !sq.is_on(pos.size()) || pos.empties().contains(sq) {
                return Err(ApiError::bad(format!(
                    "`last`: {sq} holds no disc, so no move was played there"
                )));
            }
            Some(sq)
        }
    };
    let legal_moves = match params.get("legal").map(str::trim) {
        None | Some("1" | "true") => true,
        Some("0" | "false") => false,
        Some(t) => {
            return Err(ApiError::bad(format!(
                "`legal` must be 0 or 1, found `{t}`"
            )))
        }
    };
    let values = match params.get("values") {
        None => Vec::new(),
        Some(text) => parse_values(text, pos)?,
    };
    Ok(Options {
        last_move,
        legal_moves,
        values,
    })
}

/// `d3:+2,c4:~-1.5`: squares of legal moves and their values in discs, `~` (or `≈`) before
/// an estimate; empty for none.
fn parse_values(text: &str, pos: &Position) -> Result<Vec<Value>, ApiError> {
    let n = f64::from(pos.size().n());
    let mut values: Vec<Value> = Vec::new();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let Some((sq, v)) = item.split_once(':') else {
            return Err(ApiError::bad(format!(
                "`values`: `{item}` is not `square:value` (as d3:+2 or c4:~-1.5)"
            )));
        };
        let square =
            Square::parse(sq.trim()).map_err(|e| ApiError::bad(format!("`values`: {e}")))?;
        if pos.is_game_over() || !pos.legal_moves().contains(square) {
            return Err(ApiError::bad(format!(
                "`values`: {square} is not a legal move of the position"
            )));
        }
        if values.iter().any(|x| x.square == square) {
            return Err(ApiError::bad(format!("`values`: {square} is given twice")));
        }
        let v = v.trim();
        let (exact, number) = match v.strip_prefix('~').or_else(|| v.strip_prefix('≈')) {
            Some(rest) => (false, rest),
            None => (true, v),
        };
        let discs = number
            .replace('−', "-")
            .parse::<f64>()
            .ok()
            .filter(|d| d.is_finite() && d.abs() <= n * n)
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "`values`: {square}'s value `{v}` is not a number of discs from -{m} to {m}",
                    m = n * n
                ))
            })?;
        values.push(Value {
            square,
            discs,
            exact,
        });
    }
    Ok(values)
}

/// The picture for a request's parameters.
///
/// # Errors
/// A 400 naming the parameter that is wrong.
pub fn picture(params: &Params) -> Result<String, ApiError> {
    let game = read_game(params)?;
    let pos = game.position();
    let last = match game.moves().last() {
        Some(Move::Play(sq)) => Some(*sq),
        _ => None,
    };
    Ok(picture::svg(&pos, &options(params, &pos, last)?))
}

/// The handler.
pub async fn handler(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let params = Params::read(query, PARAMS)?;
    let svg = picture(&params)?;
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
        svg,
    ))
}
