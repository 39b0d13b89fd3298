//! `ply othello solve` and `ply bench ffo` run as a user would: the real binary.

mod common;

use common::{ply, scratch, stdout};

use std::{
    path::PathBuf,
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

fn data(name: &str) -> String {
    format!("{}/../../testdata/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn four_by_four_solve_prints_score_and_perfect_line() {
    let o = ply(&["othello", "solve", "--size", "4"]);
    assert!(o.status.success(), "{o:?}");
    let out = stdout(&o);
    assert!(out.contains("score      -10"), "{out}");
    assert!(out.contains("pv "), "{out}");
    assert!(out.contains("nodes/s"), "{out}");
}

#[test]
fn json_has_one_object_with_the_promised_fields() {
    let o = ply(&["othello", "solve", "--size", "4", "--json", "--all-moves"]);
    assert!(o.status.success(), "{o:?}");
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["score"], -10);
    assert!(v["best_move"].is_string());
    assert!(v["pv"].as_array().is_some_and(|pv| pv.len() >= 10));
    assert!(v["nodes"].as_u64().is_some_and(|n| n > 0));
    assert!(v["seconds"].is_number());
    let moves = v["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|m| m["score"] == -10));
}

#[test]
fn an_obf_line_and_a_transcript_are_positions() {
    let line = std::fs::read_to_string(data("fforum-1-19.obf")).expect("data");
    let first = line.lines().next().expect("a line");
    let o = ply(&["othello", "solve", first, "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["score"], 18);
    assert_eq!(v["best_move"], "g8");
    // A 4x4 transcript from the start: after b1 (the best move) white still wins by 10.
    let o = ply(&["othello", "solve", "b1", "--size", "4", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["score"], 10);
}

#[test]
fn bad_positions_and_options_exit_2_with_a_reason() {
    for (args, needle) in [
        (vec!["othello", "solve", "XXOO X"], "cells"),
        (vec!["othello", "solve", "f5z9"], "move 2"),
        (vec!["othello", "solve", "f5f5"], "move 2"),
        (vec!["othello", "solve", "--size", "5"], "--size 5"),
        (
            vec!["othello", "solve", "--size", "4", "--threads", "0"],
            "--threads",
        ),
        (vec!["othello", "solve"], "position"),
        (vec!["bench", "ffo", "--range", "30-45"], "--range"),
    ] {
        let o = ply(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_broken_obf_file_names_the_line() {
    let dir = scratch("solve-broken");
    let file = dir.join("bad.obf");
    let good = std::fs::read_to_string(data("fforum-1-19.obf")).expect("data");
    let first = good.lines().next().expect("a line");
    std::fs::write(&file, format!("{first}\n{}Q X;\n", &first[..63])).expect("write");
    let o = ply(&["othello", "solve", "--obf", file.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 2") && err.contains("character 64"),
        "{err}"
    );
}

/// Edax's problem files fill a line's unused scored-move slots with `--:-127`; the batch
/// solve reads them (it refused them whole: "`--` is not a square"), and solves each line to
/// the best score it lists.
#[test]
fn solve_obf_reads_edax_problem_files() {
    let o = ply(&[
        "othello",
        "solve",
        "--obf",
        &data("edax-shape.obf"),
        "--json",
    ]);
    assert!(o.status.success(), "{o:?}");
    let out = stdout(&o);
    let text = std::fs::read_to_string(data("edax-shape.obf")).expect("data");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(rows.len(), text.lines().count(), "{out}");
    for (row, line) in rows.iter().zip(text.lines()) {
        // The first slot is the best move's score.
        let best: i64 = line
            .split(';')
            .nth(1)
            .and_then(|m| m.split(':').nth(1))
            .map(|s| s.trim().parse().expect("score"))
            .expect("a slot");
        assert_eq!(row["score"], best, "{line}");
    }
}

/// Runs a batch solve of fforum 1-19 (every move) into `out`; kills it with SIGKILL once
/// `kill_after` lines are written, if given.
fn batch(out: &PathBuf, kill_after: Option<usize>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["othello", "solve", "--all-moves", "--obf"])
        .arg(data("fforum-1-19.obf"))
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("ply runs");
    if let Some(lines) = kill_after {
        let start = Instant::now();
        loop {
            let text = std::fs::read_to_string(out).unwrap_or_default();
            if text.lines().count() >= lines || start.elapsed() > Duration::from_secs(120) {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        child.kill().expect("SIGKILL");
    }
    let status = child.wait().expect("wait");
    if kill_after.is_none() {
        assert!(status.success());
    }
}

#[test]
fn a_killed_batch_resumes_to_the_same_results_file() {
    let dir = scratch("solve-resume");
    let (whole, resumed) = (dir.join("whole.jsonl"), dir.join("resumed.jsonl"));
    batch(&whole, None);
    let want = std::fs::read_to_string(&whole).expect("results");
    assert_eq!(want.lines().count(), 19);
    for line in want.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a json line");
        assert!(v["line"].is_u64() && v["score"].is_i64() && v["moves"].is_array());
    }
    batch(&resumed, Some(4));
    let part = std::fs::read_to_string(&resumed).expect("results");
    assert!(
        part.lines().count() < 19,
        "the kill came too late to test anything"
    );
    // A torn last line, as a kill in the middle of a write would leave it.
    std::fs::write(&resumed, format!("{part}{{\"line\":1")).expect("tear");
    batch(&resumed, None);
    assert_eq!(std::fs::read_to_string(&resumed).expect("results"), want);
    // Running once more solves nothing and changes nothing.
    batch(&resumed, None);
    assert_eq!(std::fs::read_to_string(&resumed).expect("results"), want);
}

#[test]
fn bench_ffo_without_data_says_where_to_point_it() {
    let o = ply(&["bench", "ffo", "--data", "/nonexistent/ply-data"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("fforum-40-59.obf"));
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn bench_ffo_finds_its_data_and_checks_scores() {
    let o = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["bench", "ffo", "--range", "40", "--hash-mb", "16"])
        .env("PLY_DATA", data(""))
        .output()
        .expect("ply runs");
    assert!(o.status.success(), "{o:?}");
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("40 ") && l.contains("+38")),
        "{out}"
    );
    assert!(
        out.lines().last().is_some_and(|l| l.starts_with("all")),
        "{out}"
    );
}

/// On a terminal a solve draws a progress line, redrawn every 250 ms; the line must never
/// hold back the result it reports. A 10-empty position solves in milliseconds here, so the
/// `time` the command prints stays under half the redraw interval (the line once slept out a
/// whole interval before the command could finish: 0.25 s at least). The terminal is a real
/// pseudo-terminal, made by util-linux's `script`.
#[test]
#[ignore = "heavy: run in the release test profile"]
fn a_solve_on_a_terminal_is_not_held_back_by_its_progress_line() {
    // The first 50 moves of a game: 10 empties left.
    let game = "e6f4f3f6d3e3f2e7f5g4g6h6h3e2d6g3f8h4f1h2d7d1d2c1c2c8c7b3h5g1h1g5g2e8b1e1a4a1\
                g7b2a2a3h7c3c4f7d8g8a5b7";
    let command = format!("{} othello solve {game}", env!("CARGO_BIN_EXE_ply"));
    let o = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux's `script` runs");
    assert!(o.status.success(), "{o:?}");
    let out = stdout(&o);
    assert!(out.contains("score      -22"), "{out}");
    let seconds: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("time"))
        .and_then(|t| t.trim().strip_suffix(" s"))
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no `time` line: {out}"));
    assert!(
        seconds < 0.125,
        "a 10-empty solve on a terminal took {seconds} s: {out}"
    );
}

/// A batch with a position whose exact solve will not finish (more than 36 empties) is
/// refused before anything starts, naming its line; `--force` solves it all the same. (It
/// once warned, then started it anyway.)
#[test]
fn a_batch_with_a_position_out_of_reach_is_refused_unless_forced() {
    let dir = scratch("solve-far");
    let obf = dir.join("far.obf");
    let near = std::fs::read_to_string(data("fforum-1-19.obf")).unwrap();
    let near = near.lines().next().unwrap();
    let start = "---------------------------OX------XO--------------------------- X;";
    std::fs::write(&obf, format!("{near}\n{start}\n")).unwrap();
    let out = dir.join("far.results");
    let o = ply(&[
        "othello",
        "solve",
        "--obf",
        obf.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("1 position has more than 36 empty squares (line 2)"),
        "{err}"
    );
    assert!(err.contains("--force"), "{err}");
    assert_eq!(stdout(&o), "");
    assert!(!out.exists(), "nothing written for a refused batch");
}
