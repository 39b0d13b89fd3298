//! The analysis answers with the opening's standard name, found by the position up to the
//! board's symmetries; a position off the named lines has none.

mod common;

use axum::http::StatusCode;
use common::{app, get};
use ply_othello::{text, transcript, BoardSize, Position};
use serde_json::Value;

async fn opening_of(moves: &str) -> Value {
    let pos = transcript::parse(moves, Position::start(BoardSize::Eight))
        .unwrap()
        .position();
    let line = text::format_position(&pos);
    let (board, turn) = line.split_once(' ').unwrap();
    let uri = format!("/api/othello/analyze?position={board}&turn={turn}&budget_ms=20");
    let (status, json) = get(app(), &uri).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    json["opening"].clone()
}

#[tokio::test]
async fn the_analysis_names_the_opening_of_the_position() {
    assert_eq!(opening_of("f5d6c3d3c4").await, "Tiger");
    // Its image from e6.
    assert_eq!(opening_of("e6f4c3c4d3").await, "Tiger");
    assert_eq!(opening_of("f5d6c3d3c4f4f6").await, "Stephenson");
    assert_eq!(opening_of("f5").await, Value::Null);
    let (_, json) = get(app(), "/api/othello/analyze?size=6&budget_ms=20").await;
    assert_eq!(json["opening"], Value::Null, "no names on 6x6");
}
