//! ply itself as an engine, in this process: [`ply_othello::play::Player`] (its game, the
//! tables and solver it keeps from move to move, its clock, its pondering) behind
//! [`Engine`]. Nothing here can hang or misbehave as a program can; its errors are only the
//! rules refusing a move it is told.
//!
//! A fixed time is the player's move time without a game clock; a depth is its depth (the
//! solver still takes over near the end, within [`depth_time`]); a clock is the player's clock, set to what is
//! left before every move.

use std::time::Duration;

use ply_othello::{
    analyze::Engine as Source,
    play::{Player, Settings, TimeControl},
    GameRecord, Move,
};

use crate::engine::{illegal, Answer, Engine, EngineError, Info, Limit};

/// How long a move may take at `depth` (the solver's share near the end, where the depth
/// does not bound the search): half a second a ply, as NBoard's `set depth N` and `ply gtp
/// --depth N` give it.
#[must_use]
pub fn depth_time(depth: u32) -> Duration {
    Duration::from_millis(u64::from(depth) * 500)
}

/// ply, in process.
#[derive(Debug)]
pub struct PlyEngine {
    name: String,
    player: Player,
}

impl PlyEngine {
    /// A player of `settings`, named `name` in messages and records.
    #[must_use]
    pub fn new(name: impl Into<String>, settings: Settings) -> PlyEngine {
        PlyEngine::with_player(name, Player::new(settings))
    }

    /// `player` as an engine (a player on a clock of a test's, say).
    #[must_use]
    pub fn with_player(name: impl Into<String>, player: Player) -> PlyEngine {
        PlyEngine {
            name: name.into(),
            player,
        }
    }

    /// The player.
    #[must_use]
    pub fn player(&self) -> &Player {
        &self.player
    }

    /// Sets the player up for a move under `limit`.
    fn limit(&mut self, limit: &Limit) {
        let turn = self.player.position().turn();
        let mut settings = self.player.settings().clone();
        let control = match limit {
            Limit::Time(d) => {
                settings.move_time = *d;
                settings.depth = Some(60);
                TimeControl::None
            }
            Limit::Depth(d) => {
                settings.move_time = depth_time(*d);
                settings.depth = Some(*d);
                TimeControl::None
            }
            Limit::Clock(c) => c.control(),
        };
        let s = self.player.settings();
        if (s.move_time, s.depth) != (settings.move_time, settings.depth) {
            self.player.set_settings(settings);
        }
        if self.player.clock_of(turn).control() != control {
            self.player.set_time_control(control);
        }
        if let Limit::Clock(c) = limit {
            let (left, stones) = if c.in_byo_yomi() {
                (c.period_left(), c.byo_yomi_count())
            } else {
                (c.main_left(), 0)
            };
            self.player.set_time_left(turn, left, stones);
        }
    }
}

impl Engine for PlyEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, game: &GameRecord) -> Result<(), EngineError> {
        self.player.set_game(game.clone());
        Ok(())
    }

    fn prepare(&mut self, limit: &Limit) -> Result<(), EngineError> {
        self.limit(limit);
        self.player.prepare();
        Ok(())
    }

    fn play(&mut self, m: Move) -> Result<(), EngineError> {
        let before = self.player.game().clone();
        self.player
            .play(m)
            .map_err(|e| illegal(&self.name, &format!("play {m}"), &before, m, e))
    }

    fn go(&mut self, limit: &Limit) -> Result<Answer, EngineError> {
        self.limit(limit);
        let think = self.player.go();
        let a = &think.analysis;
        let info = Info {
            score: a.score.discs(),
            proven: a.proven,
            depth: a.depth,
            book: a.engine == Source::Book,
            line: a.line.clone(),
            nodes: a.nodes,
            ponder_hit: think.ponder_hit,
            source: Some(a.engine),
            budget: Some(think.budget),
        };
        self.play(think.best)?;
        Ok(Answer {
            best: think.best,
            info: Some(info),
        })
    }

    fn quit(&mut self) -> Result<(), EngineError> {
        self.player.stop_pondering();
        Ok(())
    }
}
