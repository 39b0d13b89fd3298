//! ply-engines' clients against ply's own protocols, run as the real binary: a whole 6x6
//! game of ply in process against `ply gtp` (on a Fischer clock, so `kgs-time_settings`
//! and `time_left` are sent), against `ply nboard` (at a depth), and against `ply serve`'s
//! JSON API, each game replayed and its score checked.

mod common;

use std::time::Duration;

use ply_engines::{
    matches::{play_game, Control, Game},
    ApiEngine, Engine, GtpEngine, Limit, NboardEngine, PlyEngine,
};
use ply_othello::{
    play::{Settings, TimeControl},
    spine::clock::SYSTEM,
    BoardSize, Color, GameRecord, Position,
};

const PLY: &str = env!("CARGO_BIN_EXE_ply");

/// ply in process, shallow and without pondering: the debug build's pace does not matter.
fn ply_side() -> PlyEngine {
    PlyEngine::new(
        "ply",
        Settings {
            ponder: false,
            hash_mb: Some(2),
            ..Settings::default()
        },
    )
}

/// A 6x6 game from the start, ply in process as black at depth 2 against `other` on
/// `control`; checked: the record is a legal game to its end with the score recorded, and
/// every move after the start was asked of an engine.
fn game_against(other: &mut dyn Engine, control: Control) -> Game {
    let mut ply = ply_side();
    let start = GameRecord::new(Position::start(BoardSize::Six));
    let game = play_game(
        &mut ply,
        other,
        &start,
        [Control::Limit(Limit::Depth(2)), control],
        &SYSTEM,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut replay = GameRecord::new(start.start());
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
    assert_eq!(game.black_score, black);
    assert!(game.asked.iter().any(|m| m.side == Color::White));
    game
}

#[test]
fn the_gtp_client_plays_ply_gtp_on_a_fischer_clock() {
    let command = format!("{PLY} gtp --no-ponder --depth 2");
    let mut gtp = GtpEngine::start(&command).unwrap();
    let clock = Control::Clock(TimeControl::Fischer {
        main: Duration::from_secs(60),
        increment: Duration::from_secs(1),
    });
    let game = game_against(&mut gtp, clock);
    assert_eq!(game.white, format!("GTP engine `{command}`"));
    // GTP names only its move.
    assert!(game
        .asked
        .iter()
        .filter(|m| m.side == Color::White)
        .all(|m| m.info.is_none()));
    gtp.quit().unwrap();
}

#[test]
fn the_nboard_client_plays_ply_nboard_at_a_depth() {
    let command = format!("{PLY} nboard");
    let mut nboard = NboardEngine::start(&command).unwrap();
    let game = game_against(&mut nboard, Control::Limit(Limit::Depth(2)));
    assert_eq!(game.white, format!("NBoard engine `{command}`"));
    // ply's NBoard engine says its evaluation with each move.
    assert!(game
        .asked
        .iter()
        .filter(|m| m.side == Color::White)
        .all(|m| m.info.is_some()));
    // On a clock the game is sent again with the time left (GGF's TI): still a legal move.
    let start = GameRecord::new(Position::start(BoardSize::Six));
    nboard.new_game(&start).unwrap();
    let clock = Limit::clock(TimeControl::SuddenDeath {
        main: Duration::from_secs(10),
    });
    let answer = nboard.go(&clock).unwrap();
    let ply_othello::Move::Play(sq) = answer.best else {
        panic!("{answer:?}")
    };
    assert!(start.position().is_legal(sq));
    nboard.quit().unwrap();
}

#[test]
fn the_api_client_plays_ply_serve() {
    let (_served, line) = common::serve("127.0.0.1:0", Duration::from_secs(20));
    let url = line
        .trim()
        .strip_prefix("ply: serving on ")
        .unwrap_or_else(|| panic!("{line:?}"));
    let mut api = ApiEngine::new(url).unwrap();
    let budget = Control::Limit(Limit::Time(Duration::from_millis(100)));
    let game = game_against(&mut api, budget);
    // The API says the value and whether it is proven; on a budget the last moves are
    // solved.
    let white: Vec<_> = game
        .asked
        .iter()
        .filter(|m| m.side == Color::White)
        .collect();
    assert!(white.iter().all(|m| m.info.is_some()));
    let last = white.last().unwrap();
    assert!(last.info.as_ref().unwrap().proven, "{last:?}");
    // A server that is not there is an error naming it.
    let mut gone = ApiEngine::new("http://127.0.0.1:9").unwrap();
    let mut ply = ply_side();
    let start = GameRecord::new(Position::start(BoardSize::Six));
    let e = play_game(
        &mut ply,
        &mut gone,
        &start,
        [Control::Limit(Limit::Depth(1)); 2],
        &SYSTEM,
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("ply's API at http://127.0.0.1:9 cannot be reached"),
        "{e}"
    );
    assert!(ApiEngine::new("127.0.0.1:9").is_err());
}
