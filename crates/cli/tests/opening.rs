//! The opening's name in `show`, `analyze` and `explore`, text and JSON: by the game's moves
//! (a mirror image named too, a game that left the named lines keeps its name), by the
//! position alone for cells.

mod common;

use std::fs;

use common::{ply, s, scratch, stderr, stdout};
use ply_othello::{transcript, BoardSize, Move, Position};
use serde_json::Value;

fn ok(args: &[&str]) -> String {
    let o = ply(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(ok(args).trim()).unwrap()
}

#[test]
fn show_and_analyze_name_the_opening() {
    // The Tiger from d3, a mirror image of f5d6c3d3c4.
    assert!(ok(&["othello", "show", "d3c5f6f5e6"]).ends_with("opening  Tiger\n"));
    assert_eq!(
        json(&["othello", "show", "d3c5f6f5e6", "--json"])["opening"],
        "Tiger"
    );
    // g5 leaves the named lines: the game is still a Tiger.
    let text = ok(&["othello", "analyze", "f5d6c3d3c4g5", "--depth", "1"]);
    assert!(text.contains("\nopening    Tiger\n"), "{text}");
    let r = json(&[
        "othello",
        "analyze",
        "f5d6c3d3c4g5",
        "--depth",
        "1",
        "--json",
    ]);
    assert_eq!(r["opening"], "Tiger");
    // The same position as cells has no history, and is on no named line.
    let cells = r["position"].as_str().unwrap().to_owned() + " X";
    let r = json(&["othello", "analyze", &cells, "--depth", "1", "--json"]);
    assert_eq!(r["opening"], Value::Null);
    // The start is not named, and nothing is printed for it.
    assert!(!ok(&["othello", "show", "f5"]).contains("opening"));
    assert_eq!(
        json(&["othello", "show", "f5", "--json"])["opening"],
        Value::Null
    );
}

#[test]
fn explore_names_the_opening() {
    let dir = scratch("opening-explore");
    let from = dir.join("games.txt");
    // The Stephenson, then the first legal move to the end.
    let mut game = transcript::parse("f5d6c3d3c4f4f6", Position::start(BoardSize::Eight)).unwrap();
    while !game.position().is_game_over() {
        let pos = game.position();
        let m = pos.legal_moves().next().map_or(Move::Pass, Move::Play);
        game.play(m).unwrap();
    }
    fs::write(&from, transcript::format(&game) + "\n").unwrap();
    let db = dir.join("db.wtb");
    let o = ply(&[
        "othello",
        "games",
        "make",
        s(&db),
        "--from",
        s(&from),
        "--depth",
        "8",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = ok(&[
        "othello",
        "explore",
        "f5d6c3d3c4",
        "--games",
        s(&db),
        "--no-engine",
    ]);
    assert!(text.contains("\nopening    Tiger\n"), "{text}");
    let r = json(&[
        "othello",
        "explore",
        "f5d6c3d3c4f4f6",
        "--games",
        s(&db),
        "--no-engine",
        "--json",
    ]);
    assert_eq!(r["opening"], "Stephenson");
}
