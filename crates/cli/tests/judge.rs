//! `ply judge …` through the real binary: the DESIGN.md samples byte-exact, bad input, the
//! generator (and oj's layout), the checker's verdicts, the samples and the stress tester.

mod common;

use common::{ply, ply_with_input, scratch, stderr, stdout};

use std::process::Output;

fn judge(problem: &str, input: &str) -> Output {
    ply_with_input(&["judge", problem], input.as_bytes())
}

/// Runs the judge and expects this exact output.
fn answers(problem: &str, input: &str, expected: &str) {
    let o = judge(problem, input);
    assert!(o.status.success(), "{problem}: {}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), expected, "{problem}");
}

/// Runs the judge and expects exit 2, exactly `printed` on stdout, and every piece of
/// `message` on stderr.
fn rejects(problem: &str, input: &str, printed: &str, message: &[&str]) {
    let o = judge(problem, input);
    assert_eq!(o.status.code(), Some(2), "{problem}: {}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), printed, "{problem}");
    let err = stderr(&o);
    for part in message {
        assert!(err.contains(part), "{problem}: {part:?} not in {err:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn algospot_sample() {
    answers(
        "algospot-tictactoe",
        "3\n...\n...\n...\nxx.\noo.\n...\nxox\noo.\nx.x\n",
        "TIE\nx\no\n",
    );
}

#[test]
fn algospot_accepts_crlf_blank_lines_and_a_missing_last_newline() {
    answers(
        "algospot-tictactoe",
        "3\r\n...\r\n...\r\n...\r\n\r\nxx.\noo.\n...\n\nxox\noo.\nx.x",
        "TIE\nx\no\n",
    );
}

#[test]
fn boj_7682_sample() {
    let input = "XXXOO.XXX\nXOXOXOXOX\nOXOXOXOXO\nXXOOOXXOX\nXO.OX...X\n.XXX.XOOO\nX.OO..X..\nOOXXXOOXO\nend\n";
    answers(
        "boj-7682",
        input,
        "invalid\nvalid\ninvalid\nvalid\nvalid\ninvalid\ninvalid\ninvalid\n",
    );
}

#[test]
fn ttt_finals_samples() {
    answers("ttt-finals", "OX--X-XOO\n", "4 1 2 1\n");
    answers("ttt-finals", "O-OXO-X--\n", "11 9 1 1\n");
    answers("ttt-finals", "O-OXO-X-X\n", "4 2 1 1\n");
    answers(
        "ttt-finals",
        "OX--X-XOO\nO-OXO-X--\nO-OXO-X-X\n",
        "4 1 2 1\n11 9 1 1\n4 2 1 1\n",
    );
}

#[test]
fn boj_16571_answers_for_the_side_to_move() {
    answers("boj-16571", "0 0 0\n0 0 0\n0 0 0\n", "D\n");
    answers("boj-16571", "1 1 0\n2 2 0\n0 0 0\n", "W\n"); // X completes the top row
    answers("boj-16571", "2 2 0\n1 1 0\n1 0 0\n", "W\n"); // O completes the top row
    answers("boj-16571", "121\n000\n201\n", "L\n"); // X threatens c2 and b2: O cannot stop both
}

#[test]
fn a_bad_case_prints_nothing_and_names_case_and_line() {
    rejects(
        "algospot-tictactoe",
        "3\n...\n...\n...\nx.x\n.z.\n...\n...\n...\n...\n",
        "TIE\n",
        &["case 2, line 6", "unknown character 'z' at column 2"],
    );
    rejects(
        "algospot-tictactoe",
        "2\nxx.\noo.\n...\nxo\n...\n...\n",
        "x\n",
        &["case 2, line 5", "expected 3 cells, found 2"],
    );
    rejects(
        "algospot-tictactoe",
        "2\nxx.\noo.\n...\nooo\n...\n...\n",
        "x\n",
        &[
            "case 2, lines 5-7",
            "cannot occur",
            "O has more marks than X but X moves first",
        ],
    );
    rejects(
        "algospot-tictactoe",
        "3\nxx.\noo.\n...\n",
        "x\n",
        &["case 2", "input ends"],
    );
    rejects(
        "algospot-tictactoe",
        "three\n",
        "",
        &["line 1", "number of cases"],
    );
    rejects(
        "boj-7682",
        "XXXOO.XXX\nXOXOXOXO\nend\n",
        "invalid\n",
        &["case 2, line 2", "expected 9 cells, found 8"],
    );
    rejects("boj-7682", "XOXOXOXOX\n", "valid\n", &["case 2", "`end`"]);
    rejects(
        "ttt-finals",
        "OX--X-XOO\nXX-------\n",
        "4 1 2 1\n",
        &[
            "case 2, line 2",
            "X has more marks than O but O moves first",
        ],
    );
    rejects(
        "boj-16571",
        "1 1 1\n2 2 0\n0 0 0\n",
        "",
        &[
            "lines 1-3",
            "the game is already over: X has three in a row",
        ],
    );
    rejects(
        "boj-16571",
        "1 1 0\n2 3 0\n0 0 0\n",
        "",
        &["line 2", "'3' at column 3"],
    );
}

#[test]
fn random_bytes_never_panic_the_binary() {
    let mut state = 0x1234_5678_9abc_def0_u64;
    for round in 0..12 {
        let len = 1 + round * 7;
        let input: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                b"xo.XO-012\n \r3z\xff"[(state % 15) as usize]
            })
            .collect();
        for problem in ["algospot-tictactoe", "boj-7682", "boj-16571", "ttt-finals"] {
            let o = ply_with_input(&["judge", problem], &input);
            assert!(
                matches!(o.status.code(), Some(0 | 2)),
                "{problem} {input:?}: {}",
                stderr(&o)
            );
            assert!(!stderr(&o).contains("panicked"), "{problem} {input:?}");
        }
    }
}

#[test]
fn gen_is_reproducible_and_answered() {
    for problem in ["algospot-tictactoe", "boj-7682", "ttt-finals"] {
        let run = |seed: &str| {
            let o = ply_with_input(
                &["judge", "gen", problem, "--count", "40", "--seed", seed],
                b"",
            );
            assert!(o.status.success(), "{}", stderr(&o));
            o.stdout
        };
        let (a, b, c) = (run("7"), run("7"), run("8"));
        assert_eq!(a, b, "{problem}: same seed, same input");
        assert_ne!(a, c, "{problem}: another seed, another input");
        let o = ply_with_input(&["judge", problem], &a);
        assert!(o.status.success(), "{problem}: {}", stderr(&o));
        assert_eq!(o.stdout.iter().filter(|&&b| b == b'\n').count(), 40);
    }
    let o = ply_with_input(&["judge", "gen", "boj-16571", "--seed", "3"], b"");
    assert!(o.status.success());
    assert_eq!(
        judge("boj-16571", &String::from_utf8(o.stdout).unwrap())
            .status
            .code(),
        Some(0)
    );
    let o = ply_with_input(&["judge", "gen", "boj-16571", "--count", "2"], b"");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn unknown_problem_is_a_usage_error() {
    let o = ply_with_input(&["judge", "nope"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("algospot-tictactoe"));
}

#[test]
fn stress_agrees_with_a_correct_program() {
    let me = env!("CARGO_BIN_EXE_ply");
    let cmd = format!("'{me}' judge algospot-tictactoe");
    let o = ply_with_input(
        &[
            "judge",
            "stress",
            "algospot-tictactoe",
            "--cmd",
            &cmd,
            "--rounds",
            "5",
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("agreed"));
}

#[test]
fn stress_reports_the_smallest_failing_input() {
    let me = env!("CARGO_BIN_EXE_ply");
    let cmd = format!("'{me}' judge algospot-tictactoe | sed s/TIE/x/");
    let o = ply_with_input(
        &[
            "judge",
            "stress",
            "algospot-tictactoe",
            "--cmd",
            &cmd,
            "--rounds",
            "30",
            "--seed",
            "5",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let input = out
        .split("== input")
        .nth(1)
        .and_then(|s| s.split("== expected").next())
        .unwrap();
    assert!(
        input.starts_with(" (14 bytes)\n1\n"),
        "a one-case input: {out}"
    );
    assert!(
        out.contains(
            "== expected (ply)\nTIE\n== actual (program)\nx    <-- line 1: expected `TIE`\n"
        ),
        "{out}"
    );
    // The command it prints writes that very input again.
    let repro = out.split("== reproduce\n").nth(1).unwrap();
    let gen_args: Vec<&str> = repro
        .split(" | ")
        .next()
        .unwrap()
        .split(' ')
        .skip(1)
        .collect();
    assert!(
        gen_args.contains(&"--count") && gen_args.contains(&"--case"),
        "{repro}"
    );
    let again = ply(&gen_args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(format!(" (14 bytes)\n{}", stdout(&again)), input);
}

#[test]
fn stress_reports_a_program_that_cannot_run() {
    let o = ply_with_input(
        &[
            "judge",
            "stress",
            "boj-7682",
            "--cmd",
            "no-such-program-ply-13",
            "--rounds",
            "3",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("could not be run (exit 127"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("differs"), "{}", stderr(&o));
}

#[test]
fn gen_without_a_seed_differs_each_call() {
    let a = ply(&["judge", "gen", "boj-7682"]);
    let b = ply(&["judge", "gen", "boj-7682"]);
    assert!(a.status.success() && b.status.success());
    assert_ne!(a.stdout, b.stdout);
    // And it is a valid input.
    assert!(ply_with_input(&["judge", "boj-7682"], &a.stdout)
        .status
        .success());
}

#[test]
fn gen_dir_writes_oj_layout_read_back() {
    let dir = scratch("judge-gen-dir");
    for p in [
        "algospot-tictactoe",
        "boj-7682",
        "boj-16571",
        "ttt-finals",
        "swea-4615",
    ] {
        let d = dir.join(p);
        let o = ply(&[
            "judge",
            "gen",
            p,
            "--dir",
            d.to_str().unwrap(),
            "--count",
            "3",
            "--seed",
            "9",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut names: Vec<String> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "random-000.in",
                "random-000.out",
                "random-001.in",
                "random-001.out",
                "random-002.in",
                "random-002.out"
            ],
            "{p}"
        );
        for i in 0..3 {
            let input = std::fs::read(d.join(format!("random-{i:03}.in"))).unwrap();
            let expected = std::fs::read(d.join(format!("random-{i:03}.out"))).unwrap();
            let answered = ply_with_input(&["judge", p], &input);
            assert!(answered.status.success(), "{p} {i}: {}", stderr(&answered));
            assert_eq!(answered.stdout, expected, "{p} {i}");
        }
        assert_ne!(
            std::fs::read(d.join("random-000.in")).unwrap(),
            std::fs::read(d.join("random-001.in")).unwrap(),
            "{p}"
        );
    }
}

#[test]
fn checker_exit_codes_on_right_wrong_and_malformed_outputs() {
    let dir = scratch("judge-check");
    let input = dir.join("in");
    let sample = "XXXOO.XXX\nXOXOXOXOX\nOXOXOXOXO\nXXOOOXXOX\nend\n";
    std::fs::write(&input, sample).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let i = input.to_str().unwrap();
    let check = |out: &str, answer: Option<&str>| {
        let mut args = vec!["judge", "check", "boj-7682", i, out];
        args.extend(answer);
        ply(&args)
    };
    let right = write("right", "invalid\nvalid \ninvalid\nvalid\n\n");
    let o = check(&right, None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let answer = write("answer", "invalid\nvalid\ninvalid\nvalid\n");
    assert_eq!(check(&right, Some(&answer)).status.code(), Some(0));
    let wrong = write("wrong", "invalid\nvalid\nvalid\nvalid\n");
    let o = check(&wrong, None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("case 3 (line 3): expected `invalid`, found `valid`"),
        "{}",
        stderr(&o)
    );
    for malformed in [
        "invalid\nvalid\ninvalid\n",
        "invalid\nVALID\ninvalid\nvalid\n",
        "1\n2\n3\n4\n",
    ] {
        let o = check(&write("malformed", malformed), None);
        assert_eq!(o.status.code(), Some(2), "{malformed:?}: {}", stderr(&o));
    }
    // The checker itself fails: an INPUT ply cannot read, a missing file.
    let bad_input = write("bad-input", "XXQ\nend\n");
    let o = ply(&["judge", "check", "boj-7682", &bad_input, &right]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let o = ply(&[
        "judge",
        "check",
        "boj-7682",
        i,
        dir.join("nothing").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
}

#[test]
fn samples_are_printed_and_answered() {
    let o = ply(&["judge", "sample", "ttt-finals"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let input = text
        .split("== sample 1: input\n")
        .nth(1)
        .unwrap()
        .split("== sample 1: output\n")
        .collect::<Vec<_>>();
    assert_eq!(input[0], "OX--X-XOO\nO-OXO-X--\nO-OXO-X-X\n");
    assert_eq!(input[1], "4 1 2 1\n11 9 1 1\n4 2 1 1\n");
    let answered = ply_with_input(&["judge", "ttt-finals"], input[0].as_bytes());
    assert_eq!(stdout(&answered), input[1]);
}

#[test]
fn stress_kills_a_program_that_runs_too_long() {
    let o = ply_with_input(
        &[
            "judge",
            "stress",
            "boj-16571",
            "--cmd",
            "sleep 20",
            "--rounds",
            "1",
            "--timeout",
            "0.3",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("was killed"));
}

#[test]
fn a_long_input_streams_through() {
    let o = ply_with_input(
        &[
            "judge",
            "gen",
            "algospot-tictactoe",
            "--count",
            "100000",
            "--seed",
            "2",
        ],
        b"",
    );
    assert!(o.status.success());
    let answered = ply_with_input(&["judge", "algospot-tictactoe"], &o.stdout);
    assert!(answered.status.success(), "{}", stderr(&answered));
    assert_eq!(
        answered.stdout.iter().filter(|&&b| b == b'\n').count(),
        100_000
    );
}
