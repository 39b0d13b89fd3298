//! `ply nboard`, driven by a scripted GUI: the real binary on pipes, whole games played
//! through the protocol, pings while it thinks, garbage it must survive.

use std::{
    io::{BufRead, BufReader, Read, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::{
        mpsc::{self, Receiver, RecvTimeoutError},
        Mutex, MutexGuard, PoisonError,
    },
    thread,
    time::{Duration, Instant},
};

use ply_othello::{
    ggf::GgfGame,
    solve::{SolveOptions, Solver},
    text, BoardSize, Color, GameRecord, Move, Position, Square,
};

/// The tests of this file take turns: ply thinks on every core it is given, and the ping test
/// measures a response time that other searches running beside it would spoil.
static TURN: Mutex<()> = Mutex::new(());

fn turn() -> MutexGuard<'static, ()> {
    TURN.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How long any expected line may take before the test fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(60);

/// A GUI talking to one `ply nboard` process.
struct Gui {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<thread::JoinHandle<String>>,
}

impl Gui {
    fn start() -> Gui {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
            .arg("nboard")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run ply nboard");
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut s = String::new();
            stderr.read_to_string(&mut s).expect("stderr is UTF-8");
            s
        });
        let mut gui = Gui {
            child,
            stdin: Some(stdin),
            lines,
            stderr: Some(stderr),
        };
        gui.send("nboard 2");
        gui
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("ply reads stdin");
        stdin.flush().expect("flush");
    }

    /// Closes ply's stdin, as a GUI that goes away does.
    fn close(&mut self) {
        self.stdin = None;
    }

    /// The next line, within `PATIENCE`.
    fn line(&self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no answer within {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("ply closed stdout"),
        }
    }

    /// Every line up to and including the first one that `done` accepts.
    fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let l = self.line();
            let stop = done(&l);
            seen.push(l);
            if stop {
                return seen;
            }
        }
    }

    /// `set depth`, checking the name ply answers with.
    fn depth(&mut self, d: u32) {
        self.send(&format!("set depth {d}"));
        assert_eq!(self.line(), format!("set myname ply{d}"));
    }

    /// Everything a `go` produces, and the move it names (`None` for `=== PA`).
    fn go(&mut self) -> (Vec<String>, Option<Square>) {
        self.send("go");
        let lines = self.until(|l| l == "status");
        let answers: Vec<String> = lines
            .iter()
            .filter(|l| l.starts_with("==="))
            .cloned()
            .collect();
        assert_eq!(answers.len(), 1, "one answer to go: {lines:?}");
        let field = answers[0].strip_prefix("=== ").expect("`=== move`");
        let mut parts = field.split('/');
        let mv = parts.next().expect("a move");
        if mv == "PA" {
            assert_eq!(field, "PA", "a pass comes plain");
            return (lines, None);
        }
        let eval: f64 = parts
            .next()
            .expect("an eval")
            .parse()
            .expect("eval is a number");
        let time: f64 = parts
            .next()
            .expect("a time")
            .parse()
            .expect("time is a number");
        assert!(eval.is_finite() && time >= 0.0, "{field}");
        (lines, Some(Square::parse(mv).expect("a square")))
    }

    /// Ends the session with `quit`; the exit status and what went to stderr.
    fn quit(mut self) -> String {
        self.send("quit");
        let status = self.child.wait().expect("ply exits");
        assert!(status.success(), "ply nboard exit status {status}");
        self.stderr
            .take()
            .expect("once")
            .join()
            .expect("stderr reader")
    }
}

/// A small deterministic generator for the GUI's moves.
struct Lcg(u64);

impl Lcg {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// The game so far as `set game` sends it.
fn set_game(game: &GameRecord) -> String {
    format!("set game {}", GgfGame::from_game(game.clone()))
}

/// Counts of what happened in one game.
#[derive(Default, Debug)]
struct Played {
    ply_passes: u32,
    gui_passes: u32,
}

/// One whole game from `start`: ply plays `ply_color` through `go`, the GUI plays random legal moves,
/// every move goes back to ply with `move`. Checks every answer against the rules.
fn play_game(start: Position, ply_color: Color, seed: u64) -> Played {
    let mut gui = Gui::start();
    gui.depth(1);
    let mut game = GameRecord::new(start);
    gui.send(&set_game(&game));
    let mut rng = Lcg(seed);
    let mut played = Played::default();
    while !game.position().is_game_over() {
        let pos = game.position();
        if pos.turn() == ply_color {
            let (lines, answer) = gui.go();
            assert_eq!(lines[0], "status ply is thinking", "{lines:?}");
            assert!(
                lines.iter().any(|l| l.starts_with("nodestats ")),
                "{lines:?}"
            );
            match answer {
                None => {
                    assert!(!pos.can_move(), "ply passed with moves left: {game:?}");
                    played.ply_passes += 1;
                    game.play(Move::Pass).unwrap();
                    gui.send("move PA");
                }
                Some(sq) => {
                    assert!(pos.is_legal(sq), "ply played {sq}, not legal in {pos:?}");
                    game.play(Move::Play(sq)).unwrap();
                    gui.send(&format!("move {}/1.00/0.01", sq.to_string().to_uppercase()));
                }
            }
        } else if !pos.can_move() {
            played.gui_passes += 1;
            game.play(Move::Pass).unwrap();
            gui.send("move PA");
        } else {
            let moves: Vec<Square> = pos.legal_moves().collect();
            let sq = moves[rng.pick(moves.len())];
            game.play(Move::Play(sq)).unwrap();
            gui.send(&format!("move {sq}"));
        }
    }
    // The game is over: `go` has no move to give and says only that it is done.
    gui.send("go");
    let lines = gui.until(|l| l == "status");
    assert_eq!(lines[0], "status ply is thinking");
    assert!(!lines.iter().any(|l| l.starts_with("===")), "{lines:?}");
    let log = gui.quit();
    assert!(log.contains("the game is over"), "{log}");
    played
}

#[test]
fn whole_four_by_four_games_to_the_end() {
    let _turn = turn();
    let mut passes = 0;
    for seed in 0..8 {
        let color = if seed % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let p = play_game(Position::start(BoardSize::Four), color, seed);
        passes += p.ply_passes + p.gui_passes;
    }
    // Random play on 4x4 runs into passes often; these seeds do.
    assert!(passes > 0, "no pass in any game");
}

#[test]
fn a_forced_pass_comes_out_as_pa_and_the_game_goes_on_to_its_end() {
    let _turn = turn();
    // White (ply) has no move: its disc on d3 flanks nothing. Black then ends the game.
    let start = text::parse_position("XXXX XXXX XXXO ---- O").unwrap();
    let p = play_game(start, Color::White, 1);
    assert_eq!(p.ply_passes, 1);
    // The same with the GUI to pass: ply plays black after it.
    let start = text::parse_position("OOOO OOOO OOOX ---- X").unwrap();
    let p = play_game(start, Color::White, 1);
    assert_eq!((p.gui_passes, p.ply_passes), (1, 0));
}

#[test]
fn a_whole_six_by_six_game() {
    let _turn = turn();
    play_game(Position::start(BoardSize::Six), Color::White, 42);
}

/// A `search <pv> <eval> 0 <depth>` line: the pv's moves (two characters each), the eval.
fn parse_search(line: &str) -> (Vec<String>, f64) {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(f.len(), 5, "{line}");
    assert_eq!(f[0], "search", "{line}");
    let pv = f[1];
    assert!(!pv.is_empty() && pv.len().is_multiple_of(2), "{line}");
    let moves: Vec<String> = (0..pv.len())
        .step_by(2)
        .map(|i| pv[i..i + 2].to_owned())
        .collect();
    for m in &moves {
        assert!(m == "PA" || Square::parse(m).is_ok(), "{line}: {m}");
    }
    let eval: f64 = f[2].parse().unwrap_or_else(|_| panic!("{line}: eval"));
    assert!(eval.is_finite(), "{line}");
    assert_eq!(f[3], "0", "{line}");
    f[4].parse::<u32>()
        .unwrap_or_else(|_| panic!("{line}: depth"));
    (moves, eval)
}

#[test]
fn hint_streams_search_lines_for_the_best_moves_and_ends_with_status() {
    let _turn = turn();
    let mut gui = Gui::start();
    gui.depth(2);
    let game = GameRecord::new(Position::start(BoardSize::Eight));
    gui.send(&set_game(&game));
    // F5 F4: out of the opening book, so the engine searches.
    gui.send("move F5");
    gui.send("move F4");
    gui.send("hint 3");
    let lines = gui.until(|l| l == "status");
    assert_eq!(lines[0], "status ply is thinking");
    let after_f5 = out_of_book(&["f5", "f4"]);
    let searches: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| parse_search(l))
        .collect();
    assert!(!searches.is_empty(), "{lines:?}");
    for (pv, _) in &searches {
        let first = Square::parse(&pv[0]).unwrap();
        assert!(after_f5.is_legal(first), "{pv:?} after f5");
    }
    // The last report names three different moves, as asked.
    let last: Vec<&String> = searches[searches.len() - 3..]
        .iter()
        .map(|(pv, _)| &pv[0])
        .collect();
    assert!(
        last[0] != last[1] && last[1] != last[2] && last[0] != last[2],
        "{lines:?}"
    );
    for l in &lines[1..lines.len() - 1] {
        assert!(
            l.starts_with("search ") || l.starts_with("nodestats "),
            "{l}"
        );
    }

    // A side that must pass gets `search PA…` with a number, never NaN.
    gui.send("set game (;GM[Othello]TY[4]BO[4 **** **** ***O ---- O];)");
    gui.send("hint 2");
    let lines = gui.until(|l| l == "status");
    let passes: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| parse_search(l))
        .collect();
    assert!(!passes.is_empty(), "{lines:?}");
    for (pv, eval) in &passes {
        assert_eq!(pv[..2], ["PA", "D4"], "{lines:?}");
        // White loses every disc: 0-16 with the empties to black.
        assert!((eval + 16.0).abs() < 1e-9, "{lines:?}");
    }
    gui.quit();
}

/// The position after `moves` from the 8x8 start, checked to be outside the opening book.
fn out_of_book(moves: &[&str]) -> Position {
    let mut pos = Position::start(BoardSize::Eight);
    for m in moves {
        pos = pos.play(Square::parse(m).unwrap()).unwrap();
    }
    let book = ply_othello::book::Book::builtin(BoardSize::Eight).unwrap();
    assert!(book.lookup(&pos).is_none(), "{moves:?} is in the book now");
    pos
}

#[test]
fn hint_from_the_opening_book_sends_book_lines() {
    let _turn = turn();
    let mut gui = Gui::start();
    gui.depth(2);
    gui.send(&set_game(&GameRecord::new(Position::start(
        BoardSize::Eight,
    ))));
    gui.send("move F5");
    gui.send("hint 2");
    let lines = gui.until(|l| l == "status");
    let book: Vec<&String> = lines.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(book.len(), 2, "{lines:?}");
    for l in book {
        // book <pv> <eval> 0 <depth>: the book counts no games.
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 5, "{l}");
        assert!(f[2].parse::<f64>().is_ok() && f[3] == "0", "{l}");
        assert!(f[4].parse::<u32>().unwrap() >= 10, "{l}");
    }
    assert!(!lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    gui.quit();
}

#[test]
fn ping_while_thinking_stops_the_search_and_answers_pong() {
    let _turn = turn();
    let mut gui = Gui::start();
    // Depth 60: half a minute of thinking unless stopped (out of the opening book).
    gui.depth(60);
    let mut game = GameRecord::new(Position::start(BoardSize::Eight));
    for m in ["f5", "f4"] {
        game.play(Move::Play(Square::parse(m).unwrap())).unwrap();
    }
    assert_eq!(game.position(), out_of_book(&["f5", "f4"]));
    gui.send(&set_game(&game));
    for (n, ask) in [(1, "go"), (2, "hint 4")] {
        gui.send(ask);
        assert_eq!(gui.line(), "status ply is thinking");
        // Let it get deep into the search.
        thread::sleep(Duration::from_millis(500));
        let sent = Instant::now();
        gui.send(&format!("ping {n}"));
        let lines = gui.until(|l| l.starts_with("pong"));
        let took = sent.elapsed();
        assert_eq!(lines.last().unwrap(), &format!("pong {n}"));
        // Stopped, not finished: far sooner than the half minute. (A quiet machine answers in
        // a few milliseconds; the bound is wide so that a loaded one does not fail it.)
        assert!(took < Duration::from_secs(3), "pong after {took:?}");
        // The stopped search says nothing more: no move for a position the GUI left; only a
        // closing `status`, just before the pong, so the GUI stops showing "thinking".
        assert!(!lines.iter().any(|l| l.starts_with("===")), "{lines:?}");
        assert_eq!(lines[lines.len() - 2], "status", "{lines:?}");
    }
    // The engine goes on: a quick move at a small depth.
    gui.depth(1);
    let (_, answer) = gui.go();
    let sq = answer.expect("a move after f5 f4");
    assert!(out_of_book(&["f5", "f4"]).is_legal(sq));
    gui.quit();
}

#[test]
fn garbage_is_logged_and_ignored() {
    let _turn = turn();
    let mut gui = Gui::start();
    gui.depth(1);
    for junk in [
        "",
        "   ",
        "xyzzy 1 2 3",
        "set colour blue",
        "set depth banana",
        "set depth 0",
        "set contempt lots",
        "move Z9",
        "move A1",
        "move PA",
        "move",
        "set game (;GM[Chess]BO[8 x];)",
        "set game (;GM[Othello]TY[8]BO[4 ---- -O*- -*O- ---- *];)",
        "set game not a game",
        "hint 0",
        "hint many",
        "nboard 7",
        "\u{1b}[A\u{0}",
    ] {
        gui.send(junk);
    }
    // Bytes that are not UTF-8 are one more unknown line.
    let stdin = gui.stdin.as_mut().unwrap();
    stdin.write_all(b"\xff\xfe go\n").unwrap();
    gui.send("ping 5");
    // No answer to garbage but to the three games ply cannot read, where the GUI shows it,
    // then the pong.
    let lines = gui.until(|l| l.starts_with("pong"));
    assert_eq!(lines.len(), 4, "{lines:?}");
    for l in &lines[..3] {
        assert!(l.starts_with("status ply: set game: "), "{lines:?}");
    }
    assert_eq!(lines[3], "pong 5");
    // The last game sent could not be read: `go` is not answered in an older game.
    gui.send("go");
    let l = gui.line();
    assert!(
        l.starts_with("status ply: no game to think about: set game: "),
        "{l}"
    );
    gui.send(&set_game(&GameRecord::new(Position::start(
        BoardSize::Eight,
    ))));
    let (_, answer) = gui.go();
    assert!(Position::start(BoardSize::Eight).is_legal(answer.unwrap()));
    gui.send("learn");
    assert_eq!(gui.line(), "learned");
    let log = gui.quit();
    for says in [
        "`xyzzy 1 2 3`: unknown command",
        "`set colour blue`: unknown setting",
        "`set depth banana`: expected a depth from 1 to 60",
        "not an Othello game",
        "TY[8] says 8x8 but the board (BO) is 4x4",
        "`move Z9`: `Z9` is not a square",
        "`move A1`: a1 is not a legal move",
        "`move PA`: cannot pass",
        "`hint 0`: expected `hint N`",
        "protocol version 7",
    ] {
        assert!(log.contains(says), "stderr lacks {says:?}:\n{log}");
    }
}

#[test]
fn end_of_input_lets_the_last_search_answer() {
    let _turn = turn();
    let mut gui = Gui::start();
    gui.depth(1);
    gui.send("set game (;GM[Othello]BO[6 ------ ------ --O*-- --*O-- ------ ------ *]B[B3];)");
    gui.send("go");
    gui.send("move B2");
    gui.send("go");
    // stdin closes with both searches asked for: each answers, in order, then ply exits.
    gui.close();
    let first = gui.until(|l| l == "status");
    let second = gui.until(|l| l == "status");
    let answer = |lines: &[String]| -> Square {
        let l = lines
            .iter()
            .find(|l| l.starts_with("=== "))
            .expect("an answer");
        Square::parse(&l[4..6]).unwrap()
    };
    let mut pos = text::parse_position("------ ------ --O*-- --*O-- ------ ------ X").unwrap();
    pos = pos.play(Square::parse("b3").unwrap()).unwrap();
    assert!(pos.is_legal(answer(&first)), "{first:?}");
    pos = pos.play(Square::parse("b2").unwrap()).unwrap();
    assert!(pos.is_legal(answer(&second)), "{second:?}");
    assert!(gui.child.wait().unwrap().success());
}

/// `analysis K EVAL` as numbers.
fn parse_analysis(line: &str) -> (usize, f64) {
    let mut f = line
        .strip_prefix("analysis ")
        .unwrap_or_else(|| panic!("not an analysis line: {line}"))
        .split(' ');
    let k = f.next().unwrap().parse().expect("plies played");
    let eval = f.next().unwrap().parse().expect("an eval");
    assert!(f.next().is_none(), "two fields: {line}");
    (k, eval)
}

#[test]
fn analyze_reviews_every_position_of_the_game_from_the_last() {
    let _turn = turn();
    // A random 4x4 game to its end (passes included), every position solved exactly here.
    let mut rng = Lcg(11);
    let mut game = GameRecord::new(Position::start(BoardSize::Four));
    while !game.position().is_game_over() {
        let pos = game.position();
        let moves: Vec<Move> = if pos.can_move() {
            pos.legal_moves().map(Move::Play).collect()
        } else {
            vec![Move::Pass]
        };
        game.play(moves[rng.pick(moves.len())]).unwrap();
    }
    let mut positions = vec![game.start()];
    positions.extend(game.plies().map(|(p, m)| p.play_move(m).unwrap()));
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 1,
    });
    let exact_for_black: Vec<i32> = positions
        .iter()
        .map(|p| {
            let s = solver.solve(p).score.0;
            if p.turn() == Color::Black {
                s
            } else {
                -s
            }
        })
        .collect();
    // The start of 4x4 is a white win by 10 (empties to the winner).
    assert_eq!(exact_for_black[0], -10);

    let mut gui = Gui::start();
    gui.depth(4);
    gui.send(&set_game(&game));
    gui.send("analyze");
    let lines = gui.until(|l| l == "status");
    assert_eq!(lines[0], "status ply is analysing the game", "{lines:?}");
    let found: Vec<(usize, f64)> = lines[1..lines.len() - 1]
        .iter()
        .map(|l| parse_analysis(l))
        .collect();
    // One line per position, the last position first, down to the start (0 plies).
    let order: Vec<usize> = found.iter().map(|&(k, _)| k).collect();
    let expected: Vec<usize> = (0..positions.len()).rev().collect();
    assert_eq!(order, expected, "{lines:?}");
    for (k, eval) in found {
        assert!(
            (eval - f64::from(exact_for_black[k])).abs() < 1e-9,
            "position {k}: {eval} but black's exact score is {}: {lines:?}",
            exact_for_black[k]
        );
    }
    // The engine goes on: the game is over, so `go` has no move, and says so on stderr.
    gui.send("go");
    assert_eq!(gui.until(|l| l == "status")[0], "status ply is thinking");
    let log = gui.quit();
    assert!(!log.contains("unknown command"), "{log}");
    assert!(log.contains("the game is over"), "{log}");
}

#[test]
fn ping_stops_an_analysis_with_a_closing_status() {
    let _turn = turn();
    let mut gui = Gui::start();
    gui.depth(60);
    let mut game = GameRecord::new(Position::start(BoardSize::Eight));
    for sq in ["f5", "d6", "c3", "d3", "c4"] {
        game.play(Move::Play(Square::parse(sq).unwrap())).unwrap();
    }
    gui.send(&set_game(&game));
    gui.send("analyze");
    assert_eq!(gui.line(), "status ply is analysing the game");
    thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    gui.send("ping 9");
    let lines = gui.until(|l| l.starts_with("pong"));
    assert!(sent.elapsed() < Duration::from_secs(3), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "pong 9");
    assert_eq!(lines[lines.len() - 2], "status", "{lines:?}");
    for l in &lines[..lines.len() - 2] {
        parse_analysis(l);
    }
    gui.quit();
}

#[test]
fn the_clock_of_set_game_bounds_the_move_not_the_depth() {
    let _turn = turn();
    // Issue #49's case: at depth 40 a move may take 20 s, but the game is on a 3-second
    // clock of which black has 2.5 s left: the move's own time must fit what is left.
    let mut gui = Gui::start();
    gui.depth(40);
    gui.send("set game (;GM[Othello]TI[0:03]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5//0.5]W[f4//0.2];)");
    let (lines, answer) = gui.go();
    assert!(out_of_book(&["f5", "f4"]).is_legal(answer.expect("a move")));
    let line = lines.iter().find(|l| l.starts_with("=== ")).unwrap();
    let time: f64 = line.rsplit('/').next().unwrap().parse().unwrap();
    assert!(time < 2.5, "{line}: more than the clock holds");
    gui.quit();
}
