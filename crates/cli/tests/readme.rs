//! The README's examples run against the binary, so they cannot drift from it.
//!
//! Every ```` ```console ```` block of `README.md` is a session: a line `$ ply ARGS` runs the
//! built `ply` with those arguments (split as a shell would split plain words and quoted
//! strings) from the repository's root, and the lines after it, up to the next `$` line or
//! the end of the block, are its exact standard output. Two wildcards, as trycmd has them,
//! cover what depends on time: a line `...` alone matches any number of lines, and `[..]`
//! inside a line matches any text on that line. The command must succeed. Blocks fenced
//! ```` ```sh ```` are not run.

use std::{path::Path, process::Command, sync::OnceLock};

/// One `$ ply ...` line of a console block and the output the README shows for it.
#[derive(Clone, Debug, PartialEq)]
struct Example {
    /// The README's line number of the `$` line.
    line: usize,
    /// The arguments after `ply`.
    args: Vec<String>,
    /// The lines shown after it.
    expected: Vec<String>,
}

/// The examples of every ```` ```console ```` block of `markdown`.
fn examples(markdown: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start();
        if fence.starts_with("```") {
            if in_console || in_other {
                in_console = false;
                in_other = false;
            } else if fence.trim_end() == "```console" {
                in_console = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            let words = split(command).unwrap_or_else(|e| panic!("README.md:{}: {e}", i + 1));
            assert_eq!(
                words.first().map(String::as_str),
                Some("ply"),
                "README.md:{}: a console example runs `ply`",
                i + 1
            );
            out.push(Example {
                line: i + 1,
                args: words[1..].to_vec(),
                expected: Vec::new(),
            });
        } else {
            let example = out
                .last_mut()
                .unwrap_or_else(|| panic!("README.md:{}: output before any `$ ply` line", i + 1));
            example.expected.push(line.to_owned());
        }
    }
    assert!(!in_console, "README.md: a console block is not closed");
    out
}

/// Splits a command line as a shell splits plain words, `"double"` and `'single'` quoted
/// strings (no escapes, variables or globs: the README's examples need none).
fn split(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some(x) => w.push(x),
                        None => return Err(format!("unclosed {c} in `{command}`")),
                    }
                }
            }
            c if c.is_whitespace() => words.extend(word.take()),
            '\\' | '$' | '`' | '*' | '?' | '|' | '>' | '<' | '&' | ';' => {
                return Err(format!(
                    "`{c}` in `{command}`: write the example in a sh block"
                ))
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// Whether `actual` matches the line `pattern`, where `[..]` stands for any text.
fn line_matches(pattern: &str, actual: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether the lines `actual` match `expected`, where a line `...` stands for any number of
/// lines.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| line_matches(first, a) && lines_match(rest, more)),
    }
}

/// What is wrong with `example`'s output `stdout` (and exit status), or `None`.
fn mismatch(example: &Example, success: bool, stdout: &str, stderr: &str) -> Option<String> {
    let actual: Vec<&str> = stdout.lines().collect();
    if success && lines_match(&example.expected, &actual) {
        return None;
    }
    Some(format!(
        "README.md:{}: `ply {}`{}\n--- the README shows\n{}\n--- ply printed\n{stdout}{}",
        example.line,
        example.args.join(" "),
        if success { "" } else { " failed" },
        example.expected.join("\n"),
        if stderr.is_empty() {
            String::new()
        } else {
            format!("--- on stderr\n{stderr}")
        }
    ))
}

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .expect("crates/cli is two levels down")
}

fn run(example: &Example) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(&example.args)
        .current_dir(repository())
        .output()
        .expect("run ply");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn readme() -> String {
    std::fs::read_to_string(repository().join("README.md")).expect("README.md")
}

/// What `ply` printed for an example: whether it succeeded, its standard output and error.
type Ran = (bool, String, String);

/// Every example of the README, run once in order and shared by the tests below (two runs
/// at once would write the same files). The examples write their files as
/// `/tmp/ply-readme*` (a database, the index `explore` keeps beside it, a book): removed
/// once all have run.
fn ran() -> &'static [(Example, Ran)] {
    static RAN: OnceLock<Vec<(Example, Ran)>> = OnceLock::new();
    RAN.get_or_init(|| {
        let ran = examples(&readme())
            .into_iter()
            .map(|e| {
                let out = run(&e);
                (e, out)
            })
            .collect();
        if let Ok(entries) = std::fs::read_dir("/tmp") {
            for entry in entries.flatten() {
                if entry
                    .file_name()
                    .to_string_lossy()
                    .starts_with("ply-readme")
                {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
        ran
    })
}

#[test]
fn every_console_example_of_the_readme_prints_what_it_shows() {
    let examples = ran();
    assert!(
        examples.len() >= 5,
        "only {} examples found",
        examples.len()
    );
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|(e, (success, stdout, stderr))| mismatch(e, *success, stdout, stderr))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} README examples differ:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
}

/// The test above fails when an example's output changes: every example, with one line of
/// its output changed (or one line added), no longer matches what `ply` prints.
#[test]
fn a_changed_example_output_is_caught() {
    for (example, (success, stdout, stderr)) in ran() {
        let success = *success;
        assert!(mismatch(example, success, stdout, stderr).is_none());
        let mut added = example.clone();
        added.expected.push("one more line".to_owned());
        assert!(
            mismatch(&added, success, stdout, stderr).is_some(),
            "README.md:{}: a line added to the output still matches",
            example.line
        );
        let Some(i) = example.expected.iter().position(|l| l.trim() != "...") else {
            continue;
        };
        let mut changed = example.clone();
        changed.expected[i] = format!("{}!", changed.expected[i].replace("[..]", ""));
        assert!(
            mismatch(&changed, success, stdout, stderr).is_some(),
            "README.md:{}: a changed output line still matches",
            example.line
        );
    }
}

#[test]
fn wildcards_match_what_they_should_and_nothing_else() {
    assert!(line_matches(
        "searched   depth 14, [..] s (exact)",
        "searched   depth 14, 1234 nodes, 0.05 s (exact)"
    ));
    assert!(!line_matches(
        "searched   depth 14, [..] s (exact)",
        "searched   depth 13, 1234 nodes, 0.05 s (exact)"
    ));
    assert!(line_matches("a[..]b[..]c", "aXbYc"));
    assert!(line_matches("a[..]", "a"));
    assert!(!line_matches("a[..]a", "a"));
    assert!(!line_matches("abc", "abcd"));
    let lines = |s: &str| s.lines().map(ToOwned::to_owned).collect::<Vec<_>>();
    assert!(lines_match(
        &lines("one\n...\nfour"),
        &["one", "two", "three", "four"]
    ));
    assert!(lines_match(&lines("one\n..."), &["one"]));
    assert!(!lines_match(
        &lines("one\n...\nfive"),
        &["one", "two", "four"]
    ));
    assert!(!lines_match(&lines("one"), &["one", "two"]));
    assert_eq!(
        split(r#"othello analyze "O--O X" --time 2 'a b'"#).unwrap(),
        ["othello", "analyze", "O--O X", "--time", "2", "a b"]
    );
    assert!(split("ply x > out").is_err());
    let parsed = examples(
        "text\n```console\n$ ply ttt stats\nline\n...\n$ ply x\n```\n```sh\n$ ply y\n```\n",
    );
    assert_eq!(parsed.len(), 2);
    assert_eq!((parsed[0].line, parsed[0].expected.len()), (3, 2));
    assert_eq!(parsed[1].args, ["x"]);
}
