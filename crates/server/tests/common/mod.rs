//! What the API tests share: the router with the default settings, a GET that reads JSON,
//! a Server-Sent Events reader, and the check of a 400.
#![allow(dead_code)] // each test file uses some of these

use axum::{
    body::{to_bytes, Body},
    http::{Request, StatusCode},
    Router,
};
use ply_server::{router, Config};
use serde_json::Value;
use tower::ServiceExt;

pub fn app() -> Router {
    router(Config::default())
}

pub async fn get(app: Router, uri: &str) -> (StatusCode, Value) {
    let response = app
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = to_bytes(response.into_body(), 1 << 20).await.unwrap();
    let json = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{uri}: not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, json)
}

/// The events of a Server-Sent Events answer, as (name, JSON data), in order.
pub async fn stream(app: Router, uri: &str) -> Vec<(String, Value)> {
    let response = app
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{uri}");
    let bytes = to_bytes(response.into_body(), 1 << 24).await.unwrap();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let mut events = Vec::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let field = |name: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .map(|v| v.trim_start().to_owned())
        };
        let (Some(event), Some(data)) = (field("event:"), field("data:")) else {
            continue;
        };
        events.push((event, serde_json::from_str(&data).unwrap()));
    }
    events
}

/// Asserts a 400 whose message contains `needle`.
pub async fn bad(uri: &str, needle: &str) {
    let (status, json) = get(app(), uri).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {json}");
    let msg = json["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{uri}: no error: {json}"));
    assert!(msg.contains(needle), "{uri}: `{msg}` lacks `{needle}`");
}
