//! A game between two players on a referee's clock: the referee measures each move on its
//! own clock (the players' own clocks only plan), and a move the rules refuse or a clock
//! that runs out ends the game with an error naming the side.

use std::{fmt, time::Duration};

use super::{Player, SideClock, TimeControl};
use crate::{analyze::Engine, spine::clock::Clock, Color, GameRecord, Move};

/// What ended a game before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// A side named a move the rules refuse.
    Illegal {
        /// The side.
        side: Color,
        /// The move.
        played: Move,
        /// The rules' reason.
        why: String,
    },
    /// A side's clock ran out.
    Flagged {
        /// The side.
        side: Color,
        /// The move's time.
        used: Duration,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Illegal { side, played, why } => {
                write!(f, "{side:?} played {played}, which is illegal: {why}")
            }
            GameError::Flagged { side, used } => {
                write!(f, "{side:?} ran out of time ({used:?} on its last move)")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game, from its start.
    pub record: GameRecord,
    /// Black's final disc difference, empties to the winner.
    pub black_score: i32,
    /// Each side's moves' times on the referee's clock (black, white).
    pub times: [Vec<Duration>; 2],
    /// Moves that were ponder hits, by side.
    pub ponder_hits: [u32; 2],
    /// Moves that took more than twice their budget and 50 ms over it: (side, empty
    /// squares, budget, time taken, the engine that answered).
    pub overruns: Vec<(Color, u32, Duration, Duration, &'static str)>,
    /// The depth each side reached on each of its moves that the midgame engine answered
    /// (not the book, not the solver), with whether it was a ponder hit.
    pub depths: [Vec<(u32, bool)>; 2],
}

/// Plays `start` to the end between `black` and `white`, both on `control`, the moves
/// timed on `referee`.
///
/// # Errors
/// A side that names an illegal move or runs out of time.
pub fn play_game(
    black: &mut Player,
    white: &mut Player,
    start: GameRecord,
    control: TimeControl,
    referee: &dyn Clock,
) -> Result<Played, GameError> {
    let mut players = [black, white];
    let mut clocks = [SideClock::new(control); 2];
    for p in &mut players {
        p.set_game(start.clone());
        p.set_time_control(control);
    }
    let mut game = start;
    let mut played = Played {
        record: game.clone(),
        black_score: 0,
        times: [Vec::new(), Vec::new()],
        ponder_hits: [0; 2],
        overruns: Vec::new(),
        depths: [Vec::new(), Vec::new()],
    };
    while !game.position().is_game_over() {
        let pos = game.position();
        let side = pos.turn();
        let i = usize::from(side == Color::White);
        let m = if pos.can_move() {
            let started = referee.now();
            let think = players[i].go();
            let used = referee.now().saturating_duration_since(started);
            if used > think.budget * 2 && used > think.budget + Duration::from_millis(50) {
                played.overruns.push((
                    side,
                    pos.empties().count(),
                    think.budget,
                    used,
                    think.analysis.engine.name(),
                ));
            }
            let before = clocks[i];
            if control != TimeControl::None
                && !before.in_byo_yomi()
                && used > before.main_left()
                && !matches!(
                    control,
                    TimeControl::Canadian { .. } | TimeControl::Japanese { .. }
                )
            {
                return Err(GameError::Flagged { side, used });
            }
            clocks[i].spend(used);
            // The referee's clock is the true one: the player is told what is left.
            if matches!(
                control,
                TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. }
            ) {
                players[i].set_time_left(side, clocks[i].main_left(), 0);
            }
            played.times[i].push(used);
            played.ponder_hits[i] += u32::from(think.ponder_hit);
            if think.analysis.engine == Engine::Midgame {
                played.depths[i].push((think.analysis.depth, think.ponder_hit));
            }
            think.best
        } else {
            Move::Pass
        };
        game.play(m).map_err(|e| GameError::Illegal {
            side,
            played: m,
            why: e.to_string(),
        })?;
        for p in &mut players {
            p.play(m).map_err(|e| GameError::Illegal {
                side,
                played: m,
                why: e.to_string(),
            })?;
        }
    }
    for p in &mut players {
        p.stop_pondering();
    }
    let end = game.position();
    played.black_score = if end.turn() == Color::Black {
        end.final_score()
    } else {
        -end.final_score()
    };
    played.record = game;
    Ok(played)
}
