//! Running someone's program on one input, as the stress tester needs it: `sh -c PROGRAM`
//! in a process group of its own, the input on its stdin, its stdout and stderr read whole,
//! and the whole group killed after a timeout (a program that starts others cannot leave
//! them running, nor hold the pipes open). Unix only.
//!
//! ```
//! use std::time::Duration;
//! let run = ply_judge::shell::run("tr a-z A-Z", b"tie\n", Duration::from_secs(60))?;
//! assert_eq!(run.stdout, b"TIE\n");
//! assert_eq!(run.failure, None);
//! # Ok::<(), ply_judge::Error>(())
//! ```

use std::{
    io::{self, Read, Write},
    os::unix::process::CommandExt,
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use crate::{stress::Run, Error};

/// Runs `sh -c cmd` in its own process group with `input` on stdin; kills the group after
/// `timeout`. A program that fails, cannot be found or runs too long is a [`Run`] that says
/// so ([`Run::failure`], [`Run::not_found`]), not an error.
///
/// # Errors
/// [`Error::Io`] when the shell cannot be started or its output cannot be read.
pub fn run(cmd: &str, input: &[u8], timeout: Duration) -> Result<Run, Error> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| io_error(format!("starting `sh -c {cmd:?}`: {e}")))?;
    let pipe = |what: &str| io_error(format!("the program's {what}"));
    let mut stdin = child.stdin.take().ok_or_else(|| pipe("stdin"))?;
    let mut stdout = child.stdout.take().ok_or_else(|| pipe("stdout"))?;
    let mut stderr = child.stderr.take().ok_or_else(|| pipe("stderr"))?;
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
        if let Some(status) = child.try_wait().map_err(Error::Io)? {
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
        .map_err(|_| io_error("reading the program's stdout panicked".into()))?
        .map_err(Error::Io)?;
    let stderr = err_reader
        .join()
        .map_err(|_| io_error("reading the program's stderr panicked".into()))?
        .map_err(Error::Io)?;
    Ok(Run {
        stdout,
        stderr,
        failure,
        not_found,
    })
}

fn io_error(message: String) -> Error {
    Error::Io(io::Error::other(message))
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

    const MINUTE: Duration = Duration::from_secs(60);

    /// The input reaches stdin, stdout and stderr come back whole, a clean exit is no
    /// failure.
    #[test]
    fn a_program_gets_the_input_and_gives_back_both_outputs() {
        let run = run("cat; echo oops >&2", b"x o .\n", MINUTE).unwrap();
        assert_eq!(run.stdout, b"x o .\n");
        assert_eq!(run.stderr, b"oops\n");
        assert_eq!((run.failure, run.not_found), (None, false));
    }

    /// A failing exit is a failure naming the status; a command the shell cannot find is
    /// marked as such.
    #[test]
    fn a_failing_or_missing_program_is_a_run_that_says_so() {
        let failed = run("exit 3", b"", MINUTE).unwrap();
        assert_eq!(
            failed.failure.as_deref(),
            Some("exited with exit status: 3")
        );
        assert!(!failed.not_found);
        let missing = run("ply-no-such-program-here", b"", MINUTE).unwrap();
        assert!(missing.not_found);
        assert!(missing.failure.unwrap().contains("exit 127"));
    }

    /// A program that stops reading at once does not make the run an error, however long
    /// its input.
    #[test]
    fn a_program_that_reads_nothing_is_not_an_error() {
        let big = vec![b'.'; 1 << 20];
        let run = run("true", &big, MINUTE).unwrap();
        assert_eq!(run.failure, None);
    }
}
