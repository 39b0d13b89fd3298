//! `ply bench match --gtp` against small fake engines (shell one-liners) that break GTP in
//! every way found so far: each ends the match with exit 1 and an error naming the engine
//! and the command it was asked, within bounded memory and without waiting for a deadline
//! it need not wait for; bad arguments are refused before an engine starts.

mod common;

use std::process::Command;

use common::{ply, stderr};

/// Runs a one-opening match against `engine` (a shell command line) under a limit of
/// `memory_kb` of address space, and returns stderr, checking that the match failed (exit
/// 1) and named the engine.
fn broken(engine: &str, memory_kb: u64) -> String {
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {memory_kb}; exec \"$0\" bench match --gtp \"$1\" --openings 1 --ms 20"
        ))
        .arg(env!("CARGO_BIN_EXE_ply"))
        .arg(engine)
        .output()
        .expect("run ply");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{engine}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(&format!("GTP engine `{engine}`")),
        "the engine is not named: {err}"
    );
    err
}

/// Enough address space for ply's own tables and threads, far less than an engine that
/// is read whole could take.
const MEMORY_KB: u64 = 1_500_000;

/// `err` names the command asked, with its id.
fn asked(err: &str, command: &str) {
    assert!(
        err.contains("(asked `") && err.contains(command),
        "`{command}` not named in {err}"
    );
}

#[test]
fn an_endless_line_without_a_newline_fails_at_once_in_bounded_memory() {
    // One line that never ends: the old client took gigabytes and aborted under the limit.
    let err = broken("read l; cat /dev/zero", MEMORY_KB);
    assert!(
        err.contains("wrote a line of more than 65536 bytes"),
        "{err}"
    );
    asked(&err, "1 protocol_version");
}

#[test]
fn a_flood_of_output_fails_in_bounded_memory() {
    // Lines without end and no answer: not GTP.
    let err = broken("yes 'not GTP'", MEMORY_KB);
    assert!(err.contains("`not GTP` where an answer was due"), "{err}");
    asked(&err, "1 protocol_version");
    // An answer that never ends.
    let err = broken(r#"read id cmd; yes "=$id x""#, MEMORY_KB);
    assert!(
        err.contains("more than 1048576 bytes without a whole answer"),
        "{err}"
    );
    // Every answer twice: the second is never taken for the next command's answer.
    let err = broken(
        r#"while read id cmd; do printf '=%s\n\n=%s\n\n' "$id" "$id"; done"#,
        MEMORY_KB,
    );
    assert!(
        err.contains("after its answer to `1 protocol_version`, unasked")
            || err.contains("with id 1, another command's"),
        "{err}"
    );
    // Answers without the command's id.
    let err = broken(r#"while read l; do echo "= "; echo; done"#, MEMORY_KB);
    assert!(err.contains("without the command's id"), "{err}");
}

#[test]
fn an_illegal_move_or_a_pass_names_the_engine_and_the_command() {
    let answering = |genmove: &str| {
        format!(
            r#"while read id cmd; do case "$cmd" in genmove*) echo "=$id {genmove}";; *) echo "=$id";; esac; echo; done"#
        )
    };
    // d4 is taken from the start.
    let err = broken(&answering("d4"), MEMORY_KB);
    assert!(
        err.contains("played d4, which is not a legal move in"),
        "{err}"
    );
    asked(&err, "genmove w");
    assert!(err.contains("opening 1"), "{err}");
    let err = broken(&answering("pass"), MEMORY_KB);
    assert!(
        err.contains("passed in ") && err.contains("where it has a move"),
        "{err}"
    );
    asked(&err, "genmove w");
    let err = broken(&answering("resign"), MEMORY_KB);
    assert!(err.contains("answered `resign`, not a move"), "{err}");
}

#[test]
fn a_refusal_an_end_or_silence_names_the_engine_and_the_command() {
    let err = broken(
        r#"while read id cmd; do echo "?$id no such thing"; echo; done"#,
        MEMORY_KB,
    );
    assert!(err.contains("refused it: no such thing"), "{err}");
    asked(&err, "1 protocol_version");
    let err = broken("exit 0", MEMORY_KB);
    assert!(err.contains("ended before answering"), "{err}");
    asked(&err, "1 protocol_version");
    // Answers everything but genmove.
    let err = broken(
        r#"while read id cmd; do case "$cmd" in genmove*) ;; *) echo "=$id"; echo;; esac; done"#,
        MEMORY_KB,
    );
    assert!(err.contains("gave no answer within"), "{err}");
    asked(&err, "genmove w");
}

#[test]
fn bad_arguments_are_refused_before_an_engine_starts() {
    for (args, needle) in [
        (vec!["--gtp", " "], "--gtp"),
        (vec!["--gtp", "x", "--baseline", "http://a:1"], "--"),
        (vec!["--gtp", "x", "--ms", "0"], "--ms 0"),
    ] {
        let mut all = vec!["bench", "match"];
        all.extend(args);
        let o = ply(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
    }
}
