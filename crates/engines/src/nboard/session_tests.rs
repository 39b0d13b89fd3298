//! The NBoard session without the binary and without threads: commands, searches on the
//! player, the clock of `set game` on an injected clock, refusals, pondering.

use std::time::Duration;

use ply_othello::{
    book::Book, spine::clock::SteppingClock, BoardSize, Color, GameRecord, Move, Square,
};

use super::*;
use crate::nboard::command::parse;

fn apply(s: &mut Session, line: &str) -> Result<Reply, String> {
    s.apply(parse(line).unwrap().unwrap())
}

fn settings(ponder: bool) -> Settings {
    Settings {
        threads: 1,
        hash_mb: Some(4),
        ponder,
        ..Settings::default()
    }
}

fn session() -> Session {
    Session::new(settings(false)).unwrap()
}

/// A session whose player reads a clock that moves 1 ms at every read.
fn on_stepping_clock(ponder: bool) -> Session {
    let clock = Arc::new(SteppingClock::new(Duration::from_millis(1)));
    Session::with_player(Player::with_clock(settings(ponder), clock)).unwrap()
}

/// Runs a job to its end and gives the player back; the lines it said and what it logged.
fn run(s: &mut Session, task: Task, stopped: bool) -> (Vec<String>, Vec<String>) {
    let job = s.job(task, Arc::new(AtomicBool::new(stopped)));
    let (mut said, mut logged) = (Vec::new(), Vec::new());
    let (player, result) = job.run(
        &mut |l| {
            said.push(l.to_owned());
            Ok(())
        },
        &mut |l| logged.push(l.to_owned()),
    );
    result.unwrap();
    s.restore(player);
    (said, logged)
}

/// The move of a `=== F5/eval/time` line and its time.
fn answer_of(said: &[String]) -> (Square, f64) {
    let go = said.iter().find(|l| l.starts_with("=== ")).expect("a move");
    let mut f = go[4..].split('/');
    let sq = Square::parse(&f.next().unwrap().to_ascii_lowercase()).unwrap();
    let time = f.nth(1).unwrap().parse().unwrap();
    (sq, time)
}

fn game(s: &Session) -> GameRecord {
    s.game().expect("no search runs").clone()
}

/// A 4x4 game a few moves from its end, set as a GUI sets it.
fn small_game(s: &mut Session) {
    assert_eq!(
        apply(
            s,
            "set game (;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1]W[a1]B[d3];)",
        ),
        Ok(Reply::Nothing)
    );
}

#[test]
fn commands_change_the_game_and_the_settings() {
    let mut s = session();
    assert_eq!(apply(&mut s, "nboard 2"), Ok(Reply::Nothing));
    assert_eq!(
        apply(&mut s, "set depth 5"),
        Ok(Reply::Say("set myname ply5".into()))
    );
    let p = s.player().unwrap().settings();
    assert_eq!(
        (p.depth, p.move_time, p.hash_mb),
        (Some(5), Duration::from_millis(2500), Some(4))
    );
    assert_eq!(apply(&mut s, "move F5"), Ok(Reply::Nothing));
    assert_eq!(apply(&mut s, "move d6/0.00/1.0"), Ok(Reply::Nothing));
    assert_eq!(game(&s).moves().len(), 2);
    // Not legal: refused, the game unchanged.
    assert!(apply(&mut s, "move A1").is_err());
    assert!(apply(&mut s, "move PA").is_err());
    assert_eq!(game(&s).moves().len(), 2);
    assert_eq!(apply(&mut s, "go"), Ok(Reply::Think(Task::Go)));
    assert_eq!(apply(&mut s, "hint 2"), Ok(Reply::Think(Task::Hint(2))));
    assert_eq!(apply(&mut s, "analyze"), Ok(Reply::Think(Task::Analyze)));
    assert_eq!(apply(&mut s, "ping 4"), Ok(Reply::Say("pong 4".into())));
    assert_eq!(apply(&mut s, "learn"), Ok(Reply::Say("learned".into())));
    assert_eq!(apply(&mut s, "set contempt 1"), Ok(Reply::Nothing));
    assert_eq!(apply(&mut s, "quit"), Ok(Reply::Quit));
    small_game(&mut s);
    assert_eq!(game(&s).moves().len(), 3);
    assert_eq!(game(&s).start().size(), BoardSize::Four);
}

#[test]
fn go_thinks_aloud_then_names_its_move() {
    let mut s = session();
    small_game(&mut s);
    let (said, logged) = run(&mut s, Task::Go, false);
    assert!(logged.is_empty(), "{logged:?}");
    assert_eq!(
        said.first().map(String::as_str),
        Some("status ply is thinking")
    );
    assert!(said.iter().any(|l| l.starts_with("nodestats ")), "{said:?}");
    let (sq, _) = answer_of(&said);
    assert!(game(&s).position().is_legal(sq), "{said:?}");
    assert_eq!(said.last().map(String::as_str), Some("status"));
    // The engine does not play its move: the GUI sends it back.
    assert_eq!(game(&s).moves().len(), 3);
}

#[test]
fn hint_says_search_lines_and_a_stopped_search_only_status() {
    let mut s = session();
    small_game(&mut s);
    let (said, _) = run(&mut s, Task::Hint(2), false);
    assert!(said.iter().any(|l| l.starts_with("search ")), "{said:?}");
    assert!(!said.iter().any(|l| l.starts_with("=== ")), "{said:?}");
    let (said, _) = run(&mut s, Task::Go, true);
    assert_eq!(said, ["status ply is thinking", "status"]);
}

#[test]
fn analyze_reviews_every_position_last_first_for_black() {
    let mut s = session();
    small_game(&mut s);
    let g = game(&s);
    let plies = g.plies().count();
    let (said, _) = run(&mut s, Task::Analyze, false);
    assert_eq!(
        said.first().map(String::as_str),
        Some("status ply is analysing the game")
    );
    assert_eq!(said.last().map(String::as_str), Some("status"));
    let ks: Vec<usize> = said[1..said.len() - 1]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(ks, (0..=plies).rev().collect::<Vec<_>>());
    // Every position of a 4x4 game this close to its end is solved, so no move played
    // gains its mover anything over the position before it.
    let for_black: Vec<f64> = said[1..said.len() - 1]
        .iter()
        .rev()
        .map(|l| l.split(' ').nth(2).unwrap().parse().unwrap())
        .collect();
    for (k, (before, _)) in g.plies().enumerate() {
        let sign = if before.turn() == Color::Black {
            1.0
        } else {
            -1.0
        };
        assert!(
            sign * for_black[k] >= sign * for_black[k + 1],
            "ply {k}: {for_black:?}"
        );
    }
}

#[test]
fn a_review_gives_each_position_at_most_the_review_time() {
    // Depth 60 is half a minute a move; a review position gets half a second at most, on
    // the player's clock.
    let clock = Arc::new(SteppingClock::new(Duration::from_millis(1)));
    let mut s = Session::with_player(Player::with_clock(settings(false), clock.clone())).unwrap();
    apply(&mut s, "set depth 60").unwrap();
    apply(&mut s, "set game (;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[f4];)").unwrap();
    let (said, _) = run(&mut s, Task::Analyze, false);
    assert_eq!(said.len(), 5, "{said:?}");
    // Three positions, the start and f5 from the book: well under three review times
    // (and far under three half minutes), whatever the solver's and the book's reads.
    assert!(
        clock.elapsed() <= 3 * REVIEW_TIME + Duration::from_millis(200),
        "{:?}",
        clock.elapsed()
    );
}

#[test]
fn a_game_clock_of_set_game_is_honoured_on_the_injected_clock() {
    // The case: `set depth 40` (20 s a move without a clock), then a game on a
    // 3-second clock: the move must fit the clock.
    let mut s = on_stepping_clock(false);
    apply(&mut s, "set depth 40").unwrap();
    let p = s.player().unwrap();
    assert_eq!(
        p.budget(),
        Duration::from_secs(20),
        "no clock: the level's time"
    );
    apply(&mut s, "set game (;GM[Othello]TI[0:03]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5//0.5]W[f4//1];)").unwrap();
    let p = s.player().unwrap();
    assert_eq!(
        p.clock_of(Color::Black).control(),
        TimeControl::SuddenDeath {
            main: Duration::from_secs(3)
        }
    );
    // Each side's clock less its moves' times.
    assert_eq!(
        p.clock_of(Color::Black).main_left(),
        Duration::from_millis(2500)
    );
    assert_eq!(p.clock_of(Color::White).main_left(), Duration::from_secs(2));
    let budget = p.budget();
    assert!(budget < Duration::from_millis(500), "{budget:?}");
    let (said, _) = run(&mut s, Task::Go, false);
    let (_, time) = answer_of(&said);
    assert!(
        time <= budget.as_secs_f64() + 0.05,
        "took {time} s of a {budget:?} budget"
    );
    // The time is taken off black's clock, which never runs out.
    let left = s.player().unwrap().clock_of(Color::Black).main_left();
    assert!(
        left < Duration::from_millis(2500) && left > Duration::ZERO,
        "{left:?}"
    );
    // A Fischer clock: the increment after every move.
    apply(&mut s, "set game (;GM[Othello]TI[1:00/2]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5//10];)").unwrap();
    let p = s.player().unwrap();
    assert_eq!(
        p.clock_of(Color::Black).main_left(),
        Duration::from_secs(52)
    );
    assert_eq!(
        p.clock_of(Color::White).main_left(),
        Duration::from_secs(60)
    );
    // A game without TI: the level again.
    apply(&mut s, "set game (;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)").unwrap();
    assert_eq!(s.player().unwrap().budget(), Duration::from_secs(20));
}

#[test]
fn a_refused_set_game_is_answered_and_the_next_go_is_not_played_in_the_old_game() {
    let mut s = session();
    small_game(&mut s);
    let Ok(Reply::Refuse(status, log)) = apply(&mut s, "set game (;GM[Chess]BO[8 x];)") else {
        panic!("not refused");
    };
    assert!(status.starts_with("status ply: set game: "), "{status}");
    assert!(status.contains("not an Othello game"), "{status}");
    assert!(
        log.contains("no game until one that can be played is set"),
        "{log}"
    );
    // No game: `go`, `hint` and `analyze` are refused on stdout too, moves are refused.
    for line in ["go", "hint 3", "analyze"] {
        let Ok(Reply::Refuse(status, _)) = apply(&mut s, line) else {
            panic!("`{line}` not refused");
        };
        assert!(
            status.starts_with("status ply: no game to think about: set game: "),
            "{status}"
        );
    }
    let e = apply(&mut s, "move b2").unwrap_err();
    assert!(e.starts_with("there is no game (set game: "), "{e}");
    // A game that can be read brings the engine back.
    small_game(&mut s);
    assert_eq!(apply(&mut s, "go"), Ok(Reply::Think(Task::Go)));
}

#[test]
fn a_book_of_another_size_refuses_the_game_with_the_requests_message() {
    let six = Book::builtin(BoardSize::Six).expect("the 6x6 book").clone();
    let mut s = Session::new(Settings {
        book_file: Some(Arc::new(six)),
        ..settings(false)
    })
    .unwrap();
    let Ok(Reply::Refuse(status, _)) = apply(&mut s, "set game (;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)") else {
        panic!("not refused");
    };
    assert_eq!(
        status,
        "status ply: set game: book: a 6x6 book, the position is 8x8; no game until one \
         that can be played is set"
    );
    assert_eq!(
        apply(
            &mut s,
            "set game (;GM[Othello]BO[6 ------ ------ --O*-- --*O-- ------ ------ *];)"
        ),
        Ok(Reply::Nothing)
    );
    // Threads out of range are refused when the session is made, with the same words.
    let e = Session::new(Settings {
        threads: 0,
        ..settings(false)
    })
    .unwrap_err();
    assert_eq!(e, "threads 0: expected 1 to 256");
}

#[test]
fn the_engine_ponders_after_its_own_move_until_the_guis_reply() {
    let mut s = on_stepping_clock(true);
    apply(&mut s, "set depth 4").unwrap();
    apply(&mut s, "set game (;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[f4];)").unwrap();
    let (said, _) = run(&mut s, Task::Go, false);
    let (sq, _) = answer_of(&said);
    assert!(
        !s.player().unwrap().is_pondering(),
        "not before its move is played"
    );
    apply(&mut s, &format!("move {sq}")).unwrap();
    assert!(s.player().unwrap().is_pondering(), "after its own move");
    // Any reply stops it at once.
    let reply = game(&s).position().legal_moves().next().unwrap();
    apply(&mut s, &format!("move {reply}")).unwrap();
    assert!(!s.player().unwrap().is_pondering());
    // A GUI that sends the whole game after each move: the game with ply's move added is
    // played as that move, and the pondering starts all the same.
    let (said, _) = run(&mut s, Task::Go, false);
    let (sq, _) = answer_of(&said);
    let mut g = game(&s);
    g.play(Move::Play(sq)).unwrap();
    apply(
        &mut s,
        &format!(
            "set game {}",
            ply_othello::ggf::GgfGame::from_game(g.clone())
        ),
    )
    .unwrap();
    assert_eq!(game(&s), g);
    assert!(
        s.player().unwrap().is_pondering(),
        "after its own move, sent as a game"
    );
    // A game that is not the one played: the pondering stops, the game is taken whole.
    apply(&mut s, "set game (;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3];)").unwrap();
    assert!(!s.player().unwrap().is_pondering());
    assert_eq!(game(&s).moves().len(), 1);
    // `--no-ponder`: never.
    let mut s = on_stepping_clock(false);
    apply(&mut s, "set depth 4").unwrap();
    let (said, _) = run(&mut s, Task::Go, false);
    let (sq, _) = answer_of(&said);
    apply(&mut s, &format!("move {sq}")).unwrap();
    assert!(!s.player().unwrap().is_pondering());
    assert_eq!(game(&s).moves(), [Move::Play(sq)]);
}
