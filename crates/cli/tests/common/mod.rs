//! Helpers shared by the CLI tests: each runs the real `ply` binary.

// Every test binary uses its own subset of these.
#![allow(dead_code)]

use std::{
    io::{BufRead, BufReader, Write},
    path::{Path, PathBuf},
    process::{Child, Command, Output, Stdio},
    sync::mpsc,
    time::Duration,
};

/// Runs `ply` with these arguments and no input.
pub fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .output()
        .expect("run ply")
}

/// Runs `ply` with `input` on stdin, written from another thread so that a large input
/// cannot deadlock against a full stdout pipe.
pub fn ply_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ply");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // ply may stop reading early on bad input; a broken pipe here is expected then.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for ply");
    writer.join().expect("stdin writer");
    out
}

/// Standard output as text (ply writes UTF-8 only).
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error as text (ply writes UTF-8 only).
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// A fresh, empty scratch directory for one test (`name` unique among the tests), in the
/// system's temporary directory and apart per test process. It is removed when dropped,
/// unless the test is failing: then its files are left for a look.
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("ply-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    Scratch(dir)
}

/// A test's scratch directory ([`scratch`]), a [`Path`] by deref.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A path as an argument (the tests' paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Random games to their end, as transcripts.
pub fn random_games(n: usize, seed: u64) -> Vec<ply_othello::GameRecord> {
    let mut rng = ply_core::SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let mut game = ply_othello::GameRecord::new(ply_othello::Position::start(
                ply_othello::BoardSize::Eight,
            ));
            while !game.position().is_game_over() {
                let pos = game.position();
                let m = if pos.can_move() {
                    let moves: Vec<_> = pos.legal_moves().collect();
                    ply_othello::Move::Play(moves[rng.below(moves.len())])
                } else {
                    ply_othello::Move::Pass
                };
                game.play(m).unwrap();
            }
            game
        })
        .collect()
}

/// A running `ply serve`, killed when dropped.
pub struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `ply serve --addr ADDR` and returns it with the first line it prints, which must
/// come within `wait`.
pub fn serve(addr: &str, wait: Duration) -> (Serving, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["serve", "--addr", addr])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run ply");
    let stdout = child.stdout.take().expect("stdout is piped");
    let served = Serving(child);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(wait).expect("the address within seconds");
    (served, line)
}

/// `ply train gen`'s options for quick 6x6 games: depth 2, perfect from 10 empties.
pub const SMALL_GAMES: [&str; 8] = [
    "--size",
    "6",
    "--depth",
    "2",
    "--random-moves",
    "2-8",
    "--exact-empties",
    "10",
];

/// `ply train gen` of `games` quick games ([`SMALL_GAMES`], seed 9) into `out`, shard `shard`.
pub fn small_games(out: &str, games: &str, shard: &str) -> std::process::Output {
    let mut args = vec![
        "train", "gen", "--out", out, "--games", games, "--seed", "9", "--shard", shard,
    ];
    args.extend(SMALL_GAMES);
    ply(&args)
}
