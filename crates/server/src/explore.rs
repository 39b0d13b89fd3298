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
    wthor::Database,
    BoardSize, Color, Position,
};

use crate::{
    error::ApiError,
    othello::{parse_cells, StopOnDrop, MAX_BUDGET_MS},
    params::Params,
    AppState,
};

/// The databases a server explores: their index, their games and the files they came from.
#[derive(Debug)]
pub struct Databases {
    /// The index of every game.
    pub index: GamesIndex,
    /// The names of the files, as the operator gave them.
    pub files: Vec<String>,
    /// Every game of every file, replayed, in the order given: the list of the games that
    /// reached a position is read from them.
    pub games: Vec<Database>,
    /// The players' names (`ply serve --players WTHOR.JOU`), when the operator gave them.
    pub players: Option<Vec<String>>,
}

const PARAMS: &[&str] = &[
    "position",
    "turn",
    "budget_ms",
    "games_offset",
    "games_limit",
];

/// Most games one page of the list holds.
pub const MAX_GAMES_PAGE: u64 = 100;

/// What an explore request asks for, after checking.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// The position (8x8).
    pub position: Position,
    /// The engine's budget; none for counts only.
    pub budget: Option<Duration>,
    /// A page of the games that reached the position: the games skipped and the page's
    /// length; none for no list.
    pub games_page: Option<(usize, usize)>,
}

/// Checks the parameters: `position` (64 cells, default the start), `turn` (X or O),
/// `budget_ms` (1 to the analysis's maximum; absent for counts only), `games_limit` (1 to
/// [`MAX_GAMES_PAGE`]: list that many of the games that reached the position) and
/// `games_offset` (the games of the list to skip; only with `games_limit`).
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
    let games_page = match (params.get("games_limit"), params.get("games_offset")) {
        (None, None) => None,
        (None, Some(_)) => {
            return Err(ApiError::bad(
                "`games_offset` is given without a `games_limit`",
            ))
        }
        (Some(_), _) => {
            let limit = params.number("games_limit", 0, 1, MAX_GAMES_PAGE)?;
            let offset = params.number("games_offset", 0, 0, u64::from(u32::MAX))?;
            Some((offset as usize, limit as usize))
        }
    };
    Ok(Request {
        position,
        budget,
        games_page,
    })
}

/// The report of `found`, with the page of games `req` asks for.
fn report(found: &explore::Exploration, db: &Databases, req: &Request) -> Report {
    let report = Report::new(found, db.index.games());
    match req.games_page {
        None => report,
        Some((offset, limit)) => report.with_games(explore::games_reaching(
            &req.position,
            &db.games,
            db.players.as_deref(),
            offset,
            limit,
        )),
    }
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
    // The engine's search waits at the gate; counts and the list do not. Both run off the
    // async workers (the list replays the games).
    let permit = match req.budget {
        Some(_) => Some(state.gate.enter().await?),
        None => None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let answer = tokio::task::spawn_blocking(move || {
        let opts = req.budget.map(|budget| Options {
            stop: Some(stop),
            ..Options::budget(budget)
        });
        report(
            &explore::explore(&req.position, &db.index, opts.as_ref()),
            &db,
            &req,
        )
    })
    .await
    .map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("the exploration failed: {e}"),
        retry_after: None,
    })?;
    drop(permit);
    Ok(Json(answer))
}
