//! `ply othello review`: a game's moves valued and marked, as a table, JSON and GGF with a
//! comment on each move (read back by the library's GGF reader); every game of a WTHOR file
//! (made from `testdata/ply-games.txt`) with its players; bad input refused with exit 2 and
//! a message naming it.

mod common;

use std::fs;

use common::{ply, s, scratch, stderr, stdout};
use ply_othello::{ggf, transcript, BoardSize, GameRecord, Move, Position};
use serde_json::Value;

/// The first game of `testdata/ply-games.txt` from 12 empties on, as a GGF record: every
/// position of it is solved in a blink, so every value is exact.
fn endgame_ggf() -> (String, GameRecord) {
    let text = include_str!("../../../testdata/ply-games.txt");
    let first = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let full = transcript::parse(first, Position::start(BoardSize::Eight)).unwrap();
    let mut game: Option<GameRecord> = None;
    let mut pos = full.start();
    for (_, m) in full.plies() {
        if pos.empties().count() == 12 && game.is_none() {
            game = Some(GameRecord::new(pos));
        }
        if let Some(g) = game.as_mut() {
            g.play(m).unwrap();
        }
        pos = pos.play_move(m).unwrap();
    }
    let game = game.unwrap();
    let mut rec = ggf::GgfGame::from_game(game.clone());
    rec.tags.push(("PB".into(), "Alice".into()));
    rec.tags.push(("PW".into(), "Bob".into()));
    (rec.to_string(), game)
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_text_has_a_row_a_ply_with_its_mark_and_each_sides_sums() {
    let (record, game) = endgame_ggf();
    let o = ply(&["othello", "review", &record, "--depth", "60"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("players    Alice (black) v Bob (white)\n"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("ply  side"))
        .skip(1)
        .take_while(|l| !l.starts_with("black "))
        .collect();
    assert_eq!(rows.len(), game.moves().len(), "{text}");
    for (row, m) in rows.iter().zip(game.moves()) {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells[2], m.to_string(), "{row}");
        if *m == Move::Pass {
            continue;
        }
        // Exact values are whole discs; the loss is the value less the move's score.
        let n = |k: usize| cells[k].parse::<i32>().unwrap();
        assert_eq!(n(6), n(4) - n(5), "{row}");
        match cells.get(7) {
            None => assert_eq!(n(6), 0, "{row}"),
            Some(&mark) => assert_eq!(mark, if n(6) >= 10 { "??" } else { "?" }, "{row}"),
        }
    }
    assert!(
        text.contains("\nblack      ") && text.contains("\nwhite      "),
        "{text}"
    );
    assert!(!text.contains("about"), "exact losses: {text}");
}

#[test]
fn json_and_ggf_carry_the_same_marks_and_the_ggf_reads_back() {
    let (record, game) = endgame_ggf();
    let dir = scratch("review-ggf");
    let out = dir.join("reviewed.ggf");
    let o = ply(&[
        "othello",
        "review",
        &record,
        "--depth",
        "60",
        "--json",
        "--ggf",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&stdout(&o));
    assert_eq!(lines.len(), 1, "one object a game");
    let r = &lines[0];
    assert_eq!((&r["black"], &r["white"]), (&"Alice".into(), &"Bob".into()));
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), game.moves().len());
    let mut marks = Vec::new();
    for m in moves {
        if m["move"] == "pass" {
            assert!(m["loss"].is_null() && m["mark"].is_null(), "{m}");
            continue;
        }
        let (best, score, loss) = (
            m["best_score"].as_i64().unwrap(),
            m["score"].as_i64().unwrap(),
            m["loss"].as_i64().unwrap(),
        );
        assert_eq!(loss, best - score, "{m}");
        assert_eq!(m["exact"], true);
        if let Some(mark) = m["mark"].as_str() {
            marks.push((m["ply"].as_u64().unwrap() as usize, mark.to_owned()));
        }
    }
    assert!(
        !marks.is_empty(),
        "the self-play game has a mistake in its last 12 moves"
    );
    let sums = |side: &str| {
        let s = &r[side];
        (s["blunders"].as_u64().unwrap() + s["mistakes"].as_u64().unwrap()) as usize
    };
    assert_eq!(sums("black_summary") + sums("white_summary"), marks.len());

    let text = fs::read_to_string(&out).unwrap();
    let recs = ggf::parse_all(&text).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].game, game, "the same game");
    assert_eq!(recs[0].tag("PB"), Some("Alice"));
    assert!(recs[0].tag("C").unwrap().starts_with("ply review"));
    let commented: Vec<(usize, String)> = recs[0]
        .comments
        .iter()
        .filter(|(_, c)| !c.starts_with("best"))
        .map(|(ply, c)| (*ply, c.split(' ').next().unwrap().to_owned()))
        .collect();
    assert_eq!(commented, marks, "{text}");
}

#[test]
fn a_wthor_file_is_reviewed_game_by_game_with_its_players() {
    let dir = scratch("review-wthor");
    let db = dir.join("db.wtb");
    let jou = dir.join("db.JOU");
    // Three of the games keep it quick.
    let games: Vec<String> = include_str!("../../../testdata/ply-games.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(3)
        .map(str::to_owned)
        .collect();
    let from = dir.join("games.txt");
    fs::write(&from, games.join("\n")).unwrap();
    let o = ply(&[
        "othello",
        "games",
        "make",
        s(&db),
        "--from",
        s(&from),
        "--year",
        "2025",
        "--depth",
        "8",
        "--players",
        s(&jou),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    let o = ply(&[
        "othello",
        "review",
        s(&db),
        "--depth",
        "1",
        "--json",
        "--players",
        s(&jou),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = json_lines(&stdout(&o));
    assert_eq!(all.len(), games.len(), "every game");
    for (k, (r, moves)) in all.iter().zip(&games).enumerate() {
        assert_eq!(r["transcript"], moves.as_str());
        assert_eq!(
            (&r["black"], &r["white"], &r["year"]),
            (&"ply".into(), &"ply".into(), &2025.into())
        );
        assert_eq!(
            r["source"],
            format!("{} game {}", db.display(), k + 1).as_str()
        );
        assert!(r["opening"].is_string(), "{}", r["opening"]);
    }

    let o = ply(&["othello", "review", s(&db), "--depth", "1", "--game", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with(&format!("game       {} game 3\n", db.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("moves      {}\n", games[2])),
        "{text}"
    );
    assert!(
        text.contains("players    #0 (black) v #0 (white), 2025\n"),
        "{text}"
    );
}

#[test]
fn the_opening_is_named() {
    let o = ply(&["othello", "review", "f5d6c3d3c4", "--depth", "1", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_lines(&stdout(&o))[0]["opening"], "Tiger");
}

#[test]
fn bad_input_is_refused_naming_it() {
    let dir = scratch("review-bad");
    let missing = dir.join("missing.wtb");
    let broken = dir.join("broken.wtb");
    fs::write(&broken, b"not a wthor file").unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["f5d6z9"], "GAME: transcript".into()),
        (vec!["f5f5"], "GAME: transcript".into()),
        (
            vec![s(&missing)],
            format!("{}: no such file", missing.display()),
        ),
        (vec![s(&broken)], format!("{}: ", broken.display())),
        (
            vec!["---------------------------OX------XO--------------------------- X"],
            "no moves to review".into(),
        ),
        (
            vec!["f5d6", "--game", "2"],
            "--game 2: f5d6 holds 1 game".into(),
        ),
        (vec!["f5d6", "--depth", "0"], "--depth 0".into()),
        (vec!["f5d6", "--players", s(&missing)], "--players".into()),
    ];
    for (args, want) in cases {
        let mut all = vec!["othello", "review"];
        all.extend(&args);
        let o = ply(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(&want), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: nothing on stdout");
    }
}

/// `--ggf` onto the file under review is refused before the review starts, and the file is
/// left as it was.
#[test]
fn a_ggf_output_that_is_the_input_is_refused() {
    let dir = scratch("review-ggf-input");
    let (ggf, _) = endgame_ggf();
    let game = dir.join("game.ggf");
    fs::write(&game, &ggf).unwrap();
    let o = ply(&[
        "othello",
        "review",
        s(&game),
        "--depth",
        "1",
        "--ggf",
        s(&game),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("game.ggf"), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(fs::read_to_string(&game).unwrap(), ggf);
}
