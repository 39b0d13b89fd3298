//! The fast paths chosen at start-up, forced through `PLY_CPU` as a user forces them: every
//! level this processor has gives the same answers (perft, an exact solve with its node
//! count), `ply --version` names the level, and a level the processor lacks or a name of no
//! level is refused with exit status 2.

mod common;

use std::process::{Command, Output};

use common::{stderr, stdout};
use ply_othello::cpu::{self, Level};

/// Runs `ply` with `PLY_CPU` set to `level` (unset for `None`) and `input` on stdin.
fn ply_at(level: Option<&str>, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut command = Command::new(env!("CARGO_BIN_EXE_ply"));
    command.args(args).env_remove("PLY_CPU");
    if let Some(level) = level {
        command.env("PLY_CPU", level);
    }
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run ply");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait for ply")
}

/// The JSON answer without its timings.
fn answer(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    let mut v: serde_json::Value = serde_json::from_str(stdout(out).trim()).expect("JSON");
    let row = v.as_object_mut().expect("an object");
    for timing in ["seconds", "nodes_per_second", "leaves_per_second"] {
        row.remove(timing);
    }
    v
}

#[test]
fn the_version_names_the_processors_best_paths_unless_a_lower_level_is_asked_for() {
    let best = cpu::detect();
    let out = ply_at(None, &["--version"], "");
    assert_eq!(
        stdout(&out).trim(),
        format!("ply 0.1.0 ({} paths)", best.describe())
    );
    for level in Level::ALL.into_iter().filter(|&l| l <= best) {
        let out = ply_at(Some(level.name()), &["--version"], "");
        assert_eq!(
            stdout(&out).trim(),
            format!("ply 0.1.0 ({} paths)", level.describe())
        );
    }
}

#[test]
fn every_level_the_processor_has_gives_the_same_answers() {
    let best = cpu::detect();
    let fforum1 = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/fforum-1-19.obf"
    ))
    .expect("testdata");
    let first = fforum1.lines().next().expect("a position");
    let mut answers = Vec::new();
    for level in Level::ALL {
        if level > best {
            eprintln!("skipped: this processor has no {} paths", level.describe());
            continue;
        }
        let perft = answer(&ply_at(
            Some(level.name()),
            &["othello", "perft", "7", "--json"],
            "",
        ));
        assert_eq!(perft["leaves"], 55_092, "{level:?}");
        let solve = answer(&ply_at(
            Some(level.name()),
            &["othello", "solve", "--obf", "-", "--all-moves", "--json"],
            first,
        ));
        assert_eq!(solve["score"], 18, "{level:?}: fforum #1 is +18");
        answers.push((level, perft, solve));
    }
    for (level, perft, solve) in &answers[1..] {
        assert_eq!(perft, &answers[0].1, "{level:?} perft");
        // The same search at every level: the same moves, scores, line and nodes.
        assert_eq!(solve, &answers[0].2, "{level:?} solve");
    }
}

#[test]
fn a_level_of_no_name_or_above_the_processor_is_refused() {
    let out = ply_at(Some("avx2"), &["othello", "perft", "3"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("PLY_CPU=\"avx2\""),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
    match Level::ALL.into_iter().find(|&l| l > cpu::detect()) {
        Some(above) => {
            let out = ply_at(Some(above.name()), &["--version"], "");
            assert_eq!(out.status.code(), Some(2));
            assert!(
                stderr(&out).contains("this processor has no"),
                "{}",
                stderr(&out)
            );
        }
        None => eprintln!("skipped: this processor has every level, none above it to refuse"),
    }
}
