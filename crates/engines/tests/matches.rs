//! The match runner: colours and openings, the referee's clocks on a stepping clock, ply's
//! players in process on it (each move's budget and pondering in what they say, the
//! opponent's move stopping the pondering, a flag), and engines that break (in process,
//! and GTP and NBoard programs as tiny shell scripts that exit, hang or play an illegal
//! move) ending the game with an error naming them and the command.

use std::{sync::Arc, time::Duration};

use ply_engines::{
    matches::{play_game, play_match, play_seated, Control, Game, Seats},
    xot, Answer, Engine, EngineError, Fault, GtpEngine, Limit, NboardEngine, PlyEngine,
};
use ply_othello::{
    play::{Player, Settings, TimeControl},
    spine::clock::{SteppingClock, SYSTEM},
    transcript, BoardSize, Color, GameRecord, Move, Position, Square,
};

/// An engine in this process that plays the first legal move in square order, or, when
/// `bad` is set, always a1 (illegal from the start).
struct FirstMove {
    name: String,
    game: GameRecord,
    bad: bool,
    /// Every call but `name`, in order: `new_game`, `prepare LIMIT`, `play`, `go`.
    calls: Vec<String>,
}

impl FirstMove {
    fn new(name: &str) -> FirstMove {
        FirstMove {
            name: name.to_owned(),
            game: GameRecord::new(Position::start(BoardSize::Eight)),
            bad: false,
            calls: Vec::new(),
        }
    }
}

impl Engine for FirstMove {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self, game: &GameRecord) -> Result<(), EngineError> {
        self.calls.push("new_game".into());
        self.game = game.clone();
        Ok(())
    }
    fn prepare(&mut self, limit: &Limit) -> Result<(), EngineError> {
        self.calls.push(format!("prepare {limit:?}"));
        Ok(())
    }
    fn play(&mut self, m: Move) -> Result<(), EngineError> {
        self.calls.push("play".into());
        self.game
            .play(m)
            .map_err(|e| EngineError::new(&self.name, "play", Fault::Illegal, e.to_string()))
    }
    fn go(&mut self, _: &Limit) -> Result<Answer, EngineError> {
        self.calls.push("go".into());
        let pos = self.game.position();
        let best = if self.bad {
            Move::Play(Square::parse("a1").unwrap())
        } else {
            pos.legal_moves()
                .into_iter()
                .next()
                .map_or(Move::Pass, Move::Play)
        };
        if !self.bad {
            self.game.play(best).unwrap();
        }
        Ok(Answer { best, info: None })
    }
    fn quit(&mut self) -> Result<(), EngineError> {
        Ok(())
    }
}

fn openings(n: usize) -> Vec<GameRecord> {
    let list = include_str!("../../../testdata/xot-openings.txt");
    xot::first(list, n)
        .unwrap()
        .into_iter()
        .map(|o| o.game)
        .collect()
}

const MOVE: Control = Control::Limit(Limit::Time(Duration::from_millis(10)));

/// Replays `game`'s record from the start: every move legal, the end reached, the score
/// the one recorded.
fn check_record(game: &Game) {
    let mut replay = GameRecord::new(game.record.start());
    for &m in game.record.moves() {
        replay.play(m).unwrap();
    }
    let end = replay.position();
    assert!(end.is_game_over());
    let black = if end.turn() == Color::Black {
        end.final_score()
    } else {
        -end.final_score()
    };
    assert_eq!(black, game.black_score);
}

/// One engine at both seats plays the game two engines of its kind play, told only the
/// passes: told its own moves again, `FirstMove` would refuse them as illegal.
#[test]
fn one_engine_plays_both_sides_on_the_same_loop() {
    let mut passes = 0;
    for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
        let start = GameRecord::new(Position::start(size));
        let (mut a, mut b) = (FirstMove::new("a"), FirstMove::new("b"));
        let two = play_game(&mut a, &mut b, &start, [MOVE, MOVE], &SYSTEM).unwrap();
        let mut both = FirstMove::new("self");
        let one = play_seated(Seats::One(&mut both), &start, [MOVE, MOVE], &SYSTEM).unwrap();
        assert_eq!(one.record, two.record);
        assert_eq!(both.game, one.record, "the engine's own game went along");
        assert_eq!((one.black.as_str(), one.white.as_str()), ("self", "self"));
        assert_eq!(one.asked.len(), two.asked.len());
        check_record(&one);
        passes += one
            .record
            .moves()
            .iter()
            .filter(|m| **m == Move::Pass)
            .count();
    }
    assert!(passes > 0, "a pass was told to the one engine");
    // Its failure names the side it was playing.
    let mut bad = FirstMove::new("bad");
    bad.bad = true;
    let start = GameRecord::new(Position::start(BoardSize::Eight));
    let e = play_seated(Seats::One(&mut bad), &start, [MOVE, MOVE], &SYSTEM).unwrap_err();
    assert_eq!(e.side, Color::Black);
    assert_eq!(e.error.fault, Fault::Illegal);
}

#[test]
fn each_opening_is_played_twice_colours_swapped_from_its_moves() {
    let list = openings(3);
    let (mut a, mut b) = (FirstMove::new("a"), FirstMove::new("b"));
    let mut seen = Vec::new();
    let games = play_match(
        &mut a,
        &mut b,
        &list,
        [MOVE, MOVE],
        &SYSTEM,
        &mut |k, c, _| {
            seen.push((k, c));
        },
    )
    .unwrap();
    assert_eq!(games.len(), 6);
    for (i, g) in games.iter().enumerate() {
        let first_black = i % 2 == 0;
        assert_eq!(
            seen[i],
            (
                i / 2,
                if first_black {
                    Color::Black
                } else {
                    Color::White
                }
            )
        );
        let names = if first_black { ("a", "b") } else { ("b", "a") };
        assert_eq!((g.black.as_str(), g.white.as_str()), names);
        assert_eq!(g.opening, list[i / 2]);
        assert!(g.record.moves().starts_with(list[i / 2].moves()));
        check_record(g);
        // Every move after the opening was asked of the side to move, none of the opening's.
        let played = g.record.moves().len() - list[i / 2].moves().len();
        let passes = g.record.moves()[list[i / 2].moves().len()..]
            .iter()
            .filter(|m| **m == Move::Pass)
            .count();
        assert_eq!(g.asked.len(), played - passes);
        assert_eq!(g.points(Color::Black) + g.points(Color::White), 1.0);
    }
    // Both engines play first-legal-move: colours swapped, the same game.
    assert_eq!(games[0].record, games[1].record);
    // The GGF record names the players and the result.
    let ggf = games[1].ggf().to_string();
    assert!(ggf.contains("PB[b]") && ggf.contains("PW[a]"), "{ggf}");
    assert!(
        ggf.contains(&format!("RE[{:+}.000]", games[1].black_score)),
        "{ggf}"
    );
    assert_eq!(
        transcript::parse(&games[1].transcript(), Position::start(BoardSize::Eight))
            .unwrap()
            .position(),
        games[1].record.position()
    );
}

#[test]
fn the_referee_times_each_side_and_a_flag_loses_on_sudden_death() {
    // Every move takes exactly one step on the stepping clock (two reads around it).
    let step = Duration::from_millis(100);
    let referee = SteppingClock::new(step);
    let (mut a, mut b) = (FirstMove::new("a"), FirstMove::new("b"));
    let sudden = Control::Clock(TimeControl::SuddenDeath { main: step * 10 });
    let fischer = Control::Clock(TimeControl::Fischer {
        main: step,
        increment: step,
    });
    let start = GameRecord::new(Position::start(BoardSize::Eight));
    let g = play_game(&mut a, &mut b, &start, [sudden, fischer], &referee).unwrap();
    // Black's 11th move overruns its ten steps; white's increment pays for every move.
    assert_eq!(g.flagged, Some(Color::Black));
    assert_eq!(g.points(Color::White), 1.0);
    let moves = |c: Color| g.asked.iter().filter(|m| m.side == c).count() as u32;
    assert_eq!(moves(Color::Black), 11);
    assert!(moves(Color::White) >= 10);
    assert_eq!(g.times(), [step * 11, step * moves(Color::White)]);
    assert!(g.ggf().to_string().contains("RE[-64:t]"));
}

#[test]
fn an_illegal_move_in_process_ends_the_game_naming_the_engine() {
    let mut a = FirstMove::new("good");
    let mut b = FirstMove::new("cheat");
    b.bad = true;
    let start = GameRecord::new(Position::start(BoardSize::Eight));
    let e = play_game(&mut a, &mut b, &start, [MOVE, MOVE], &SYSTEM).unwrap_err();
    assert_eq!(e.side, Color::White);
    assert_eq!(e.error.engine, "cheat");
    assert_eq!(e.error.fault, Fault::Illegal);
    assert!(e.to_string().contains("played a1"), "{e}");
}

/// ply in process on a clock that moves 1 ms a read (so nothing is timed): no depth (a
/// game clock alone decides), a small table, no book, pondering as `ponder` says.
fn ply_on_a_stepping_clock(name: &str, ponder: bool) -> PlyEngine {
    let settings = Settings {
        depth: None,
        move_time: Duration::from_millis(60),
        threads: 1,
        hash_mb: Some(1),
        book: false,
        book_file: None,
        ponder,
    };
    let clock = Arc::new(SteppingClock::new(Duration::from_millis(1)));
    PlyEngine::with_player(name, Player::with_clock(settings, clock))
}

/// Each engine is readied for its own control after the game starts and before its first
/// move (a clock as it stands full), and ply readies the solver it keeps there, so that
/// no first move pays for its table; one engine at both seats is readied for each.
#[test]
fn each_engine_is_readied_for_its_control_before_any_clock_runs() {
    let start = GameRecord::new(Position::start(BoardSize::Four));
    let fischer = TimeControl::Fischer {
        main: Duration::from_secs(5),
        increment: Duration::from_millis(100),
    };
    let (mut a, mut b) = (FirstMove::new("a"), FirstMove::new("b"));
    let clock = Control::Clock(fischer);
    play_game(&mut a, &mut b, &start, [MOVE, clock], &SYSTEM).unwrap();
    // Black (a) moves first: readied, then asked.
    assert_eq!(a.calls[..3], ["new_game", "prepare Time(10ms)", "go"]);
    let readied = format!("prepare {:?}", Limit::clock(fischer));
    assert_eq!(b.calls[..2], ["new_game".to_string(), readied.clone()]);
    let mut both = FirstMove::new("self");
    play_seated(Seats::One(&mut both), &start, [MOVE, clock], &SYSTEM).unwrap();
    assert_eq!(
        both.calls[..3],
        [
            "new_game".to_string(),
            "prepare Time(10ms)".to_string(),
            readied
        ]
    );

    // ply: a fresh player has no solver yet; readied for a clock or a fixed time, it has.
    for limit in [
        Limit::clock(fischer),
        Limit::Time(Duration::from_millis(10)),
    ] {
        let mut ply = ply_on_a_stepping_clock("ply", false);
        assert!(!ply.player().is_prepared());
        ply.new_game(&start).unwrap();
        ply.prepare(&limit).unwrap();
        assert!(ply.player().is_prepared(), "{limit:?}");
    }
}

/// Two of ply's players on a Fischer clock, one pondering: on 4x4 both play perfectly, so
/// black loses by 10 (empties to the winner). Every move is timed on the referee's clock
/// (one step between its two reads) and says its budget and which search answered; only
/// the side that ponders has ponder hits, and no thread is left pondering at the end.
#[test]
fn ply_against_itself_on_a_clock_plays_the_perfect_4x4_game() {
    let step = Duration::from_millis(1);
    let referee = SteppingClock::new(step);
    let mut black = ply_on_a_stepping_clock("pondering", true);
    let mut white = ply_on_a_stepping_clock("plain", false);
    let start = GameRecord::new(Position::start(BoardSize::Four));
    let fischer = Control::Clock(TimeControl::Fischer {
        main: Duration::from_secs(60),
        increment: Duration::ZERO,
    });
    let g = play_game(&mut black, &mut white, &start, [fischer; 2], &referee).unwrap();
    assert_eq!((g.flagged, g.black_score), (None, -10));
    check_record(&g);
    assert!(g.asked.len() >= 9);
    for a in &g.asked {
        assert_eq!(a.used, step);
        let info = a.info.as_ref().expect("ply says what it found");
        assert!(info.budget.is_some_and(|b| b > Duration::ZERO), "{info:?}");
        assert!(info.source.is_some(), "{info:?}");
        assert!(!info.ponder_hit || a.side == Color::Black, "{a:?}");
    }
    assert!(!black.player().is_pondering() && !white.player().is_pondering());
}

/// Pondering stops at once when the opponent's move is told, predicted or not; a predicted
/// reply is a ponder hit in the next move's [`ply_engines::Info`], another one is not.
/// (An 8x8 position with 36 empty squares, where only the midgame engine searches, to a
/// depth: a debug build's solver and clocks are slow.)
#[test]
fn the_opponents_move_stops_the_pondering_and_a_predicted_one_is_a_hit() {
    let start = transcript::parse(
        "f5d6c3d3c4f4f6f3e6e7c6g6g5f7e8c5b6h6d2b5e3b4g4f2",
        Position::start(BoardSize::Eight),
    )
    .unwrap();
    let limit = Limit::Depth(2);
    for predicted in [true, false] {
        let mut p = ply_on_a_stepping_clock("pondering", true);
        p.new_game(&start).unwrap();
        let own = p.go(&limit).unwrap();
        assert!(p.player().is_pondering(), "it ponders after its own move");
        let expected = *own
            .info
            .expect("ply says its line")
            .line
            .get(1)
            .expect("a reply");
        let reply = if predicted {
            expected
        } else {
            let after = start.position().play_move(own.best).unwrap();
            after
                .legal_moves()
                .into_iter()
                .map(Move::Play)
                .find(|&m| m != expected)
                .expect("another reply")
        };
        // Until its first iteration ends, a pondering has found nothing to keep.
        let mut waits = 0;
        while p.player().ponder_depth() < 1 {
            std::thread::sleep(Duration::from_millis(5));
            waits += 1;
            assert!(waits < 60_000, "pondering finishes an iteration");
        }
        p.play(reply).unwrap();
        assert!(!p.player().is_pondering(), "the reply stops it");
        let next = p.go(&limit).unwrap().info.unwrap();
        assert_eq!(next.ponder_hit, predicted);
        p.quit().unwrap();
        assert!(!p.player().is_pondering(), "quit stops it");
    }
}

/// ply whose move takes longer than its clock holds, on the referee's clock (10 s between
/// its two reads), loses the game on time after that one move; the game names the side.
#[test]
fn ply_that_runs_out_of_time_loses_the_game_named() {
    let referee = SteppingClock::new(Duration::from_secs(10));
    let mut black = ply_on_a_stepping_clock("black", false);
    let mut white = ply_on_a_stepping_clock("white", false);
    let start = GameRecord::new(Position::start(BoardSize::Four));
    let sudden = Control::Clock(TimeControl::SuddenDeath {
        main: Duration::from_secs(5),
    });
    let g = play_game(&mut black, &mut white, &start, [sudden; 2], &referee).unwrap();
    assert_eq!(g.flagged, Some(Color::Black));
    assert_eq!(g.asked.len(), 1);
    assert_eq!(g.asked[0].used, Duration::from_secs(10));
    assert_eq!(g.points(Color::White), 1.0);
    assert_eq!(g.record.moves().len(), 1, "the game stops at the flag");
}

/// A GTP engine as a shell loop: `=id` to everything, `genmove` answered by `on_genmove`.
fn gtp_fake(on_genmove: &str) -> String {
    format!(
        r#"while read id cmd rest; do case "$cmd" in genmove) {on_genmove} ;; *) printf '=%s\n\n' "$id" ;; esac; done"#
    )
}

/// An NBoard engine as a shell loop: `pong N` to `ping N`, `go` answered by `on_go`.
fn nboard_fake(on_go: &str) -> String {
    format!(
        r#"while read cmd arg rest; do case "$cmd" in ping) echo "pong $arg" ;; go) {on_go} ;; esac; done"#
    )
}

/// Plays a game of `FirstMove` (black) against `other` (white): the error, which must be
/// white's.
fn against(other: &mut dyn Engine) -> EngineError {
    let mut a = FirstMove::new("first");
    let start = GameRecord::new(Position::start(BoardSize::Eight));
    let e = play_game(&mut a, other, &start, [MOVE, MOVE], &SYSTEM).unwrap_err();
    assert_eq!(e.side, Color::White, "{e}");
    e.error
}

const SLACK: Duration = Duration::from_millis(300);

#[test]
fn a_gtp_engine_that_exits_hangs_or_cheats_ends_the_game_naming_it_and_the_command() {
    let cases = [
        ("exit 0", Fault::Exited, "ended before answering"),
        (
            "exec sleep 30",
            Fault::Silent,
            "gave no answer within 0.4 s",
        ),
        (
            r#"printf '=%s a1\n\n' "$id""#,
            Fault::Illegal,
            "played a1, which is not a legal move",
        ),
        (
            r#"printf '=%s pass\n\n' "$id""#,
            Fault::Illegal,
            "passed in",
        ),
    ];
    for (behaviour, fault, says) in cases {
        let command = gtp_fake(behaviour);
        let mut engine = GtpEngine::start(&command).unwrap().with_slack(SLACK);
        let e = against(&mut engine);
        assert_eq!(e.fault, fault, "{behaviour}: {e}");
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("GTP engine `{command}`")),
            "{text}"
        );
        assert!(text.contains(says), "{behaviour}: {text}");
        assert!(
            text.contains("genmove w"),
            "the command is not named: {text}"
        );
    }
}

#[test]
fn an_nboard_engine_that_exits_hangs_or_cheats_ends_the_game_naming_it_and_the_command() {
    let cases = [
        ("exit 0", Fault::Exited, "ended before answering"),
        (
            "exec sleep 30",
            Fault::Silent,
            "gave no answer within 0.4 s",
        ),
        (
            "echo '=== A1'",
            Fault::Illegal,
            "played a1, which is not a legal move",
        ),
        (
            "echo 'hello'",
            Fault::Protocol,
            "`hello` where a move was due",
        ),
    ];
    for (behaviour, fault, says) in cases {
        let command = nboard_fake(behaviour);
        let mut engine = NboardEngine::start(&command).unwrap().with_slack(SLACK);
        let e = against(&mut engine);
        assert_eq!(e.fault, fault, "{behaviour}: {e}");
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("NBoard engine `{command}`")),
            "{text}"
        );
        assert!(text.contains(says), "{behaviour}: {text}");
        assert!(
            text.contains("(asked `go`)"),
            "the command is not named: {text}"
        );
    }
}

#[test]
fn a_program_that_is_not_there_or_not_the_protocol_is_refused_at_start() {
    let e = GtpEngine::start("exit 3").unwrap_err();
    assert_eq!(e.fault, Fault::Exited);
    assert!(
        e.to_string().contains("(asked `1 protocol_version`)"),
        "{e}"
    );
    let e = NboardEngine::start("echo 'not NBoard'; cat").unwrap_err();
    assert_eq!(e.fault, Fault::Protocol);
    assert!(
        e.to_string().contains("`not NBoard` after `nboard 2`"),
        "{e}"
    );
}
