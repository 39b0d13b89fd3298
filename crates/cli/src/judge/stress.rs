//! `ply judge stress`: someone's program against ply's answers on generated inputs.
//!
//! Round `r` generates an input from a seed derived from `--seed` and `r`, with 1 to
//! `--max-count` cases. On the first difference the tester shrinks the input to the single
//! smallest case the program gets wrong (each case cut out as an input of its own, smallest
//! first); only if no case fails alone does it fall back to the shortest failing prefix. It
//! reports that input, ply's answer and the program's with the differing line marked, and the
//! exact command that writes the input again (`ply judge gen … --seed S --count N --case K`).
//! A program the shell cannot run (exit 127) is reported as that, not as a difference.
//! Outputs are compared line by line, ignoring trailing whitespace on a line and blank lines
//! at the end.

use std::{
    io::{Read, Write},
    os::unix::process::CommandExt,
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use anyhow::{bail, Context};

use super::{gen, problem, Problem, Rng};

/// `ply judge stress` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem.
    #[arg(value_name = "PROBLEM", value_parser = super::problem_names())]
    problem: String,
    /// The program to test, run with `sh -c`; it reads the input on stdin.
    #[arg(long, value_name = "PROGRAM")]
    cmd: String,
    /// Number of inputs to try.
    #[arg(long, value_name = "N", default_value_t = 100)]
    rounds: u64,
    /// Seed of the first round.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Most cases in one input (problems with one case per input always use 1).
    #[arg(long, value_name = "N", default_value_t = 8)]
    max_count: usize,
    /// Seconds the program may run on one input.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    timeout: f64,
}

/// What the program did with one input.
struct Run {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    /// Why the run failed, if it did (exit status, timeout).
    failure: Option<String>,
    /// The exit code, when the program exited.
    code: Option<i32>,
}

/// A failing input with both answers.
struct Failure {
    input: Vec<u8>,
    expected: Vec<u8>,
    run: Run,
}

/// Runs the stress test; prints a report and fails on the first difference.
///
/// # Errors
///
/// Bad arguments (exit 2), a difference or a failing program (exit 1).
pub fn run(args: Args) -> anyhow::Result<()> {
    let p = problem(&args.problem)?;
    if args.max_count == 0 {
        return Err(crate::error::bad("--max-count must be at least 1"));
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err(crate::error::bad(
            "--timeout must be a positive number of seconds",
        ));
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    let mut seeds = Rng::new(args.seed);
    for round in 1..=args.rounds {
        let seed = seeds.next_u64();
        let count = if p.one_case {
            1
        } else {
            1 + Rng::new(seed).below(args.max_count)
        };
        if let Some(first) = attempt(p, &args.cmd, count, seed, timeout)? {
            if first.run.code == Some(127) {
                report(&first)?;
                bail!(
                    "{}: the program could not be run (exit 127, command not found): {}",
                    p.name,
                    args.cmd
                );
            }
            let (smallest, repro) = shrink(p, &args.cmd, count, seed, timeout, first)?;
            report(&smallest)?;
            println!(
                "== reproduce\nply judge gen {} {repro} | {}",
                p.name, args.cmd
            );
            bail!(
                "{}: round {round} of {}: the program's output differs from ply's (seed {seed})",
                p.name,
                args.rounds
            );
        }
    }
    println!(
        "{}: {} rounds, the program agreed with ply on every input",
        p.name, args.rounds
    );
    Ok(())
}

/// The smallest input that still fails: a single case if one fails alone (smallest first),
/// else the shortest failing prefix; with the `gen` arguments that write it.
fn shrink(
    p: &Problem,
    cmd: &str,
    count: usize,
    seed: u64,
    timeout: Duration,
    first: Failure,
) -> anyhow::Result<(Failure, String)> {
    let mut cases: Vec<(usize, Vec<u8>)> = (p.split)(&first.input)
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .collect();
    if cases.len() > 1 {
        cases.sort_by_key(|(_, c)| c.len());
        for (k, case) in cases {
            if let Some(f) = check_input(p, cmd, case, timeout)? {
                let k = k + 1;
                return Ok((f, format!("--seed {seed} --count {count} --case {k}")));
            }
        }
    }
    for fewer in 1..count {
        if let Some(f) = attempt(p, cmd, fewer, seed, timeout)? {
            return Ok((f, format!("--seed {seed} --count {fewer}")));
        }
    }
    Ok((first, format!("--seed {seed} --count {count}")))
}

/// One input of `count` cases from `seed`: `Some` if the program gets it wrong.
fn attempt(
    p: &Problem,
    cmd: &str,
    count: usize,
    seed: u64,
    timeout: Duration,
) -> anyhow::Result<Option<Failure>> {
    let input = gen::input(p, count, seed)?;
    check_input(p, cmd, input, timeout)
}

/// `Some` if the program gets `input` wrong.
fn check_input(
    p: &Problem,
    cmd: &str,
    input: Vec<u8>,
    timeout: Duration,
) -> anyhow::Result<Option<Failure>> {
    let mut expected = Vec::new();
    (p.solve)(&mut &input[..], &mut expected)
        .with_context(|| format!("{}: ply's own answer", p.name))
        .map_err(|e| anyhow::anyhow!("{e:#}"))?; // ply failing its own input is not bad input
    let run = run_program(cmd, &input, timeout)?;
    if run.failure.is_none() && same_answers(&expected, &run.stdout) {
        Ok(None)
    } else {
        Ok(Some(Failure {
            input,
            expected,
            run,
        }))
    }
}

fn report(f: &Failure) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "== input ({} bytes)", f.input.len())?;
    out.write_all(&f.input)?;
    ensure_newline(&mut out, &f.input)?;
    writeln!(out, "== expected (ply)")?;
    out.write_all(&f.expected)?;
    ensure_newline(&mut out, &f.expected)?;
    writeln!(out, "== actual (program)")?;
    write_marked(&mut out, &f.expected, &f.run.stdout)?;
    if let Some(why) = &f.run.failure {
        writeln!(out, "== the program {why}")?;
    }
    if !f.run.stderr.is_empty() {
        writeln!(out, "== program stderr")?;
        let cut = &f.run.stderr[..f.run.stderr.len().min(4096)];
        out.write_all(cut)?;
        ensure_newline(&mut out, cut)?;
    }
    out.flush()?;
    Ok(())
}

/// The program's output with every line that differs from ply's marked, and the missing
/// lines named.
fn write_marked(out: &mut dyn Write, expected: &[u8], actual: &[u8]) -> std::io::Result<()> {
    let want = lines(expected);
    let got = lines(actual);
    for (i, g) in got.iter().enumerate() {
        out.write_all(g)?;
        match want.get(i) {
            Some(w) if w == g => {}
            Some(w) => write!(
                out,
                "    <-- line {}: expected `{}`",
                i + 1,
                String::from_utf8_lossy(w)
            )?,
            None => write!(out, "    <-- line {}: not expected", i + 1)?,
        }
        out.write_all(b"\n")?;
    }
    for (i, w) in want.iter().enumerate().skip(got.len()) {
        writeln!(
            out,
            "    <-- line {} missing: expected `{}`",
            i + 1,
            String::from_utf8_lossy(w)
        )?;
    }
    Ok(())
}

fn ensure_newline(out: &mut dyn Write, text: &[u8]) -> std::io::Result<()> {
    if !text.is_empty() && !text.ends_with(b"\n") {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Lines, trailing whitespace and blank lines at the end dropped.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii_end)
        .collect();
    while v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

/// Equal line by line, up to trailing whitespace on each line and blank lines at the end.
fn same_answers(expected: &[u8], actual: &[u8]) -> bool {
    lines(expected) == lines(actual)
}

/// Runs `sh -c cmd` in its own process group with `input` on stdin; kills the group after
/// `timeout`.
fn run_program(cmd: &str, input: &[u8], timeout: Duration) -> anyhow::Result<Run> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .with_context(|| format!("starting `sh -c {cmd:?}`"))?;
    let mut stdin = child.stdin.take().context("the program's stdin")?;
    let mut stdout = child.stdout.take().context("the program's stdout")?;
    let mut stderr = child.stderr.take().context("the program's stderr")?;
    let input = input.to_vec();
    // A program that stops reading early closes the pipe: not an error of ours.
    let writer = thread::spawn(move || drop(stdin.write_all(&input)));
    let out_reader = thread::spawn(move || {
        let mut v = Vec::new();
        stdout.read_to_end(&mut v).map(|_| v)
    });
    let err_reader = thread::spawn(move || {
        let mut v = Vec::new();
        stderr.read_to_end(&mut v).map(|_| v)
    });
    let deadline = Instant::now() + timeout;
    let mut failure = None;
    let mut code = None;
    loop {
        if let Some(status) = child.try_wait()? {
            code = status.code();
            if code == Some(127) {
                failure =
                    Some("could not be run: the shell found no such command (exit 127)".into());
            } else if !status.success() {
                failure = Some(format!("exited with {status}"));
            }
            break;
        }
        if Instant::now() >= deadline {
            kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            failure = Some(format!(
                "ran longer than {:.1} s and was killed",
                timeout.as_secs_f64()
            ));
            break;
        }
        thread::sleep(Duration::from_millis(2));
    }
    // The group may outlive `sh`; make sure nothing keeps the pipes open.
    kill_group(child.id());
    let _ = writer.join();
    let stdout = out_reader
        .join()
        .map_err(|_| anyhow::anyhow!("reading the program's stdout panicked"))??;
    let stderr = err_reader
        .join()
        .map_err(|_| anyhow::anyhow!("reading the program's stderr panicked"))??;
    Ok(Run {
        stdout,
        stderr,
        failure,
        code,
    })
}

/// Sends SIGKILL to the process group `pgid`: the program and whatever it started. The group
/// was created for the program alone (`process_group(0)` makes its id the child's pid).
///
/// This calls the C library directly: the `kill` program of procps-ng 4.0.2 misreads
/// `kill -KILL -12345` as `kill(-1)` (every process of the user), so no external `kill`.
fn kill_group(pgid: u32) {
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    let Ok(pgid) = i32::try_from(pgid) else {
        return;
    };
    if pgid <= 1 {
        return; // never a broadcast: -1 means every process, 0 our own group
    }
    // SAFETY: kill(2) takes plain integers and touches no memory of ours; a negative pid
    // names exactly the process group created for the program.
    unsafe {
        kill(-pgid, SIGKILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_compare_up_to_trailing_whitespace() {
        assert!(same_answers(b"x\no\n", b"x \r\no\n\n"));
        assert!(same_answers(b"x\no\n", b"x\no"));
        assert!(!same_answers(b"x\no\n", b"x\nTIE\n"));
        assert!(!same_answers(b"x\no\n", b"x\n\no\n"));
    }
}
