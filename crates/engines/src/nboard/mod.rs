//! The NBoard protocol, engine side: ply as the engine of Othello GUIs that speak it
//! (NBoard itself, and the GUIs that drive Edax or NTest the same way).
//!
//! The protocol is one command a line on stdin and one answer a line on stdout, every line
//! flushed at once. The GUI sends the game (`set game (;GM[Othello]…;)`, read by the
//! library's GGF reader), then the moves as they are played (`move F5/…`), and asks for a move
//! (`go`, answered `=== F5/eval/time`, never played by the engine itself: the GUI sends the
//! `move` back) or for the values of the best moves (`hint N`, answered with `search` lines
//! and a closing `status`). Scores are discs for the side to move.
//!
//! Thinking runs on a thread of its own so that the reader keeps listening: `ping N` raises
//! the analysis's stop flag, waits for the thread, and only then answers `pong N`, so that no
//! line about the old position follows the `pong`. A line the engine does not understand, or
//! a move that is not legal, is logged and ignored; the session goes on. A `set game` the
//! engine cannot take (a game it cannot read, a board its `--book` does not fit) is answered
//! where the GUI shows it, a `status ply: set game: …` line, and logged; until a game it can
//! take comes, `go`, `hint` and `analyze` are refused the same way, so that no move is
//! answered in the previous game.
//!
//! The engine is the one player ([`ply_othello::play`]) as under GTP: the game and its moves,
//! the kept tables, the clock, and pondering: after the GUI sends back the move ply chose,
//! ply thinks on the opponent's time until the next command that changes the game (off
//! with [`ply_othello::play::Settings::ponder`], `ply nboard --no-ponder`).
//!
//! `set depth N` sets how hard ply thinks without a game clock: the midgame engine searches
//! at most N plies, the exact solver takes over near the end of the game as in `ply othello
//! analyze`, and the whole move is held to N/2 seconds (half a second at depth 1, half a
//! minute at depth 60). The depth also names the engine: `set myname plyN`. A game set with a
//! clock (`TI[…]`, GGS's `main/increment/extension`, less each side's move times) is played
//! on that clock instead, each move given the player's share of what is left
//! ([`session`]'s documentation).
//!
//! `analyze` reviews the whole game: it answers `analysis K EVAL` for every position of the
//! game, K the plies played to reach it (0 for the start position; passes count), from the
//! last position back to the first as NBoard's own engines do, each said as soon as it is
//! found, each position searched at the level's depth within half a second at most
//! ([`session::REVIEW_TIME`]) so that the GUI's graph fills at a pace it can show, with the
//! player's tables kept from one position to the next; then a closing `status`. The protocol leaves the eval's point of view
//! open; NBoard draws it on its score graph beside black's and white's evals turned to
//! black's view, and Chris Welty's Novello engine sends it from black's view, so ply does
//! too: the disc difference for black, positive when black is ahead.
//!
//! Every search, stopped by a `ping` or not, ends with a plain `status` line, which clears
//! the GUI's "ply is thinking".
//!
//! `set contempt N` is read and checked but changes nothing: ply scores disc differences and
//! plays for the best one, so a draw is worth neither more nor less to it. The moves the
//! opening book scores (exactly on 6x6, by deep searches on 8x8) come as the protocol's `book`
//! lines, the others as `search` lines; `learn` is answered `learned` but learns nothing (the
//! books are built offline).
//!
//! The module is a loop and three pure parts, as Edax's `nboard.c` is a loop over `play.c`:
//! [`command`] reads one line into a command, [`session`] holds the player and the level and
//! runs a search on the player, [`answer`] writes the
//! protocol's lines. [`serve`] only moves lines between the input, the session, the thinking
//! thread and the output (`ply nboard` gives it stdin and stdout).

use std::{
    collections::VecDeque,
    io::{self, BufRead, Write},
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc::{self, Receiver, Sender},
        Arc, Mutex,
    },
    thread::{self, JoinHandle},
};

pub mod answer;
pub mod command;
pub mod session;

use ply_othello::play::Player;
use session::{Reply, Session, Task};

/// Where the engine says what it ignored and why (`ply nboard` writes it on stderr).
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// Runs the engine of `session` on the lines of `input` until `quit`, or until the input
/// ends and the last search has answered; answers go to `out`, one whole line at a time,
/// each flushed, and what is ignored to `log`.
///
/// # Errors
/// When `out` cannot be written.
pub fn serve(
    session: Session,
    input: Box<dyn BufRead + Send>,
    out: Box<dyn Write + Send>,
    log: Log,
) -> io::Result<()> {
    let (events, rx) = mpsc::channel();
    let lines = events.clone();
    let reader_log = log.clone();
    // The reader only forwards lines, so that a `ping` is seen while the engine thinks.
    thread::spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {
                    // Bytes that are not UTF-8 make an unknown command, not the end.
                    let line = String::from_utf8_lossy(&buf).trim_end().to_owned();
                    if lines.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    reader_log(&format!("cannot read the input: {e}"));
                    break;
                }
            }
        }
        // The engine is gone when this fails; there is no one left to tell.
        let _ = lines.send(Event::Eof);
    });
    let out: Out = Arc::new(Mutex::new(out));
    let mut engine = Engine {
        out,
        session,
        thinking: None,
        searches: 0,
        events,
        log,
    };
    engine.serve(&rx)
}

/// What the engine's loop waits for.
enum Event {
    /// A line from the GUI.
    Line(String),
    /// The GUI closed stdin.
    Eof,
    /// Search number `id` has said its last word.
    Done(u64),
}

/// Sends [`Event::Done`] when the thinking thread ends, however it ends.
struct DoneGuard {
    events: Sender<Event>,
    id: u64,
}

impl Drop for DoneGuard {
    fn drop(&mut self) {
        // The engine is gone when this fails: nothing waits for the search any more.
        let _ = self.events.send(Event::Done(self.id));
    }
}

/// Where answers go: shared by the reader and the thinking thread, one whole line at a time.
type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes one line and flushes it.
fn say(out: &Out, line: &str) -> io::Result<()> {
    let mut w = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    writeln!(w, "{line}")?;
    w.flush()
}

/// A search under way.
struct Thinking {
    id: u64,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Player>,
}

/// The loop's state: the session, where answers go, and the search under way if any.
struct Engine {
    out: Out,
    session: Session,
    thinking: Option<Thinking>,
    /// Numbers the searches, so that a late [`Event::Done`] is told from a current one.
    searches: u64,
    events: Sender<Event>,
    log: Log,
}

impl Engine {
    /// Answers the GUI until `quit`, or until stdin ends and the last search has answered.
    ///
    /// Commands that come while the engine thinks wait their turn, in order; `ping` and
    /// `quit` stop the search at once. A `ping` also drops the `go` and `hint` that waited
    /// for the search (it asks the engine to stop thinking) but keeps the moves and
    /// settings, so the position the `pong` vouches for is the GUI's.
    ///
    /// # Errors
    /// When stdout is gone.
    fn serve(&mut self, events: &Receiver<Event>) -> io::Result<()> {
        let mut waiting: VecDeque<String> = VecDeque::new();
        let mut eof = false;
        loop {
            if self.thinking.is_none() {
                if let Some(line) = waiting.pop_front() {
                    if !self.command(&line)? {
                        return Ok(());
                    }
                    continue;
                }
                if eof {
                    return Ok(());
                }
            }
            let Ok(event) = events.recv() else {
                return Ok(());
            };
            match event {
                Event::Eof => eof = true,
                Event::Done(id) => {
                    if self.thinking.as_ref().is_some_and(|t| t.id == id) {
                        self.join();
                    }
                }
                Event::Line(line) if self.thinking.is_some() && !command::interrupts(&line) => {
                    waiting.push_back(line);
                }
                Event::Line(line) => {
                    if command::interrupts(&line) {
                        self.stop_thinking();
                        for earlier in waiting.drain(..).filter(|l| !command::searches(l)) {
                            self.command(&earlier)?;
                        }
                    }
                    if !self.command(&line)? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Handles one line; `false` after `quit`. [`Engine::serve`] calls it only while no
    /// search runs.
    ///
    /// # Errors
    /// Only when stdout is gone; a bad line is logged and ignored.
    fn command(&mut self, line: &str) -> io::Result<bool> {
        let command = match command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(true),
            Err(e) => {
                (self.log)(&e);
                return Ok(true);
            }
        };
        match self.session.apply(command) {
            Ok(Reply::Nothing) => {}
            Ok(Reply::Say(answer)) => say(&self.out, &answer)?,
            Ok(Reply::Refuse(answer, message)) => {
                (self.log)(&message);
                say(&self.out, &answer)?;
            }
            Ok(Reply::Think(task)) => self.think(task),
            Ok(Reply::Quit) => return Ok(false),
            Err(e) => (self.log)(&command::move_refused(line, &e)),
        }
        Ok(true)
    }

    /// Starts thinking about the current position on a thread of its own.
    fn think(&mut self, task: Task) {
        debug_assert!(self.thinking.is_none(), "one search at a time");
        let stop = Arc::new(AtomicBool::new(false));
        let job = self.session.job(task, stop.clone());
        let out = self.out.clone();
        let log = self.log.clone();
        self.searches += 1;
        let id = self.searches;
        let done = DoneGuard {
            events: self.events.clone(),
            id,
        };
        let handle = thread::spawn(move || {
            let _done = done;
            let (player, said) = job.run(&mut |line| say(&out, line), &mut |l| log(l));
            if let Err(e) = said {
                log(&format!("cannot write the answer: {e}"));
            }
            player
        });
        self.thinking = Some(Thinking { id, stop, handle });
    }

    /// Stops the search under way, if any, and waits until it has said its last word.
    fn stop_thinking(&mut self) {
        if let Some(t) = &self.thinking {
            t.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// Waits for the search thread, if any.
    fn join(&mut self) {
        if let Some(t) = self.thinking.take() {
            match t.handle.join() {
                Ok(player) => self.session.restore(player),
                Err(_) => {
                    (self.log)("the search thread failed; set the game again");
                    self.session.lost();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_refused_set_game_is_answered_on_the_output_before_the_next_command() {
        let session = Session::new(ply_othello::play::Settings {
            ponder: false,
            ..ply_othello::play::Settings::default()
        })
        .unwrap();
        let input =
            "nboard 2\nset depth 1\nset game (;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1];)\n\
                     set game (;GM[Othello]BO[9 x];)\ngo\nping 1\nbogus\n\
                     set game (;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1];)\ngo\n";
        let out = Shared::default();
        let logged = Arc::new(Mutex::new(Vec::<String>::new()));
        let log = {
            let logged = logged.clone();
            Arc::new(move |m: &str| logged.lock().unwrap().push(m.to_owned()))
        };
        serve(
            session,
            Box::new(io::Cursor::new(input.as_bytes().to_vec())),
            Box::new(out.clone()),
            log,
        )
        .unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "set myname ply1");
        assert!(
            lines[1].starts_with("status ply: set game: ") && lines[1].contains("board size 9"),
            "{lines:?}"
        );
        // The `go` in no game is refused where the GUI reads, not answered in the old game.
        assert!(
            lines[2].starts_with("status ply: no game to think about: set game: "),
            "{lines:?}"
        );
        assert_eq!(lines[3], "pong 1");
        // A game it can read: `go` answers a move of it.
        assert_eq!(lines[4], "status ply is thinking");
        let answer = lines
            .iter()
            .find(|l| l.starts_with("=== "))
            .expect("a move");
        let sq = ply_othello::Square::parse(&answer[4..6].to_ascii_lowercase()).unwrap();
        let game = "(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1];)";
        let pos = ply_othello::ggf::GgfGame::parse(game)
            .unwrap()
            .game
            .position();
        assert!(pos.is_legal(sq), "{answer}");
        assert_eq!(lines.last(), Some(&"status"));
        let logged = logged.lock().unwrap();
        assert!(
            logged
                .iter()
                .any(|l| l.contains("`bogus`: unknown command")),
            "{logged:?}"
        );
    }
}
