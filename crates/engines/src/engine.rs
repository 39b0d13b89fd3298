//! The one interface every engine is driven through, whatever is behind it: ply in
//! process, ply's HTTP API, or another program speaking GTP or NBoard. The match runner,
//! the benchmarks and Python see only [`Engine`].
//!
//! An engine keeps its own copy of the game: [`Engine::new_game`] gives it the start (an
//! opening's moves included), [`Engine::go`] asks it for a move under a [`Limit`] and counts
//! that move as played, and [`Engine::play`] tells it every other move (the opponent's, and
//! every pass). Each failure is an [`EngineError`] that names the engine, the command it was
//! asked and what went wrong, so a match that ends early says who ended it and how.

use std::{fmt, time::Duration};

use ply_othello::{
    analyze::Engine as Source,
    play::{SideClock, TimeControl},
    GameRecord, Move,
};

/// How long a move may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A fixed time for this move.
    Time(Duration),
    /// The midgame search to this many plies (the solver still takes over near the end).
    Depth(u32),
    /// A game clock: the side to move's clock as it stands (its time control, what is left).
    Clock(SideClock),
}

impl Limit {
    /// A full clock of `control` (a game's first move).
    #[must_use]
    pub fn clock(control: TimeControl) -> Limit {
        Limit::Clock(SideClock::new(control))
    }

    /// The longest an engine may stay silent on a move under this limit before it is
    /// taken for hung: ten times the move's time (the clock's time left) and `slack` more,
    /// or `slack` alone for a depth.
    #[must_use]
    pub fn silence(&self, slack: Duration) -> Duration {
        let planned = match self {
            Limit::Time(d) => *d,
            Limit::Depth(_) => Duration::ZERO,
            Limit::Clock(c) => c.main_left() + c.period_left(),
        };
        planned.saturating_mul(10).saturating_add(slack)
    }
}

/// What an engine said about the position it moved in, when it says anything (ply does;
/// a GTP program names its move only).
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// The value for the side to move, in discs.
    pub score: f64,
    /// Whether the value is proven (an exact solve or the weak solution's book).
    pub proven: bool,
    /// The depth searched (the empty squares once exact).
    pub depth: u32,
    /// Whether the opening book answered.
    pub book: bool,
    /// The line the engine expects, from its move on.
    pub line: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the engine had pondered on this position.
    pub ponder_hit: bool,
    /// Which of ply's searches answered (the book, the midgame engine, the solver...), where
    /// the engine is ply and says it.
    pub source: Option<Source>,
    /// The time the engine gave itself for the move, where it says (ply in process: its
    /// clock's budget, or its move time).
    pub budget: Option<Duration>,
}

/// An engine's answer to [`Engine::go`].
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The move: a square, or a pass when the side to move has none.
    pub best: Move,
    /// What the engine said about the position, when it says anything.
    pub info: Option<Info>,
}

/// What went wrong with an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// It could not be started, or it ended (exited, closed its output).
    Exited,
    /// It said nothing within the bound.
    Silent,
    /// It named a move the rules refuse, or passed with a move to play.
    Illegal,
    /// It refused the command.
    Refused,
    /// It answered something that is not the protocol.
    Protocol,
    /// It was given something it cannot do (a board size its protocol lacks).
    Unsupported,
}

/// An engine's failure: which engine, which command, what went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    /// The engine, as it is named to the user (`GTP engine `edax -gtp``).
    pub engine: String,
    /// The command it was asked (with its id where the protocol numbers them).
    pub command: String,
    /// The kind of failure.
    pub fault: Fault,
    /// What went wrong, in words.
    pub message: String,
}

impl EngineError {
    /// An error of `engine` on `command`.
    #[must_use]
    pub fn new(
        engine: impl Into<String>,
        command: impl Into<String>,
        fault: Fault,
        message: impl Into<String>,
    ) -> EngineError {
        EngineError {
            engine: engine.into(),
            command: command.into(),
            fault,
            message: message.into(),
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} (asked `{}`)",
            self.engine, self.message, self.command
        )
    }
}

impl std::error::Error for EngineError {}

/// An Othello engine: see the module's documentation.
pub trait Engine: Send {
    /// The engine's name in messages and game records.
    fn name(&self) -> &str;

    /// Starts a game from `game`: its start position and the moves already played.
    ///
    /// # Errors
    /// When the engine refuses or cannot take the game (a size its protocol lacks).
    fn new_game(&mut self, game: &GameRecord) -> Result<(), EngineError>;

    /// Readies the engine for the game [`Engine::new_game`] started, to be played under
    /// `limit`, before any clock runs: ply makes the tables it keeps from move to move
    /// here, so that its first move does not pay for them out of its own time. An engine
    /// with nothing to ready does nothing (the default).
    ///
    /// # Errors
    /// When the engine refuses the limit or has gone.
    fn prepare(&mut self, limit: &Limit) -> Result<(), EngineError> {
        let _ = limit;
        Ok(())
    }

    /// Tells the engine a move it did not name itself: the opponent's, or a pass.
    ///
    /// # Errors
    /// When the engine refuses the move or has gone.
    fn play(&mut self, m: Move) -> Result<(), EngineError>;

    /// Asks for the side to move's move within `limit`; the move is played on the engine's
    /// game.
    ///
    /// # Errors
    /// When the engine names an illegal move, passes with a move to play, stays silent past
    /// [`Limit::silence`], ends, or answers outside its protocol.
    fn go(&mut self, limit: &Limit) -> Result<Answer, EngineError>;

    /// Ends the engine (a subprocess is asked to quit, then killed if it stays).
    ///
    /// # Errors
    /// When ending it fails in a way worth telling (none of this crate's engines has one: a
    /// program that stays is killed).
    fn quit(&mut self) -> Result<(), EngineError>;
}

/// The error of `engine`, asked `command`, whose move `m` the rules refuse in `game`'s
/// position for the reason `why`.
#[must_use]
pub fn illegal(
    engine: &str,
    command: &str,
    game: &GameRecord,
    m: Move,
    why: impl fmt::Display,
) -> EngineError {
    EngineError::new(
        engine,
        command,
        Fault::Illegal,
        format!(
            "played {m}, which is not a legal move in {}: {why}",
            ply_othello::text::format_position(&game.position())
        ),
    )
}
