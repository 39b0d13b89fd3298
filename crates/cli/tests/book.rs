//! `ply othello book`: a 4x4 book built level by level with the batch solve, as
//! `scripts/build-book6` builds the 6x6 one, and a searched one round by round, as
//! `scripts/build-book8` builds the 8x8 one, then read back; broken inputs refused.

mod common;

use std::{
    path::{Path, PathBuf},
    process::Output,
};

use common::{ply, s, scratch, stderr, stdout};
use ply_othello::{
    book::Book,
    solve::{SolveOptions, Solver},
    BoardSize, Position,
};

/// `ply othello book VERB --size 4 --min-empties MIN [EXTRA…] RESULTS…`.
fn book4(verb: &str, min: &str, extra: &[&str], results: &[PathBuf]) -> Output {
    let mut args = vec!["othello", "book", verb, "--size", "4", "--min-empties", min];
    args.extend_from_slice(extra);
    args.extend(results.iter().map(|p| s(p)));
    ply(&args)
}

/// Runs levels as the build scripts do until `next` (given the merged results so far,
/// `before` first) prints no position: each level is worked on in two shards by
/// `ply WORK… --obf LEVEL --shard I/2 --out SHARD`, then merged. Returns the merged results
/// files, `before` first; files are named `STEM<k>.*` in `dir`.
fn run_levels(
    dir: &Path,
    stem: &str,
    before: &[PathBuf],
    next: impl Fn(&[PathBuf]) -> Output,
    work: &[&str],
) -> Vec<PathBuf> {
    let mut done: Vec<PathBuf> = before.to_vec();
    for level in before.len().. {
        let o = next(&done);
        assert!(o.status.success(), "{}", stderr(&o));
        let obf = stdout(&o);
        if obf.is_empty() {
            break;
        }
        let input = dir.join(format!("{stem}{level}.obf"));
        std::fs::write(&input, &obf).unwrap();
        let mut shards = Vec::new();
        for i in 0..2 {
            let out = dir.join(format!("{stem}{level}.shard{i}"));
            let shard = format!("{i}/2");
            let mut args = work.to_vec();
            args.extend(["--obf", s(&input), "--shard", &shard, "--out", s(&out)]);
            let o = ply(&args);
            assert!(o.status.success(), "{}", stderr(&o));
            shards.push(out);
        }
        let mut args = vec!["othello", "merge", "--obf", s(&input)];
        args.extend(shards.iter().map(|p| s(p)));
        let o = ply(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let merged = dir.join(format!("{stem}{level}.jsonl"));
        std::fs::write(&merged, o.stdout).unwrap();
        done.push(merged);
    }
    done
}

/// Grows and solves the levels of an exact 4x4 book down to `min` empties, as
/// `scripts/build-book6` builds the 6x6 one.
fn solve_levels(dir: &Path, min: &str) -> Vec<PathBuf> {
    let grow = |done: &[PathBuf]| book4("grow", min, &[], done);
    run_levels(dir, "level", &[], grow, &["othello", "solve"])
}

#[test]
fn a_book_built_with_the_batch_solve_is_closed_and_exact() {
    let dir = scratch("book-build");
    let levels = solve_levels(&dir, "6");
    assert!(levels.len() >= 3, "{} levels", levels.len());
    let file = dir.join("book4.bin");
    let o = book4("build", "6", &["--out", s(&file)], &levels);
    assert!(o.status.success(), "{}", stderr(&o));
    let book = Book::read(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(book.first_gap(), None);
    assert_eq!(
        book.lookup(&Position::start(BoardSize::Four))
            .unwrap()
            .score
            .0,
        -10
    );
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 4,
    });
    for (pos, m) in book.iter() {
        assert_eq!(solver.solve(&pos).score, m.score);
        assert_eq!(-solver.solve(&pos.play(m.best).unwrap()).score, m.score);
    }
    let o = ply(&["othello", "book", "info", s(&file), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["closed"], true);
    assert_eq!(v["start_score"], -10);
    assert_eq!(v["positions"].as_u64().unwrap() as usize, book.len());

    // Without its last level the results do not close: `build` says what is missing.
    let o = book4(
        "build",
        "6",
        &["--out", s(&file)],
        &levels[..levels.len() - 1],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("do not close"), "{}", stderr(&o));
    // The book file from before is still whole.
    assert_eq!(Book::read(&std::fs::read(&file).unwrap()).unwrap(), book);
}

#[test]
fn broken_inputs_are_refused_naming_the_place() {
    let dir = scratch("book-bad");
    let results = dir.join("r.jsonl");
    std::fs::write(
        &results,
        "{\"position\":\"---------OX--XO-- X\",\"best_move\":\"a1\",\"score\":0}\n",
    )
    .unwrap();
    let o = book4("grow", "6", &[], std::slice::from_ref(&results));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("r.jsonl line 1"), "{}", stderr(&o));

    // A torn last line is dropped, as every reader of a results file drops it: its position
    // is not solved yet.
    let row = "{\"best_move\":\"b1\",\"line\":1,\"position\":\"-----OX--XO----- X\",\"pv\":[],\"score\":-10}\n";
    std::fs::write(&results, row).unwrap();
    let whole = book4("grow", "6", &[], std::slice::from_ref(&results));
    assert!(whole.status.success(), "{}", stderr(&whole));
    std::fs::write(&results, format!("{row}{{\"pos")).unwrap();
    let o = book4("grow", "6", &[], std::slice::from_ref(&results));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("dropped a torn last line"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), stdout(&whole));

    let book = dir.join("book.bin");
    std::fs::write(&book, b"plybook\n\x01\x00").unwrap();
    let o = ply(&["othello", "book", "info", s(&book)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("truncated"), "{}", stderr(&o));
}

/// Deviates and searches the rounds of a searched 4x4 book (`lines` lines, depth `depth`),
/// as `scripts/build-book8` builds the 8x8 one, going on from the rounds `before`.
fn search_rounds(dir: &Path, depth: &str, lines: &str, before: &[PathBuf]) -> Vec<PathBuf> {
    let deviate =
        |done: &[PathBuf]| book4("deviate", "7", &["--lines", lines, "--width", "4"], done);
    let search = ["othello", "book", "search", "--depth", depth];
    run_levels(dir, "round", before, deviate, &search)
}

#[test]
fn a_searched_book_is_negamaxed_and_grows_by_rerunning_with_more_lines() {
    let dir = scratch("book-searched");
    // Depth 12 reaches the end of every 4x4 game: the scores are exact, so the negamaxed
    // book must agree with the solver everywhere.
    let rounds = search_rounds(&dir, "12", "6", &[]);
    assert!(rounds.len() >= 4, "{} rounds", rounds.len());
    let file = dir.join("book4.bin");
    let mut args = vec!["othello", "book", "build", "--size", "4", "--out", s(&file)];
    args.extend(rounds.iter().map(|p| s(p)));
    let o = ply(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let book = Book::read(&std::fs::read(&file).unwrap()).unwrap();
    assert!(!book.is_exact());
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 4,
    });
    let start = Position::start(BoardSize::Four);
    assert_eq!(book.lookup(&start).unwrap().score.0, -10);
    for (pos, _) in book.iter() {
        for m in book.moves(&pos).unwrap() {
            let child = pos.play(m.square).unwrap();
            let want = if child.is_game_over() {
                -child.final_score()
            } else {
                -solver.solve(&child).score.0
            };
            assert_eq!(m.score.0, want, "{pos:?} {m:?}");
        }
    }
    let o = ply(&["othello", "book", "info", s(&file), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["kind"], "searched");
    assert_eq!(v["start_score"], -10);
    assert_eq!(v["closed"], serde_json::Value::Null);

    // More lines: the rounds done are kept (nothing searched twice) and the book grows.
    let all = search_rounds(&dir, "12", "12", &rounds);
    assert!(all.len() > rounds.len());
    let mut args = vec!["othello", "book", "build", "--size", "4", "--out", s(&file)];
    args.extend(all.iter().map(|p| s(p)));
    let o = ply(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let grown = Book::read(&std::fs::read(&file).unwrap()).unwrap();
    assert!(
        grown.len() > book.len(),
        "{} -> {}",
        book.len(),
        grown.len()
    );

    // Exact solves and searches do not mix, and `deviate` grows only from searches.
    let exact = dir.join("exact.jsonl");
    std::fs::write(
        &exact,
        "{\"best_move\":\"b1\",\"line\":1,\"position\":\"-----OX--XO----- X\",\"pv\":[],\"score\":-10}\n",
    )
    .unwrap();
    let mut args = vec!["othello", "book", "build", "--size", "4", "--out", s(&file)];
    args.extend(rounds.iter().chain([&exact]).map(|p| s(p)));
    let o = ply(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("mix exact solves"), "{}", stderr(&o));
    let o = book4("deviate", "7", &["--lines", "2"], &[exact]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("exact.jsonl line 1: an exact solve"),
        "{}",
        stderr(&o)
    );
}
