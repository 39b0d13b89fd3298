//! `GET /api/othello/analyze`: every legal move of an Othello position with its score, exact
//! when the search reaches the end of the game within the budget, estimated otherwise.
//!
//! The analysis is the library's ([`ply_othello::analyze`]): the midgame engine's estimates
//! over the learnt evaluation, then the exact solver near the end, best move first.
//!
//! `GET /api/othello/analyze/stream` runs the same analysis and sends every snapshot the
//! library reports (after each midgame iteration and each solved move) as a Server-Sent
//! Event, so that a page shows estimates at once and exact values as they come.
//!
//! The search runs on tokio's blocking pool behind the server's gate on expensive requests,
//! with a stop flag raised when the client goes away, so an abandoned request frees its core.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use std::convert::Infallible;

use axum::{
    extract::{rejection::QueryRejection, Query, State},
    response::sse::{Event, KeepAlive, Sse},
    Json,
};
use futures_util::stream::{self, Stream};
use ply_othello::{
    analyze::{self, Options, Report},
    BoardSize, Color, Position,
};

use crate::{error::ApiError, params::Params, AppState};

/// Default search budget in milliseconds.
pub const DEFAULT_BUDGET_MS: u64 = 1000;
/// Largest search budget a request may ask for.
pub const MAX_BUDGET_MS: u64 = 10_000;

/// The answer of `/api/othello/analyze`: the library's one analysis report.
pub type Analysis = ply_othello::analyze::Report;

/// What an analysis request asks for, after checking.
#[derive(Debug, Clone)]
pub struct Request {
    /// The position.
    pub position: Position,
    /// The analysis asked for, checked by the library's one check
    /// ([`analyze::Request::options`]).
    pub analysis: analyze::Request,
}

const PARAMS: &[&str] = &["size", "position", "turn", "budget_ms", "depth", "threads"];

/// Checks the parameters of an analysis request.
///
/// # Errors
/// A 400 naming the parameter and what is wrong with it.
pub fn parse_request(params: &Params) -> Result<Request, ApiError> {
    let size = match params.get("size") {
        None => BoardSize::Eight,
        Some(text) => text
            .parse::<BoardSize>()
            .map_err(|e| ApiError::bad(format!("`size`: {e}")))?,
    };
    let position = read_position(params, size)?;
    let default = Duration::from_millis(DEFAULT_BUDGET_MS);
    let analysis =
        engine_request(params, size, Some(default))?.expect("a default budget gives a request");
    Ok(Request { position, analysis })
}

/// `position` and `turn` (X or O), the start position of `size` when neither is given.
///
/// # Errors
/// A 400 naming the parameter and what is wrong with it.
pub fn read_position(params: &Params, size: BoardSize) -> Result<Position, ApiError> {
    let turn = match params.get("turn") {
        None => Color::Black,
        Some(text) => text
            .parse::<Color>()
            .map_err(|e| ApiError::bad(format!("`turn`: {e}")))?,
    };
    match params.get("position") {
        None if params.get("turn").is_some() => {
            Err(ApiError::bad("`turn` is given without a `position`"))
        }
        None => Ok(Position::start(size)),
        Some(cells) => parse_cells(cells, size, turn),
    }
}

/// The engine's part of a request, `budget_ms` (1 to [`MAX_BUDGET_MS`]; `default` when
/// neither it nor a depth is given), `depth` and `threads` (1 when absent), checked by the
/// library's one check for a position of `size`; `None` when there is neither a budget nor
/// a depth. The messages are the library's (`threads 0: expected 1 to 256`), as the command
/// line and Python give them.
///
/// # Errors
/// A 400 with the library's message, or naming a parameter that is not a whole number.
pub fn engine_request(
    params: &Params,
    size: BoardSize,
    default: Option<Duration>,
) -> Result<Option<analyze::Request>, ApiError> {
    let depth = whole(params, "depth")?;
    let time = match params.get("budget_ms") {
        None => default.filter(|_| depth.is_none()).map(|d| d.as_secs_f64()),
        Some(_) => Some(params.number("budget_ms", 0, 1, MAX_BUDGET_MS)? as f64 / 1000.0),
    };
    let req = analyze::Request {
        time,
        depth,
        threads: whole(params, "threads")?.unwrap_or(1),
        ..analyze::Request::default()
    };
    req.validate(size)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    Ok((time.is_some() || depth.is_some()).then_some(req))
}

/// A whole number parameter, unchecked for range (the library's check names the range).
fn whole<T: std::str::FromStr>(params: &Params, name: &str) -> Result<Option<T>, ApiError> {
    params
        .get(name)
        .map(|text| {
            text.trim().parse::<T>().map_err(|_| {
                ApiError::bad(format!("`{name}` must be a whole number, found `{text}`"))
            })
        })
        .transpose()
}

/// Reads the cells with ply-othello's position reader (`X`/`O`/`-`, `*`/`O`/`.`, `B`/`W`/`.`;
/// `/` and spaces between cells ignored), which refuses a position no game reaches (an
/// empty centre square), and checks the board size.
///
/// # Errors
/// A 400 with the reader's message (which names the bad character and its place), a size
/// mismatch, or an impossible position.
pub fn parse_cells(text: &str, size: BoardSize, turn: Color) -> Result<Position, ApiError> {
    let n = size.n();
    // The side to move as a word, so that it fits every symbol set of the cells.
    let side = match turn {
        Color::Black => "black",
        Color::White => "white",
    };
    let line = format!("{} {side}", text.trim());
    let pos = ply_othello::text::parse_position(&line)
        .map_err(|e| ApiError::bad(format!("`position`: {e}")))?;
    if pos.size() != size {
        return Err(ApiError::bad(format!(
            "`position` is a {m}x{m} board but `size` is {n}",
            m = pos.size().n()
        )));
    }
    Ok(pos)
}

/// Runs the analysis on the calling thread (meant for the blocking pool) through the
/// library's one entry point, [`ply_othello::analyze`]: the midgame engine's estimates, then
/// the exact solver near the end of the game, best move first. `progress` sees every
/// snapshot the library reports, in the answer's shape. `book` answers in place of the
/// shipped book of its board size (`ply serve --book FILE`).
pub fn analyze(
    req: Request,
    book: Option<Arc<ply_othello::book::Book>>,
    stop: Arc<AtomicBool>,
    progress: &mut dyn FnMut(Analysis),
) -> Analysis {
    let started = Instant::now();
    let pos = req.position;
    // The server's book (`ply serve --book`) is the book of its own size: positions of
    // another size are answered from the shipped book of theirs.
    let analysis = analyze::Request {
        book_file: book.filter(|b| b.size() == pos.size()),
        ..req.analysis
    };
    // The tables take the library's size for the board (analyze::table_mb).
    let opts = Options {
        stop: Some(stop),
        ..analysis
            .options(pos.size())
            .expect("checked by parse_request, with a book of the position's size")
    };
    let found = ply_othello::analyze::analyze_with(&pos, &opts, &mut |a| {
        progress(answer(&pos, a, started));
    });
    answer(&pos, &found, started)
}

/// The library's analysis in the API's shape: its one report.
fn answer(pos: &Position, found: &ply_othello::analyze::Analysis, started: Instant) -> Analysis {
    Report::new(pos, found, started.elapsed())
}

/// Raises the stop flag when dropped: when the request is abandoned (client gone, timeout),
/// the search on the blocking pool ends at its next clock check.
pub(crate) struct StopOnDrop(pub(crate) Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The handler.
pub async fn handler(
    State(state): State<AppState>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Analysis>, ApiError> {
    let params = Params::read(query, PARAMS)?;
    let req = parse_request(&params)?;
    let _permit = state.gate.enter().await?;
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let book = state.config.book.clone();
    let answer = tokio::task::spawn_blocking(move || analyze(req, book, stop, &mut |_| {}))
        .await
        .map_err(|e| ApiError {
            status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("the analysis failed: {e}"),
            retry_after: None,
        })?;
    Ok(Json(answer))
}

/// The streaming handler: the same parameters and checks as [`handler`] (a bad request is a
/// 400 with a JSON body before any event), then `progress` events, each a whole answer in
/// [`Analysis`]'s shape, and one `done` event with the final answer. The search stops when
/// the client goes away.
pub async fn stream_handler(
    State(state): State<AppState>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let params = Params::read(query, PARAMS)?;
    let req = parse_request(&params)?;
    let permit = state.gate.enter().await?;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let search_stop = stop.clone();
    let book = state.config.book.clone();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let event = |name: &str, a: &Analysis| {
            Event::default()
                .event(name)
                .json_data(a)
                .unwrap_or_else(|e| Event::default().event("error").data(e.to_string()))
        };
        let progress_stop = search_stop.clone();
        let progress_tx = tx.clone();
        let found = analyze(req, book, search_stop, &mut |a| {
            if progress_tx.send(event("progress", &a)).is_err() {
                // The client is gone: stop searching.
                progress_stop.store(true, Ordering::Relaxed);
            }
        });
        let _ = tx.send(event("done", &found));
    });
    // The stream owns the guard: when the client goes away, the stream is dropped and the
    // search stops at its next clock check.
    let guard = StopOnDrop(stop);
    let events = stream::unfold((rx, guard), |(mut rx, guard)| async move {
        rx.recv().await.map(|e| (Ok(e), (rx, guard)))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}
