//! `ply train gen|merge|info|fit|export|pack|duel|testset`: the training-data commands, the
//! fit and the measures, run as a user or a scheduler runs them (`train net`: train_net.rs).

mod common;

use std::fs;

use common::{ply, s, scratch, small_games, stderr, stdout, SMALL_GAMES};

#[test]
fn gen_merge_and_info_make_the_bytes_of_one_run() {
    let dir = scratch("train-gen");
    let whole = dir.join("whole.bin");
    let o = small_games(s(&whole), "5", "0/1");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("5 of shard 0/1's 5 games"),
        "{}",
        stderr(&o)
    );
    let mut shards = Vec::new();
    for i in 0..2 {
        let path = dir.join(format!("shard-{i}.bin"));
        let o = small_games(s(&path), "5", &format!("{i}/2"));
        assert!(o.status.success(), "{}", stderr(&o));
        shards.push(path);
    }
    let merged = dir.join("merged.bin");
    let o = ply(&[
        "train",
        "merge",
        s(&shards[1]),
        s(&shards[0]),
        "--out",
        s(&merged),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("5 games"), "{}", stdout(&o));
    assert_eq!(fs::read(&merged).unwrap(), fs::read(&whole).unwrap());

    let o = ply(&["train", "info", s(&merged), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["games"], 5);
    assert_eq!(v["complete"], true);
    assert_eq!(v["shard"], "0/1");
    assert_eq!(v["exact_empties"], 10);
    assert_eq!(v["bytes"], fs::metadata(&merged).unwrap().len());
    assert!(v["positions"].as_u64().unwrap() >= 5 * 28);
    let o = ply(&["train", "info", s(&shards[1])]);
    assert!(stdout(&o).contains("shard 1/2 (2 games)"), "{}", stdout(&o));
}

#[test]
fn a_rerun_resumes_a_torn_file_and_other_arguments_are_refused() {
    let dir = scratch("train-resume");
    let whole = dir.join("whole.bin");
    assert!(small_games(s(&whole), "4", "0/1").status.success());
    let want = fs::read(&whole).unwrap();
    // A kill in the middle of a record.
    let killed = dir.join("killed.bin");
    fs::write(&killed, &want[..want.len() - 30]).unwrap();
    let o = small_games(s(&killed), "4", "0/1");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cut a torn last record"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("resuming after"), "{}", stderr(&o));
    assert_eq!(fs::read(&killed).unwrap(), want);
    // Other arguments: exit 2, the field named, the file untouched.
    let o = small_games(s(&killed), "4", "1/2");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("header field `shard` is 0/1, not 1/2"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(&killed).unwrap(), want);
    // A corrupt file: info and gen both refuse it by field, with exit 2.
    let mut bad = want.clone();
    let at = bad.len() - 3;
    bad[at] ^= 0x10;
    fs::write(&killed, &bad).unwrap();
    for args in [
        vec!["train", "info", s(&killed)],
        [
            &[
                "train",
                "gen",
                "--out",
                s(&killed),
                "--games",
                "4",
                "--seed",
                "9",
            ],
            &SMALL_GAMES[..],
        ]
        .concat(),
    ] {
        let o = ply(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("field `checksum`"), "{}", stderr(&o));
        assert!(stderr(&o).contains("record 4 (byte "), "{}", stderr(&o));
    }
    // An unfinished shard is not merged without --partial.
    let o = ply(&["train", "merge", s(&whole), "--out", s(&dir.join("m.bin"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    fs::write(&killed, &want[..want.len() - 30]).unwrap();
    let o = ply(&["train", "merge", s(&killed), "--out", s(&dir.join("m.bin"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ends inside field"), "{}", stderr(&o));
}

#[test]
fn bad_arguments_are_usage_errors() {
    let dir = scratch("train-args");
    let out = dir.join("g.bin");
    for (args, want) in [
        (
            vec!["--size", "6", "--shard", "2/2"],
            "shard 2 of 2 does not exist",
        ),
        (
            vec!["--size", "6", "--random-moves", "9-3"],
            "the range 9-3 is empty",
        ),
        (
            vec!["--size", "6", "--random-moves", "30"],
            "--exact-empties: up to 30 random moves",
        ),
        (
            vec!["--random-moves", "41"],
            "--exact-empties: up to 41 random moves and perfect play from 20 empties overlap",
        ),
        (
            vec!["--size", "6", "--depth", "0"],
            "--depth: 0 is not within 1 to 30",
        ),
        (vec!["--size", "4"], "--size: 4x4 has no evaluation"),
    ] {
        let mut a = vec!["train", "gen", "--out", s(&out), "--games", "3"];
        a.extend(args);
        let o = ply(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}");
        assert!(stderr(&o).contains(want), "{a:?}: {}", stderr(&o));
        assert!(!out.exists(), "{a:?} wrote a file");
    }
}

#[test]
fn fit_writes_weights_that_load_and_reports_each_phase() {
    let dir = scratch("train-fit");
    let games = dir.join("games.bin");
    let o = small_games(s(&games), "12", "0/1");
    assert!(o.status.success(), "{}", stderr(&o));
    let weights = dir.join("eval6.bin");
    let fit = |out: &std::path::Path| {
        ply(&[
            "train",
            "fit",
            s(&games),
            "--holdout",
            "4",
            "--iterations",
            "5",
            "--out",
            s(out),
        ])
    };
    let o = fit(&weights);
    assert!(o.status.success(), "{}", stderr(&o));
    // One row per 6x6 phase (8), and the weights load as 6x6 weights.
    let table = stdout(&o);
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 8, "{table}");
    let bytes = fs::read(&weights).unwrap();
    ply_othello::eval::weights::read(ply_othello::BoardSize::Six, &bytes).expect("6x6 weights");
    // Deterministic: the same data and settings give the same bytes.
    let again = dir.join("again.bin");
    assert!(fit(&again).status.success());
    assert_eq!(fs::read(&again).unwrap(), bytes);

    // Bad input: the file named, status 2, nothing written.
    let cut = dir.join("cut.bin");
    let whole = fs::read(&games).unwrap();
    fs::write(&cut, &whole[..whole.len() - 2]).unwrap();
    let out = dir.join("none.bin");
    for (args, want) in [
        (vec![s(&cut)], "cut.bin"),
        (vec![s(&games), s(&games)], "given twice"),
        (vec![s(&games), "--holdout", "1"], "--holdout 1"),
        (vec![s(&games), "--ridge=-1"], "--ridge -1"),
    ] {
        let mut a = vec!["train", "fit", "--out", s(&out)];
        a.extend(args);
        let o = ply(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{a:?}: {}", stderr(&o));
        assert!(!out.exists(), "{a:?} wrote a file");
    }
}

/// `export` numbers the weights as `pack` reads them: a fitted weight file turned into a
/// table and packed again is the same file, and the table summed over a position's exported
/// indices is the evaluation of the exported position.
#[test]
fn export_indexes_the_weights_that_pack_makes() {
    use ply_othello::{eval, BoardSize};
    let dir = scratch("train-export");
    let games = dir.join("games.bin");
    let o = small_games(s(&games), "6", "0/1");
    assert!(o.status.success(), "{}", stderr(&o));
    let weights = dir.join("eval6.bin");
    let o = ply(&[
        "train",
        "fit",
        s(&games),
        "--holdout",
        "3",
        "--iterations",
        "5",
        "--out",
        s(&weights),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("arrays");
    let o = ply(&[
        "train",
        "export",
        s(&games),
        "--holdout",
        "3",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let layout: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("layout.json")).unwrap()).unwrap();
    let (per, phases, f) = (
        layout["per_phase"].as_u64().unwrap() as usize,
        layout["phases"].as_u64().unwrap() as usize,
        layout["features"].as_u64().unwrap() as usize,
    );
    let rows = layout["sets"]["train"].as_u64().unwrap() as usize;
    assert!(rows > 100, "{layout}");

    // The fitted weights as a table of discs, packed again: the same bytes.
    let bytes = fs::read(&weights).unwrap();
    let e = eval::weights::read(BoardSize::Six, &bytes).unwrap();
    assert_eq!(e.weights().len(), per * phases);
    let table: Vec<f32> = e.weights().iter().map(|&w| f32::from(w) / 64.0).collect();
    let raw: Vec<u8> = table.iter().flat_map(|v| v.to_le_bytes()).collect();
    fs::write(dir.join("table.f32"), &raw).unwrap();
    let again = dir.join("again.bin");
    let o = ply(&[
        "train",
        "pack",
        s(&dir.join("table.f32")),
        "--size",
        "6",
        "--out",
        s(&again),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(fs::read(&again).unwrap(), bytes);

    // Each exported position: its indices summed over the table give its evaluation.
    let feat = fs::read(out.join("train.feat")).unwrap();
    let pos = fs::read(out.join("train.pos")).unwrap();
    let empties = fs::read(out.join("train.empties")).unwrap();
    assert_eq!(feat.len(), rows * f * 4);
    assert_eq!(pos.len(), rows * 16);
    assert_eq!(fs::read(out.join("train.label")).unwrap().len(), rows);
    // Position i's discs (side to move, other side) and its k-th index.
    let board = |i: usize| {
        let disc = |k: usize| u64::from_le_bytes(pos[8 * k..8 * k + 8].try_into().unwrap());
        (disc(2 * i), disc(2 * i + 1))
    };
    let index = |i: usize, k: usize| {
        let at = 4 * (i * f + k);
        u32::from_le_bytes(feat[at..at + 4].try_into().unwrap()) as usize
    };
    for i in (0..rows).step_by(7) {
        let (p, o) = board(i);
        let phase = eval::phase_of(BoardSize::Six, u32::from(empties[i]));
        let sum: f32 = (0..f).map(|k| table[phase * per + index(i, k)]).sum();
        assert_eq!(
            (sum * 64.0).round() as i32,
            e.evaluate_reference(p, o),
            "position {i}"
        );
    }

    // Each pattern's `cells`, read as base-3 digits from the positions, give its first
    // instance's column of the features (the pattern as listed is its own first image), as
    // the least of its symmetric images: what a script needs to add patterns of its own.
    let shipped = eval::layout(BoardSize::Six).unwrap();
    let mut column = 0;
    for (k, pattern) in layout["patterns"].as_array().unwrap().iter().enumerate() {
        let cells: Vec<u64> = pattern["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        assert_eq!(cells.len() as u64, pattern["squares"].as_u64().unwrap());
        let offset = pattern["offset"].as_u64().unwrap() as usize;
        for r in 0..rows {
            let (p, o) = board(r);
            let digits = cells.iter().rev().fold(0, |acc, &c| {
                acc * 3 + usize::from(p >> c & 1 != 0) + 2 * usize::from(o >> c & 1 != 0)
            });
            assert_eq!(
                index(r, column),
                offset + shipped.canonical(k, digits),
                "pattern {k}, position {r}"
            );
        }
        column += pattern["instances"].as_u64().unwrap() as usize;
    }

    // Search labels: the exact ones and those at few empties kept, the others the mean of
    // two depths over the given weights.
    let o = ply(&[
        "train",
        "label",
        s(&out),
        "--weights",
        s(&weights),
        "--depth",
        "2",
        "--above",
        "12",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let search = fs::read(out.join("train.search")).unwrap();
    let labels = fs::read(out.join("train.label")).unwrap();
    let flags = fs::read(out.join("train.flags")).unwrap();
    assert_eq!(search.len(), 4 * rows);
    let mut searched = 0;
    for i in 0..rows {
        let v = f32::from_le_bytes(search[4 * i..4 * i + 4].try_into().unwrap());
        if flags[i] & 1 == 1 || empties[i] <= 12 {
            assert_eq!(v, f32::from(labels[i] as i8), "position {i}");
            continue;
        }
        searched += 1;
        let word = |k: usize| u64::from_le_bytes(pos[8 * k..8 * k + 8].try_into().unwrap());
        let p = ply_othello::Position::from_raw(
            word(2 * i),
            word(2 * i + 1),
            ply_othello::Color::Black,
            BoardSize::Six,
        );
        let want =
            ply_train::fit::search_value(&e, &p, 2).0 + ply_train::fit::search_value(&e, &p, 3).0;
        assert_eq!(v, want as f32 / 128.0, "position {i}");
    }
    assert!(searched > 10, "{searched}");

    // Bad input: named, status 2, nothing written.
    fs::write(dir.join("short.f32"), &raw[..raw.len() - 4]).unwrap();
    let none = dir.join("none.bin");
    let o = ply(&[
        "train",
        "pack",
        s(&dir.join("short.f32")),
        "--size",
        "6",
        "--out",
        s(&none),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("short.f32"), "{}", stderr(&o));
    assert!(!none.exists());
    let o = ply(&[
        "train",
        "export",
        s(&games),
        "--holdout",
        "1",
        "--out",
        s(&dir.join("x")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--holdout 1"), "{}", stderr(&o));
}

/// `ply train duel`: an evaluation of zeros loses to the shipped one; bad arguments are
/// refused.
#[test]
fn duel_counts_the_games_of_both_colours() {
    use ply_othello::{eval, BoardSize};
    let dir = scratch("train-duel");
    let n = eval::tables(BoardSize::Eight).unwrap().weights().len();
    fs::write(dir.join("zero.f32"), vec![0u8; 4 * n]).unwrap();
    let zero = dir.join("zero.bin");
    let o = ply(&["train", "pack", s(&dir.join("zero.f32")), "--out", s(&zero)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ply(&[
        "train",
        "duel",
        s(&zero),
        "shipped",
        "--openings",
        "3",
        "--depth",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let line = stdout(&o);
    assert!(line.contains("6 games at depth 2"), "{line}");
    let lost: u32 = line
        .split(" lost")
        .next()
        .and_then(|x| x.rsplit(' ').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(lost >= 4, "{line}");
    for (args, want) in [
        (vec!["--openings", "0"], "--openings 0"),
        (vec!["--depth", "11"], "--depth 11"),
    ] {
        let mut a = vec!["train", "duel", s(&zero), "shipped"];
        a.extend(args);
        let o = ply(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{a:?}: {}", stderr(&o));
    }
    let o = ply(&["train", "duel", s(&dir.join("missing.bin")), "shipped"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("missing.bin"), "{}", stderr(&o));
}

/// `ply bench eval --obf FILE --json` with a short judgement of two positions: its rows.
fn bench_eval_rows(file: &std::path::Path) -> Vec<serde_json::Value> {
    let o = ply(&[
        "bench",
        "eval",
        "--obf",
        s(file),
        "--ms",
        "20",
        "--judge",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Heavy: a debug build plays the games slowly (`cargo test --profile test-release -- --ignored`).
#[test]
#[ignore]
fn testset_grows_resumes_and_bench_eval_measures_it() {
    let dir = scratch("train-testset");
    let file = dir.join("set.obf");
    let quick = |games: &str| {
        ply(&[
            "train",
            "testset",
            "--out",
            s(&file),
            "--games",
            games,
            "--play-depth",
            "1",
            "--label-depth",
            "2",
            "--exact-empties",
            "15",
        ])
    };
    let o = quick("1");
    assert!(o.status.success(), "{}", stderr(&o));
    let one = fs::read_to_string(&file).unwrap();
    assert!(
        one.starts_with("% ply train testset: XOT openings from line 5001"),
        "{one}"
    );
    assert!(one.contains("% game 0, exact"), "{one}");
    assert!(one.contains("% game 0, depth 2"), "{one}");
    assert!(one.ends_with("% game 0 done\n"), "{one}");
    // A torn write is cut and the file grows from the last whole game.
    fs::write(&file, format!("{one}----")).unwrap();
    let o = quick("2");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cut a torn last game (4 bytes)"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("resuming after 1 games"),
        "{}",
        stderr(&o)
    );
    let two = fs::read_to_string(&file).unwrap();
    assert!(
        two.starts_with(&one) && two.ends_with("% game 1 done\n"),
        "{two}"
    );
    // Another recipe does not grow the file.
    let o = ply(&["train", "testset", "--out", s(&file), "--games", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 1: the file was made by another recipe"));

    let rows = bench_eval_rows(&file);
    let statics: Vec<_> = rows.iter().filter(|r| r["kind"] == "static").collect();
    assert!(!statics.is_empty(), "{rows:?}");
    let counted: u64 = statics.iter().map(|r| r["count"].as_u64().unwrap()).sum();
    let lines = two.lines().filter(|l| !l.starts_with('%')).count() as u64;
    let kept = two
        .lines()
        .filter(|l| !l.starts_with('%'))
        .filter(|l| {
            let empties = l[..64].bytes().filter(|&b| b == b'-').count();
            (14..=40).contains(&empties)
        })
        .count() as u64;
    assert!(
        lines > 0 && counted == kept,
        "{counted} of {lines}: {rows:?}"
    );
    assert!(statics.iter().all(|r| r["mae"].as_f64().unwrap() >= 0.0));
    assert_eq!(rows.iter().filter(|r| r["kind"] == "judgement").count(), 2);
    assert_eq!(rows.last().unwrap()["kind"], "judgement summary");
}

/// `--play-depth` and `--exact-empties` reach the recipe (the file's first line records it,
/// and a file made by another recipe is not grown); out of range they are refused, named.
/// By default the recipe is the committed test set's. (`--games 0`: the header alone.)
#[test]
fn testset_takes_its_play_depth_and_exact_empties_into_the_recipe() {
    let dir = scratch("train-testset-recipe");
    let file = dir.join("set.obf");
    let testset = |extra: &[&str]| {
        let mut args = vec!["train", "testset", "--out", s(&file), "--games", "0"];
        args.extend(extra);
        ply(&args)
    };
    let o = testset(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let committed = include_str!("../../../testdata/eval8-testset.obf");
    let first = committed.lines().next().unwrap();
    assert_eq!(fs::read_to_string(&file).unwrap(), format!("{first}\n"));

    fs::remove_file(&file).unwrap();
    let o = testset(&["--play-depth", "3", "--exact-empties", "20"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "% ply train testset: XOT openings from line 5001, play depth 3, exact from 20 empties \
         kept down to 14, depth 18 at 26,29,32,35,38,40 empties\n"
    );
    for other in [
        &["--play-depth", "4", "--exact-empties", "20"][..],
        &["--play-depth", "3"],
    ] {
        let o = testset(other);
        assert_eq!(o.status.code(), Some(2), "{other:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("line 1: the file was made by another recipe"),
            "{}",
            stderr(&o)
        );
    }

    for (args, says) in [
        (["--play-depth", "0"], "--play-depth 0: expected 1 to 30"),
        (["--play-depth", "31"], "--play-depth 31: expected 1 to 30"),
        (["--label-depth", "0"], "--label-depth 0: expected 1 to 30"),
        (
            ["--exact-empties", "13"],
            "--exact-empties 13: expected 14 to 30",
        ),
        (
            ["--exact-empties", "31"],
            "--exact-empties 31: expected 14 to 30",
        ),
    ] {
        let o = testset(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn bench_eval_measures_an_obf_file_and_refuses_a_position_without_a_score() {
    let dir = scratch("bench-eval-obf");
    let file = dir.join("set.obf");
    fs::write(
        &file,
        "% three positions of the test set\n\
         --------------------OXO---OOOOO---OOOOX---OOOXXX---XXX----X--X-- X; H5:+2; % game 0, depth 18\n\
         ----X--------X------OOXX--OOOOX---OOXOX-OOOOOOXX--XOOXO---X-OX-- X; D8:+4; % game 0, depth 18\n\
         ---OOO--O-XOOO---OOOOXXX-XOOXOX-XXXOOOX-OXXOOOOX--XXXOOO--XXXXXX X; C1:+2; % game 0, exact\n",
    )
    .unwrap();
    let rows = bench_eval_rows(&file);
    let statics: Vec<_> = rows.iter().filter(|r| r["kind"] == "static").collect();
    let buckets: Vec<_> = statics
        .iter()
        .map(|r| r["empties"].as_str().unwrap())
        .collect();
    assert_eq!(buckets, ["14-20", "27-32", "33-40"], "{rows:?}");
    assert!(statics.iter().all(|r| r["count"] == 1), "{rows:?}");
    assert_eq!(rows.iter().filter(|r| r["kind"] == "judgement").count(), 2);
    assert_eq!(rows.last().unwrap()["kind"], "judgement summary");

    // A line without a score is refused, naming the file and the line.
    let bad = dir.join("bad.obf");
    fs::write(
        &bad,
        "% no score below\n---------------------------OX------XO--------------------------- X;\n",
    )
    .unwrap();
    let o = ply(&["bench", "eval", "--obf", s(&bad)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.obf line 2: the position has no score"),
        "{}",
        stderr(&o)
    );
}
