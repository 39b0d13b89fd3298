//! `ply train net`: a network trained on games as a user trains it, loaded by the engines.

mod common;

use std::fs;

use common::{ply, s, scratch, small_games, stderr, stdout};

/// `train net` writes a network that loads, the same bytes from the same data and settings,
/// and that the engines evaluate with when `PLY_EVAL6` names it; a file that is not weights
/// is refused before anything runs, naming the variable.
#[test]
fn net_writes_a_network_the_engines_evaluate_with() {
    let dir = scratch("train-net");
    let games = dir.join("games.bin");
    let o = small_games(s(&games), "12", "0/1");
    assert!(o.status.success(), "{}", stderr(&o));
    let train_with = |out: &std::path::Path, more: &[&str]| {
        let mut args = vec![
            "train",
            "net",
            s(&games),
            "--holdout",
            "4",
            "--width",
            "8",
            "--hidden",
            "4",
            "--epochs",
            "2",
            "--batch",
            "64",
            "--out",
            s(out),
        ];
        args.extend_from_slice(more);
        ply(&args)
    };
    let train = |out: &std::path::Path| train_with(out, &[]);
    let net = dir.join("net6.bin");
    let o = train(&net);
    assert!(o.status.success(), "{}", stderr(&o));
    // One row per 6x6 phase, and the file loads as a 6x6 network.
    let rows = stdout(&o)
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .count();
    assert_eq!(rows, 8, "{}", stdout(&o));
    let bytes = fs::read(&net).unwrap();
    let e = ply_othello::eval::weights::read(ply_othello::BoardSize::Six, &bytes).unwrap();
    assert!(e.network().is_some());
    let again = dir.join("again.bin");
    assert!(train(&again).status.success());
    assert_eq!(fs::read(&again).unwrap(), bytes, "the same bytes twice");

    // Search labels from 14 empties change what is learnt, and not with the thread count.
    let searched = |out: &std::path::Path, threads: &str| {
        let more = [
            "--search-from",
            "14",
            "--search-depth",
            "1",
            "--threads",
            threads,
        ];
        let o = train_with(out, &more);
        assert!(o.status.success(), "{}", stderr(&o));
        fs::read(out).unwrap()
    };
    let one = searched(&dir.join("searched1.bin"), "1");
    assert_ne!(one, bytes, "search labels change the network");
    assert_eq!(searched(&dir.join("searched2.bin"), "2"), one);
    // Half the search's value and half the result is a third network again.
    let half = dir.join("half.bin");
    let o = train_with(
        &half,
        &[
            "--search-from",
            "14",
            "--search-depth",
            "1",
            "--search-share",
            "0.5",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let half = fs::read(&half).unwrap();
    assert!(half != one && half != bytes, "a blend is neither label");

    // The engines evaluate with it: a depth-1 analysis's estimate is the network's.
    let analyze = |var: Option<&std::path::Path>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_ply"));
        c.args([
            "othello",
            "analyze",
            "--size",
            "6",
            "--depth",
            "1",
            "--no-book",
            "--no-solver",
            "--json",
            "c2b2",
        ]);
        match var {
            Some(path) => c.env("PLY_EVAL6", path),
            None => c.env_remove("PLY_EVAL6"),
        };
        c.output().unwrap()
    };
    let with = analyze(Some(&net));
    let without = analyze(None);
    assert!(with.status.success(), "{}", stderr(&with));
    let score = |o: &std::process::Output| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(&stdout(o)).unwrap()["moves"].clone()
    };
    assert_ne!(
        score(&with),
        score(&without),
        "the network changes the values"
    );
    // Not weights: refused before anything runs, status 2, the variable named.
    let o = analyze(Some(&games));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("PLY_EVAL6="), "{}", stderr(&o));

    // Bad shapes are usage errors naming the flag, nothing written.
    let out = dir.join("none.bin");
    for (flag, value) in [
        ("--width", "0"),
        ("--hidden", "65"),
        ("--lr", "2"),
        ("--search-depth", "0"),
        ("--search-from", "37"),
        ("--search-share", "1.5"),
    ] {
        let more: &[&str] = if flag == "--search-depth" || flag == "--search-share" {
            &["--search-from", "20"]
        } else {
            &[]
        };
        let mut args = vec!["train", "net", s(&games), "--out", s(&out), flag, value];
        args.extend_from_slice(more);
        let o = ply(&args);
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", stderr(&o));
        assert!(stderr(&o).contains(flag), "{}", stderr(&o));
        assert!(!out.exists());
    }
}
