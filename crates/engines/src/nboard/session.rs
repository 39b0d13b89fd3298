//! The session: the one player ([`ply_othello::play::Player`]: the game, its kept tables,
//! its clock and its pondering), the level the GUI asked for, and what each command does to
//! them. A search is a [`Job`] that takes the player with it, so it runs on a thread of its
//! own while the session goes on reading, and gives it back when it ends ([`Session::restore`]);
//! it says its lines through a sink. Both are tested here without the binary and without
//! threads.
//!
//! The clock: a `set game` with `TI[…]` sets both sides' clocks (Fischer when it has an
//! increment, sudden death otherwise; GGS's extension is added to the main time), less the
//! time each side's moves took as the game's moves say; `go` then thinks for the share of
//! what is left that the player's clock gives it, and takes it off. A game without `TI` is
//! played at the level of `set depth` (its depth, half a second a ply). A `set game` that
//! cannot be read, or whose board the settings cannot play (a book of another size), is
//! answered with a `status` line saying so, and the session has no game until the GUI sends
//! one it can read: the next `go` is refused the same way, not answered in the old game. A
//! `set game` that only adds moves to the game the engine has is played as those moves, so
//! that pondering works for GUIs that send the whole game after every move.

use std::{
    io,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use ply_othello::{
    analyze::Analysis,
    ggf,
    play::{Player, Settings, SideClock, TimeControl},
    Color, GameRecord, Position,
};

use super::{
    answer,
    command::{Command, GameSet},
};

/// The depth before the GUI sets one.
pub const DEFAULT_DEPTH: u32 = 12;

/// The most a position of a game's review (`analyze`) is given, so that the GUI's graph
/// fills at a pace it can show: two positions a second at most.
pub const REVIEW_TIME: Duration = Duration::from_millis(500);

/// What the GUI asked the thinking thread for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// `go`: the move to play.
    Go,
    /// `hint N`: the values of the N best moves.
    Hint(usize),
    /// `analyze`: the value of every position of the game.
    Analyze,
}

/// What the engine does after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// Nothing to say.
    Nothing,
    /// One line to answer at once.
    Say(String),
    /// A command refused where the GUI reads: the `status` line to answer, and the message
    /// to log.
    Refuse(String, String),
    /// Start a search.
    Think(Task),
    /// End the session.
    Quit,
}

/// The player and the level; see the module's documentation.
#[derive(Debug)]
pub struct Session {
    /// `None` while a [`Job`] has it.
    player: Option<Player>,
    /// The settings, kept to make a player again if a search thread is lost.
    settings: Settings,
    /// Why the last `set game` was refused, until a game is set that can be played.
    refused: Option<String>,
}

impl Session {
    /// A session on the 8x8 start position at [`DEFAULT_DEPTH`] with `settings`' threads,
    /// book and pondering, on the system's clock.
    ///
    /// # Errors
    /// The settings' threads or depth out of range, as [`Settings::check`] words it.
    pub fn new(settings: Settings) -> Result<Session, String> {
        Session::with_player(Player::new(settings))
    }

    /// A session over `player` (a test's, on its clock), at [`DEFAULT_DEPTH`].
    ///
    /// # Errors
    /// As [`Session::new`].
    pub fn with_player(mut player: Player) -> Result<Session, String> {
        let settings = level(player.settings(), DEFAULT_DEPTH);
        // The book is checked against the games the GUI sets; here its own size passes.
        let size = settings
            .book_file
            .as_ref()
            .map_or(player.position().size(), |b| b.size());
        settings.check(size).map_err(|e| e.to_string())?;
        player.set_settings(settings.clone());
        Ok(Session {
            player: Some(player),
            settings,
            refused: None,
        })
    }

    /// The player, between searches.
    #[must_use]
    pub fn player(&self) -> Option<&Player> {
        self.player.as_ref()
    }

    /// The game so far: its start position and the moves played (`None` while a search
    /// runs).
    #[must_use]
    pub fn game(&self) -> Option<&GameRecord> {
        self.player.as_ref().map(Player::game)
    }

    fn player_mut(&mut self) -> &mut Player {
        self.player.get_or_insert_with(|| {
            // Only when a search thread was lost: a new player, and no game.
            Player::new(self.settings.clone())
        })
    }

    /// Does what `command` asks to the game and the settings.
    ///
    /// # Errors
    /// Why a move cannot be played (the game is unchanged), for the log.
    pub fn apply(&mut self, command: Command) -> Result<Reply, String> {
        Ok(match command {
            Command::Nboard | Command::SetContempt(_) => Reply::Nothing,
            Command::SetDepth(d) => {
                self.settings = level(&self.settings, d);
                let settings = self.settings.clone();
                self.player_mut().set_settings(settings);
                Reply::Say(answer::myname(d))
            }
            Command::SetGame(set) => self.set_game(set),
            Command::BadGame(why) => self.refuse_game(why),
            Command::Move(m) => {
                if let Some(why) = &self.refused {
                    return Err(format!("there is no game ({why})"));
                }
                self.player_mut().play(m).map_err(|e| e.to_string())?;
                Reply::Nothing
            }
            Command::Go | Command::Hint(_) | Command::Analyze if self.refused.is_some() => {
                let why = self.refused.clone().unwrap_or_default();
                let message = format!("no game to think about: {why}");
                Reply::Refuse(answer::refused(&message), message)
            }
            Command::Go => Reply::Think(Task::Go),
            Command::Hint(n) => Reply::Think(Task::Hint(n)),
            Command::Analyze => Reply::Think(Task::Analyze),
            Command::Ping(n) => Reply::Say(answer::pong(&n)),
            // The books are built offline (scripts/build-book6, scripts/build-book8): nothing
            // to learn into.
            Command::Learn => Reply::Say("learned".to_owned()),
            Command::Quit => {
                self.player_mut().stop_pondering();
                Reply::Quit
            }
        })
    }

    fn refuse_game(&mut self, why: String) -> Reply {
        let message = format!("{why}; no game until one that can be played is set");
        self.refused = Some(why);
        Reply::Refuse(answer::refused(&message), message)
    }

    fn set_game(&mut self, set: GameSet) -> Reply {
        if let Err(e) = self.settings.check(set.game.start().size()) {
            return self.refuse_game(format!("set game: {e}"));
        }
        self.refused = None;
        let (control, clocks) = clocks(set.clock, &set.game, &set.times);
        let p = self.player_mut();
        // The same game, moves on (a GUI that sends the whole game after each move): played
        // as `move`s, so that pondering starts after ply's own move and a hit is a hit.
        // They were replayed when the game was read, so each is legal.
        let played = p.game().moves().len();
        let same =
            p.game().start() == set.game.start() && set.game.moves().starts_with(p.game().moves());
        let extended = same
            && set.game.moves()[played..]
                .iter()
                .all(|&m| p.play(m).is_ok());
        if !extended {
            p.set_game(set.game);
        }
        p.set_time_control(control);
        for (color, clock) in [Color::Black, Color::White].into_iter().zip(clocks) {
            p.set_clock(color, clock);
        }
        // Made now, outside any `go`'s time (without a clock too).
        p.prepare();
        Reply::Nothing
    }

    /// A search of the current game, stopped when `stop` is raised; it takes the player
    /// until [`Session::restore`] gives it back.
    pub fn job(&mut self, task: Task, stop: Arc<AtomicBool>) -> Job {
        let mut player = self.player.take().unwrap_or_else(|| {
            // Only when a search thread was lost.
            Player::new(self.settings.clone())
        });
        player.set_stop(Some(stop.clone()));
        Job { task, player, stop }
    }

    /// Takes the player back from a finished [`Job`].
    pub fn restore(&mut self, mut player: Player) {
        player.set_stop(None);
        self.player = Some(player);
    }

    /// After a search thread was lost with the player: a new player, and no game until the
    /// GUI sets one.
    pub fn lost(&mut self) {
        self.player = Some(Player::new(self.settings.clone()));
        self.refused = Some("the search thread failed; set the game again".to_owned());
    }
}

/// `settings` at strength `depth` (NBoard's `set depth`), its threads, book and pondering
/// kept.
fn level(settings: &Settings, depth: u32) -> Settings {
    Settings {
        threads: settings.threads,
        hash_mb: settings.hash_mb,
        book: settings.book,
        book_file: settings.book_file.clone(),
        ponder: settings.ponder,
        ..Settings::at_depth(depth)
    }
}

/// The time control of a game's `TI` and each side's clock after its moves' times: Fischer
/// with an increment, sudden death without (GGS's extension, given once, added to the main
/// time); no clock without `TI` or with nothing on it.
pub fn clocks(
    clock: Option<ggf::Clock>,
    game: &GameRecord,
    times: &[Option<Duration>],
) -> (TimeControl, [SideClock; 2]) {
    let control = match clock {
        Some(c) if c.increment > Duration::ZERO => TimeControl::Fischer {
            main: c.main + c.extension,
            increment: c.increment,
        },
        Some(c) if c.main + c.extension > Duration::ZERO => TimeControl::SuddenDeath {
            main: c.main + c.extension,
        },
        _ => TimeControl::None,
    };
    let mut sides = [SideClock::new(control); 2];
    for (k, (before, _)) in game.plies().enumerate() {
        let side = usize::from(before.turn() == Color::White);
        sides[side].spend(times.get(k).copied().flatten().unwrap_or_default());
    }
    (control, sides)
}

/// Says what `progress` finds new in `a`.
fn tell(
    progress: &mut answer::Progress,
    a: &Analysis,
    started: Instant,
    say: &mut dyn FnMut(&str) -> io::Result<()>,
) -> io::Result<()> {
    for line in progress.report(a, started.elapsed().as_secs_f64()) {
        say(&line)?;
    }
    Ok(())
}

/// One search: what it is for, the player it runs on, its stop flag.
#[derive(Debug)]
pub struct Job {
    task: Task,
    player: Player,
    stop: Arc<AtomicBool>,
}

impl Job {
    /// Runs the search, giving each line to `say`; every search ends with a plain `status`.
    /// A stopped search says nothing more about its position (the GUI has moved on) but that
    /// `status`. The player comes back with the result, for [`Session::restore`].
    ///
    /// # Errors
    /// The first error of `say` (the output is gone), with the player.
    pub fn run(
        mut self,
        say: &mut dyn FnMut(&str) -> io::Result<()>,
        log: &mut dyn FnMut(&str),
    ) -> (Player, io::Result<()>) {
        let result = match self.task {
            Task::Analyze => self.review(say),
            Task::Go | Task::Hint(_) => self.search(say, log),
        };
        (self.player, result)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// `go` and `hint`: analyses the position, reporting as it goes, and gives the answer
    /// unless it was stopped.
    fn search(
        &mut self,
        say: &mut dyn FnMut(&str) -> io::Result<()>,
        log: &mut dyn FnMut(&str),
    ) -> io::Result<()> {
        let pos = self.player.position();
        let started = Instant::now();
        say("status ply is thinking")?;
        let hint = match self.task {
            Task::Hint(n) => Some(n),
            Task::Go | Task::Analyze => None,
        };
        let mut progress = answer::Progress::new(hint);
        let mut failed = None;
        let stop = self.stop.clone();
        let mut report = |a: &Analysis| {
            if !stop.load(Ordering::Relaxed) && failed.is_none() {
                failed = tell(&mut progress, a, started, say).err();
            }
        };
        let (a, used) = if hint.is_some() {
            (self.player.hint_with(None, &mut report), None)
        } else {
            let think = self.player.go_with(&mut report);
            (think.analysis, Some(think.used))
        };
        if let Some(e) = failed {
            return Err(e);
        }
        if self.stopped() {
            // Nothing more about a position the GUI has left, but the GUI stops showing
            // "thinking".
            return say("status");
        }
        tell(&mut progress, &a, started, say)?;
        if let Some(used) = used {
            match answer::go(&pos, &a, used.as_secs_f64()) {
                Some(line) => say(&line)?,
                None => log("go: the game is over, there is no move to play"),
            }
        }
        say("status")
    }

    /// `analyze`: `analysis K EVAL` for every position of the game, the last first, each from
    /// black's point of view and said as soon as it is found, then `status`; only `status`
    /// once stopped. Each position gets the level's depth within [`REVIEW_TIME`] at most.
    fn review(&mut self, say: &mut dyn FnMut(&str) -> io::Result<()>) -> io::Result<()> {
        say("status ply is analysing the game")?;
        let game = self.player.game().clone();
        let mut positions: Vec<Position> = vec![game.start()];
        positions.extend(
            game.plies()
                .filter_map(|(before, m)| before.play_move(m).ok()),
        );
        let budget = self.player.settings().move_time.min(REVIEW_TIME);
        for (plies, pos) in positions.iter().enumerate().rev() {
            let a = self
                .player
                .analyse_with(pos, Some(budget), false, &mut |_| {});
            if self.stopped() {
                break;
            }
            let for_black = match pos.turn() {
                Color::Black => a.score,
                Color::White => -a.score,
            };
            say(&answer::analysis(plies, for_black))?;
        }
        say("status")
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
