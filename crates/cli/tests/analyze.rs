//! `ply othello analyze`, run as the real binary.

mod common;

use common::ply;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let out = ply(args);
    assert!(
        out.status.success(),
        "ply {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap()
}

#[test]
fn the_four_by_four_start_is_exact_and_every_move_is_listed() {
    let v = json(&[
        "othello", "analyze", "--size", "4", "", "--time", "5", "--json",
    ]);
    assert_eq!(v["proven"], true);
    assert_eq!(v["all_exact"], true);
    assert_eq!(v["score"], -10);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(moves
        .iter()
        .all(|m| m["score"] == -10 && m["exact"] == true));
    assert_eq!(v["line"][0], v["best"]);
}

#[test]
fn estimates_say_so_and_name_their_depth() {
    let v = json(&[
        "othello",
        "analyze",
        "f5d6",
        "--depth",
        "3",
        "--no-book",
        "--json",
    ]);
    assert_eq!(v["proven"], false);
    assert_eq!(v["all_exact"], false);
    assert_eq!(v["engine"], "midgame");
    for m in v["moves"].as_array().unwrap() {
        assert_eq!(m["exact"], false);
        assert_eq!(m["depth"], 3);
    }
    let text = ply(&["othello", "analyze", "f5d6", "--depth", "3", "--no-book"]);
    let out = String::from_utf8(text.stdout).unwrap();
    assert!(out.contains("estimate, depth 3"), "{out}");
}

#[test]
fn the_8x8_opening_book_answers_and_marks_its_moves() {
    let v = json(&["othello", "analyze", "f5", "--json"]);
    assert_eq!(v["engine"], "book");
    assert_eq!(v["proven"], false);
    assert_eq!(v["nodes"], 0);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    assert!(moves
        .iter()
        .all(|m| m["book"] == true && m["exact"] == false));
    assert_eq!(v["depth"], moves[0]["depth"]);
    let text = ply(&["othello", "analyze", "f5"]);
    let out = String::from_utf8(text.stdout).unwrap();
    assert!(out.contains(", book)") || out.contains("(book)"), "{out}");
    assert!(out.contains("book, depth "), "{out}");
}

#[test]
fn bad_input_is_refused_with_exit_status_2() {
    for args in [
        &["othello", "analyze", "f5f5"][..],
        &["othello", "analyze", "f5", "--time", "0"],
        &["othello", "analyze", "f5", "--depth", "0"],
        &["othello", "analyze", "f5", "--threads", "0"],
        &["othello", "analyze", "XXXX"],
    ] {
        let out = ply(args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "ply {args:?}: {err}");
        assert!(err.starts_with("ply: ") || err.contains("error"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// A negative time reaches the program, which says what is wrong with it (clap alone took
/// `-1` for an unknown flag).
#[test]
fn a_negative_time_is_said_to_be_negative() {
    for args in [
        &["othello", "analyze", "f5", "--time", "-1"][..],
        &["othello", "analyze", "f5", "--time=-1"],
    ] {
        let out = ply(args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "ply {args:?}: {err}");
        assert!(
            err.contains("--time -1: expected more than 0 and at most 86400 seconds"),
            "{err}"
        );
    }
}

/// A proven score says so even while other moves are estimates: after c2 b2 on 6x6 the book
/// knows the position's value and its best move, not the other moves.
#[test]
fn a_proven_score_is_whole_while_other_moves_are_estimates() {
    let v = json(&[
        "othello", "analyze", "--size", "6", "c2b2", "--depth", "2", "--json",
    ]);
    assert_eq!(v["proven"], true);
    assert_eq!(v["all_exact"], false);
    assert_eq!(v["score"], 20);
    assert!(
        v["score"].is_i64(),
        "a proven score is whole: {}",
        v["score"]
    );
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves[0]["move"], "b3");
    assert_eq!(moves[0]["exact"], true);
    assert!(moves[1..]
        .iter()
        .all(|m| m["exact"] == false && m["score"].is_f64()));
}
