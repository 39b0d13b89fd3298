//! `ply judge …` through the real binary: the DESIGN.md samples byte-exact, bad input, the
//! generator and the stress tester.

mod common;

use common::{ply_with_input, stderr};

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
    assert!(input.contains("\n1\n"), "a one-case input: {out}");
    assert!(
        out.contains("== expected (ply)\nTIE\n== actual (program)\nx\n"),
        "{out}"
    );
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
