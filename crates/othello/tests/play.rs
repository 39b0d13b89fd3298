//! The player (`ply_othello::play`): each time control's budget per move, a game played on
//! a clock a test drives ([`SteppingClock`], which moves by the engine's own reads, so
//! nothing here is timed), and pondering: a hit answers deeper than a search from nothing
//! in the same budget, a miss searches afresh, and the opponent's move stops it at once.

use std::{sync::Arc, time::Duration};

use ply_othello::{
    play::{main_share, Player, Settings, SideClock, TimeControl, FLOOR, OVERHEAD},
    spine::clock::SteppingClock,
    transcript, BoardSize, Color, Move, Position,
};

const MS: fn(u64) -> Duration = Duration::from_millis;

/// 36 empty squares, white to move: far from the end, where only the midgame engine
/// searches.
const MIDGAME: &str = "f5d6c3d3c4f4f6f3e6e7c6g6g5f7e8c5b6h6d2b5e3b4g4f2";

fn midgame() -> ply_othello::GameRecord {
    transcript::parse(MIDGAME, Position::start(BoardSize::Eight)).expect("a legal game")
}

/// Plays a whole game's budgets on `clock`: every move takes its budget and the overhead
/// on top (the worst a process adds). The budgets, and whether the clock ever ran out.
fn whole_game(mut clock: SideClock) -> (Vec<Duration>, bool) {
    let mut budgets = Vec::new();
    let mut flagged = false;
    for empties in (2..=60u32).rev().step_by(2) {
        let b = clock.budget(empties).expect("a game clock");
        budgets.push(b);
        flagged |= !clock.in_byo_yomi() && b + OVERHEAD > clock.main_left();
        clock.spend(b + OVERHEAD);
    }
    (budgets, flagged)
}

/// Sudden death: every move's budget fits in what is left, the early middle game (44
/// empties) gets more than the opening (58) and the end (10), and the clock never runs out.
#[test]
fn sudden_death_spends_most_on_the_early_middle_game_and_never_flags() {
    let clock = SideClock::new(TimeControl::SuddenDeath { main: MS(60_000) });
    assert!(clock.budget(60).unwrap() < MS(60_000) / 20);
    let (budgets, flagged) = whole_game(clock);
    assert!(!flagged);
    // budgets[i] is the move with 60 - 2i empties.
    assert!(budgets[1] < budgets[8], "58 vs 44 empties: {budgets:?}");
    assert!(budgets[25] < budgets[8], "10 vs 44 empties: {budgets:?}");
    let total: Duration = budgets.iter().sum();
    // Most of the clock used, a margin kept.
    assert!(total > MS(40_000) && total < MS(60_000), "{total:?}");
    // A clock almost out still gives the floor, never more than is left.
    let mut low = SideClock::new(TimeControl::SuddenDeath { main: MS(60_000) });
    low.set_left(MS(20), 0);
    assert_eq!(low.budget(30), Some(FLOOR));
}

/// Fischer, 2 s a game and 0.1 s a move: each move spends about the increment and a share
/// of the main time, and the clock never runs out even when every move overruns by the
/// overhead.
#[test]
fn fischer_spends_the_increment_and_a_share_and_never_flags() {
    let control = TimeControl::Fischer {
        main: MS(2000),
        increment: MS(100),
    };
    let first = SideClock::new(control).budget(60).unwrap();
    assert!(first >= MS(80) && first < MS(400), "{first:?}");
    let (budgets, flagged) = whole_game(SideClock::new(control));
    assert!(!flagged);
    assert!(budgets.iter().all(|&b| b >= MS(60)), "{budgets:?}");
    assert!(budgets[8] > MS(150), "44 empties: {budgets:?}");
    // Out of main time, the increment alone: the move is still given most of it.
    let mut c = SideClock::new(control);
    c.set_left(MS(0), 0);
    let b = c.budget(30).unwrap();
    assert!(b <= MS(100) && b >= FLOOR, "{b:?}");
    c.spend(MS(40));
    assert_eq!(
        c.main_left(),
        MS(100),
        "the increment comes back after the move"
    );
}

/// Canadian byo-yomi: after main time, the period shared among its moves; the period
/// renews after its moves.
#[test]
fn canadian_byo_yomi_shares_the_period_among_its_moves() {
    let control = TimeControl::Canadian {
        main: MS(1000),
        period: MS(10_000),
        stones: 5,
    };
    let mut c = SideClock::new(control);
    assert!(!c.in_byo_yomi());
    let in_main = c.budget(40).unwrap();
    assert!(in_main < MS(2000), "{in_main:?}");
    // The move that runs out of main time is the period's first, its overrun the period's.
    c.spend(MS(1500));
    assert!(c.in_byo_yomi());
    assert_eq!(c.byo_yomi_count(), 4);
    assert_eq!(
        c.budget(40).unwrap(),
        (MS(9_500) - OVERHEAD).mul_f64(0.9) / 4
    );
    for _ in 0..4 {
        let b = c.budget(40).unwrap();
        c.spend(b);
    }
    // 10 s for 5 moves, less the overhead and a tenth: 1.79 s.
    let b = c.budget(40).unwrap();
    assert_eq!(b, (MS(10_000) - OVERHEAD).mul_f64(0.9) / 5);
    for _ in 0..5 {
        let b = c.budget(40).unwrap();
        c.spend(b);
    }
    assert!(c.in_byo_yomi());
    assert_eq!(
        c.budget(40).unwrap(),
        b,
        "a fresh period after its five moves"
    );
    // GTP's `time_left` in byo-yomi: 3 s for 2 moves.
    c.set_left(MS(3000), 2);
    assert_eq!(
        c.budget(20).unwrap(),
        (MS(3000) - OVERHEAD).mul_f64(0.9) / 2
    );
}

/// Japanese byo-yomi: in main time a share of it plus most of a period; in byo-yomi most
/// of a period, which a move within it keeps and an overrun loses.
#[test]
fn japanese_byo_yomi_keeps_periods_within_them() {
    let control = TimeControl::Japanese {
        main: MS(0),
        period: MS(1000),
        periods: 3,
    };
    let mut c = SideClock::new(control);
    assert!(c.in_byo_yomi(), "no main time: byo-yomi from the start");
    let b = c.budget(40).unwrap();
    assert!(b < MS(1000) - OVERHEAD, "{b:?}");
    c.spend(b + OVERHEAD);
    assert_eq!(
        c.budget(40).unwrap(),
        b,
        "a move within its period keeps it"
    );
    assert_eq!(c.byo_yomi_count(), 3);
    c.spend(MS(1500));
    assert_eq!(c.byo_yomi_count(), 2, "an overrun loses a period");
    c.spend(MS(900));
    assert_eq!(c.byo_yomi_count(), 2);
    let mut with_main = SideClock::new(TimeControl::Japanese {
        main: MS(30_000),
        period: MS(1000),
        periods: 3,
    });
    let share = main_share(MS(30_000), 44, Duration::ZERO);
    assert_eq!(
        with_main.budget(44).unwrap(),
        share + (MS(1000) - OVERHEAD).mul_f64(0.7)
    );
    with_main.spend(MS(31_000));
    assert!(with_main.in_byo_yomi());
}

/// No game clock: the player's own move time.
#[test]
fn without_a_clock_the_move_time_decides() {
    assert_eq!(SideClock::new(TimeControl::None).budget(40), None);
    let p = Player::new(Settings {
        move_time: MS(1234),
        ponder: false,
        ..Settings::default()
    });
    assert_eq!(p.budget(), MS(1234));
}

fn settings(hash_mb: usize, ponder: bool) -> Settings {
    Settings {
        depth: None,
        move_time: MS(60),
        threads: 1,
        hash_mb: Some(hash_mb),
        book: false,
        book_file: None,
        ponder,
    }
}

/// A whole 6x6 game between two players on clocks that move 20 ms a read, at 0.4 s a game
/// plus 30 ms a move (Fischer): every move's time on the injected clock stays near its
/// budget, the clocks are charged what the moves took, and neither side runs out. (6x6 and
/// a budget of a few reads, so that the exact solver's work between two reads of the clock,
/// 65,536 nodes, stays small in a debug build.)
#[test]
fn a_fischer_game_on_the_injected_clock_never_flags() {
    let control = TimeControl::Fischer {
        main: MS(400),
        increment: MS(30),
    };
    // A clock each, as each engine has its own. (No pondering: a stop reaches the exact
    // solver only every 65,536 nodes, which in a debug build is long; the tests below
    // ponder in the midgame.)
    let mut players = [(); 2].map(|()| {
        let clock = Arc::new(SteppingClock::new(MS(20)));
        let mut p = Player::with_clock(settings(2, false), clock);
        p.set_time_control(control);
        p.new_game(Position::start(BoardSize::Six));
        p
    });
    let mut guard = 0;
    while !players[0].position().is_game_over() {
        let turn = players[0].position().turn();
        let me = usize::from(turn == Color::White);
        let main_before = players[me].clock_of(turn).main_left();
        let think = players[me].go();
        // The search stops at its first look past the deadline, and the first iteration
        // always completes: four reads of slack.
        assert!(
            think.used <= think.budget + MS(80),
            "{:?} over {:?}",
            think.used,
            think.budget
        );
        let left = players[me].clock_of(turn).main_left();
        assert_eq!(left, main_before.saturating_sub(think.used) + MS(30));
        assert!(left > Duration::ZERO);
        for p in &mut players {
            p.play(think.best).expect("a legal move");
        }
        guard += 1;
        assert!(guard < 70, "the game ends");
    }
}

/// Plays `MIDGAME`'s position for a pondering player, then the reply it expects, and
/// waits (on progress, not on time) until its pondering has finished `depth`.
fn ponder_to(p: &mut Player, depth: u32) -> (Move, u32) {
    p.set_game(midgame());
    let think = p.go();
    let predicted = think.analysis.line[1];
    p.play(think.best).expect("its own move");
    assert!(p.is_pondering());
    let mut waits = 0;
    while p.ponder_depth() < depth {
        std::thread::sleep(MS(5));
        waits += 1;
        assert!(waits < 60_000, "pondering reaches depth {depth}");
    }
    (predicted, think.analysis.depth)
}

/// A ponder hit: the reply the player expected comes, and its answer rests on a deeper
/// search than the same budget reaches from nothing (the kept table, and the pondering's
/// own analysis), while a player that did not ponder reaches no deeper than before.
#[test]
fn a_ponder_hit_answers_deeper_than_a_search_from_nothing() {
    let clock = Arc::new(SteppingClock::new(MS(1)));
    // The baseline: the same position, the same budget, no pondering (a table of its own
    // size, so that it does not take the pondering player's from the kept ones).
    let mut fresh = Player::with_clock(settings(4, false), clock.clone());
    fresh.set_game(midgame());
    let first = fresh.go();
    fresh.play(first.best).unwrap();
    let reply = first.analysis.line[1];
    fresh.play(reply).unwrap();
    let baseline = fresh.go();
    assert!(!baseline.ponder_hit);

    let mut p = Player::with_clock(settings(8, true), clock);
    let target = baseline.analysis.depth + 3;
    let (predicted, _) = ponder_to(&mut p, target);
    assert_eq!(predicted, reply, "the same search predicts the same reply");
    p.play(predicted).unwrap();
    assert!(!p.is_pondering(), "the opponent's move stops the pondering");
    let hit = p.go();
    assert!(hit.ponder_hit);
    assert!(hit.pondered_depth >= target, "{}", hit.pondered_depth);
    assert!(
        hit.analysis.depth > baseline.analysis.depth,
        "hit {} vs from nothing {}",
        hit.analysis.depth,
        baseline.analysis.depth
    );
    assert!(hit.analysis.depth >= hit.pondered_depth);
}

/// A ponder miss: another reply comes; the pondering stops at once and the answer is a
/// search of its own, not the pondered one.
#[test]
fn a_ponder_miss_searches_the_position_played() {
    let clock = Arc::new(SteppingClock::new(MS(1)));
    let mut p = Player::with_clock(settings(16, true), clock);
    let (predicted, _) = ponder_to(&mut p, 3);
    let other = p
        .position()
        .legal_moves()
        .into_iter()
        .map(Move::Play)
        .find(|&m| m != predicted)
        .expect("another legal reply");
    p.play(other).unwrap();
    assert!(!p.is_pondering());
    let miss = p.go();
    assert!(!miss.ponder_hit);
    assert_eq!(miss.pondered_depth, 0);
    assert!(p.position().play_move(miss.best).is_ok());
}

/// Pondering has no deadline of its own: only a move, `go`, `undo`, a new game or the
/// player's end stop it, each at once.
#[test]
fn pondering_stops_at_once_on_every_change_and_at_the_end() {
    let clock = Arc::new(SteppingClock::new(MS(1)));
    let mut p = Player::with_clock(settings(32, true), clock);
    ponder_to(&mut p, 2);
    assert!(p.undo());
    assert!(!p.is_pondering(), "undo stops it");
    ponder_to(&mut p, 2);
    p.new_game(Position::start(BoardSize::Eight));
    assert!(!p.is_pondering(), "a new game stops it");
    ponder_to(&mut p, 2);
    let think = p.go();
    assert!(!p.is_pondering(), "go stops it");
    assert!(
        !think.ponder_hit,
        "go on the position before the reply is no hit"
    );
    ponder_to(&mut p, 2);
    drop(p);
}

/// A player without pondering never starts a thread.
#[test]
fn no_ponder_means_no_thread() {
    let mut p = Player::with_clock(settings(1, false), Arc::new(SteppingClock::new(MS(1))));
    p.set_game(midgame());
    let think = p.go();
    p.play(think.best).unwrap();
    assert!(!p.is_pondering());
}
