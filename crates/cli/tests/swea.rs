//! `ply judge swea-4615`, `ply judge gen swea-4615`, run as the real binary.

mod common;

use common::ply_with_input;

use std::process::Output;

fn judge(args: &[&str], input: &str) -> Output {
    ply_with_input(args, input.as_bytes())
}

fn solve(input: &str) -> Output {
    judge(&["judge", "swea-4615"], input)
}

/// Expects exit 2, no panic, and returns (stdout, stderr).
fn rejected(input: &str) -> (String, String) {
    let out = solve(input);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{input:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    (String::from_utf8(out.stdout).unwrap(), err)
}

const SAMPLE: &str =
    "1\n4 12\n1 2 1\n1 1 2\n4 3 1\n4 4 2\n2 1 1\n4 2 2\n3 4 1\n1 3 2\n2 4 1\n1 4 2\n4 1 2\n3 1 2\n";

#[test]
fn the_design_sample_is_byte_exact() {
    let out = solve(SAMPLE);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "#1 0 16\n");
}

#[test]
fn turns_are_not_enforced() {
    // Black plays twice in a row on 8x8: f5 (turns e5), then c4 (turns d4, white's last
    // disc).
    let out = solve("2\n8 2\n6 5 1\n3 4 1\n6 0\n");
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "#1 6 0\n#2 2 2\n");
}

#[test]
fn bad_moves_name_the_case_and_the_move() {
    let (stdout, err) = rejected("2\n4 0\n4 2\n1 1 1\n");
    assert_eq!(
        stdout, "#1 2 2\n",
        "the good case is answered, the bad one not at all"
    );
    assert!(
        err.contains("case 2, move 1 of 2, line 4 (`1 1 1`)"),
        "{err}"
    );
    assert!(err.contains("not a legal move for black"), "{err}");
    let (_, err) = rejected("1\n4 1\n2 2 1\n");
    assert!(err.contains("already taken"), "{err}");
    let (_, err) = rejected("1\n4 1\n1 2 3\n");
    assert!(err.contains("1 (black) or 2 (white), not 3"), "{err}");
    let (_, err) = rejected("1\n4 1\n5 1 1\n");
    assert!(err.contains("off the 4x4 board"), "{err}");
    let (_, err) = rejected("1\n4 1\n0 1 1\n");
    assert!(err.contains("off the 4x4 board"), "{err}");
    let (_, err) = rejected("1\n5 0\n");
    assert!(
        err.contains("case 1, line 2: board size N must be 4, 6 or 8"),
        "{err}"
    );
    let (_, err) = rejected("1\n4 2\n1 2 1\n");
    assert!(
        err.contains("case 1, move 2 of 2, line 3: the input ends"),
        "{err}"
    );
    let (_, err) = rejected("x\n");
    assert!(
        err.contains("line 1: expected the number of cases"),
        "{err}"
    );
    let (_, err) = rejected("1\n4 0\n7\n");
    assert!(err.contains("line 3: unexpected `7`"), "{err}");
    let (_, err) = rejected("1\n4 -1\n");
    assert!(err.contains("must not be negative"), "{err}");
    let (_, err) = rejected("1\n4 1\n1 2 99999999999999999999\n");
    assert!(err.contains("whole number"), "{err}");
}

#[test]
fn generated_inputs_are_valid_and_reproducible() {
    let gen = |seed: &str| {
        let out = judge(
            &["judge", "gen", "swea-4615", "--count", "30", "--seed", seed],
            "",
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let a = gen("7");
    assert_eq!(a, gen("7"));
    assert_ne!(a, gen("8"));
    let out = solve(&a);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers = String::from_utf8(out.stdout).unwrap();
    assert_eq!(answers.lines().count(), 30);
    for (i, line) in answers.lines().enumerate() {
        assert!(line.starts_with(&format!("#{} ", i + 1)), "{line}");
    }
}
