//! `ply nboard`: an engine for Othello GUIs that speak the NBoard protocol (NBoard itself, and
//! the GUIs that drive Edax or NTest the same way).
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
//! a move that is not legal, is logged on stderr and ignored; the session goes on.
//!
//! `set depth N` sets how hard ply thinks: the midgame engine searches at most N plies, the
//! exact solver takes over near the end of the game as in `ply othello analyze`, and the whole
//! move is held to N/2 seconds (half a second at depth 1, half a minute at depth 60). The
//! depth also names the engine: `set myname plyN`.
//!
//! `analyze` reviews the whole game: it answers `analysis K EVAL` for every position of the
//! game, K the plies played to reach it (0 for the start position; passes count), from the
//! last position back to the first as NBoard's own engines do, each position searched as a
//! `go` would be (its value, at the depth and time a move gets), then a closing `status`. The protocol leaves the eval's point of view
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

use std::{
    collections::VecDeque,
    io::{self, BufRead, Write},
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc::{self, Receiver, Sender},
        Arc, Mutex,
    },
    thread::{self, JoinHandle},
    time::Instant,
};

use clap::Args as ClapArgs;
use ply_othello::{
    analyze::{analyze_with, Analysis, Options},
    ggf::GgfGame,
    BoardSize, Color, GameRecord, Move, Position, Square,
};

use crate::othello::common::{move_options, move_time};

/// `ply nboard`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Threads for the exact solver.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
}

/// The depth before the GUI sets one.
const DEFAULT_DEPTH: u32 = 12;

pub fn run(a: &Args) -> anyhow::Result<()> {
    crate::othello::common::check_threads(a.threads)?;
    let (events, rx) = mpsc::channel();
    let lines = events.clone();
    // The reader only forwards lines, so that a `ping` is seen while the engine thinks.
    thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match stdin.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {
                    // Bytes that are not UTF-8 make an unknown command, not the end.
                    let line = String::from_utf8_lossy(&buf).trim_end().to_owned();
                    if lines.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    log(&format!("cannot read stdin: {e}"));
                    break;
                }
            }
        }
        // The engine is gone when this fails; there is no one left to tell.
        let _ = lines.send(Event::Eof);
    });
    let out: Out = Arc::new(Mutex::new(Box::new(io::stdout())));
    let mut engine = Engine::new(out, a.threads, events);
    engine.serve(&rx)?;
    Ok(())
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

/// `ping` and `quit` stop a search; every other command waits until it is done.
fn interrupts(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("ping" | "quit"))
}

/// `go`, `hint` and `analyze` start a search.
fn searches(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some("go" | "hint" | "analyze")
    )
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

/// Writes to stderr what the engine ignored and why.
fn log(message: &str) {
    eprintln!("ply nboard: {message}");
}

/// What the GUI asked the thinking thread for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// `go`: the move to play.
    Go,
    /// `hint N`: the values of the N best moves.
    Hint(usize),
    /// `analyze`: the value of every position of the game.
    Analyze,
}

/// A search under way.
struct Thinking {
    id: u64,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The session: the game so far, the settings, and the search under way if any.
struct Engine {
    out: Out,
    game: GameRecord,
    depth: u32,
    threads: usize,
    thinking: Option<Thinking>,
    /// Numbers the searches, so that a late [`Event::Done`] is told from a current one.
    searches: u64,
    events: Sender<Event>,
}

impl Engine {
    fn new(out: Out, threads: usize, events: Sender<Event>) -> Engine {
        Engine {
            out,
            game: GameRecord::new(Position::start(BoardSize::Eight)),
            depth: DEFAULT_DEPTH,
            threads,
            thinking: None,
            searches: 0,
            events,
        }
    }

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
                Event::Line(line) if self.thinking.is_some() && !interrupts(&line) => {
                    waiting.push_back(line);
                }
                Event::Line(line) => {
                    if interrupts(&line) {
                        self.stop_thinking();
                        for earlier in waiting.drain(..).filter(|l| !searches(l)) {
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
        let line = line.trim();
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            "" => {}
            "nboard" => match rest.parse::<u32>() {
                Ok(1 | 2) => {}
                _ => log(&format!(
                    "`{line}`: protocol version {rest} is not 1 or 2; speaking version 2"
                )),
            },
            "set" => self.set(line, rest)?,
            "move" => {
                if let Err(e) = self.play(rest) {
                    log(&format!("`{line}`: {e}; the move is ignored"));
                }
            }
            "go" => self.think(Task::Go),
            "analyze" => self.think(Task::Analyze),
            "hint" => match rest.parse::<usize>() {
                Ok(n) if n > 0 => self.think(Task::Hint(n)),
                _ => log(&format!("`{line}`: expected `hint N` with N at least 1")),
            },
            "ping" => {
                say(&self.out, format!("pong {rest}").trim_end())?;
            }
            "learn" => {
                // The books are built offline (scripts/build-book6, scripts/build-book8):
                // nothing to learn into.
                say(&self.out, "learned")?;
            }
            "quit" => return Ok(false),
            _ => log(&format!("`{line}`: unknown command, ignored")),
        }
        Ok(true)
    }

    fn set(&mut self, line: &str, rest: &str) -> io::Result<()> {
        let (what, value) = rest
            .split_once(char::is_whitespace)
            .map_or((rest, ""), |(w, v)| (w, v.trim()));
        match what {
            "depth" => match value.parse::<u32>() {
                Ok(d) if (1..=60).contains(&d) => {
                    self.depth = d;
                    say(&self.out, &format!("set myname ply{d}"))?;
                }
                _ => log(&format!("`{line}`: expected a depth from 1 to 60")),
            },
            "game" => match read_game(value) {
                Ok(game) => self.game = game,
                Err(e) => log(&format!("set game: {e}; the game is unchanged")),
            },
            "contempt" => match value.parse::<f64>() {
                // Accepted and ignored: see the module doc.
                Ok(c) if c.is_finite() => {}
                _ => log(&format!("`{line}`: expected a number")),
            },
            _ => log(&format!("`{line}`: unknown setting, ignored")),
        }
        Ok(())
    }

    /// Plays `F5`, `F5/eval/time` or `PA` on the game.
    fn play(&mut self, text: &str) -> Result<(), String> {
        let mv = parse_move(text)?;
        match mv {
            Move::Play(sq) => self
                .game
                .play_with_implicit_pass(sq)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Move::Pass => self.game.play(Move::Pass).map_err(|e| e.to_string()),
        }
    }

    /// Starts thinking about the current position on a thread of its own.
    fn think(&mut self, task: Task) {
        debug_assert!(self.thinking.is_none(), "one search at a time");
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let pos = game.position();
        let mut opts = move_options(self.depth, move_time(self.depth), self.threads);
        opts.stop = Some(stop.clone());
        // A review needs only each position's value: the best move, searched deeper.
        opts.all_moves = matches!(task, Task::Hint(_));
        let out = self.out.clone();
        let flag = stop.clone();
        self.searches += 1;
        let id = self.searches;
        let done = DoneGuard {
            events: self.events.clone(),
            id,
        };
        let handle = thread::spawn(move || {
            let _done = done;
            let said = match task {
                Task::Analyze => review(&game, &opts, &out, &flag),
                Task::Go | Task::Hint(_) => search(&pos, &opts, task, &out, &flag),
            };
            if let Err(e) = said {
                log(&format!("cannot write the answer: {e}"));
            }
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
            if t.handle.join().is_err() {
                log("the search thread failed");
            }
        }
    }
}

/// The game of a `set game` line, with a board size check against `TY` when it is given.
fn read_game(ggf: &str) -> Result<GameRecord, String> {
    let rec = GgfGame::parse(ggf).map_err(|e| e.to_string())?;
    let n = rec.game.start().size().n();
    if let Some(ty) = rec.tag("TY") {
        let digits: String = ty.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(t) = digits.parse::<u8>() {
            if t != n {
                return Err(format!(
                    "TY[{ty}] says {t}x{t} but the board (BO) is {n}x{n}"
                ));
            }
        }
    }
    Ok(rec.game)
}

/// `F5`, `f5/1.50/0.3`, `PA`: the move before any `/`.
fn parse_move(text: &str) -> Result<Move, String> {
    let m = text.split('/').next().unwrap_or("").trim();
    if m.is_empty() {
        return Err("expected a move like `F5` or `PA`".to_owned());
    }
    if m.eq_ignore_ascii_case("pa") || m.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    Square::parse(m).map(Move::Play).map_err(|e| e.to_string())
}

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
fn move_name(m: Move) -> String {
    match m {
        Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
        Move::Pass => "PA".to_owned(),
    }
}

/// A score in discs with two decimals.
fn eval(score: i32) -> String {
    format!("{:.2}", Analysis::discs(score))
}

/// The thinking thread: analyses `pos`, reporting as it goes, and gives the answer unless it
/// was stopped (then the GUI has moved on and wants nothing more about this position).
fn search(
    pos: &Position,
    opts: &Options,
    task: Task,
    out: &Out,
    stop: &AtomicBool,
) -> io::Result<()> {
    let started = Instant::now();
    say(out, "status ply is thinking")?;
    let mut report = Report {
        out,
        task,
        started,
        // Not a count: the first report always says its nodes, even none (a book move).
        nodes: u64::MAX,
        lines: Vec::new(),
    };
    let mut failed = None;
    let a = analyze_with(pos, opts, &mut |a| {
        if !stop.load(Ordering::Relaxed) && failed.is_none() {
            failed = report.progress(a).err();
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if stop.load(Ordering::Relaxed) {
        // Nothing more about a position the GUI has left, but the GUI stops showing
        // "thinking".
        return say(out, "status");
    }
    report.progress(&a)?;
    if task == Task::Go {
        match go_answer(pos, &a, started.elapsed().as_secs_f64()) {
            Some(answer) => say(out, &answer)?,
            None => log("go: the game is over, there is no move to play"),
        }
    }
    say(out, "status")
}

/// The thinking thread of `analyze`: `analysis K EVAL` for every position of `game`, the
/// last first, each from black's point of view, then `status`; only `status` once stopped.
fn review(game: &GameRecord, opts: &Options, out: &Out, stop: &AtomicBool) -> io::Result<()> {
    say(out, "status ply is analysing the game")?;
    let mut positions: Vec<Position> = vec![game.start()];
    positions.extend(game.plies().map(|(before, m)| {
        before
            .play_move(m)
            .expect("the game's moves were checked when played")
    }));
    for (plies, pos) in positions.iter().enumerate().rev() {
        let a = analyze_with(pos, opts, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let for_black = match pos.turn() {
            Color::Black => a.score,
            Color::White => -a.score,
        };
        say(out, &format!("analysis {plies} {}", eval(for_black)))?;
    }
    say(out, "status")
}

/// The thinking output: `nodestats` and, for a hint, the `search` lines, each time they
/// change.
struct Report<'a> {
    out: &'a Out,
    task: Task,
    started: Instant,
    nodes: u64,
    lines: Vec<String>,
}

impl Report<'_> {
    fn progress(&mut self, a: &Analysis) -> io::Result<()> {
        if a.nodes != self.nodes {
            self.nodes = a.nodes;
            let seconds = self.started.elapsed().as_secs_f64();
            say(self.out, &format!("nodestats {} {seconds:.2}", a.nodes))?;
        }
        if let Task::Hint(n) = self.task {
            let lines = hint_lines(a, n);
            if lines != self.lines {
                for line in &lines {
                    say(self.out, line)?;
                }
                self.lines = lines;
            }
        }
        Ok(())
    }
}

/// `=== F5/eval/time`, `=== PA` when the side to move must pass, `None` when the game is over.
fn go_answer(pos: &Position, a: &Analysis, seconds: f64) -> Option<String> {
    if pos.is_game_over() {
        return None;
    }
    Some(match a.best {
        Some(sq) => format!(
            "=== {}/{}/{seconds:.2}",
            move_name(Move::Play(sq)),
            eval(a.score)
        ),
        None => "=== PA".to_owned(),
    })
}

/// `search <pv> <eval> 0 <depth>` for the `n` best moves (`search PA …` when the side to move
/// must pass; nothing when the game is over), `book <pv> <eval> 0 <depth>` for a move the
/// opening book scores (the protocol's book line; ply counts no games, so 0). The pv has no
/// spaces: `F5D6C3`.
fn hint_lines(a: &Analysis, n: usize) -> Vec<String> {
    if a.moves.is_empty() {
        if a.line.first() == Some(&Move::Pass) {
            return vec![format!(
                "search {} {} 0 {}",
                pv(&a.line),
                eval(a.score),
                a.depth
            )];
        }
        return Vec::new();
    }
    a.moves
        .iter()
        .take(n)
        .map(|m| {
            let first = Move::Play(m.square);
            let line = if a.line.first() == Some(&first) {
                pv(&a.line)
            } else {
                move_name(first)
            };
            let kind = if m.book { "book" } else { "search" };
            format!("{kind} {line} {} 0 {}", eval(m.score), m.depth)
        })
        .collect()
}

/// Moves run together as NBoard reads a pv: `F5D6PAC3`.
fn pv(line: &[Move]) -> String {
    line.iter().map(|&m| move_name(m)).collect()
}

#[cfg(test)]
mod tests {
    use ply_othello::analyze::{MoveValue, DISC};

    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn moves_read_with_or_without_eval_and_time() {
        assert_eq!(parse_move("F5"), Ok(Move::Play(sq("f5"))));
        assert_eq!(parse_move("f5/1.50/0.3"), Ok(Move::Play(sq("f5"))));
        assert_eq!(parse_move("PA"), Ok(Move::Pass));
        assert_eq!(parse_move("pa/-2.00"), Ok(Move::Pass));
        assert!(parse_move("").unwrap_err().contains("expected a move"));
        assert!(parse_move("Z9").unwrap_err().contains("not a square"));
    }

    #[test]
    fn hint_lines_name_the_pv_and_a_pass_plainly() {
        let a = Analysis {
            moves: vec![
                MoveValue {
                    square: sq("d3"),
                    score: 2 * DISC,
                    exact: true,
                    depth: 10,
                    book: false,
                },
                MoveValue {
                    square: sq("c4"),
                    score: -DISC / 2,
                    exact: false,
                    depth: 4,
                    book: true,
                },
            ],
            best: Some(sq("d3")),
            score: 2 * DISC,
            proven: false,
            all_exact: false,
            selective: None,
            depth: 4,
            line: vec![Move::Play(sq("d3")), Move::Pass, Move::Play(sq("c5"))],
            nodes: 10,
            engine: ply_othello::analyze::Engine::Mixed,
        };
        assert_eq!(
            hint_lines(&a, 5),
            ["search D3PAC5 2.00 0 10", "book C4 -0.50 0 4"]
        );
        assert_eq!(hint_lines(&a, 1).len(), 1);
        let passing = Analysis {
            moves: Vec::new(),
            best: None,
            line: vec![Move::Pass, Move::Play(sq("a1"))],
            score: -4 * DISC,
            ..a
        };
        assert_eq!(hint_lines(&passing, 3), ["search PAA1 -4.00 0 4"]);
    }

    #[test]
    fn a_game_whose_type_and_board_disagree_is_refused() {
        let e = read_game("(;GM[Othello]TY[8]BO[4 ---- -O*- -*O- ---- *];)").unwrap_err();
        assert!(
            e.contains("TY[8] says 8x8 but the board (BO) is 4x4"),
            "{e}"
        );
        let g =
            read_game("(;GM[Othello]TY[6]BO[6 ------ ------ --O*-- --*O-- ------ ------ *]B[b3];)")
                .unwrap();
        assert_eq!(g.moves().len(), 1);
    }
}
