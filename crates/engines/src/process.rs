//! An engine program run as a child process and read in bounded pieces, for the GTP and
//! NBoard clients alike.
//!
//! The program is not trusted. Its output is read on a thread of its own into lines of at
//! most [`LINE_BYTES`], with at most [`QUEUE`] lines held ahead of the client (the reader
//! waits while they are), so a program that writes without end, with or without newlines,
//! costs a few megabytes at most; every line is awaited with a deadline, so a silent program
//! is found; its end is an event like any line. When the client is dropped the program is
//! asked to quit, then killed if it stays.

use std::{
    io::{Read, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError},
    time::{Duration, Instant},
};

/// The longest line read from a program, in bytes; a longer one (a line without end) is an
/// error.
pub const LINE_BYTES: usize = 64 * 1024;
/// Lines the reader holds ahead of the client.
pub const QUEUE: usize = 64;

/// What the reader thread saw on the program's stdout.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    /// A line, without its newline (and a carriage return before it).
    Line(String),
    /// A line longer than [`LINE_BYTES`]: reading stopped there.
    TooLong,
    /// The end of the output (the program closed it or exited), or a failure to read it.
    End(Option<String>),
}

/// Reads `from` into lines of at most [`LINE_BYTES`], sent as [`Event`]s; it stops at the
/// end, at a line too long, or when the client has gone.
pub fn read_lines(mut from: impl Read, to: &SyncSender<Event>) {
    let mut line: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = match from.read(&mut chunk) {
            Ok(0) => {
                if !line.is_empty() {
                    let _ = to.send(Event::Line(text(&line)));
                }
                let _ = to.send(Event::End(None));
                return;
            }
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = to.send(Event::End(Some(e.to_string())));
                return;
            }
        };
        for piece in chunk[..n].split_inclusive(|&b| b == b'\n') {
            let (body, ends) = match piece.strip_suffix(b"\n") {
                Some(body) => (body, true),
                None => (piece, false),
            };
            if line.len() + body.len() > LINE_BYTES {
                let _ = to.send(Event::TooLong);
                return;
            }
            line.extend_from_slice(body);
            if ends {
                if to.send(Event::Line(text(&line))).is_err() {
                    return;
                }
                line.clear();
            }
        }
    }
}

/// A line's bytes as text: a carriage return at its end dropped, bytes that are not UTF-8
/// replaced.
fn text(line: &[u8]) -> String {
    String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line)).into_owned()
}

/// At most the first 80 characters of a program's line, for a message.
#[must_use]
pub fn shown(line: &str) -> String {
    let mut s: String = line.chars().take(80).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

/// What waiting for a line found, when it found no line.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    /// A line longer than [`LINE_BYTES`].
    TooLong,
    /// The program's end, and why reading stopped if not a plain end.
    Ended(Option<String>),
    /// Nothing within the deadline.
    Silent,
}

/// A program running as a child process, its stdin written and its stdout read in lines.
#[derive(Debug)]
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Event>,
    /// What it is told when it is dropped.
    quit: String,
}

impl Process {
    /// Starts `command` (a shell command line); `quit` is the line that asks it to end.
    ///
    /// # Errors
    /// When the shell cannot be started.
    pub fn start(command: &str, quit: &str) -> std::io::Result<Process> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other("the program's standard streams"));
        };
        let (tx, events) = mpsc::sync_channel(QUEUE);
        std::thread::spawn(move || read_lines(stdout, &tx));
        Ok(Process {
            child,
            stdin,
            events,
            quit: quit.to_owned(),
        })
    }

    /// Writes `line` and a newline, flushed.
    ///
    /// # Errors
    /// When the program has closed its input (it has ended).
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush())
    }

    /// The next line, waiting until `deadline`.
    ///
    /// # Errors
    /// A line too long, the program's end, or silence until the deadline.
    pub fn line(&mut self, deadline: Instant) -> Result<String, Wait> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(left) {
            Ok(Event::Line(l)) => Ok(l),
            Ok(Event::TooLong) => Err(Wait::TooLong),
            Ok(Event::End(why)) => Err(Wait::Ended(why)),
            Err(RecvTimeoutError::Disconnected) => Err(Wait::Ended(None)),
            Err(RecvTimeoutError::Timeout) => Err(Wait::Silent),
        }
    }

    /// A line already written, if any (without waiting); `Err` as [`Process::line`], but
    /// never [`Wait::Silent`] (nothing written is `Ok(None)`) nor the end (found when the
    /// next command is written or awaited).
    ///
    /// # Errors
    /// A line too long.
    pub fn pending(&mut self) -> Result<Option<String>, Wait> {
        match self.events.try_recv() {
            Ok(Event::Line(l)) => Ok(Some(l)),
            Ok(Event::TooLong) => Err(Wait::TooLong),
            Ok(Event::End(_)) | Err(TryRecvError::Empty | TryRecvError::Disconnected) => Ok(None),
        }
    }

    /// Asks the program to end, waits a moment, and kills it if it is still there; true when
    /// it ended by itself.
    pub fn end(&mut self) -> bool {
        if let Ok(Some(_)) = self.child.try_wait() {
            return true;
        }
        let quit = std::mem::take(&mut self.quit);
        if !quit.is_empty() {
            let _ = self.send(&quit);
        }
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        false
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collects what [`read_lines`] sends for `input`, with room for all of it.
    fn events(input: &[u8]) -> Vec<Event> {
        let (tx, rx) = mpsc::sync_channel(1024);
        read_lines(input, &tx);
        drop(tx);
        rx.iter().collect()
    }

    #[test]
    fn lines_are_cut_at_newlines_and_bounded_in_bytes() {
        assert_eq!(
            events(b"=1 a\r\n\nx"),
            [
                Event::Line("=1 a".into()),
                Event::Line(String::new()),
                Event::Line("x".into()),
                Event::End(None)
            ]
        );
        // A line of exactly the bound is read; one byte more is too long, and reading stops.
        let mut just = vec![b'a'; LINE_BYTES];
        just.push(b'\n');
        assert_eq!(events(&just).len(), 2);
        let mut over = vec![b'a'; LINE_BYTES + 1];
        over.extend_from_slice(b"\n=1\n");
        assert_eq!(events(&over), [Event::TooLong]);
    }

    #[test]
    fn the_reader_waits_while_the_queue_is_full_and_stops_when_the_client_goes() {
        // An endless stream of lines: the reader sends QUEUE of them, then waits; when the
        // receiver is dropped it stops, having read a bounded amount.
        struct Endless(usize);
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                buf.fill(b'\n');
                self.0 += buf.len();
                Ok(buf.len())
            }
        }
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let reader = std::thread::spawn(move || {
            let mut from = Endless(0);
            read_lines(&mut from, &tx);
            from.0
        });
        for _ in 0..QUEUE * 2 {
            assert_eq!(rx.recv().unwrap(), Event::Line(String::new()));
        }
        drop(rx);
        let read = reader.join().unwrap();
        assert!(read < 64 * 8192, "{read} bytes read");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::with_cases(512)
        })]

        /// Whatever a program writes: lines within the bound, the end reported once.
        #[test]
        fn any_output_is_read_in_bounded_lines(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512),
        ) {
            let got = events(&bytes);
            let ends = got.iter().filter(|e| matches!(e, Event::End(_))).count();
            proptest::prop_assert_eq!(ends, 1);
            for e in &got {
                if let Event::Line(l) = e {
                    proptest::prop_assert!(l.len() <= 3 * LINE_BYTES);
                }
            }
            let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
            let lines = got.len() - 1;
            proptest::prop_assert!(lines == newlines || lines == newlines + 1);
        }
    }
}
