//! The one match runner: two [`Engine`]s play a game from an opening, each on its own
//! control (a fixed [`Limit`] a move, or a game clock), every move timed on the referee's
//! clock and checked by the rules; a match plays each opening twice, colours swapped.
//!
//! Before any clock runs, each engine is readied for its control ([`Engine::prepare`]: ply
//! makes the tables it keeps), so that no first move pays for them. The referee keeps the
//! clocks: the time an engine takes, on the referee's clock, comes off
//! its [`SideClock`], and the engine is given its clock as it stands before every move. A
//! side whose main time runs out under sudden death or Fischer loses the game on time (the
//! game is recorded so, not an error); under byo-yomi its clock goes on as the control says.
//! An engine that names an illegal move, stays silent past its bound or ends, ends the game
//! with its [`EngineError`], which names it and the command.
//!
//! ```
//! use std::time::Duration;
//! use ply_engines::{matches::{play_game, Control}, PlyEngine};
//! use ply_othello::{play::Settings, spine::clock::SYSTEM, BoardSize, GameRecord, Position};
//!
//! let settings = || Settings { ponder: false, depth: Some(1), ..Settings::default() };
//! let (mut a, mut b) = (PlyEngine::new("a", settings()), PlyEngine::new("b", settings()));
//! let depth = Control::Limit(ply_engines::Limit::Depth(1));
//! let start = GameRecord::new(Position::start(BoardSize::Four));
//! let game = play_game(&mut a, &mut b, &start, [depth, depth], &SYSTEM).unwrap();
//! assert!(game.record.position().is_game_over());
//! assert_eq!(game.asked.len(), game.record.moves().iter().filter(|m| **m != ply_othello::Move::Pass).count());
//! assert_eq!(game.points(ply_othello::Color::Black) + game.points(ply_othello::Color::White), 1.0);
//! ```

use std::{fmt, time::Duration};

use ply_othello::{
    ggf::GgfGame,
    play::{SideClock, TimeControl},
    spine::clock::Clock,
    transcript, Color, GameRecord, Move,
};

use crate::engine::{illegal, Engine, EngineError, Info, Limit};

/// How a side is timed in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// The same limit for every move.
    Limit(Limit),
    /// A game clock, kept by the referee.
    Clock(TimeControl),
}

impl Control {
    /// What an engine is asked under this control, its side's clock standing at `clock`.
    fn limit(self, clock: SideClock) -> Limit {
        match self {
            Control::Limit(l) => l,
            Control::Clock(_) => Limit::Clock(clock),
        }
    }
}

/// One move an engine was asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    /// The side that moved.
    pub side: Color,
    /// The empty squares before the move.
    pub empties: u32,
    /// The move.
    pub played: Move,
    /// Its time on the referee's clock.
    pub used: Duration,
    /// What the engine said about the position.
    pub info: Option<Info>,
}

/// A game of a match, as a record: who played, the opening, every move with its time.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// Black's engine.
    pub black: String,
    /// White's engine.
    pub white: String,
    /// The opening the game started from (its moves are not the engines').
    pub opening: GameRecord,
    /// The whole game, the opening included.
    pub record: GameRecord,
    /// The moves the engines were asked for, in order (passes are in `record` only).
    pub asked: Vec<Asked>,
    /// The side that ran out of time, if one did (it loses; the game stops there).
    pub flagged: Option<Color>,
    /// Black's final disc difference, empties to the winner (0 when a side flagged).
    pub black_score: i32,
}

impl Game {
    /// Points of `side`: 1 for a win, one half for a draw, 0 for a loss (a flag loses).
    #[must_use]
    pub fn points(&self, side: Color) -> f64 {
        let black = match self.flagged {
            Some(Color::Black) => -1,
            Some(Color::White) => 1,
            None => self.black_score.signum(),
        };
        let mine = if side == Color::Black { black } else { -black };
        f64::from(mine + 1) / 2.0
    }

    /// `side`'s disc difference at the end.
    #[must_use]
    pub fn score(&self, side: Color) -> i32 {
        if side == Color::Black {
            self.black_score
        } else {
            -self.black_score
        }
    }

    /// Each side's time over the game (black, white), on the referee's clock.
    #[must_use]
    pub fn times(&self) -> [Duration; 2] {
        let mut t = [Duration::ZERO; 2];
        for a in &self.asked {
            t[usize::from(a.side == Color::White)] += a.used;
        }
        t
    }

    /// The game as a GGF record: the players (`PB`, `PW`), the moves with their times, the
    /// result (`RE`, black's score; `:t` for a loss on time).
    #[must_use]
    pub fn ggf(&self) -> GgfGame {
        let mut g = GgfGame::from_game(self.record.clone());
        g.tags.retain(|(n, _)| n != "RE");
        g.tags.push(("PB".to_owned(), self.black.clone()));
        g.tags.push(("PW".to_owned(), self.white.clone()));
        if let Some(side) = self.flagged {
            let black = if side == Color::Black { -64 } else { 64 };
            g.tags.push(("RE".to_owned(), format!("{black:+}:t")));
        } else if self.record.position().is_game_over() {
            g.tags
                .push(("RE".to_owned(), format!("{:+}.000", self.black_score)));
        }
        g
    }

    /// The moves as a transcript (`f5d6c3…`), the opening's included.
    #[must_use]
    pub fn transcript(&self) -> String {
        transcript::format(&self.record)
    }
}

/// What ended a game early: an engine's failure, naming it and the command; `side` is the
/// side it played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// The side of the engine that failed.
    pub side: Color,
    /// The engine's failure.
    pub error: EngineError,
    /// The moves played until then, the opening's included, as a transcript.
    pub so_far: String,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (playing {:?}", self.error, self.side)?;
        if self.so_far.is_empty() {
            f.write_str(")")
        } else {
            write!(f, ", after {})", self.so_far)
        }
    }
}

impl std::error::Error for GameError {}

/// Who plays a game: an engine for each side, or one engine for both.
///
/// One engine at both seats is self-play whose sides share state that two engines could
/// not: one random stream, one solver's line played to the end (`ply train gen` and `ply
/// train testset`). Its own moves are already on its game when [`Engine::go`] returns, so
/// it is told only the passes.
pub enum Seats<'a> {
    /// Black's engine, then white's.
    Two(&'a mut dyn Engine, &'a mut dyn Engine),
    /// One engine playing both sides.
    One(&'a mut dyn Engine),
}

impl fmt::Debug for Seats<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seats::Two(black, white) => write!(f, "Two({}, {})", black.name(), white.name()),
            Seats::One(both) => write!(f, "One({})", both.name()),
        }
    }
}

/// Plays `opening` to the end between `black` and `white`, on `controls` (black's, white's),
/// the moves timed on `referee`.
///
/// # Errors
/// The first engine that fails (see the module's documentation).
pub fn play_game(
    black: &mut dyn Engine,
    white: &mut dyn Engine,
    opening: &GameRecord,
    controls: [Control; 2],
    referee: &dyn Clock,
) -> Result<Game, GameError> {
    play_seated(Seats::Two(black, white), opening, controls, referee)
}

/// [`play_game`] with its players given as [`Seats`]: the one game loop every way ply
/// plays goes through.
///
/// # Errors
/// The first engine that fails (see the module's documentation).
pub fn play_seated(
    seats: Seats<'_>,
    opening: &GameRecord,
    controls: [Control; 2],
    referee: &dyn Clock,
) -> Result<Game, GameError> {
    // The engines, each once, and the one at each seat (black's, white's).
    let (mut engines, seat): (Vec<&mut dyn Engine>, [usize; 2]) = match seats {
        Seats::Two(black, white) => (vec![black, white], [0, 1]),
        Seats::One(both) => (vec![both], [0, 0]),
    };
    // The side an engine plays, for its errors: its seat's, or the side to move's when it
    // plays both.
    let shared = seat[0] == seat[1];
    let side_of = |k: usize, to_move: Color| match k {
        _ if shared => to_move,
        0 => Color::Black,
        _ => Color::White,
    };
    let mut game = opening.clone();
    let fail = |side: Color, error: EngineError, game: &GameRecord| GameError {
        side,
        error,
        so_far: transcript::format(game),
    };
    let first = opening.position().turn();
    for (k, e) in engines.iter_mut().enumerate() {
        e.new_game(opening)
            .map_err(|er| fail(side_of(k, first), er, &game))?;
    }
    let mut clocks = controls.map(|c| match c {
        Control::Clock(tc) => SideClock::new(tc),
        Control::Limit(_) => SideClock::new(TimeControl::None),
    });
    // Each seat's engine readied for its limit before any clock runs.
    for (i, &k) in seat.iter().enumerate() {
        let side = if i == 0 { Color::Black } else { Color::White };
        engines[k]
            .prepare(&controls[i].limit(clocks[i]))
            .map_err(|er| fail(side, er, &game))?;
    }
    let mut result = Game {
        black: engines[seat[0]].name().to_owned(),
        white: engines[seat[1]].name().to_owned(),
        opening: opening.clone(),
        record: opening.clone(),
        asked: Vec::new(),
        flagged: None,
        black_score: 0,
    };
    while !game.position().is_game_over() {
        let pos = game.position();
        let side = pos.turn();
        let i = usize::from(side == Color::White);
        if !pos.can_move() {
            game.play(Move::Pass).expect("a side without a move passes");
            for (k, e) in engines.iter_mut().enumerate() {
                e.play(Move::Pass)
                    .map_err(|er| fail(side_of(k, side), er, &game))?;
            }
            continue;
        }
        let limit = controls[i].limit(clocks[i]);
        let engine = &mut engines[seat[i]];
        let started = referee.now();
        let answer = engine.go(&limit).map_err(|e| fail(side, e, &game))?;
        let used = referee.now().saturating_duration_since(started);
        if let Err(why) = game.play(answer.best) {
            // The record is unchanged: the error shows the position the engine moved in.
            let error = illegal(engine.name(), "go", &game, answer.best, why);
            return Err(fail(side, error, &game));
        }
        result.asked.push(Asked {
            side,
            empties: pos.empties().count(),
            played: answer.best,
            used,
            info: answer.info,
        });
        if let Control::Clock(tc) = controls[i] {
            let before = clocks[i];
            let out_of_main = matches!(
                tc,
                TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. }
            ) && used > before.main_left();
            clocks[i].spend(used);
            let canadian_over = matches!(tc, TimeControl::Canadian { .. })
                && before.in_byo_yomi()
                && used > before.period_left();
            let japanese_over = matches!(tc, TimeControl::Japanese { .. })
                && clocks[i].in_byo_yomi()
                && clocks[i].byo_yomi_count() == 0;
            let out_of_periods = canadian_over || japanese_over;
            if out_of_main || out_of_periods {
                result.flagged = Some(side);
                result.record = game;
                return Ok(result);
            }
        }
        // The opponent's engine is told the move, unless it made it.
        if !shared {
            engines[seat[1 - i]]
                .play(answer.best)
                .map_err(|e| fail(side.other(), e, &game))?;
        }
    }
    let end = game.position();
    result.black_score = if end.turn() == Color::Black {
        end.final_score()
    } else {
        -end.final_score()
    };
    result.record = game;
    Ok(result)
}

/// A match's failure: the game it happened in and what ended it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchError {
    /// The opening's index in the list given.
    pub opening: usize,
    /// The side the first engine played in that game.
    pub first_as: Color,
    /// What ended the game.
    pub error: Box<GameError>,
}

impl MatchError {
    /// The error in words with the opening's text and the first engine's name:
    /// `opening 3 (f5d6), ply as Black: …`.
    #[must_use]
    pub fn describe(&self, opening: &str, first: &str) -> String {
        format!(
            "opening {} ({opening}), {first} as {:?}: {}",
            self.opening + 1,
            self.first_as,
            self.error
        )
    }
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "opening {}, the first engine as {:?}: {}",
            self.opening + 1,
            self.first_as,
            self.error
        )
    }
}

impl std::error::Error for MatchError {}

/// Plays every opening twice, `first` as black then as white, `first` on `controls[0]` and
/// `second` on `controls[1]`; `each` sees every game as it ends (its opening's index, the
/// side `first` played). The games in that order.
///
/// # Errors
/// The first game an engine ends early, with its opening and colours.
pub fn play_match(
    first: &mut dyn Engine,
    second: &mut dyn Engine,
    openings: &[GameRecord],
    controls: [Control; 2],
    referee: &dyn Clock,
    each: &mut dyn FnMut(usize, Color, &Game),
) -> Result<Vec<Game>, MatchError> {
    let mut games = Vec::with_capacity(openings.len() * 2);
    for (k, opening) in openings.iter().enumerate() {
        for first_as in [Color::Black, Color::White] {
            let played = if first_as == Color::Black {
                play_game(first, second, opening, controls, referee)
            } else {
                play_game(second, first, opening, [controls[1], controls[0]], referee)
            };
            let game = played.map_err(|error| MatchError {
                opening: k,
                first_as,
                error: Box::new(error),
            })?;
            each(k, first_as, &game);
            games.push(game);
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineError, Fault};

    #[test]
    fn a_match_error_is_described_with_the_opening_and_the_first_engine() {
        let e = MatchError {
            opening: 2,
            first_as: Color::White,
            error: Box::new(GameError {
                side: Color::Black,
                error: EngineError::new("edax", "genmove b", Fault::Exited, "gone"),
                so_far: String::new(),
            }),
        };
        let text = e.describe("f5d6", "ply");
        assert!(
            text.starts_with("opening 3 (f5d6), ply as White: "),
            "{text}"
        );
        assert!(text.ends_with(&format!("{}", e.error)), "{text}");
    }
}
