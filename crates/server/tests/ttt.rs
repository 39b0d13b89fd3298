//! The tic-tac-toe endpoints, called in-process: values with remoteness for the side that
//! moves, either player first, finished games, and 400 for bad boards.

mod common;

use axum::http::StatusCode;
use common::{app, bad, get};

#[tokio::test]
async fn ttt_empty_board_is_a_draw_in_nine() {
    let (status, json) = get(app(), "/api/ttt/analyze?board=.........").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["positionValue"], "tie");
    assert_eq!(json["remoteness"], 9);
    assert_eq!(json["position"]["toMove"], "X");
    assert_eq!(json["position"]["status"], "playing");
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    assert!(moves
        .iter()
        .all(|m| m["value"] == "tie" && m["remoteness"] == 9));
}

#[tokio::test]
async fn ttt_moves_are_valued_for_the_side_that_makes_them() {
    // x o . / . x . / . . o with X first: X to move wins in 3 (a fork).
    let (status, json) = get(app(), "/api/ttt/analyze?board=xo./.x./..o").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["positionValue"], "win");
    assert_eq!(json["remoteness"], 3);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    // The value of the best move equals the position's value.
    let best = moves
        .iter()
        .filter(|m| m["value"] == "win")
        .map(|m| m["remoteness"].as_u64().unwrap())
        .min()
        .unwrap();
    assert_eq!(best, 3);
    // Each move's board has one more X.
    for m in moves {
        let board = m["board"].as_str().unwrap();
        assert_eq!(board.matches('X').count(), 3, "{board}");
        assert_eq!(&board[m["move"].as_u64().unwrap() as usize..][..1], "X");
    }
}

#[tokio::test]
async fn ttt_o_first_and_finished_games() {
    let (status, json) = get(app(), "/api/ttt/analyze?board=o........&first=o").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["position"]["toMove"], "X");
    assert_eq!(json["position"]["first"], "O");
    // X won on the top row: over, a loss for O (to move), no moves.
    let (status, json) = get(app(), "/api/ttt/analyze?board=XXX/OO./...").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["position"]["status"], "X wins");
    assert_eq!(json["positionValue"], "lose");
    assert_eq!(json["remoteness"], 0);
    assert!(json["moves"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn ttt_bad_input_is_a_400_that_names_it() {
    bad("/api/ttt/analyze", "`board` is missing").await;
    bad("/api/ttt/analyze?board=xo", "expected 9 cells, found 2").await;
    bad(
        "/api/ttt/analyze?board=xo.......x",
        "expected 9 cells, found 10",
    )
    .await;
    bad("/api/ttt/analyze?board=xoZ......", "position 3").await;
    bad("/api/ttt/analyze?board=oo.......", "cannot occur in a game").await;
    bad(
        "/api/ttt/analyze?board=xxx/ooo/...",
        "both sides have three in a row",
    )
    .await;
    bad(
        "/api/ttt/analyze?board=.........&first=z",
        "`first` must be x or o",
    )
    .await;
    bad(
        "/api/ttt/analyze?board=.........&depth=3",
        "unknown parameter `depth`",
    )
    .await;
}
