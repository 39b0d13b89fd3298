//! `GET /api/othello/explore`: every legal move of an 8x8 position with how often the games
//! of the server's WTHOR databases played it and how it scored for Black
//! ([`ply_othello::explore`]), and, when `budget_ms` is given, the engine's value of each
//! from the one analysis entry point (on the blocking pool, behind the gate).
//!
//! The databases' index is built or read by whoever starts the server (`ply serve --games`)
//! and handed over in [`crate::Config::games`]; without it the endpoint answers 404 with a
//! message saying how to load some.

use std::{
    sync::{atomic::AtomicBool, Arc},
    time::Duration,
};

use axum::{
    extract::{rejection::QueryRejection, Query, State},
    http::StatusCode,
    Json,
};
use ply_othello::{
    analyze::Options,
    explore::{self, GamesIndex, Report},
    BoardSize, Color, Position,
};

use crate::{
    error::ApiError,
    othello::{parse_cells, StopOnDrop, MAX_BUDGET_MS},
    params::Params,
    AppState,
};

/// The databases a server explores: their index and how many files it covers.
#[derive(Debug)]
pub struct Databases {
    /// The index of every game.
    pub index: GamesIndex,
    /// The names of the files, as the operator gave them.
    pub files: Vec<String>,
}

const PARAMS: &[&str] = &["position", "turn", "budget_ms"];

/// What an explore request asks for, after checking.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// The position (8x8).
    pub position: Position,
    /// The engine's budget; none for counts only.
    pub budget: Option<Duration>,
}

/// Checks the parameters: `position` (64 cells, default the start), `turn` (X or O),
/// `budget_ms` (1 to the analysis's maximum; absent for counts only).
///
/// # Errors
/// A 400 naming the parameter and what is wrong with it.
pub fn parse_request(params: &Params) -> Result<Request, ApiError> {
    let turn = match params.get("turn").map(str::trim) {
        None | Some("X" | "x" | "B" | "b" | "*") => Color::Black,
        Some("O" | "o" | "W" | "w") => Color::White,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "`turn` must be X (black) or O (white), found `{other}`"
            )))
        }
    };
    let position = match params.get("position") {
        None if params.get("turn").is_some() => {
            return Err(ApiError::bad("`turn` is given without a `position`"))
        }
        None => Position::start(BoardSize::Eight),
        Some(cells) => parse_cells(cells, BoardSize::Eight, turn)?,
    };
    let budget = match params.get("budget_ms") {
        None => None,
        Some(_) => Some(Duration::from_millis(params.number(
            "budget_ms",
            0,
            1,
            MAX_BUDGET_MS,
        )?)),
    };
    Ok(Request { position, budget })
}

/// The handler.
pub async fn handler(
    State(state): State<AppState>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Report>, ApiError> {
    let params = Params::read(query, PARAMS)?;
    let req = parse_request(&params)?;
    let Some(db) = state.config.games.clone() else {
        return Err(ApiError {
            status: StatusCode::NOT_FOUND,
            message: "no game databases are loaded: start the server with \
                      `ply serve --games FILE.wtb...`"
                .into(),
            retry_after: None,
        });
    };
    let Some(budget) = req.budget else {
        let found = explore::explore(&req.position, &db.index, None);
        return Ok(Json(Report::new(&found, db.index.games())));
    };
    let _permit = state.gate.enter().await?;
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let answer = tokio::task::spawn_blocking(move || {
        let opts = Options {
            stop: Some(stop),
            ..Options::budget(budget)
        };
        let found = explore::explore(&req.position, &db.index, Some(&opts));
        Report::new(&found, db.index.games())
    })
    .await
    .map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("the exploration failed: {e}"),
        retry_after: None,
    })?;
    Ok(Json(answer))
}
