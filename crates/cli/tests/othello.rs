//! `ply othello show|play|perft`, `ply bench perft` and `ply bench play`, run as the real binary.

mod common;
#[path = "../../othello/tests/support/xml.rs"]
mod xml;

use common::ply;

use ply_othello::{text, transcript, BoardSize, GameRecord, Move, Position};
use serde_json::Value;

/// Runs ply, expects success, returns stdout.
fn ok(args: &[&str]) -> String {
    let out = ply(args);
    assert!(
        out.status.success(),
        "ply {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs ply, expects exit status 2 and no panic; returns stderr.
fn bad(args: &[&str]) -> String {
    let out = ply(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "ply {args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(ok(args).trim()).unwrap()
}

const START8: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn show_draws_the_start_position_with_its_moves() {
    let out = ok(&["othello", "show", START8]);
    assert!(out.contains("3 - - - . - - - - 3"), "{out}");
    assert!(out.contains("legal moves (.): d3 c4 f5 e6"), "{out}");
    let v = json(&["othello", "show", ".....*O..O*..... white", "--json"]);
    assert_eq!(v["position"], "-----XO--OX----- O");
}

#[test]
fn show_reads_a_transcript_and_a_six_by_six_position() {
    let v = json(&["othello", "show", "f5d6", "--json"]);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["moves"], serde_json::json!(["f5", "d6"]));
    let v = json(&["othello", "show", "d5", "--size", "6", "--json"]);
    assert_eq!(v["size"], 6);
    let v = json(&[
        "othello",
        "show",
        "--------------OX----XO-------------- O",
        "--json",
    ]);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["legal_moves"].as_array().unwrap().len(), 4);
}

#[test]
fn show_reads_an_obf_line() {
    let line =
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";
    let v = json(&["othello", "show", line, "--json"]);
    assert_eq!(v["position"], &line[..66]);
    let err = bad(&[
        "othello",
        "show",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; A1:+2;",
    ]);
    assert!(err.contains("OBF line: scored move 1 (`A1:+2`)"), "{err}");
    // A line of the project's test set, `%` comment and all, as `solve --obf` reads it.
    let set = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/eval8-testset.obf"
    ))
    .unwrap();
    let commented = set.lines().find(|l| !l.starts_with('%')).unwrap();
    assert!(commented.contains(" % game 0"), "{commented}");
    let v = json(&["othello", "show", commented, "--json"]);
    assert_eq!(v["position"], &commented[..66]);
    // Edax's unused slots too.
    let edax = format!("{} --:-127; --:-127;", &line);
    assert_eq!(
        json(&["othello", "show", &edax, "--json"])["position"],
        &line[..66]
    );
}

#[test]
fn show_says_when_a_side_must_pass_and_when_the_game_is_over() {
    let v = json(&["othello", "show", "XXXXXXXXXXXO---- O", "--json"]);
    assert_eq!(v["must_pass"], true);
    assert_eq!(v["game_over"], false);
    let out = ok(&["othello", "show", "XXXXXXXXXXXO---- O"]);
    assert!(out.contains("must pass"), "{out}");
    let v = json(&["othello", "show", "XXXXXXXXXXXXXXXX O", "--json"]);
    assert_eq!(v["game_over"], true);
    assert_eq!(v["score_black"], 16);
}

/// A finished 4x4 game of pseudo-random moves with a pass before its last move.
fn game_with_a_pass() -> GameRecord {
    for seed in 1..10_000u64 {
        let mut rng = ply_core::SplitMix64::new(seed);
        let mut game = GameRecord::new(Position::start(BoardSize::Four));
        while !game.position().is_game_over() {
            let m: Vec<_> = game.position().legal_moves().collect();
            if m.is_empty() {
                game.play(Move::Pass).unwrap();
                continue;
            }
            game.play(Move::Play(m[rng.below(m.len())])).unwrap();
        }
        let moves = game.moves();
        if moves.contains(&Move::Pass) && moves.last() != Some(&Move::Pass) {
            return game;
        }
    }
    unreachable!("some 4x4 game has a pass")
}

#[test]
fn play_replays_a_whole_game_with_passes() {
    let game = game_with_a_pass();
    let end = text::format_position(&game.position());
    let implicit = transcript::format(&game);
    let explicit = transcript::format_with_passes(&game).replace("pa", " PA ");
    for t in [&implicit, &explicit] {
        let v = json(&["othello", "play", t, "--size", "4", "--json"]);
        assert_eq!(v["position"], end.as_str());
        assert_eq!(v["plies"], game.moves().len());
        assert_eq!(v["game_over"], true);
        assert_eq!(v["transcript"], implicit.as_str());
    }
    let out = ok(&["othello", "play", &implicit, "--size", "4"]);
    assert!(out.contains("game over"), "{out}");
    // Dropping the last move leaves a game in progress; `show` agrees with `play`.
    let v = json(&[
        "othello",
        "show",
        &implicit[..implicit.len() - 2],
        "--size",
        "4",
        "--json",
    ]);
    assert_eq!(v["game_over"], false);
}

#[test]
fn play_reads_ggf_too() {
    let v = json(&[
        "othello",
        "play",
        "(;GM[Othello]BO[4 **** **** ***O ---- O]B[d4];)",
        "--json",
    ]);
    assert_eq!(v["moves"], serde_json::json!(["pass", "d4"]));
}

#[test]
fn play_and_show_reject_bad_moves_with_exit_2() {
    let err = bad(&["othello", "play", "f5f5"]);
    assert!(err.contains("move 2 (`f5`)"), "{err}");
    let err = bad(&["othello", "play", "f5 pass"]);
    assert!(err.contains("cannot pass"), "{err}");
    let err = bad(&["othello", "play", "f5", "--size", "4"]);
    assert!(err.contains("not on the board"), "{err}");
    let err = bad(&["othello", "show", "-----XO--OX-----"]);
    assert!(err.contains("side to move is missing"), "{err}");
    let err = bad(&["othello", "show", "hello"]);
    assert!(err.contains("POS: "), "{err}");
    let err = bad(&["othello", "show", START8, "--size", "6"]);
    assert!(err.contains("the position is 8x8, not 6x6"), "{err}");
    // A transcript is played on the size asked for: c4 is a centre square of 6x6.
    let err = bad(&["othello", "analyze", "c4c3", "--size", "6"]);
    assert!(
        err.contains("transcript on 6x6: move 1 (`c4`)")
            && err.contains("c4 is already taken")
            && err.contains("the moves are legal on 8x8"),
        "{err}"
    );
    let err = bad(&[
        "othello",
        "play",
        "(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[a1];)",
    ]);
    assert!(err.contains("B[a1]"), "{err}");
    bad(&["othello", "perft", "3", "--size", "5"]);
    bad(&["othello", "perft", "x"]);
    bad(&["othello", "perft", "99"]);
    bad(&["othello", "perft", "2", "--position", "XO"]);
}

#[test]
fn perft_counts_divides_and_speaks_json() {
    let out = ok(&["othello", "perft", "6"]);
    assert!(out.starts_with("perft(6) = 8200\n"), "{out}");
    let v = json(&["othello", "perft", "7", "--size", "6", "--divide", "--json"]);
    assert_eq!(v["leaves"], 47740);
    let parts = v["divide"].as_array().unwrap();
    assert_eq!(parts.len(), 4);
    let sum: u64 = parts.iter().map(|p| p["leaves"].as_u64().unwrap()).sum();
    assert_eq!(sum, 47740);
    let v = json(&["othello", "perft", "16", "--size", "4", "--json"]);
    assert_eq!(v["leaves"], 60060);
    // From a position where white must pass: the pass is the only "move".
    let v = json(&[
        "othello",
        "perft",
        "3",
        "--position",
        "XXXXXXXXXXXO---- O",
        "--divide",
        "--json",
    ]);
    assert_eq!(v["divide"][0]["move"], "pass");
    // From a transcript.
    let v = json(&["othello", "perft", "1", "--position", "f5", "--json"]);
    assert_eq!(v["leaves"], 3);
}

#[test]
fn bench_perft_checks_its_count() {
    let v = json(&["bench", "perft", "--depth", "6", "--json"]);
    assert_eq!(v["leaves"], 8200);
    assert!(v["leaves_per_second"].as_f64().unwrap() > 0.0);
    let err = bad(&["bench", "perft", "--depth", "20"]);
    assert!(err.contains("no published perft(20)"), "{err}");
}

/// `ply bench play` on two short self-play games (20 ms a move, small tables: the debug
/// build's pace does not matter): each game's answers in order, the empties from which they
/// were all proven, and a summary that agrees with the games. No timing is asserted.
#[test]
fn bench_play_reports_from_where_the_answers_are_proven() {
    let args = [
        "bench",
        "play",
        "--games",
        "2",
        "--ms",
        "20",
        "--hash-mb",
        "2",
        "--json",
    ];
    let rows: Vec<Value> = ok(&args)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    let mut froms = Vec::new();
    for (i, game) in rows[..2].iter().enumerate() {
        assert_eq!(game["game"], i + 1);
        let opening = game["opening"].as_str().unwrap();
        let moves = game["moves"].as_array().unwrap();
        assert_eq!(game["answers"], moves.len());
        // Replaying the answers from the opening is a legal game to its end, whose score
        // for black is the one reported.
        let played: String = moves.iter().map(|m| m["best"].as_str().unwrap()).collect();
        let end = transcript::parse(
            &format!("{opening}{played}"),
            Position::start(BoardSize::Eight),
        )
        .unwrap()
        .position();
        assert!(end.is_game_over(), "{opening}{played}");
        let black = if end.turn() == ply_othello::Color::Black {
            1
        } else {
            -1
        };
        assert_eq!(game["final"], black * end.final_score());
        // Empties fall answer by answer; the last answers (a few empties) are proven, and
        // the game is proven from the first answer of its last proven stretch.
        let empties: Vec<u64> = moves
            .iter()
            .map(|m| m["empties"].as_u64().unwrap())
            .collect();
        assert!(empties.windows(2).all(|w| w[1] < w[0]), "{empties:?}");
        let last_unproven = moves.iter().rposition(|m| m["proven"] != true);
        let from = empties[last_unproven.map_or(0, |i| i + 1)];
        assert!(from >= 1 && moves.last().unwrap()["proven"] == true);
        assert_eq!(game["proven_from"], from);
        froms.push(from as f64);
    }
    let summary = &rows[2];
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["checked"], true);
    assert_eq!(summary["proven_from_median"], (froms[0] + froms[1]) / 2.0);
    assert_eq!(
        summary["proven_from_22"],
        froms.iter().filter(|&&f| f >= 22.0).count()
    );
    for (flag, value) in [("--games", "0"), ("--ms", "0"), ("--threads", "0")] {
        let err = bad(&["bench", "play", flag, value]);
        assert!(err.contains(flag), "{err}");
    }
}

#[test]
fn show_and_solve_refuse_an_empty_board_as_the_server_does() {
    let empty4 = "---------------- X";
    for args in [
        &["othello", "show", empty4][..],
        &["othello", "solve", empty4][..],
    ] {
        let err = bad(args);
        assert!(
            err.contains("POS: impossible position: centre square b2 is empty"),
            "{err}"
        );
    }
    // The same words as the server's (crates/server/tests/api.rs), from the same check.
    let err = bad(&[
        "othello",
        "show",
        &format!("{} O", "-".repeat(64)),
        "--json",
    ]);
    assert!(err.contains("centre square d4 is empty"), "{err}");
}

/// The same bad requests as the API's and Python's, refused by the library's one check
/// (`analyze::Request`) with the same words, the option spelled with its dashes.
#[test]
fn analyze_review_and_explore_refuse_a_bad_request_in_the_library_s_words() {
    let book6 = concat!(env!("CARGO_MANIFEST_DIR"), "/../othello/data/book6.bin");
    for (flags, message) in [
        (&["--threads", "0"][..], "--threads 0: expected 1 to 256"),
        (&["--threads", "300"], "--threads 300: expected 1 to 256"),
        (&["--depth", "0"], "--depth 0: expected 1 to 64"),
        (
            &["--time", "1", "--depth", "5"],
            "--time and depth: give one or the other, not both",
        ),
        (
            &["--time", "0"],
            "--time 0: expected more than 0 and at most 86400 seconds",
        ),
        (
            &["--book", book6],
            "--book: a 6x6 book, the position is 8x8",
        ),
    ] {
        let mut args = vec!["othello", "analyze", "f5d6"];
        args.extend(flags);
        let err = bad(&args);
        assert!(err.contains(message), "{args:?}: {err}");
        if flags[0] != "--book" {
            let mut review = vec!["othello", "review", "f5d6"];
            review.extend(flags);
            let err = bad(&review);
            assert!(err.contains(message), "{review:?}: {err}");
        }
    }
    let err = bad(&["othello", "analyze", &format!("{} X", "-".repeat(64))]);
    assert!(
        err.contains("POS: impossible position: centre square d4 is empty"),
        "{err}"
    );
}

#[test]
fn show_and_solve_name_their_position_pos() {
    for cmd in ["show", "solve"] {
        let help = ok(&["othello", cmd, "--help"]);
        assert!(help.contains("POS"), "{help}");
        assert!(!help.contains("POSITION"), "{help}");
    }
}

#[test]
fn json_errors_are_one_json_object_on_stderr() {
    let cases: [&[&str]; 7] = [
        &["othello", "show", "hello", "--json"],
        &["othello", "play", "f5f5", "--json"],
        &["othello", "perft", "1", "--size", "5", "--json"],
        &["othello", "solve", "---------------- X", "--json"],
        &["ttt", "analyze", "xxxxxxxxx", "--json"],
        // Usage errors found before any command runs.
        &["ttt", "stats", "--json", "--no-such-flag"],
        &["othello", "perft", "--json"],
    ];
    for args in cases {
        let err = bad(args);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "ply {args:?}: {err}");
        let v: Value = serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{err}: {e}"));
        let message = v["error"].as_str().unwrap_or_else(|| panic!("{err}"));
        assert!(!message.is_empty() && !message.starts_with("ply:"), "{err}");
        assert_eq!(v.as_object().unwrap().len(), 1, "{err}");
    }
    let err = bad(&["othello", "perft", "--json"]);
    assert!(err.contains("not provided: <DEPTH>"), "{err}");
    // Without --json the plain message stays.
    let err = bad(&["othello", "show", "hello"]);
    assert!(err.starts_with("ply: POS: "), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_table_larger_than_the_machine_is_a_usage_error_naming_hash_mb() {
    // The machine is made small: 2 GiB of address space, and a table of 4 GiB asked for.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 2097152 && exec "$0" othello solve --size 4 --hash-mb 4096"#)
        .arg(env!("CARGO_BIN_EXE_ply"))
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        "ply: --hash-mb 4096: cannot allocate a transposition table of 4096 MB: not enough memory\n"
    );
    // The same table fits once the limit is lifted far enough: the limit, not the size,
    // made it fail.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 2097152 && exec "$0" othello solve --size 4 --hash-mb 64"#)
        .arg(env!("CARGO_BIN_EXE_ply"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_summary_of_othello_names_every_subcommand() {
    let top = ok(&["--help"]);
    let summary = top
        .lines()
        .find(|l| l.trim_start().starts_with("othello "))
        .expect("an othello line");
    let help = ok(&["othello", "--help"]);
    assert!(help.starts_with("Othello: "), "{help}");
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 7, "{commands:?}");
    for c in commands {
        assert!(summary.contains(c), "`{c}` is missing from `{summary}`");
        assert!(help.lines().next().unwrap().contains(c), "{help}");
    }
}

#[test]
fn solve_prints_a_forced_pass_as_pass() {
    // 4x4, after these nine moves the side to move has no move and must pass.
    let out = ok(&["othello", "solve", "--size", "4", "d3d2d1b4a2b1a4d4c4"]);
    assert!(out.contains("best move  pass\n"), "{out}");
    assert!(!out.contains("none"), "{out}");
}

#[test]
fn solve_says_at_once_when_a_position_is_too_far_from_the_end() {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["othello", "solve", "f5d6c3"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run ply");
    let stderr = child.stderr.take().expect("stderr is piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stderr).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(std::time::Duration::from_secs(10));
    child.kill().expect("kill");
    let _ = child.wait();
    let line = line.expect("a note within seconds");
    assert!(line.contains("57 empty squares"), "{line}");
    assert!(line.contains("will not finish"), "{line}");
    assert!(line.contains("ply othello analyze 'f5d6c3'"), "{line}");
}

/// The elements of an SVG picture with this class.
fn count_class(elements: &[xml::Element], class: &str) -> usize {
    elements
        .iter()
        .filter(|e| e.attr("class") == Some(class))
        .count()
}

#[test]
fn show_svg_writes_a_whole_picture_of_the_position() {
    let dir = common::scratch("show-svg");
    let path = dir.join("f5d6c3.svg");
    let text_out = ok(&["othello", "show", "f5d6c3", "--svg", common::s(&path)]);
    assert!(
        text_out.contains("legal moves (.): d3 f3 f4 g5"),
        "the text as ever"
    );
    let picture = std::fs::read_to_string(&path).expect("the picture is written");
    assert!(!dir.join("f5d6c3.tmp").exists(), "no temporary file left");
    let elements = xml::parse(&picture).unwrap_or_else(|e| panic!("{e}\n{picture}"));
    assert_eq!(elements[0].name, "svg");
    assert_eq!(count_class(&elements, "disc black"), 5);
    assert_eq!(count_class(&elements, "disc white"), 2);
    assert_eq!(count_class(&elements, "legal"), 4);
    assert_eq!(count_class(&elements, "last"), 1, "c3 is marked");
    assert_eq!(count_class(&elements, "value"), 0);
    // `-`: the picture on stdout instead of the text; with values from an analysis (4x4:
    // every move exact within the time).
    let out = ok(&["othello", "show", "f5", "--svg", "-"]);
    assert_eq!(out.matches("class=\"disc black\"").count(), 4);
    let out = ok(&[
        "othello", "show", "b1", "--size", "4", "--svg", "-", "--values", "--time", "2",
    ]);
    let elements = xml::parse(&out).expect("well-formed");
    let values: Vec<&str> = elements
        .iter()
        .filter(|e| e.attr("class") == Some("value"))
        .map(|e| e.text.as_str())
        .collect();
    let pos = common_position("b1", BoardSize::Four);
    assert_eq!(values.len() as u32, pos.legal_moves().count());
    assert!(
        values.iter().all(|v| !v.starts_with('≈')),
        "4x4 is solved: {values:?}"
    );
}

#[test]
fn show_svg_refuses_bad_input_and_leaves_no_file() {
    let dir = common::scratch("show-svg-bad");
    let path = dir.join("bad.svg");
    let err = bad(&["othello", "show", "f5z9", "--svg", common::s(&path)]);
    assert!(err.contains("POS"), "{err}");
    assert!(!path.exists());
    let err = bad(&["othello", "show", "f5", "--values"]);
    assert!(err.contains("--svg"), "{err}");
    let err = bad(&[
        "othello", "show", "f5", "--svg", "-", "--values", "--time", "0",
    ]);
    assert!(err.contains("--time 0"), "{err}");
    let err = bad(&["othello", "show", "f5", "--svg", "-", "--png", "-"]);
    assert!(err.contains("only one picture can go to stdout"), "{err}");
    let missing = dir.join("no-such-dir").join("x.svg");
    let out = ply(&["othello", "show", "f5", "--svg", common::s(&missing)]);
    // An output in a folder that does not exist is bad input, named; nothing is written.
    assert_eq!(out.status.code(), Some(2), "a file that cannot be written");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such folder"));
    assert!(!missing.exists());
}

/// The position after `moves` on a board of `size`.
fn common_position(moves: &str, size: BoardSize) -> Position {
    transcript::parse(moves, Position::start(size))
        .expect("a transcript")
        .position()
}

#[test]
fn show_png_writes_a_png_beside_the_svg() {
    let dir = common::scratch("show-png");
    let (svg, png) = (dir.join("p.svg"), dir.join("p.png"));
    ok(&[
        "othello",
        "show",
        "f5d6",
        "--svg",
        common::s(&svg),
        "--png",
        common::s(&png),
    ]);
    let bytes = std::fs::read(&png).expect("the PNG is written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    // IHDR: 8x8 is 24 + 8 * 60 + 8 pixels a side.
    assert_eq!(&bytes[16..24], &[0, 0, 2, 0, 0, 0, 2, 0]);
    assert!(bytes.ends_with(b"IEND\xae\x42\x60\x82"));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let out = ply(&["othello", "show", "f5", "--png", "-"]);
    assert!(out.status.success());
    assert!(
        out.stdout.starts_with(b"\x89PNG"),
        "the PNG on stdout, nothing else"
    );
}

#[test]
fn a_closed_stdout_ends_a_command_quietly_with_status_0() {
    // `ply … | head`: the reader is gone before ply writes. `book info` prints with
    // `println!`, which panics on a closed pipe unless main ends the program quietly.
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/../othello/data/book8.bin");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["othello", "book", "info", book])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// `ply bench match --gtp` against ply's own GTP engine (20 ms a move): two games from the
/// first opening, each reported, and a summary that adds up.
#[test]
fn bench_match_plays_a_gtp_engine_from_the_openings() {
    let engine = format!("{} gtp --depth 2 --time 0.02", env!("CARGO_BIN_EXE_ply"));
    let out = ok(&[
        "bench",
        "match",
        "--gtp",
        &engine,
        "--openings",
        "1",
        "--ms",
        "20",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].starts_with("1 openings x 2 colours, 20 ms a move, against `"));
    let opening = "f5d6c4d3c2b3b4b5";
    let mut discs = 0;
    for (line, colour) in lines[1..3].iter().zip(["black", "white"]) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(&f[..5], ["1", opening, "ply", "as", colour], "{line}");
        discs += f[5].parse::<i32>().unwrap();
    }
    let summary = lines[3];
    assert!(summary.starts_with("ply won "), "{summary}");
    let nums: Vec<i64> = summary
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(nums[0] + nums[1] + nums[2], 2, "{summary}");
    assert!(
        summary.ends_with(&format!("{:+.1} discs a game", f64::from(discs) / 2.0)),
        "{summary}"
    );
    assert!(
        lines[4].starts_with("time a move (ms): ply median "),
        "{out}"
    );
}

/// `ply bench ponder` on a short clock: the first opening twice, the pondering side black
/// then white, each game a line (played to the end, or lost on time: a debug build may
/// overrun), and the two closing lines over both games.
#[test]
fn bench_ponder_plays_each_opening_twice_and_tallies_the_pondering_side() {
    let out = ok(&[
        "bench",
        "ponder",
        "--openings",
        "1",
        "--main-ms",
        "300",
        "--inc-ms",
        "10",
    ]);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("    overrun: "))
        .collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(
        lines[0],
        "1 openings x 2 colours, Fischer 300 ms + 10 ms a move: pondering against not"
    );
    for (line, colour) in lines[1..3].iter().zip(["black", "white"]) {
        let head = format!("  1 f5d6c4d3c2b3b4b5 pondering as {colour:<5} ");
        let rest = line.strip_prefix(&head).unwrap_or_else(|| panic!("{out}"));
        let flagged = (rest.starts_with("Black ran out of time (")
            || rest.starts_with("White ran out of time ("))
            && rest.ends_with(" on its last move)");
        let played = rest.contains("  hits ") && rest.contains("  longest move ");
        assert!(flagged || played, "{line}");
    }
    assert!(
        lines[3].starts_with("pondering took ") && lines[3].contains(" of 2 points ("),
        "{out}"
    );
    assert!(
        lines[4]
            .starts_with("mean depth of the midgame engine's moves: pondering side after a hit "),
        "{out}"
    );
}
