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
    answers("boj-16571", "1 2 1\n0 0 0\n2 0 1\n", "L\n"); // X threatens c2 and b2: O cannot stop both
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
    let mut rng = ply_core::SplitMix64::new(0x1234_5678_9abc_def0);
    for round in 0..12 {
        let len = 1 + round * 7;
        let input: Vec<u8> = (0..len)
            .map(|_| b"xo.XO-012\n \r3z\xff"[rng.below(15)])
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

#[test]
fn formats_are_strict_as_the_statements_write_them() {
    rejects(
        "boj-7682",
        "XXXOO.XXX\nXoXOXOXOX\nend\n",
        "invalid\n",
        &[
            "case 2, line 2",
            "unknown character 'o' at column 2 (expected X, O or .)",
        ],
    );
    rejects(
        "algospot-tictactoe",
        "+3\n...\n...\n...\n",
        "",
        &["line 1", "expected the number of cases, found \"+3\""],
    );
    rejects(
        "algospot-tictactoe",
        "1\nXX.\noo.\n...\n",
        "",
        &[
            "case 1, line 2",
            "unknown character 'X' at column 1 (expected x, o or .)",
        ],
    );
    rejects(
        "ttt-finals",
        "OX--X-XOO\nox--x-xoo\n",
        "4 1 2 1\n",
        &[
            "case 2, line 2",
            "unknown character 'o' at column 1 (expected O, X or -)",
        ],
    );
    rejects(
        "ttt-finals",
        "OX..X.XOO\n",
        "",
        &["case 1, line 1", "unknown character '.' at column 3"],
    );
    rejects(
        "boj-16571",
        "121\n000\n201\n",
        "",
        &[
            "line 1",
            "'2' at column 2 follows another cell without a space",
        ],
    );
    rejects(
        "swea-4615",
        "+1\n4 0\n",
        "",
        &[
            "line 1",
            "expected the number of cases T (a whole number), found `+1`",
        ],
    );
    rejects(
        "swea-4615",
        "1\n4 1\n+3 4 1\n",
        "",
        &[
            "case 1, move 1 of 1, line 3",
            "expected the column (a whole number), found `+3`",
        ],
    );
}

/// A checker run on the boj-7682 sample's first four boards: (exit status, stderr).
fn check_boj(dir: &std::path::Path, output: &[u8], answer: Option<&[u8]>) -> (Option<i32>, String) {
    let input = dir.join("in");
    std::fs::write(&input, "XXXOO.XXX\nXOXOXOXOX\nOXOXOXOXO\nXXOOOXXOX\nend\n").unwrap();
    let out = dir.join("out");
    std::fs::write(&out, output).unwrap();
    let mut args = vec![
        "judge".to_string(),
        "check".into(),
        "boj-7682".into(),
        input.to_str().unwrap().into(),
        out.to_str().unwrap().into(),
    ];
    if let Some(answer) = answer {
        let path = dir.join("answer");
        std::fs::write(&path, answer).unwrap();
        args.push(path.to_str().unwrap().into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = ply(&args);
    (o.status.code(), stderr(&o))
}

#[test]
fn checker_fails_with_3_on_a_malformed_answer_file_and_2_only_for_the_output() {
    let dir = scratch("judge-check-answer");
    let right: &[u8] = b"invalid\nvalid\ninvalid\nvalid\n";
    assert_eq!(check_boj(&dir, right, Some(right)).0, Some(0));
    for (answer, message) in [
        (
            &b"invalid\nvalid\ninvalid\n"[..],
            "3 answer lines, expected 4 (one per case)",
        ),
        (
            b"invalid\nvalid\ninvalid\nvalid\nvalid\n",
            "5 answer lines, expected 4",
        ),
        (
            b"invalid\nVALID\ninvalid\nvalid\n",
            "case 2 (line 2): `VALID` is not an answer",
        ),
        (
            b"invalid\ninvalid\ninvalid\nvalid\n",
            "case 2 (line 2): `invalid` contradicts ply's exact answer `valid`",
        ),
        (b"invalid\n\xff\n", "not UTF-8"),
    ] {
        let (code, err) = check_boj(&dir, right, Some(answer));
        assert_eq!(code, Some(3), "{answer:?}: {err}");
        assert!(err.starts_with("FAIL boj-7682: ANSWER "), "{err}");
        assert!(err.contains(message), "{message:?} not in {err}");
    }
    // The same faults in the contestant's output are presentation errors.
    for output in [
        &b"invalid\nvalid\ninvalid\n"[..],
        b"invalid\nVALID\ninvalid\nvalid\n",
        b"invalid\n\xff\n",
    ] {
        let (code, err) = check_boj(&dir, output, Some(right));
        assert_eq!(code, Some(2), "{output:?}: {err}");
        assert!(err.starts_with("wrong output format"), "{err}");
    }
}

#[test]
fn checker_explains_ply_s_answer_for_the_wrong_case() {
    let dir = scratch("judge-check-why");
    let (code, err) = check_boj(&dir, b"invalid\nvalid\nvalid\nvalid\n", None);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err,
        "wrong answer case 3 (line 3): expected `invalid`, found `valid`\n\
         ply: case 3: OXOXOXOXO -> invalid: the board cannot occur: \
         O has more marks than X but X moves first\n"
    );
    let (code, err) = check_boj(&dir, b"invalid\ninvalid\ninvalid\nvalid\n", None);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.ends_with("ply: case 2: XOXOXOXOX -> valid: a game ends here: X has three in a row\n"),
        "{err}"
    );
}

#[test]
fn checker_numbers_are_strict() {
    let dir = scratch("judge-check-numbers");
    let input = dir.join("in");
    std::fs::write(&input, "OX--X-XOO\n").unwrap();
    let out = dir.join("out");
    std::fs::write(&out, "+4 1 2 1\n").unwrap();
    let o = ply(&[
        "judge",
        "check",
        "ttt-finals",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn stress_explains_ply_s_answer_for_the_failing_case() {
    let me = env!("CARGO_BIN_EXE_ply");
    let cmd = format!("'{me}' judge boj-7682 | sed s/^invalid/valid/");
    let o = ply_with_input(
        &[
            "judge", "stress", "boj-7682", "--cmd", &cmd, "--rounds", "5", "--seed", "3",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let why = out.split("== why ply answers so\n").nth(1).expect(&out);
    let why = why.split("== reproduce").next().unwrap();
    assert!(why.starts_with("case 1: "), "{out}");
    assert!(why.contains(" -> invalid: "), "{out}");
    assert!(
        why.contains("the board cannot occur: ") || why.contains("the game is not over: "),
        "{out}"
    );
}

#[test]
fn sample_dir_writes_oj_s_sample_layout() {
    let dir = scratch("judge-sample-dir");
    let d = dir.join("boj-16571");
    let o = ply(&["judge", "sample", "boj-16571", "--dir", d.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let mut names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["sample-1.in", "sample-1.out", "sample-2.in", "sample-2.out"]
    );
    for i in 1..=2 {
        let input = std::fs::read(d.join(format!("sample-{i}.in"))).unwrap();
        let expected = std::fs::read(d.join(format!("sample-{i}.out"))).unwrap();
        assert_eq!(
            ply_with_input(&["judge", "boj-16571"], &input).stdout,
            expected
        );
    }
    assert_eq!(
        std::fs::read(d.join("sample-2.in")).unwrap(),
        b"0 0 0\n0 0 0\n0 0 0\n"
    );
}

#[test]
fn help_gives_each_problem_s_source_and_statement() {
    let o = ply(&["judge", "--help"]);
    assert!(o.status.success());
    let help = stdout(&o);
    for needle in [
        "algospot-tictactoe: algospot TICTACTOE, https://algospot.com/judge/problem/read/TICTACTOE",
        "boj-7682: Baekjoon 7682, https://www.acmicpc.net/problem/7682",
        "boj-16571: Baekjoon 16571, https://www.acmicpc.net/problem/16571",
        "swea-4615: SW Expert Academy 4615",
        "print valid if the board is a final position of some game, else invalid.",
        "ply judge sample <PROBLEM> [--dir DIR]",
    ] {
        assert!(help.contains(needle), "{needle:?} not in {help}");
    }
}
