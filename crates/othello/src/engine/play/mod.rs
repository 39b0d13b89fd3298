//! One player under every protocol: a game (its moves, undo, the position), the tables and
//! the solver kept from move to move, each side's clock ([`SideClock`]) that decides how
//! long a move may think, and pondering: after its own move is played, the player thinks on
//! the opponent's time on a thread of its own, on the position after the reply it expects
//! (the second move of its own line), and when that reply comes the search goes on from what
//! the pondering left in the kept tables; any move stops it at once.
//!
//! As Edax's `play.c` under its `nboard.c` and `gtp.c`: the protocol front ends translate
//! lines into [`Player::go`], [`Player::play`], [`Player::undo`], [`Player::hint`] and the
//! clock's setters. Everything that depends on time reads the clock given to
//! [`Player::with_clock`], so the clock's use is tested on a clock a test drives.
//!
//! A game between players (a referee's clock, a flag or an illegal move ending it) is not
//! played here: `ply-engines`' match runner plays it, with each player behind its
//! `PlyEngine`, as it plays every other game of ply's.
//!
//! ```
//! use std::time::Duration;
//! use ply_othello::{play::{Player, Settings, TimeControl}, BoardSize, Move, Position};
//!
//! let mut p = Player::new(Settings { ponder: false, ..Settings::default() });
//! p.new_game(Position::start(BoardSize::Four));
//! p.set_time_control(TimeControl::SuddenDeath { main: Duration::from_secs(5) });
//! let think = p.go();
//! p.play(think.best).unwrap();
//! assert_eq!(p.game().moves().len(), 1);
//! assert!(p.undo());
//! ```

mod clock;
mod ponder;

pub use clock::{main_share, phase_weight, SideClock, TimeControl, FLOOR, OVERHEAD};

use std::{
    sync::{atomic::AtomicBool, Arc},
    time::Duration,
};

use self::ponder::{Ponder, Pondered};
use crate::{
    analyze::{
        analyze_with, table_mb, Analysis, KeptSolver, Options, Request, RequestError, MAX_DEPTH,
        MAX_THREADS, MAX_TIME_S,
    },
    book::Book,
    solve::SolveOptions,
    spine::clock::{Clock, SystemClock},
    BoardSize, Color, GameRecord, Move, PlayError, Position,
};

/// How the player plays.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Deepest midgame search without a game clock (the exact solver takes over near the
    /// end regardless); with a game clock the clock alone decides.
    pub depth: Option<u32>,
    /// The most a move may take without a game clock.
    pub move_time: Duration,
    /// Threads for the search.
    pub threads: usize,
    /// Memory for the tables, in megabytes; `None` for [`crate::analyze::table_mb`].
    pub hash_mb: Option<usize>,
    /// Answer from the opening book where it knows the position.
    pub book: bool,
    /// The book to answer from in place of the shipped one.
    pub book_file: Option<Arc<Book>>,
    /// Think on the opponent's time.
    pub ponder: bool,
}

impl Settings {
    /// The settings at strength `depth` (a protocol's level: NBoard's `set depth N`, `ply
    /// gtp --depth N`): the midgame engine to at most `depth` plies, and half a second a
    /// ply without a game clock, so half a second at depth 1 and half a minute at depth 60.
    #[must_use]
    pub fn at_depth(depth: u32) -> Settings {
        Settings {
            depth: Some(depth),
            move_time: Duration::from_millis(u64::from(depth) * 500),
            ..Settings::default()
        }
    }

    /// What these settings ask of an analysis, as the one [`Request`] every front end's
    /// analysis is checked as: the depth, the threads, the book; `all_moves` to score
    /// every move. The time is the player's (its clock's or its move time), not a person's.
    #[must_use]
    pub fn request(&self, all_moves: bool) -> Request {
        Request {
            time: None,
            depth: self.depth,
            threads: self.threads,
            book: self.book,
            book_file: self.book_file.clone(),
            solver: true,
            all_moves,
        }
    }

    /// Checks the settings for a game on `size` as [`Request::validate`] does: the depth,
    /// the threads, a book of the game's size. The protocols call it where the settings or
    /// the game come in, and refuse what it refuses with its message.
    ///
    /// # Errors
    /// The first bad field.
    pub fn check(&self, size: BoardSize) -> Result<(), RequestError> {
        self.request(true).validate(size)
    }
}

impl Default for Settings {
    /// Depth 12, 6 s a move without a clock, one thread, the shipped book, pondering on.
    fn default() -> Settings {
        Settings {
            depth: Some(12),
            move_time: Duration::from_secs(6),
            threads: 1,
            hash_mb: None,
            book: true,
            book_file: None,
            ponder: true,
        }
    }
}

/// What [`Player::go`] found.
#[derive(Clone, Debug)]
pub struct Think {
    /// The move to play: a square, or a pass when the side to move has none (or the game
    /// is over).
    pub best: Move,
    /// The analysis it comes from.
    pub analysis: Analysis,
    /// The time the move was given.
    pub budget: Duration,
    /// The time it took, on the player's clock.
    pub used: Duration,
    /// Whether the position was the one the player pondered on.
    pub ponder_hit: bool,
    /// The depth the pondering had reached on this position (0 on a miss).
    pub pondered_depth: u32,
}

/// The player: see the module's documentation.
pub struct Player {
    settings: Settings,
    clock: Arc<dyn Clock>,
    game: GameRecord,
    clocks: [SideClock; 2],
    kept: KeptSolver,
    /// The last position [`Player::go`] answered and its analysis: when its best move is
    /// played, pondering starts on the reply the analysis expects.
    last: Option<(Position, Analysis)>,
    ponder: Option<Ponder>,
    /// What the last stopped pondering found, until the next `go` reads it.
    pondered: Option<Pondered>,
    /// Score every legal move in `go`, not only the best ([`Player::set_all_moves`]).
    all_moves: bool,
    /// Keep the solver from move to move ([`Player::set_keep_solver`]).
    keep_solver: bool,
    /// Raised from outside, stops the search under way (not the pondering, which has its
    /// own).
    stop: Option<Arc<AtomicBool>>,
}

impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Player")
            .field("settings", &self.settings)
            .field("game", &self.game)
            .field("clocks", &self.clocks)
            .field("pondering", &self.ponder.is_some())
            .finish_non_exhaustive()
    }
}

fn slot(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Player {
    /// A player on the 8x8 start position, on the system's clock.
    #[must_use]
    pub fn new(settings: Settings) -> Player {
        Player::with_clock(settings, Arc::new(SystemClock))
    }

    /// A player whose budgets and searches read `clock`.
    #[must_use]
    pub fn with_clock(settings: Settings, clock: Arc<dyn Clock>) -> Player {
        Player {
            settings,
            clock,
            game: GameRecord::new(Position::start(BoardSize::Eight)),
            clocks: [SideClock::new(TimeControl::None); 2],
            kept: KeptSolver::default(),
            last: None,
            ponder: None,
            pondered: None,
            all_moves: false,
            keep_solver: true,
            stop: None,
        }
    }

    /// Whether [`Player::go`] scores every legal move of the position, as the JSON API
    /// does, or only the best (the default, as an engine in a game does).
    pub fn set_all_moves(&mut self, on: bool) {
        self.all_moves = on;
    }

    /// Whether the player keeps its solver from one move to the next (the default, as an
    /// engine in a game does), or each search borrows one of those the process keeps
    /// between analyses on a clock, as the JSON API's do.
    pub fn set_keep_solver(&mut self, on: bool) {
        self.stop_pondering();
        self.keep_solver = on;
    }

    /// A flag that stops this player's searches ([`Player::go`], [`Player::hint`],
    /// [`Player::analyse_with`]) when raised, keeping what they found: a protocol's way to
    /// stop thinking when the GUI asks (NBoard's `ping`). `None` for none.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes the settings (pondering stops).
    pub fn set_settings(&mut self, settings: Settings) {
        self.stop_pondering();
        self.settings = settings;
    }

    /// The game so far.
    #[must_use]
    pub fn game(&self) -> &GameRecord {
        &self.game
    }

    /// The position to play from.
    #[must_use]
    pub fn position(&self) -> Position {
        self.game.position()
    }

    /// Starts a game from `start` (pondering stops; the clocks are kept).
    pub fn new_game(&mut self, start: Position) {
        self.set_game(GameRecord::new(start));
    }

    /// Takes `game` as the game so far (a GUI's `set game`). Pondering stops; what it found
    /// is kept for the next [`Player::go`], which uses it if `game` ends on the position
    /// it pondered.
    pub fn set_game(&mut self, game: GameRecord) {
        self.stop_pondering();
        self.game = game;
    }

    /// Plays `m` for the side to move; a square played where the side to move must pass
    /// first is played after that pass, as GUIs that leave passes out send it. Pondering on
    /// the opponent's time stops at once; when `m` is the move [`Player::go`] just chose,
    /// pondering starts (if on) on the reply it expects.
    ///
    /// # Errors
    /// When the move is not legal; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        self.stop_pondering();
        let before = self.game.position();
        match m {
            Move::Play(sq) => self.game.play_with_implicit_pass(sq).map(|_| ())?,
            Move::Pass => self.game.play(Move::Pass)?,
        }
        if let Some((pos, a)) = self.last.take() {
            let own = a.line.first().copied().unwrap_or(Move::Pass);
            if self.settings.ponder && pos == before && own == m {
                self.start_pondering(&a);
            }
        }
        Ok(())
    }

    /// Takes back the last move (a pass counts as one); false when there is none.
    pub fn undo(&mut self) -> bool {
        let len = self.game.moves().len();
        len > 0 && self.truncate(len - 1)
    }

    /// Keeps the first `len` moves of the game; false (and the game unchanged) when it has
    /// fewer.
    pub fn truncate(&mut self, len: usize) -> bool {
        if len > self.game.moves().len() {
            return false;
        }
        self.stop_pondering();
        let mut game = GameRecord::new(self.game.start());
        for &m in &self.game.moves()[..len] {
            if game.play(m).is_err() {
                return false;
            }
        }
        self.game = game;
        true
    }

    /// Sets both sides' clocks to a full `control`. On a clock, the kept solver is made
    /// now ([`Player::prepare`]).
    pub fn set_time_control(&mut self, control: TimeControl) {
        self.clocks = [SideClock::new(control); 2];
        if control != TimeControl::None {
            self.prepare();
        }
    }

    /// Makes the solver the player keeps from move to move now, for the game's board size
    /// and the settings' threads and table (unless it is made with those already): a front
    /// end calls it before a game's clock starts, so that the first move that reaches the
    /// solver does not pay for its table out of its own time. A player that does not keep
    /// its solver ([`Player::set_keep_solver`]) makes nothing.
    pub fn prepare(&mut self) {
        if !self.keep_solver {
            return;
        }
        let size = self.position().size();
        self.kept.prepare(SolveOptions {
            threads: self.settings.threads.clamp(1, MAX_THREADS),
            hash_mb: self
                .settings
                .hash_mb
                .unwrap_or_else(|| table_mb(size))
                .max(1),
        });
    }

    /// Whether the solver the player keeps is made ([`Player::prepare`], or by a search
    /// that reached it).
    #[must_use]
    pub fn is_prepared(&self) -> bool {
        self.kept.is_made()
    }

    /// Sets what is left on `color`'s clock ([`SideClock::set_left`]).
    pub fn set_time_left(&mut self, color: Color, left: Duration, stones: u32) {
        self.clocks[slot(color)].set_left(left, stones);
    }

    /// Sets `color`'s clock as a whole (a clock a protocol worked out, as NBoard's from the
    /// game's `TI` and its moves' times).
    pub fn set_clock(&mut self, color: Color, clock: SideClock) {
        self.clocks[slot(color)] = clock;
    }

    /// `color`'s clock.
    #[must_use]
    pub fn clock_of(&self, color: Color) -> &SideClock {
        &self.clocks[slot(color)]
    }

    /// How long the side to move may think now: its clock's budget, or without a game
    /// clock the settings' move time.
    #[must_use]
    pub fn budget(&self) -> Duration {
        let pos = self.position();
        self.clocks[slot(pos.turn())]
            .budget(pos.empties().count())
            .unwrap_or(self.settings.move_time)
    }

    /// Whether a thread is pondering now.
    #[must_use]
    pub fn is_pondering(&self) -> bool {
        self.ponder.is_some()
    }

    /// The deepest iteration the pondering now running has finished (0 when none is).
    #[must_use]
    pub fn ponder_depth(&self) -> u32 {
        self.ponder.as_ref().map_or(0, Ponder::depth)
    }

    /// The options of a search of a position of `size` within `budget`, assembled through
    /// the one [`Request`] and its check, then given what only a player has: its clock, its
    /// kept solver and its stop flag. The depth (without a game clock; with one the clock
    /// alone decides) caps the search within the budget. Settings out of range are brought
    /// into it (the protocols refuse them with [`Settings::check`] first), and a book of
    /// another size answers nothing, as in [`analyze_with`].
    fn options(&self, size: BoardSize, budget: Duration, all_moves: bool) -> Options {
        let mut req = self.settings.request(all_moves);
        req.depth = if self.timeless() {
            self.settings.depth.map(|d| d.clamp(1, MAX_DEPTH))
        } else {
            None
        };
        req.time = req
            .depth
            .is_none()
            .then_some(budget.as_secs_f64().clamp(1e-3, MAX_TIME_S));
        req.threads = req.threads.clamp(1, MAX_THREADS);
        if req.book_file.as_ref().is_some_and(|b| b.size() != size) {
            req.book_file = None;
            req.book = false;
        }
        let base = req
            .options(size)
            .unwrap_or_else(|_| Options::budget(budget));
        Options {
            budget: Some(budget),
            hash_mb: self.settings.hash_mb,
            all_moves: all_moves || self.all_moves,
            clock: self.clock.clone(),
            kept_solver: self.keep_solver.then(|| self.kept.clone()),
            stop: self.stop.clone(),
            ..base
        }
    }

    /// Finds the move to play for the side to move within [`Player::budget`], and takes its
    /// time off that side's clock. The move is not played: [`Player::play`] it (which
    /// starts pondering). When the position is the one pondered on, the search goes on
    /// from the pondering's tables, and the pondering's analysis answers if it went deeper.
    pub fn go(&mut self) -> Think {
        self.go_with(&mut |_| {})
    }

    /// [`Player::go`], calling `progress` after every iteration.
    pub fn go_with(&mut self, progress: &mut dyn FnMut(&Analysis)) -> Think {
        // The move's time starts now: stopping the pondering is part of it.
        let started = self.clock.now();
        self.stop_pondering();
        let pos = self.position();
        let pondered = self.pondered.take().filter(|p| p.position == pos);
        let budget = self.budget();
        let pondered_depth = pondered
            .as_ref()
            .and_then(|p| p.analysis.as_ref())
            .map_or(0, |a| a.depth);
        let done = pondered
            .as_ref()
            .and_then(|p| p.analysis.clone())
            .filter(|a| {
                a.proven
                    || self
                        .settings
                        .depth
                        .is_some_and(|d| self.timeless() && a.depth >= d)
            });
        let analysis = match done {
            Some(a) => a,
            None if pos.is_game_over() || !pos.can_move() => {
                analyze_with(&pos, &Options::depth(1), progress)
            }
            None => {
                let opts = self.options(pos.size(), budget, false);
                let mut a = analyze_with(&pos, &opts, progress);
                if let Some(p) = pondered.as_ref().and_then(|p| p.analysis.as_ref()) {
                    if p.depth > a.depth && !a.proven {
                        a = Analysis {
                            nodes: a.nodes + p.nodes,
                            ..p.clone()
                        };
                    }
                }
                a
            }
        };
        let used = self.clock.now().saturating_duration_since(started);
        self.clocks[slot(pos.turn())].spend(used);
        let best = analysis.best.map_or(Move::Pass, Move::Play);
        self.last = Some((pos, analysis.clone()));
        Think {
            best,
            analysis,
            budget,
            used,
            ponder_hit: pondered.is_some(),
            pondered_depth,
        }
    }

    /// Every legal move of the position with its value, within `budget` (or to the
    /// settings' depth without one). Pondering stops, and the clocks are not charged.
    pub fn hint(&mut self, budget: Option<Duration>) -> Analysis {
        self.hint_with(budget, &mut |_| {})
    }

    /// [`Player::hint`], calling `progress` after every iteration.
    pub fn hint_with(
        &mut self,
        budget: Option<Duration>,
        progress: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        let pos = self.position();
        self.analyse_with(&pos, budget, true, progress)
    }

    /// The analysis of any position (a game's review) with the player's kept tables, within
    /// `budget` (or to the settings' depth within their move time without one); every
    /// move's value with `all_moves`, else the best move's. Pondering stops, and the clocks
    /// are not charged.
    pub fn analyse_with(
        &mut self,
        pos: &Position,
        budget: Option<Duration>,
        all_moves: bool,
        progress: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        self.stop_pondering();
        let mut opts = self.options(
            pos.size(),
            budget.unwrap_or(self.settings.move_time),
            all_moves,
        );
        if budget.is_none() {
            opts.depth = self.settings.depth;
        }
        analyze_with(pos, &opts, progress)
    }

    fn timeless(&self) -> bool {
        self.clocks[0].control() == TimeControl::None
    }

    fn start_pondering(&mut self, own: &Analysis) {
        let pos = self.position();
        if pos.is_game_over() {
            return;
        }
        // The reply the player expects: the second move of its own line.
        let predicted = own.line.get(1).copied();
        // Pondering has no deadline of its own (a long one, so that the kept tables are
        // used): it ends when stopped.
        let opts = Options {
            depth: None,
            ..self.options(pos.size(), Duration::from_secs(3600), false)
        };
        self.ponder = Some(Ponder::start(pos, predicted, opts));
    }

    /// Stops the pondering thread at once and keeps what it found for the next `go`.
    pub fn stop_pondering(&mut self) {
        if let Some(p) = self.ponder.take() {
            self.pondered = p.stop();
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        self.stop_pondering();
    }
}
