//! Sharded batch solves and `ply othello merge`, run as a scheduler would run them.

mod common;

use std::path::{Path, PathBuf};

use common::{ply, ply_with_input, s, scratch, stderr, Scratch};
use ply_othello::{text, BoardSize, Position, Square};

/// An OBF file of `count` 6x6 positions with 10 empties from games played at random (a
/// fixed seed), quick to solve; a comment line and a blank line in it, which are not
/// positions and must not shift the shards.
fn positions(count: usize) -> String {
    let mut rng = 12u64;
    let mut out = String::from("% 6x6 positions, 10 empties\n");
    let mut made = 0;
    while made < count {
        let mut pos = Position::start(BoardSize::Six);
        while pos.empties().count() > 10 {
            let moves: Vec<Square> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            pos = pos.play_unchecked(moves[(rng >> 33) as usize % moves.len()]);
        }
        if pos.empties().count() == 10 && pos.can_move() {
            out.push_str(&format!("{};\n", text::format_position(&pos)));
            made += 1;
            if made == count / 2 {
                out.push('\n');
            }
        }
    }
    out
}

/// Input lines (1-based) of the positions of `obf`, in order.
fn position_lines(obf: &str) -> Vec<u64> {
    obf.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(';'))
        .map(|(i, _)| i as u64 + 1)
        .collect()
}

/// The `line` of every results line.
fn result_lines(results: &str) -> Vec<u64> {
    results
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a json line");
            v["line"].as_u64().expect("a line number")
        })
        .collect()
}

/// Solves `input` into `out`, one shard or all; asserts success. (A small table: it is
/// cleared before each position, which a 64 MB one makes slow in a debug build.)
fn solve(input: &Path, out: &Path, shard: Option<&str>) {
    let mut args = vec![
        "othello",
        "solve",
        "--hash-mb",
        "1",
        "--obf",
        s(input),
        "--out",
        s(out),
    ];
    if let Some(shard) = shard {
        args.extend(["--shard", shard]);
    }
    let o = ply(&args);
    assert!(o.status.success(), "{args:?}: {o:?}");
}

/// Merges these files; returns the output.
fn merge(files: &[&Path]) -> std::process::Output {
    let mut args = vec!["othello", "merge"];
    args.extend(files.iter().map(|f| s(f)));
    ply(&args)
}

/// A scratch dir with the input, a single-machine run of it and the three shards' files.
struct Batch {
    dir: Scratch,
    input: PathBuf,
    single: Vec<u8>,
    shards: Vec<PathBuf>,
}

fn batch(name: &str) -> Batch {
    let dir = scratch(&format!("shard-{name}"));
    let input = dir.join("in.obf");
    std::fs::write(&input, positions(12)).expect("write input");
    let single = dir.join("single.jsonl");
    solve(&input, &single, None);
    let shards: Vec<PathBuf> = (0..3)
        .map(|i| {
            let out = dir.join(format!("shard-{i}.jsonl"));
            solve(&input, &out, Some(&format!("{i}/3")));
            out
        })
        .collect();
    Batch {
        single: std::fs::read(&single).expect("single run"),
        dir,
        input,
        shards,
    }
}

#[test]
fn shard_i_of_n_takes_the_positions_k_mod_n_and_merges_to_the_single_run() {
    let b = batch("split");
    let lines = position_lines(&std::fs::read_to_string(&b.input).expect("input"));
    assert_eq!(lines.len(), 12);
    assert_eq!(result_lines(&String::from_utf8_lossy(&b.single)), lines);
    for (i, shard) in b.shards.iter().enumerate() {
        let want: Vec<u64> = lines.iter().copied().skip(i).step_by(3).collect();
        let got = result_lines(&std::fs::read_to_string(shard).expect("shard"));
        assert_eq!(got, want, "shard {i}/3");
    }
    // Any order of the files gives the bytes of the single run.
    for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
        let files: Vec<&Path> = order.iter().map(|&i| b.shards[i].as_path()).collect();
        let o = merge(&files);
        assert!(o.status.success(), "{o:?}");
        assert_eq!(o.stdout, b.single, "order {order:?}");
    }
    // And the merge checks out against the input.
    let mut args = vec!["othello", "merge", "--obf", s(&b.input)];
    args.extend(b.shards.iter().map(|p| s(p)));
    let o = ply(&args);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(o.stdout, b.single);
}

#[test]
fn stdin_in_and_stdout_out_give_the_same_results_lines() {
    let b = batch("pipe");
    let input = std::fs::read(&b.input).expect("input");
    let o = ply_with_input(
        &[
            "othello",
            "solve",
            "--hash-mb",
            "1",
            "--obf",
            "-",
            "--out",
            "-",
        ],
        &input,
    );
    assert!(o.status.success(), "{o:?}");
    assert_eq!(o.stdout, b.single);
    let o = ply_with_input(
        &[
            "othello", "solve", "--obf", "-", "--out", "-", "--shard", "1/3",
        ],
        &input,
    );
    assert!(o.status.success(), "{o:?}");
    assert_eq!(o.stdout, std::fs::read(&b.shards[1]).expect("shard 1"));
}

#[test]
fn merge_drops_torn_last_lines_and_takes_empty_shards() {
    let b = batch("torn");
    let torn = b.dir.join("torn.jsonl");
    let mut bytes = std::fs::read(&b.shards[2]).expect("shard 2");
    bytes.extend_from_slice(b"{\"position\":\"--XO");
    std::fs::write(&torn, &bytes).expect("tear");
    let empty = b.dir.join("empty.jsonl");
    std::fs::write(&empty, "").expect("empty");
    // A shard with no positions at all: 12 positions, shard 20 of 25.
    let none = b.dir.join("none.jsonl");
    solve(&b.input, &none, Some("20/25"));
    assert_eq!(std::fs::read(&none).expect("none"), b"");
    let o = merge(&[&none, &torn, &b.shards[0], &empty, &b.shards[1]]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(o.stdout, b.single);
    assert!(stderr(&o).contains("torn.jsonl: dropped a torn last line"));
    // The torn line's position is not in the merge: a shard file that lost it does not
    // pass the check against the input.
    let cut = b.dir.join("cut.jsonl");
    let text = std::fs::read_to_string(&b.shards[2]).expect("shard 2");
    let (kept, last) = text.trim_end().rsplit_once('\n').expect("two lines");
    std::fs::write(&cut, format!("{kept}\n{}", &last[..20])).expect("cut");
    let o = ply(&[
        "othello",
        "merge",
        "--obf",
        s(&b.input),
        s(&b.shards[0]),
        s(&b.shards[1]),
        s(&cut),
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(o.stdout.is_empty());
    let line = result_lines(last)[0];
    assert!(
        stderr(&o).contains("1 of 12 positions") && stderr(&o).contains(&line.to_string()),
        "{}",
        stderr(&o)
    );
}

#[test]
fn merge_reports_conflicting_answers_naming_both_files() {
    let b = batch("conflict");
    let text = std::fs::read_to_string(&b.shards[1]).expect("shard 1");
    let first = text.lines().next().expect("a line");
    let v: serde_json::Value = serde_json::from_str(first).expect("json");
    let position = v["position"].as_str().expect("position").to_string();
    let score = v["score"].as_i64().expect("score");
    // The same input line with another score.
    let other = b.dir.join("other.jsonl");
    let mut changed = v.clone();
    changed["score"] = serde_json::json!(score + 2);
    std::fs::write(&other, format!("{changed}\n")).expect("write");
    let o = merge(&[&b.shards[0], &b.shards[1], &other]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert!(
        err.contains("shard-1.jsonl line 1")
            && err.contains("other.jsonl line 1")
            && err.contains(&position),
        "{err}"
    );
    // The same position at another input line with another score.
    changed["line"] = serde_json::json!(1000);
    std::fs::write(&other, format!("{changed}\n")).expect("write");
    let o = merge(&[&b.shards[1], &other]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = stderr(&o);
    assert!(
        err.contains("shard-1.jsonl line 1")
            && err.contains("other.jsonl line 1")
            && err.contains(&position)
            && err.contains(&format!("score {score}")),
        "{err}"
    );
    // The same file twice is no conflict.
    let o = merge(&[&b.shards[0], &b.shards[0], &b.shards[1], &b.shards[2]]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(o.stdout, b.single);
}

#[test]
fn a_resume_refuses_the_results_of_another_shard() {
    let b = batch("wrong-shard");
    let o = ply(&[
        "othello",
        "solve",
        "--obf",
        s(&b.input),
        "--shard",
        "0/3",
        "--out",
        s(&b.shards[1]),
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(stderr(&o).contains("shard 0/3"), "{}", stderr(&o));
}

#[test]
fn exit_codes_tell_a_scheduler_what_to_do() {
    let dir = scratch("shard-exit");
    let input = dir.join("in.obf");
    std::fs::write(&input, positions(2)).expect("input");
    let garbage = dir.join("garbage.jsonl");
    std::fs::write(
        &garbage,
        "{\"best_move\":null,\"line\":1,\"position\":\"x\",\"pv\":[],\"score\":0}\nnot json\n",
    )
    .expect("w");
    // 2: bad input or usage, named.
    for (args, needle) in [
        (
            vec!["othello", "solve", "--obf", s(&input), "--shard", "3/2"],
            "`3/2`: shard 3 of 2 does not exist (I runs from 0 to 1)",
        ),
        (
            vec!["othello", "solve", "--obf", s(&input), "--shard", "x"],
            "`x` is not I/N (shard I of N shards, I from 0 to N-1)",
        ),
        (
            vec!["othello", "solve", "--obf", s(&input), "--shard", "1/0"],
            "`1/0`: there must be at least one shard",
        ),
        (vec!["othello", "solve", "--shard", "0/2"], "--obf"),
        (
            vec![
                "othello",
                "solve",
                "--obf",
                s(&input),
                "--out",
                "-",
                "--json",
            ],
            "--json",
        ),
        (
            vec!["othello", "solve", "--obf", "/nonexistent/in.obf"],
            "/nonexistent/in.obf",
        ),
        (
            vec!["othello", "merge", "/nonexistent/r.jsonl"],
            "/nonexistent/r.jsonl",
        ),
        (
            vec!["othello", "merge", s(&garbage)],
            "garbage.jsonl line 2",
        ),
        (vec!["othello", "merge"], "RESULTS"),
    ] {
        let o = ply(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let o = ply_with_input(&["othello", "solve", "--obf", "-"], b"\xff\xfe X;\n");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(stderr(&o).contains("stdin: not UTF-8"), "{}", stderr(&o));
    // A results path that is not a regular file is refused before anything is read from it
    // (`/dev/full` would be read as a results file until memory ran out).
    for out in [s(&dir), "/dev/full", "/dev/zero"] {
        let o = ply(&["othello", "solve", "--obf", s(&input), "--out", out]);
        assert_eq!(o.status.code(), Some(2), "{out}: {o:?}");
        assert!(
            stderr(&o).contains(&format!("--out {out}: not a regular file")),
            "{out}: {}",
            stderr(&o)
        );
    }
    for results in ["/dev/zero", s(&dir)] {
        let o = ply(&["othello", "merge", results]);
        assert_eq!(o.status.code(), Some(2), "{results}: {o:?}");
        assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    }
    // 1: anything else, e.g. a results path that cannot be created.
    let missing = dir.join("no-such-dir").join("r.jsonl");
    let o = ply(&["othello", "solve", "--obf", s(&input), "--out", s(&missing)]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    // A reader of --out - that goes away loses results: 1, not the quiet 0 of `| head`.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "othello",
            "solve",
            "--hash-mb",
            "1",
            "--obf",
            s(&input),
            "--out",
            "-",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run ply");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        stderr(&o).contains("writing the results to stdout"),
        "{o:?}"
    );
    // 0: done.
    let out = dir.join("out.jsonl");
    solve(&input, &out, Some("0/1"));
    assert_eq!(
        result_lines(&std::fs::read_to_string(&out).expect("out")),
        vec![2, 4]
    );
}

#[test]
fn a_rerun_says_how_much_was_already_solved() {
    let dir = scratch("shard-rerun");
    let input = dir.join("in.obf");
    std::fs::write(&input, positions(5)).expect("input");
    let out = dir.join("r.jsonl");
    let run = || {
        ply(&[
            "othello",
            "solve",
            "--hash-mb",
            "1",
            "--obf",
            s(&input),
            "--out",
            s(&out),
        ])
    };
    let first = run();
    assert!(first.status.success(), "{first:?}");
    assert!(
        !stderr(&first).contains("already solved"),
        "{}",
        stderr(&first)
    );
    let whole = std::fs::read_to_string(&out).expect("results");
    let o = run();
    assert!(o.status.success(), "{o:?}");
    assert!(
        stderr(&o).contains("r.jsonl: 5 of 5 already solved"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty(), "nothing solved, nothing reported");
    // With two lines lost, it says what it does.
    let kept: String = whole.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(&out, kept).expect("cut");
    let o = run();
    assert!(o.status.success(), "{o:?}");
    assert!(
        stderr(&o).contains("3 of 5 already solved; solving the other 2"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&out).expect("results"), whole);
    // merge --obf names one missing position in the singular.
    std::fs::write(
        &out,
        whole
            .lines()
            .take(4)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .expect("cut");
    let o = ply(&["othello", "merge", "--obf", s(&input), s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        stderr(&o).contains("1 of 5 positions of")
            && stderr(&o).contains("has no result (input line "),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("run its shard again"), "{}", stderr(&o));
}
