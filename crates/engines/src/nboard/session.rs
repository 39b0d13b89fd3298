//! The session: the game the GUI has set and played, the depth it asked for, and what each
//! command does to them. A search is a [`Job`] taken from the session, which owns its copy of
//! the game, so it runs on a thread of its own while the session goes on reading; it analyses
//! through the library's one entry point (`analyze_with`) and says its lines through a sink.
//! Both are tested here without the binary and without threads.

use std::{
    io,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::Instant,
};

use ply_othello::{
    analyze::{analyze_with, Analysis, KeptSolver, Options},
    BoardSize, Color, GameRecord, Move, PlayError, Position,
};

use super::{answer, command::Command};

/// How long a move may take at strength `depth` (`set depth N`): half a second a ply, so
/// half a second at depth 1 and half a minute at depth 60.
pub fn move_time(depth: u32) -> std::time::Duration {
    std::time::Duration::from_millis(u64::from(depth) * 500)
}

/// The depth before the GUI sets one.
pub const DEFAULT_DEPTH: u32 = 12;

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
    /// Start a search.
    Think(Task),
    /// End the session.
    Quit,
}

/// The game and the settings.
#[derive(Clone, Debug)]
pub struct Session {
    game: GameRecord,
    depth: u32,
    threads: usize,
    /// The book file to answer from, when not the shipped one.
    pub book: Option<Arc<ply_othello::book::Book>>,
    /// The solver kept from one search to the next: near the end of the game each search
    /// starts from what the last ones found.
    kept: KeptSolver,
}

impl Session {
    /// The 8x8 start position at [`DEFAULT_DEPTH`]; the solver runs on `threads`.
    pub fn new(threads: usize) -> Session {
        Session {
            game: GameRecord::new(Position::start(BoardSize::Eight)),
            depth: DEFAULT_DEPTH,
            threads,
            book: None,
            kept: KeptSolver::default(),
        }
    }

    /// The game so far: its start position and the moves played.
    #[cfg(test)]
    pub fn game(&self) -> &GameRecord {
        &self.game
    }

    /// Plays `m` on the game; a square played where the side to move must pass first is
    /// played after that pass, as GUIs that leave passes out send it.
    ///
    /// # Errors
    /// When the move is not legal; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        match m {
            Move::Play(sq) => self.game.play_with_implicit_pass(sq).map(|_| ()),
            Move::Pass => self.game.play(Move::Pass),
        }
    }

    /// Does what `command` asks to the game and the settings.
    ///
    /// # Errors
    /// Why a move cannot be played (the game is unchanged).
    pub fn apply(&mut self, command: Command) -> Result<Reply, PlayError> {
        Ok(match command {
            Command::Nboard | Command::SetContempt(_) => Reply::Nothing,
            Command::SetDepth(d) => {
                self.depth = d;
                Reply::Say(answer::myname(d))
            }
            Command::SetGame(game) => {
                self.game = game;
                Reply::Nothing
            }
            Command::Move(m) => {
                self.play(m)?;
                Reply::Nothing
            }
            Command::Go => Reply::Think(Task::Go),
            Command::Hint(n) => Reply::Think(Task::Hint(n)),
            Command::Analyze => Reply::Think(Task::Analyze),
            Command::Ping(n) => Reply::Say(answer::pong(&n)),
            // The books are built offline (scripts/build-book6, scripts/build-book8): nothing
            // to learn into.
            Command::Learn => Reply::Say("learned".to_owned()),
            Command::Quit => Reply::Quit,
        })
    }

    /// A search of the current game, stopped when `stop` is raised.
    pub fn job(&self, task: Task, stop: Arc<AtomicBool>) -> Job {
        let mut opts = Options {
            depth: Some(self.depth),
            threads: self.threads,
            all_moves: false,
            ..Options::budget(move_time(self.depth))
        };
        opts.book_file.clone_from(&self.book);
        opts.stop = Some(stop.clone());
        opts.kept_solver = Some(self.kept.clone());
        // A review needs only each position's value: the best move, searched deeper.
        opts.all_moves = matches!(task, Task::Hint(_));
        Job {
            task,
            game: self.game.clone(),
            opts,
            stop,
        }
    }
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

/// One search: what it is for, its own copy of the game, the options it runs with.
#[derive(Debug)]
pub struct Job {
    task: Task,
    game: GameRecord,
    opts: Options,
    stop: Arc<AtomicBool>,
}

impl Job {
    /// Runs the search, giving each line to `say`; every search ends with a plain `status`.
    /// A stopped search says nothing more about its position (the GUI has moved on) but that
    /// `status`.
    ///
    /// # Errors
    /// The first error of `say` (stdout is gone).
    pub fn run(
        &self,
        say: &mut dyn FnMut(&str) -> io::Result<()>,
        log: &mut dyn FnMut(&str),
    ) -> io::Result<()> {
        match self.task {
            Task::Analyze => self.review(say),
            Task::Go | Task::Hint(_) => self.search(say, log),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// `go` and `hint`: analyses the position, reporting as it goes, and gives the answer
    /// unless it was stopped.
    fn search(
        &self,
        say: &mut dyn FnMut(&str) -> io::Result<()>,
        log: &mut dyn FnMut(&str),
    ) -> io::Result<()> {
        let pos = self.game.position();
        let started = Instant::now();
        say("status ply is thinking")?;
        let hint = match self.task {
            Task::Hint(n) => Some(n),
            Task::Go | Task::Analyze => None,
        };
        let mut progress = answer::Progress::new(hint);
        let mut failed = None;
        let a = analyze_with(&pos, &self.opts, &mut |a| {
            if !self.stopped() && failed.is_none() {
                failed = tell(&mut progress, a, started, say).err();
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        if self.stopped() {
            // Nothing more about a position the GUI has left, but the GUI stops showing
            // "thinking".
            return say("status");
        }
        tell(&mut progress, &a, started, say)?;
        if self.task == Task::Go {
            match answer::go(&pos, &a, started.elapsed().as_secs_f64()) {
                Some(line) => say(&line)?,
                None => log("go: the game is over, there is no move to play"),
            }
        }
        say("status")
    }

    /// `analyze`: `analysis K EVAL` for every position of the game, the last first, each from
    /// black's point of view, then `status`; only `status` once stopped.
    fn review(&self, say: &mut dyn FnMut(&str) -> io::Result<()>) -> io::Result<()> {
        say("status ply is analysing the game")?;
        let mut positions: Vec<Position> = vec![self.game.start()];
        positions.extend(self.game.plies().map(|(before, m)| {
            before
                .play_move(m)
                .expect("the game's moves were checked when played")
        }));
        for (plies, pos) in positions.iter().enumerate().rev() {
            let a = analyze_with(pos, &self.opts, &mut |_| {});
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
mod tests {
    use ply_othello::Square;

    use super::*;
    use crate::nboard::command::parse;

    fn apply(s: &mut Session, line: &str) -> Result<Reply, PlayError> {
        s.apply(parse(line).unwrap().unwrap())
    }

    /// Runs a job to its end; the lines it said and what it logged.
    fn run(job: &Job) -> (Vec<String>, Vec<String>) {
        let (mut said, mut logged) = (Vec::new(), Vec::new());
        job.run(
            &mut |l| {
                said.push(l.to_owned());
                Ok(())
            },
            &mut |l| logged.push(l.to_owned()),
        )
        .unwrap();
        (said, logged)
    }

    /// A 4x4 game a few moves from its end, set as a GUI sets it.
    fn small_game(s: &mut Session) {
        apply(
            s,
            "set game (;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1]W[a1]B[d3];)",
        )
        .unwrap();
    }

    #[test]
    fn commands_change_the_game_and_the_settings() {
        let mut s = Session::new(1);
        assert_eq!(apply(&mut s, "nboard 2"), Ok(Reply::Nothing));
        assert_eq!(
            apply(&mut s, "set depth 5"),
            Ok(Reply::Say("set myname ply5".into()))
        );
        assert_eq!(s.depth, 5);
        assert_eq!(apply(&mut s, "move F5"), Ok(Reply::Nothing));
        assert_eq!(apply(&mut s, "move d6/0.00/1.0"), Ok(Reply::Nothing));
        assert_eq!(s.game().moves().len(), 2);
        // Not legal: refused, the game unchanged.
        assert!(apply(&mut s, "move A1").is_err());
        assert!(apply(&mut s, "move PA").is_err());
        assert_eq!(s.game().moves().len(), 2);
        assert_eq!(apply(&mut s, "go"), Ok(Reply::Think(Task::Go)));
        assert_eq!(apply(&mut s, "hint 2"), Ok(Reply::Think(Task::Hint(2))));
        assert_eq!(apply(&mut s, "analyze"), Ok(Reply::Think(Task::Analyze)));
        assert_eq!(apply(&mut s, "ping 4"), Ok(Reply::Say("pong 4".into())));
        assert_eq!(apply(&mut s, "learn"), Ok(Reply::Say("learned".into())));
        assert_eq!(apply(&mut s, "set contempt 1"), Ok(Reply::Nothing));
        assert_eq!(apply(&mut s, "quit"), Ok(Reply::Quit));
        small_game(&mut s);
        assert_eq!(s.game().moves().len(), 3);
        assert_eq!(s.game().start().size(), BoardSize::Four);
    }

    #[test]
    fn go_thinks_aloud_then_names_its_move() {
        let mut s = Session::new(1);
        small_game(&mut s);
        let job = s.job(Task::Go, Arc::new(AtomicBool::new(false)));
        let (said, logged) = run(&job);
        assert!(logged.is_empty(), "{logged:?}");
        assert_eq!(
            said.first().map(String::as_str),
            Some("status ply is thinking")
        );
        assert!(said.iter().any(|l| l.starts_with("nodestats ")), "{said:?}");
        let go = said.iter().find(|l| l.starts_with("=== ")).expect("a move");
        let pos = s.game().position();
        let name = go[4..].split('/').next().unwrap().to_ascii_lowercase();
        let sq = Square::parse(&name).unwrap();
        assert!(pos.legal_moves().any(|m| m == sq), "{go} on {pos}");
        assert_eq!(said.last().map(String::as_str), Some("status"));
    }

    #[test]
    fn hint_says_search_lines_and_a_stopped_search_only_status() {
        let mut s = Session::new(1);
        small_game(&mut s);
        let (said, _) = run(&s.job(Task::Hint(2), Arc::new(AtomicBool::new(false))));
        assert!(said.iter().any(|l| l.starts_with("search ")), "{said:?}");
        assert!(!said.iter().any(|l| l.starts_with("=== ")), "{said:?}");
        let (said, _) = run(&s.job(Task::Go, Arc::new(AtomicBool::new(true))));
        assert_eq!(said, ["status ply is thinking", "status"]);
    }

    #[test]
    fn analyze_reviews_every_position_last_first_for_black() {
        let mut s = Session::new(1);
        small_game(&mut s);
        let plies = s.game().plies().count();
        let (said, _) = run(&s.job(Task::Analyze, Arc::new(AtomicBool::new(false))));
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
        for (k, (before, _)) in s.game().plies().enumerate() {
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
}
