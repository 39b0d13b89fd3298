//! ply-server: the HTTP JSON API over the ply libraries, and the web page that uses it.
//!
//! The handlers are thin: they check parameters (every mistake is a 400 with a JSON
//! `{"error": "..."}` naming it), call the game libraries, and shape the answer. Searches run
//! on tokio's blocking pool behind a [`Gate`] so that a few long analyses cannot starve the
//! cheap endpoints; every request has a time limit and a body-size limit, and [`serve`] caps
//! the open connections and the time a client may take to send a request's head. Every
//! limit is in [`Config`].
//!
//! ```
//! use ply_server::{router, Config};
//! // An `axum::Router`, ready for `axum::serve` or to be called in-process in tests.
//! let app = router(Config::default());
//! # let _ = app;
//! ```

#![deny(missing_docs)]

pub mod assets;
pub mod error;
pub mod explore;
pub mod gate;
pub mod image;
pub mod openapi;
pub mod othello;
pub mod params;
pub mod position;
mod serve;
pub mod ttt;

use std::time::Duration;

use axum::{
    extract::{Request, State},
    http::{header, StatusCode},
    middleware::{self, Next},
    response::Response,
    routing::get,
    Json, Router,
};
pub use error::ApiError;
pub use gate::Gate;
pub use serve::serve;

/// Limits that keep the server up, and the game databases it explores.
#[derive(Debug, Clone)]
pub struct Config {
    /// Expensive requests (searches) running at once.
    pub max_searches: usize,
    /// Expensive requests waiting for a turn; beyond this, 503 at once.
    pub max_queue: usize,
    /// Longest wait in the queue before a 503.
    pub max_queue_wait: Duration,
    /// What a 503 for a busy server tells the client to wait (`Retry-After`, whole seconds).
    pub retry_after: Duration,
    /// Longest time any request may take before a 503.
    pub request_timeout: Duration,
    /// Largest request body accepted (the API takes none; this is a guard).
    pub max_body_bytes: u64,
    /// Connections open at once; one more is answered with a 503 and closed ([`serve`]).
    pub max_connections: usize,
    /// Longest time a connection may take to send a request's line and headers, or sit idle
    /// between requests, before it is closed ([`serve`]).
    pub header_read_timeout: Duration,
    /// The book Othello analyses answer from in place of the shipped one of its board size
    /// (`ply serve --book FILE`); `None` for the shipped books.
    pub book: Option<std::sync::Arc<ply_othello::book::Book>>,
    /// The WTHOR databases `/api/othello/explore` counts games in; none by default, and
    /// the endpoint says so.
    pub games: Option<std::sync::Arc<explore::Databases>>,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Config {
            max_searches: cores,
            max_queue: 4 * cores,
            max_queue_wait: Duration::from_secs(5),
            retry_after: Duration::from_secs(1),
            request_timeout: Duration::from_secs(30),
            max_body_bytes: 16 * 1024,
            max_connections: 512,
            header_read_timeout: Duration::from_secs(10),
            book: None,
            games: None,
        }
    }
}

/// What every handler can reach.
#[derive(Debug, Clone)]
pub struct AppState {
    /// Admission control for searches.
    pub gate: Gate,
    pub(crate) config: Config,
}

/// The whole application: API routes, the page, and the guards around them.
pub fn router(config: Config) -> Router {
    let state = AppState {
        gate: Gate::new(
            config.max_searches,
            config.max_queue,
            config.max_queue_wait,
            config.retry_after,
        ),
        config,
    };
    let mut app = Router::new()
        .route("/api/health", get(health))
        .route("/api/ttt/analyze", get(ttt::handler))
        .route("/api/othello/analyze", get(othello::handler))
        .route("/api/othello/analyze/stream", get(othello::stream_handler))
        .route("/api/othello/position", get(position::handler))
        .route("/api/othello/image", get(image::handler))
        .route("/api/othello/explore", get(explore::handler))
        .route("/api/openapi.json", get(openapi_handler));
    for asset in assets::ASSETS {
        app = app.route(
            asset.path,
            get(move || async move { assets::respond(asset) }),
        );
    }
    app.fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(state.clone(), guards))
        .with_state(state)
}

/// Serves the application on a bound listener until Ctrl-C, on a runtime of its own, with
/// [`serve`]'s limits.
///
/// # Errors
/// When the runtime cannot start or the listener cannot be handed to it.
pub fn run(listener: std::net::TcpListener, config: Config) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        listener.set_nonblocking(true)?;
        let listener = tokio::net::TcpListener::from_std(listener)?;
        serve(listener, config, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    })
}

/// The body-size limit and the request time limit, around every route.
async fn guards(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if req.headers().contains_key(header::TRANSFER_ENCODING) {
        return error::json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "request bodies of unknown length are not accepted",
        );
    }
    if declared.is_some_and(|n| n > state.config.max_body_bytes) {
        return error::json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!(
                "request body too large (the limit is {} bytes)",
                state.config.max_body_bytes
            ),
        );
    }
    match tokio::time::timeout(state.config.request_timeout, next.run(req)).await {
        Ok(response) => response,
        Err(_) => error::json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the request took too long and was stopped",
        ),
    }
}

/// `{"status": "ok", "searches": {…}}`: the gate's limits and load ([`gate::Load`]), so a
/// client can see how long a queued search may wait and what a refusal will say.
async fn health(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok", "searches": state.gate.load() }))
}

async fn openapi_handler() -> Json<serde_json::Value> {
    Json(openapi::document())
}

async fn not_found() -> Response {
    error::json_error(StatusCode::NOT_FOUND, "no such path")
}

async fn method_not_allowed() -> Response {
    error::json_error(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed (the API answers GET)",
    )
}
