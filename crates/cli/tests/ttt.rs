//! `ply ttt …` through the real binary.

mod common;

use common::{ply, stderr, stdout};

use std::process::Output;

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    let text = stdout(o);
    assert_eq!(text.lines().count(), 1, "one object per line: {text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn stats_reports_the_published_figures() {
    let v = json(&ply(&["ttt", "stats", "--json"]));
    assert_eq!(v["reachable"], 5478);
    assert_eq!(v["reachable_up_to_symmetry"], 765);
    assert_eq!(
        v["finals"],
        serde_json::json!({"total": 958, "x": 626, "o": 316, "draw": 16})
    );
    assert_eq!(
        v["games"],
        serde_json::json!({"total": 255_168, "x": 131_184, "o": 77_904, "draw": 46_080})
    );
    assert_eq!(v["games_up_to_symmetry"]["total"], 26_830);

    let o = ply(&["ttt", "stats"]);
    let text = stdout(&o);
    for figure in [
        "5478", "765", "958", "626", "316", "255168", "131184", "77904", "46080", "26830",
    ] {
        assert!(text.contains(figure), "{figure} missing from\n{text}");
    }
}

#[test]
fn analyze_gives_the_value_of_every_move() {
    let v = json(&ply(&["ttt", "analyze", "xo./.x./..o", "--json"]));
    assert_eq!(v["to_move"], "X");
    assert_eq!(v["value"], "win");
    assert_eq!(v["remoteness"], 3);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    assert_eq!(moves[0]["value"], "win");
    assert_eq!(moves[0]["remoteness"], 3);
    let empty = json(&ply(&["ttt", "analyze", ".........", "--json"]));
    assert_eq!(
        (empty["value"].as_str(), empty["remoteness"].as_u64()),
        (Some("draw"), Some(9))
    );
    assert_eq!(empty["moves"].as_array().unwrap().len(), 9);
}

#[test]
fn analyze_draws_the_board() {
    let o = ply(&["ttt", "analyze", "xo.", ".x.", "..o"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("1   X | O | ."), "{text}");
    assert!(text.contains("3   . | . | O"), "{text}");
    assert!(text.contains("X to move: win in 3 moves"), "{text}");
}

#[test]
fn first_player_is_a_parameter() {
    let x = json(&ply(&[
        "ttt",
        "analyze",
        "o........",
        "--first",
        "o",
        "--json",
    ]));
    assert_eq!(x["to_move"], "X");
    let bad = ply(&["ttt", "analyze", "o........"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("O has more marks than X but X moves first"));
}

#[test]
fn check_explains_unreachable_boards() {
    let o = ply(&["ttt", "check", "xxx/oo./o.."]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("X has three in a row but O has moved since"));
    let v = json(&ply(&["ttt", "check", "xxx/ooo/...", "--json"]));
    assert_eq!(v["reachable"], false);
    assert_eq!(v["reason"], "both sides have three in a row");
    let v = json(&ply(&["ttt", "check", "xxx/oo./...", "--json"]));
    assert_eq!(
        (v["reachable"].as_bool(), v["final"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(v["winner"], "X");
    let v = json(&ply(&["ttt", "check", "xox/xoo/oxx", "--json"]));
    assert_eq!(v["winner"], "draw");
}

#[test]
fn count_matches_the_ttt_finals_samples() {
    let v = json(&ply(&[
        "ttt",
        "count",
        "OX--X-XOO",
        "--first",
        "o",
        "--json",
    ]));
    assert_eq!(
        [&v["total"], &v["o_wins"], &v["x_wins"], &v["draws"]],
        [4, 1, 2, 1]
    );
    let o = ply(&["ttt", "count", "O-OXO-X--", "--first", "o"]);
    assert!(
        stdout(&o).contains("11 (X wins 1, O wins 9, draws 1)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bad_boards_exit_2_and_name_the_place() {
    let o = ply(&["ttt", "analyze", "xo./.z./..o"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).contains("unknown character 'z' at position 6"),
        "{}",
        stderr(&o)
    );
    let o = ply(&["ttt", "count", "xo./.x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("expected 9 cells, found 5"),
        "{}",
        stderr(&o)
    );
    let o = ply(&["ttt", "analyze", "x........", "--first", "z"]);
    assert_eq!(o.status.code(), Some(2));
}
