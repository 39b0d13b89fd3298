//! `ply judge stress`: someone's program against ply's answers on generated inputs. The
//! library's stress tester does the rounds and the shrinking; this runs the program (`sh -c`,
//! in its own process group, killed after `--timeout`) and prints the report.

use std::{
    io::{Read, Write},
    os::unix::process::CommandExt,
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use anyhow::{bail, Context};
use ply_judge::stress::{stress, Options, Outcome, Run};

use super::problem;
use crate::error::{bad, judge_error};

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
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 10.0,
        allow_negative_numbers = true
    )]
    timeout: f64,
}

/// Runs the stress test; prints a report and fails on the first difference.
///
/// # Errors
///
/// Bad arguments (exit 2), a difference or a failing program (exit 1).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let p = problem(&args.problem)?;
    if args.max_count == 0 {
        return Err(bad("--max-count must be at least 1"));
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err(bad("--timeout must be a positive number of seconds"));
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    let options = Options {
        rounds: args.rounds,
        seed: args.seed,
        max_count: args.max_count,
    };
    let mut program = |input: &[u8]| run_program(&args.cmd, input, timeout);
    let failure = match stress(p, &options, &mut program).map_err(judge_error)? {
        Outcome::Failed(f) => f,
        _ => {
            println!(
                "{}: {} rounds, the program agreed with ply on every input",
                p.name(),
                args.rounds
            );
            return Ok(());
        }
    };
    let mut out = std::io::stdout().lock();
    failure.write_report(&mut out)?;
    if failure.run.not_found {
        out.flush()?;
        bail!(
            "{}: the program could not be run (exit 127, command not found): {}",
            p.name(),
            args.cmd
        );
    }
    writeln!(
        out,
        "== reproduce\nply judge gen {} {} | {}",
        p.name(),
        failure.gen,
        args.cmd
    )?;
    out.flush()?;
    bail!(
        "{}: round {} of {}: the program's output differs from ply's (seed {})",
        p.name(),
        failure.round,
        args.rounds,
        failure.seed
    );
}

/// Runs `sh -c cmd` in its own process group with `input` on stdin; kills the group after
/// `timeout`.
fn run_program(cmd: &str, input: &[u8], timeout: Duration) -> Result<Run, ply_judge::Error> {
    run_program_io(cmd, input, timeout)
        .map_err(|e| ply_judge::Error::Io(std::io::Error::other(format!("{e:#}"))))
}

fn run_program_io(cmd: &str, input: &[u8], timeout: Duration) -> anyhow::Result<Run> {
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
    let mut not_found = false;
    loop {
        if let Some(status) = child.try_wait()? {
            if status.code() == Some(127) {
                not_found = true;
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
        not_found,
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
