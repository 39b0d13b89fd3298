//! `ply othello games` and `ply othello explore`: a database made from ply's games (text and
//! self-play files), listed with names, filters, JSON and GGF; explored through its index,
//! which is kept beside it and built again when stale; broken files refused with exit 2.

mod common;

use std::{fs, path::Path};

use common::{ply, s, scratch, stderr, stdout};
use ply_othello::{
    explore::{self, GamesIndex},
    ggf,
    solve::{SolveOptions, Solver},
    transcript,
    wthor::{Database, WthorGame},
    BoardSize, Color, GameRecord, Position,
};
use serde_json::Value;

/// Writes a text file of `games` (the first as a GGF record with players' names) and makes
/// `db.wtb`, `db.JOU` and `db.TRN` from it in `dir`.
fn make(dir: &Path, games: &[GameRecord]) -> Database {
    let mut text = String::from("# a comment line, skipped\n");
    let mut first = ggf::GgfGame::from_game(games[0].clone());
    first.tags.push(("PB".into(), "Alice".into()));
    first.tags.push(("PW".into(), "Bob".into()));
    text.push_str(&format!("{first}\n"));
    for g in &games[1..] {
        text.push_str(&format!("{}\n", transcript::format(g)));
    }
    let from = dir.join("games.txt");
    fs::write(&from, text).unwrap();
    let o = ply(&[
        "othello",
        "games",
        "make",
        s(&dir.join("db.wtb")),
        "--from",
        s(&from),
        "--year",
        "2024",
        "--depth",
        "10",
        "--players",
        s(&dir.join("db.JOU")),
        "--tournaments",
        s(&dir.join("db.TRN")),
        "--tournament",
        "Open de test",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("wrote {} games", games.len())));
    Database::read(&fs::read(dir.join("db.wtb")).unwrap()).unwrap()
}

#[test]
fn make_then_list_with_names_filters_json_and_ggf() {
    let dir = scratch("games-list");
    let games = common::random_games(12, 35);
    let db = make(&dir, &games);
    assert_eq!(db.header.game_year, 2024);
    assert_eq!(db.header.depth, 10);
    assert_eq!(
        db.games.iter().map(|g| g.game.clone()).collect::<Vec<_>>(),
        games
    );
    // The theoretical score is the solver's, from 10 empties; the result is the game's.
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 1,
    });
    for g in &db.games {
        assert_eq!(
            g.black_discs,
            WthorGame::final_black_discs(&g.game.position())
        );
        let at = g
            .game
            .plies()
            .map(|(p, _)| p)
            .find(|p| p.empties().count() == 10)
            .unwrap();
        let r = solver.solve(&at).score.0;
        let black = if at.turn() == Color::Black { r } else { -r };
        assert_eq!(i32::from(g.theoretical), (64 + black) / 2);
    }

    let db_path = dir.join("db.wtb");
    let (jou, trn) = (dir.join("db.JOU"), dir.join("db.TRN"));
    let names = ["--players", s(&jou), "--tournaments", s(&trn)];
    let list = |extra: &[&str]| {
        let mut args = vec!["othello", "games", s(&db_path)];
        args.extend_from_slice(&names);
        args.extend_from_slice(extra);
        let o = ply(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let text = list(&[]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 13);
    assert_eq!(
        lines[0],
        "game\tyear\ttournament\tblack\twhite\tdiscs\ttheoretical\tmoves"
    );
    let g1 = &db.games[0];
    assert_eq!(
        lines[1],
        format!(
            "1\t2024\tOpen de test\tAlice\tBob\t{}-{}\t{}\t{}",
            g1.black_discs,
            64 - g1.black_discs,
            g1.theoretical,
            transcript::format(&games[0])
        )
    );
    assert!(lines[2].contains("\tply\tply\t"));

    // Filters: a player (any case, a part of the name), a year, a position reached.
    assert_eq!(list(&["--player", "ALI"]).lines().count(), 2);
    assert_eq!(list(&["--year", "2023"]).lines().count(), 1);
    let opening = transcript::format(&games[3])[..8].to_string();
    let pos = transcript::parse(&opening, Position::start(BoardSize::Eight))
        .unwrap()
        .position();
    let reaching = games.iter().filter(|g| explore::reaches(g, &pos)).count();
    assert!(reaching >= 1);
    assert_eq!(list(&["--reached", &opening]).lines().count(), reaching + 1);

    // Several files: each one's games after a line naming it, numbered from 1 again.
    let mut args = vec!["othello", "games", s(&db_path), s(&db_path)];
    args.extend_from_slice(&names);
    let o = ply(&args);
    let twice = stdout(&o);
    let heads: Vec<&str> = twice.lines().filter(|l| l.starts_with("# ")).collect();
    let head = format!("# {}", s(&db_path));
    assert_eq!(heads, [head.as_str(), head.as_str()]);
    assert_eq!(twice.lines().filter(|l| l.starts_with("1\t")).count(), 2);

    // JSON: one object a game.
    let json = list(&["--json"]);
    let first: Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["black"], "Alice");
    assert_eq!(first["game"], 1);
    assert_eq!(first["black_discs"], g1.black_discs);
    assert_eq!(first["moves"], transcript::format(&games[0]));
    assert_eq!(json.lines().count(), 12);

    // GGF: read back, the same games.
    let records = ggf::parse_all(&list(&["--ggf"])).unwrap();
    assert_eq!(
        records.into_iter().map(|r| r.game).collect::<Vec<_>>(),
        games
    );
}

#[test]
fn a_self_play_file_becomes_a_database() {
    let dir = scratch("games-selfplay");
    let sp = dir.join("sp.bin");
    let o = ply(&[
        "train",
        "gen",
        "--out",
        s(&sp),
        "--games",
        "6",
        "--depth",
        "1",
        "--random-moves",
        "2-4",
        "--exact-empties",
        "6",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("sp.wtb");
    let o = ply(&["othello", "games", "make", s(&out), "--from", s(&sp)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let db = Database::read(&fs::read(&out).unwrap()).unwrap();
    assert_eq!(db.games.len(), 6);
    // Played perfectly from 6 empties: the result is the theoretical score from there.
    assert_eq!(db.header.depth, 6);
    for g in &db.games {
        assert_eq!(g.theoretical, g.black_discs);
        assert!(g.game.position().is_game_over());
    }
}

fn explore_json(dir: &Path, pos: &str, extra: &[&str]) -> (Value, String) {
    let db = dir.join("db.wtb");
    let mut args = vec!["othello", "explore", pos, "--games", s(&db), "--json"];
    args.extend_from_slice(extra);
    let o = ply(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    (serde_json::from_str(&stdout(&o)).unwrap(), stderr(&o))
}

#[test]
fn explore_counts_through_an_index_kept_beside_the_database() {
    let dir = scratch("games-explore");
    let games = common::random_games(40, 7);
    make(&dir, &games);
    let (answer, err) = explore_json(&dir, "f5", &["--no-engine"]);
    assert!(err.contains("indexed 40 games"), "{err}");
    assert!(err.contains("there was none"), "{err}");
    let index_path = dir.join("db.wtb.plyidx");
    assert!(index_path.exists());
    // The counts are the library's scan of the games.
    let records: Vec<WthorGame> = Database::read(&fs::read(dir.join("db.wtb")).unwrap())
        .unwrap()
        .games;
    let after_f5 = transcript::parse("f5", Position::start(BoardSize::Eight))
        .unwrap()
        .position();
    let scan = explore::explore_scan(&after_f5, &records);
    let moves = answer["moves"].as_array().unwrap();
    for c in &scan {
        let m = moves
            .iter()
            .find(|m| m["move"] == c.mv.to_string())
            .unwrap();
        assert_eq!(m["games"], c.games);
    }
    assert_eq!(answer["games"], scan.iter().map(|c| c.games).sum::<u64>());
    // Every first move's image plays into after-f5's class.
    assert_eq!(answer["games"], 40);

    // A second run reads the index (no line about building it).
    let (again, err) = explore_json(&dir, "f5", &["--no-engine"]);
    assert_eq!(again, answer);
    assert!(err.is_empty(), "{err}");

    // The engine's values, with their kind.
    let (valued, _) = explore_json(&dir, "f5", &["--time", "0.1"]);
    for m in valued["moves"].as_array().unwrap() {
        assert!(m["engine"]["black_discs"].is_number(), "{m}");
    }

    // A damaged index is built again.
    let mut bytes = fs::read(&index_path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&index_path, &bytes).unwrap();
    let (_, err) = explore_json(&dir, "f5", &["--no-engine"]);
    assert!(err.contains("damaged"), "{err}");
    assert!(GamesIndex::read(fs::read(&index_path).unwrap()).is_ok());

    // A changed database makes the index stale.
    make(&dir, &games[..30]);
    let (fewer, err) = explore_json(&dir, "f5", &["--no-engine"]);
    assert!(err.contains("other databases"), "{err}");
    assert_eq!(fewer["games"], 30);

    // `games index` says whether it is up to date.
    let o = ply(&["othello", "games", "index", s(&dir.join("db.wtb"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(": up to date: 30 games in 1 database,"));
    let other = dir.join("elsewhere.plyidx");
    let o = ply(&[
        "othello",
        "games",
        "index",
        s(&dir.join("db.wtb")),
        "--index",
        s(&other),
        "--json",
    ]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["state"], "built");
    assert_eq!(v["bytes"], fs::metadata(&other).unwrap().len());
}

/// The games that reached a position, listed with their players a page at a time, and a
/// game's last position counted as reached by the game that ended there (it once said "0 of
/// N games").
#[test]
fn explore_lists_the_games_that_reached_a_position_and_counts_the_ones_that_ended_there() {
    let dir = scratch("games-explore-list");
    let games = common::random_games(12, 41);
    let db = make(&dir, &games);
    let jou = dir.join("db.JOU");

    let last = transcript::format(&games[0]);
    let (end, _) = explore_json(
        &dir,
        &last,
        &["--no-engine", "--list", "--players", s(&jou)],
    );
    assert_eq!(end["games"], 0, "nobody moves in a finished position");
    assert_eq!(end["ended"], 1);
    assert_eq!(
        end["ended_black_mean_discs"].as_f64(),
        Some(f64::from(db.games[0].black_score()))
    );
    assert_eq!(end["reached"]["total"], 1);
    let listed = &end["reached"]["games"][0];
    assert_eq!(
        (listed["database"].clone(), listed["game"].clone()),
        (1.into(), 1.into())
    );
    assert_eq!(
        (listed["black"].as_str(), listed["white"].as_str()),
        (Some("Alice"), Some("Bob"))
    );
    assert_eq!(listed["black_score"], db.games[0].black_score());
    assert_eq!(listed["moves"], last.as_str());

    // Pages of the games through f5 (all of them, up to symmetry), in file order.
    let (page, _) = explore_json(
        &dir,
        "f5",
        &["--no-engine", "--list", "--offset", "3", "--limit", "4"],
    );
    assert_eq!(page["reached"]["total"], 12);
    assert_eq!(page["reached"]["offset"], 3);
    let numbers: Vec<u64> = page["reached"]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [4, 5, 6, 7]);
    assert!(page["reached"]["games"][0]["black"].as_str().is_some());

    // In text: the count that includes the ended game, and the list.
    let o = ply(&[
        "othello",
        "explore",
        &last,
        "--games",
        s(&dir.join("db.wtb")),
        "--no-engine",
        "--list",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1 of 12 reached it"), "{out}");
    assert!(out.contains("1 ended here"), "{out}");
    assert!(out.contains("reached by 1 game (1-1 below)"), "{out}");

    // The list's options need --list; a page of 0 is refused.
    let db_path = dir.join("db.wtb");
    for args in [vec!["--limit", "0", "--list"], vec!["--offset", "2"]] {
        let mut all = vec![
            "othello",
            "explore",
            "f5",
            "--games",
            s(&db_path),
            "--no-engine",
        ];
        all.extend(args);
        let o = ply(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {}", stderr(&o));
    }
}

/// Runs `ply ARGS`, expects exit 2 and stderr containing every needle.
fn refused(args: &[&str], needles: &[&str]) {
    let o = ply(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    // Nothing half-written: no header or games of the files read before the bad one.
    assert_eq!(stdout(&o), "", "{args:?}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: `{n}` not in {err}");
    }
}

#[test]
fn broken_files_are_refused_naming_the_file_record_and_field() {
    let dir = scratch("games-broken");
    let games = common::random_games(3, 9);
    make(&dir, &games);
    let good = fs::read(dir.join("db.wtb")).unwrap();
    let path = dir.join("bad.wtb");
    let p = s(&path);

    fs::write(&path, &good[..good.len() - 5]).unwrap();
    refused(&["othello", "games", p], &[p, "record 3", "torn record"]);
    refused(
        &["othello", "explore", "f5", "--games", p],
        &[p, "torn record"],
    );

    let mut b = good.clone();
    b[4] = 9;
    fs::write(&path, &b).unwrap();
    refused(
        &["othello", "games", p],
        &[p, "games (N1)", "says 9 records"],
    );

    let mut b = good.clone();
    b[16 + 68 + 8 + 4] = 11;
    fs::write(&path, &b).unwrap();
    refused(
        &["othello", "games", p, "--json"],
        &[p, "record 2", "`moves`", "move 5 (a1"],
    );

    let mut b = good.clone();
    b[12] = 10;
    fs::write(&path, &b).unwrap();
    refused(&["othello", "games", p], &["board size (P1)", "10x10"]);

    refused(
        &["othello", "games", s(&dir.join("none.wtb"))],
        &["none.wtb: no such file"],
    );
    refused(
        &["othello", "games", s(&dir.join("db.wtb")), p],
        &[p, "board size (P1)"],
    );

    // Names: not text, and a number past the end of the file.
    let jou = dir.join("bad.JOU");
    let mut b = fs::read(dir.join("db.JOU")).unwrap();
    b[17] = 0x01;
    fs::write(&jou, &b).unwrap();
    refused(
        &[
            "othello",
            "games",
            s(&dir.join("db.wtb")),
            "--players",
            s(&jou),
        ],
        &["bad.JOU", "record 1", "control character"],
    );
    let mut b = good.clone();
    b[16 + 2] = 200;
    fs::write(&path, &b).unwrap();
    refused(
        &["othello", "games", p, "--players", s(&dir.join("db.JOU"))],
        &[p, "record 1", "black player", "200 is not in"],
    );
    refused(
        &["othello", "games", s(&dir.join("db.wtb")), "--player", "x"],
        &["--player needs the names"],
    );

    // make: a game not played to its end; a bad transcript.
    let txt = dir.join("short.txt");
    let made = dir.join("o.wtb");
    let make = ["othello", "games", "make", s(&made), "--from", s(&txt)];
    fs::write(&txt, "f5d6c3\n").unwrap();
    refused(&make, &["short.txt: line 1", "not over"]);
    fs::write(&txt, "f5f5\n").unwrap();
    refused(&make, &["short.txt: line 1"]);
    assert!(!made.exists(), "nothing half-written");

    // explore: a 6x6 position.
    let six = ply_othello::text::format_position(&Position::start(BoardSize::Six));
    refused(
        &[
            "othello",
            "explore",
            &six,
            "--games",
            s(&dir.join("db.wtb")),
        ],
        &["WTHOR games are 8x8"],
    );
}
