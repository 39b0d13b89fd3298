//! The client side of the Go Text Protocol, for `ply bench match --gtp`: another Othello
//! engine (Edax's `-gtp` mode, `ply gtp`, any engine that speaks GTP version 2 as Quarry
//! drives it) run as a child process, told the moves and asked for its own.
//!
//! Every answer is read with a deadline, so an engine that hangs or dies ends the match
//! with an error that names the command it was given, never a wait without end.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    time::{Duration, Instant},
};

use anyhow::{anyhow, Context};
use ply_othello::{Color, Square};

/// The most text read for one answer: past it, an engine is taken to be writing without end.
const MOST_BYTES: usize = 1 << 20;

/// What the engine said to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Play(Square),
    Pass,
}

/// A running GTP engine.
pub struct GtpEngine {
    /// The command line, as the errors name it.
    command: String,
    child: Child,
    stdin: ChildStdin,
    /// The engine's stdout, line by line, from a reader thread (`None` at its end).
    lines: Receiver<Option<String>>,
}

impl GtpEngine {
    /// Starts `command` (a shell command line) and checks that it answers GTP.
    pub fn start(command: &str) -> anyhow::Result<GtpEngine> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting the GTP engine `{command}`"))?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(Some(l)).is_err() {
                            return;
                        }
                    }
                    Err(_) => break,
                }
            }
            let _ = tx.send(None);
        });
        let mut engine = GtpEngine {
            command: command.to_owned(),
            child,
            stdin,
            lines,
        };
        engine.ask("protocol_version", Duration::from_secs(30))?;
        Ok(engine)
    }

    /// Sends one command and returns the text of its success answer (`= text`), within
    /// `wait`; a failure answer (`? message`), a reply that is not GTP, the engine's end or
    /// its silence past `wait` is an error naming the command.
    pub fn ask(&mut self, line: &str, wait: Duration) -> anyhow::Result<String> {
        let who = &self.command;
        // A message, not the I/O error itself: a closed pipe here is the engine's end, not
        // a reader of ply's output that went away.
        if let Err(e) = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()) {
            return Err(anyhow!(
                "GTP engine `{who}` ended before answering `{line}` (writing to it: {e})"
            ));
        }
        let deadline = Instant::now() + wait;
        let mut answer: Option<(bool, String)> = None;
        let silent = || {
            anyhow!(
                "GTP engine `{who}` gave no answer to `{line}` within {} s",
                wait.as_secs_f64()
            )
        };
        let mut read = 0usize;
        loop {
            // Checked before every line, so that an engine that never stops writing ends
            // at the deadline too.
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(silent());
            }
            if read > MOST_BYTES {
                return Err(anyhow!(
                    "GTP engine `{who}` wrote {read} bytes without answering `{line}`"
                ));
            }
            let next = match self.lines.recv_timeout(left) {
                Ok(Some(l)) => l,
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(anyhow!(
                        "GTP engine `{who}` ended before answering `{line}`"
                    ))
                }
                Err(RecvTimeoutError::Timeout) => return Err(silent()),
            };
            read += next.len() + 1;
            let next = next.trim_end_matches('\r');
            match answer.as_mut() {
                // Text before an answer's first line (a banner, a warning) is not GTP's,
                // but some engines print it: it is skipped.
                None if next.trim().is_empty() => {}
                None => {
                    let ok = match next.chars().next() {
                        Some('=') => true,
                        Some('?') => false,
                        _ => continue,
                    };
                    // `=id text` or `= text`: the id (none is sent) and the space go.
                    let text = next[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    answer = Some((ok, text.trim().to_owned()));
                }
                // An empty line ends the answer.
                Some(_) if next.trim().is_empty() => break,
                Some((_, text)) => {
                    text.push('\n');
                    text.push_str(next.trim());
                }
            }
        }
        let (ok, text) = answer.expect("the loop ends only after an answer's first line");
        if ok {
            Ok(text)
        } else {
            Err(anyhow!("GTP engine `{who}` refused `{line}`: {text}"))
        }
    }

    /// `genmove` for `color`: the engine's move, parsed (not yet checked against the rules).
    pub fn genmove(&mut self, color: Color, wait: Duration) -> anyhow::Result<Reply> {
        let line = format!("genmove {}", letter(color));
        let text = self.ask(&line, wait)?;
        parse_reply(&text).ok_or_else(|| {
            anyhow!(
                "GTP engine `{}` answered `{line}` with `{text}`, not a move",
                self.command
            )
        })
    }

    /// Tells the engine that `color` played `sq`.
    pub fn play(&mut self, color: Color, sq: Square) -> anyhow::Result<()> {
        self.ask(
            &format!("play {} {sq}", letter(color)),
            Duration::from_secs(30),
        )
        .map(drop)
    }
}

impl Drop for GtpEngine {
    fn drop(&mut self) {
        // A polite end first; an engine still there after a moment is killed.
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// GTP's colour letter.
fn letter(color: Color) -> char {
    if color == Color::Black {
        'b'
    } else {
        'w'
    }
}

/// A `genmove` answer's text: a square (either case, as engines write it) or `pass`.
fn parse_reply(text: &str) -> Option<Reply> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Some(Reply::Pass);
    }
    Square::parse(&t.to_ascii_lowercase()).ok().map(Reply::Play)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_squares_in_either_case_or_a_pass() {
        let e6 = Square::parse("e6").unwrap();
        assert_eq!(parse_reply("e6"), Some(Reply::Play(e6)));
        assert_eq!(parse_reply(" E6 "), Some(Reply::Play(e6)));
        assert_eq!(parse_reply("PASS"), Some(Reply::Pass));
        assert_eq!(parse_reply("resign"), None);
        assert_eq!(parse_reply("j9"), None);
        assert_eq!(parse_reply(""), None);
    }
}
