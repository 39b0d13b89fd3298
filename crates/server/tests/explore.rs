//! `GET /api/othello/explore`, called in-process over a database made here: the counts of a
//! position (transpositions together), the engine's values with a budget, 400 for bad
//! parameters and 404 when the server has no databases.

use std::sync::Arc;

use axum::{http::StatusCode, Router};
use ply_othello::{
    explore::GamesIndex,
    text, transcript,
    wthor::{Database, Date, Header, WthorGame},
    BoardSize, Position,
};
use ply_server::{explore::Databases, router, Config};
use serde_json::Value;

mod common;

use common::get;

fn game(moves: &str, black_discs: u8) -> WthorGame {
    WthorGame {
        tournament: 0,
        black: 0,
        white: 1,
        black_discs,
        theoretical: black_discs,
        game: transcript::parse(moves, Position::start(BoardSize::Eight)).unwrap(),
    }
}

fn app_with_games() -> Router {
    let db = Database {
        header: Header::games(
            2025,
            Date {
                year: 2025,
                month: 11,
                day: 26,
            },
            22,
        ),
        // The first two transpose after five moves; d3c3 is f5f6's mirror image.
        games: vec![
            game("f5d6c3d3c4f4", 40),
            game("f5d6c4d3c3f4", 30),
            game("f5f6", 20),
            game("d3c3", 33),
        ],
    };
    let bytes = db.to_bytes().unwrap();
    let index = GamesIndex::build(&[&bytes[..]]).unwrap();
    router(Config {
        games: Some(Arc::new(Databases {
            index,
            files: vec!["test.wtb".into()],
            games: vec![db],
            players: Some(vec!["Ann".into(), "Ben".into()]),
        })),
        ..Config::default()
    })
}

fn cells(moves: &str) -> (String, char) {
    let pos = transcript::parse(moves, Position::start(BoardSize::Eight))
        .unwrap()
        .position();
    let line = text::format_position(&pos);
    let (board, turn) = line.split_once(' ').unwrap();
    (board.to_string(), turn.chars().next().unwrap())
}

fn by_move<'a>(answer: &'a Value, mv: &str) -> &'a Value {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == mv)
        .unwrap_or_else(|| panic!("{mv} missing: {answer}"))
}

#[tokio::test]
async fn the_start_counts_every_game_by_its_first_move() {
    let (status, answer) = get(app_with_games(), "/api/othello/explore").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["indexed_games"], 4);
    assert_eq!(answer["games"], 4);
    assert_eq!(answer["turn"], "X");
    assert_eq!(by_move(&answer, "f5")["games"], 3);
    assert_eq!(by_move(&answer, "d3")["games"], 1);
    assert_eq!(by_move(&answer, "c4")["games"], 0);
    assert!(by_move(&answer, "c4")["black_score_rate"].is_null());
    assert!(
        by_move(&answer, "f5")["engine"].is_null(),
        "no budget, no engine"
    );
    assert_eq!(answer["moves"][0]["move"], "f5", "most played first");
}

#[tokio::test]
async fn transpositions_and_images_count_together() {
    let (board, turn) = cells("f5d6c3d3c4");
    let uri = format!("/api/othello/explore?position={board}&turn={turn}");
    let (status, answer) = get(app_with_games(), &uri).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["games"], 2);
    let f4 = by_move(&answer, "f4");
    assert_eq!(f4["games"], 2);
    assert_eq!(f4["black_score_rate"], 0.5);
    assert_eq!(f4["black_mean_discs"], 6.0); // +16 and -4

    let (board, turn) = cells("f5");
    let uri = format!("/api/othello/explore?position={board}&turn={turn}");
    let (_, answer) = get(app_with_games(), &uri).await;
    assert_eq!(answer["turn"], "O");
    let f6 = by_move(&answer, "f6");
    assert_eq!(f6["games"], 2, "f5f6 and its image d3c3: {answer}");
    assert_eq!(f6["black_mean_discs"], -11.0);
}

#[tokio::test]
async fn a_budget_adds_the_engine_s_values() {
    let (status, answer) = get(app_with_games(), "/api/othello/explore?budget_ms=50").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    for m in answer["moves"].as_array().unwrap() {
        let e = &m["engine"];
        assert!(e["black_discs"].is_number(), "{m}");
        assert!(["exact", "book", "estimate"].contains(&e["kind"].as_str().unwrap()));
    }
}

#[tokio::test]
async fn bad_parameters_are_400() {
    for (uri, needle) in [
        ("/api/othello/explore?turn=Z", "`turn`"),
        ("/api/othello/explore?turn=O", "without a `position`"),
        ("/api/othello/explore?position=XO", "`position`"),
        (
            "/api/othello/explore?position=..............OX......XO..............&turn=X",
            "`position`",
        ),
        ("/api/othello/explore?budget_ms=0", "budget_ms"),
        ("/api/othello/explore?budget_ms=99999", "budget_ms"),
        ("/api/othello/explore?depth=3", "unknown parameter `depth`"),
        ("/api/othello/explore?games_limit=0", "games_limit"),
        ("/api/othello/explore?games_limit=101", "games_limit"),
        (
            "/api/othello/explore?games_offset=2",
            "without a `games_limit`",
        ),
    ] {
        let (status, answer) = get(app_with_games(), uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {answer}");
        let message = answer["error"].as_str().unwrap();
        assert!(message.contains(needle), "{uri}: {message}");
    }
}

/// `games_limit` adds a page of the games that reached the position, with the players'
/// names; the games that ended in a position are counted as reaching it.
#[tokio::test]
async fn the_games_that_reached_a_position_come_a_page_at_a_time() {
    let (board, turn) = cells("f5");
    let uri = format!("/api/othello/explore?position={board}&turn={turn}&games_limit=2");
    let (status, answer) = get(app_with_games(), &uri).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let page = &answer["reached"];
    assert_eq!(page["total"], 4, "every game, d3c3 as f5's image: {answer}");
    assert_eq!(page["offset"], 0);
    let games = page["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["game"], 1);
    assert_eq!(games[0]["black"], "Ann");
    assert_eq!(games[0]["white"], "Ben");
    assert_eq!(games[0]["black_score"], 16);
    assert_eq!(games[0]["moves"], "f5d6c3d3c4f4");

    let uri = format!("{uri}&games_offset=3");
    let (_, answer) = get(app_with_games(), &uri).await;
    let games = answer["reached"]["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["moves"], "d3c3");

    // Without games_limit, no list.
    let (_, answer) = get(app_with_games(), "/api/othello/explore").await;
    assert!(answer.get("reached").is_none(), "{answer}");
    // The databases' games are not over, so none ended at the start.
    assert_eq!(answer["ended"], 0);
}

#[tokio::test]
async fn without_databases_the_answer_says_how_to_load_them() {
    let (status, answer) = get(router(Config::default()), "/api/othello/explore").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("ply serve --games"));
}
