//! The client side of the Go Text Protocol, for `ply bench match --gtp`: another Othello
//! engine (Edax's `-gtp` mode, `ply gtp`, any engine that speaks GTP version 2 as Quarry
//! drives it) run as a child process, told the moves and asked for its own.
//!
//! The engine is not trusted. Every command is numbered (`7 genmove b`) and its answer must
//! carry the number (`=7 d3`), so an answer is never taken for another command's. Its output
//! is read in bounded pieces: a line of at most [`LINE_BYTES`], an answer of at most
//! [`ANSWER_BYTES`], at most [`QUEUE`] lines held ahead of the client (the reader waits while
//! they are), so an engine that writes without end, with or without newlines, costs a few
//! megabytes at most. Every answer is read with a deadline. Anything else the engine writes
//! (text before an answer, a second answer, an answer to a command not asked), its end, its
//! silence, a refusal, and a move that is not legal are errors that name the engine and the
//! command.

use std::{
    io::{Read, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError},
    time::{Duration, Instant},
};

use anyhow::{anyhow, Context};
use ply_othello::{Color, Position, Square};

/// The longest line read from an engine, in bytes; a longer one (a line without end) is an
/// error.
const LINE_BYTES: usize = 64 * 1024;
/// The most bytes read for one answer, all its lines together.
const ANSWER_BYTES: usize = 1 << 20;
/// Lines the reader holds ahead of the client.
const QUEUE: usize = 64;

/// What the reader thread saw on the engine's stdout.
#[derive(Debug, PartialEq, Eq)]
enum Event {
    /// A line, without its newline (and a carriage return before it).
    Line(String),
    /// A line longer than [`LINE_BYTES`]: reading stopped there.
    TooLong,
    /// The end of the output (the engine closed it or exited), or a failure to read it.
    End(Option<String>),
}

/// Reads `from` into lines of at most [`LINE_BYTES`], sent as [`Event`]s; it stops at the
/// end, at a line too long, or when the client has gone.
fn read_lines(mut from: impl Read, to: &SyncSender<Event>) {
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

/// How a line read while waiting for the answer to command `id` reads.
#[derive(Debug, PartialEq, Eq)]
enum Head<'a> {
    /// An empty line (GTP's separator), between answers.
    Blank,
    /// The first line of an answer to `id`: success or not, and its text.
    Answer(bool, &'a str),
    /// The first line of an answer with another id, or none: what it carries.
    OtherId(Option<u64>),
    /// Not GTP.
    Text,
}

/// Reads the line `l` as the start of the answer to command `id`.
fn head(l: &str, id: u64) -> Head<'_> {
    if l.trim().is_empty() {
        return Head::Blank;
    }
    let ok = match l.as_bytes()[0] {
        b'=' => true,
        b'?' => false,
        _ => return Head::Text,
    };
    let rest = &l[1..];
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let found = rest[..digits].parse::<u64>().ok();
    if found != Some(id) {
        return Head::OtherId(found);
    }
    let text = &rest[digits..];
    // `=7` alone, or `=7 text`: anything else glued to the id is not an answer.
    if !text.is_empty() && !text.starts_with([' ', '\t']) {
        return Head::Text;
    }
    Head::Answer(ok, text.trim())
}

/// A running GTP engine.
pub struct GtpEngine {
    /// The command line, as the errors name it.
    command: String,
    child: Child,
    stdin: ChildStdin,
    /// The engine's stdout, from the reader thread.
    events: Receiver<Event>,
    /// The id of the next command.
    next_id: u64,
    /// The last command sent, with its id, as the errors name it.
    last: Option<String>,
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
        let stdout: ChildStdout = child.stdout.take().expect("stdout was piped");
        let (tx, events) = mpsc::sync_channel(QUEUE);
        std::thread::spawn(move || read_lines(stdout, &tx));
        let mut engine = GtpEngine {
            command: command.to_owned(),
            child,
            stdin,
            events,
            next_id: 1,
            last: None,
        };
        engine.ask("protocol_version", Duration::from_secs(30))?;
        Ok(engine)
    }

    /// An error naming the engine and the command `asked`.
    fn fault(&self, asked: &str, what: impl std::fmt::Display) -> anyhow::Error {
        anyhow!("GTP engine `{}` {what} (asked `{asked}`)", self.command)
    }

    /// Refuses anything but blank lines the engine wrote since its last answer.
    fn nothing_unasked(&mut self) -> anyhow::Result<()> {
        loop {
            match self.events.try_recv() {
                Ok(Event::Line(l)) if l.trim().is_empty() => {}
                Ok(Event::Line(l)) => {
                    let after = self.last.clone().unwrap_or_default();
                    return Err(anyhow!(
                        "GTP engine `{}` wrote `{}` after its answer to `{after}`, unasked",
                        self.command,
                        shown(&l)
                    ));
                }
                Ok(Event::TooLong) => {
                    let after = self.last.clone().unwrap_or_default();
                    return Err(anyhow!(
                        "GTP engine `{}` wrote a line of more than {LINE_BYTES} bytes after its \
                         answer to `{after}`, unasked",
                        self.command
                    ));
                }
                // Its end is found when the next command is written or answered.
                Ok(Event::End(_)) | Err(TryRecvError::Empty | TryRecvError::Disconnected) => {
                    return Ok(())
                }
            }
        }
    }

    /// Sends one command, numbered, and returns the text of its success answer (`=id text`),
    /// within `wait`. Anything else is an error naming the engine and the command: a failure
    /// answer (`?id message`), output before the answer or after the last one that is not
    /// GTP or answers another command, a line or an answer too long, the engine's end, its
    /// silence past `wait`.
    pub fn ask(&mut self, command: &str, wait: Duration) -> anyhow::Result<String> {
        self.nothing_unasked()?;
        let id = self.next_id;
        self.next_id += 1;
        let asked = format!("{id} {command}");
        self.last = Some(asked.clone());
        // A message, not the I/O error itself: a closed pipe here is the engine's end, not
        // a reader of ply's output that went away.
        if let Err(e) = writeln!(self.stdin, "{asked}").and_then(|()| self.stdin.flush()) {
            return Err(self.fault(
                &asked,
                format_args!("ended before answering (writing to it: {e})"),
            ));
        }
        let deadline = Instant::now() + wait;
        let mut answer: Option<(bool, String)> = None;
        let mut read = 0usize;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.events.recv_timeout(left) {
                Ok(Event::Line(l)) => l,
                Ok(Event::TooLong) => {
                    return Err(self.fault(
                        &asked,
                        format_args!("wrote a line of more than {LINE_BYTES} bytes"),
                    ))
                }
                Ok(Event::End(why)) => {
                    let why = why.map_or_else(String::new, |w| format!(" (reading it: {w})"));
                    return Err(self.fault(&asked, format_args!("ended before answering{why}")));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.fault(&asked, "ended before answering"))
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.fault(
                        &asked,
                        format_args!("gave no answer within {} s", wait.as_secs_f64()),
                    ))
                }
            };
            read += line.len() + 1;
            if read > ANSWER_BYTES {
                return Err(self.fault(
                    &asked,
                    format_args!("wrote more than {ANSWER_BYTES} bytes without a whole answer"),
                ));
            }
            match answer.as_mut() {
                None => match head(&line, id) {
                    Head::Blank => {}
                    Head::Answer(ok, text) => answer = Some((ok, text.to_owned())),
                    Head::OtherId(found) => {
                        let which = found.map_or_else(
                            || "without the command's id".to_owned(),
                            |n| format!("with id {n}, another command's"),
                        );
                        return Err(
                            self.fault(&asked, format_args!("answered `{}` {which}", shown(&line)))
                        );
                    }
                    Head::Text => {
                        return Err(self.fault(
                            &asked,
                            format_args!(
                                "wrote `{}` where an answer was due: not GTP",
                                shown(&line)
                            ),
                        ))
                    }
                },
                // An empty line ends the answer.
                Some(_) if line.trim().is_empty() => break,
                Some((_, text)) => {
                    text.push('\n');
                    text.push_str(line.trim());
                }
            }
        }
        let (ok, text) = answer.expect("the loop ends only after an answer's first line");
        if ok {
            Ok(text)
        } else {
            Err(self.fault(&asked, format_args!("refused it: {text}")))
        }
    }

    /// `genmove` for the side to move in `pos`, which has a legal move: the engine's move,
    /// checked. A pass, an answer that is no move and a move that is not legal are errors
    /// naming the engine and the command.
    pub fn genmove(&mut self, pos: &Position, wait: Duration) -> anyhow::Result<Square> {
        let command = format!("genmove {}", letter(pos.turn()));
        let text = self.ask(&command, wait)?;
        let asked = self.last.clone().unwrap_or(command);
        match parse_reply(&text) {
            Some(Reply::Play(sq)) if pos.is_legal(sq) => Ok(sq),
            Some(Reply::Play(sq)) => Err(self.fault(
                &asked,
                format_args!(
                    "played {sq}, which is not a legal move in {}",
                    ply_othello::text::format_position(pos)
                ),
            )),
            Some(Reply::Pass) => Err(self.fault(
                &asked,
                format_args!(
                    "passed in {}, where it has a move",
                    ply_othello::text::format_position(pos)
                ),
            )),
            None => Err(self.fault(
                &asked,
                format_args!("answered `{}`, not a move", shown(&text)),
            )),
        }
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

/// At most the first 80 characters of an engine's line, for a message.
fn shown(line: &str) -> String {
    let mut s: String = line.chars().take(80).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

/// What the engine said to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply {
    Play(Square),
    Pass,
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

    #[test]
    fn an_answer_must_carry_the_command_s_id() {
        assert_eq!(head("=7 d3", 7), Head::Answer(true, "d3"));
        assert_eq!(head("=7", 7), Head::Answer(true, ""));
        assert_eq!(
            head("?7 unknown command", 7),
            Head::Answer(false, "unknown command")
        );
        assert_eq!(head("=6 d3", 7), Head::OtherId(Some(6)));
        assert_eq!(head("= d3", 7), Head::OtherId(None));
        assert_eq!(head("=7d3", 7), Head::Text);
        assert_eq!(head("=", 7), Head::OtherId(None));
        assert_eq!(head("hello", 7), Head::Text);
        assert_eq!(head("  ", 7), Head::Blank);
    }

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

        /// Whatever an engine writes: lines within the bound, the end reported once, and
        /// every line read as an answer's head without a panic.
        #[test]
        fn any_output_is_read_in_bounded_lines(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512),
            id in 0..20u64,
        ) {
            let got = events(&bytes);
            let ends = got.iter().filter(|e| matches!(e, Event::End(_))).count();
            proptest::prop_assert_eq!(ends, 1);
            for e in &got {
                if let Event::Line(l) = e {
                    proptest::prop_assert!(l.len() <= 3 * LINE_BYTES);
                    let _ = head(l, id);
                    let _ = parse_reply(l);
                }
            }
            let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
            let lines = got.len() - 1;
            proptest::prop_assert!(lines == newlines || lines == newlines + 1);
        }
    }
}
