//! The GTP session: the game so far, the moves `undo` can take back, the clocks, and what
//! each command does to them. No I/O: [`Session::apply`] takes a command and gives the
//! answer's text or the reason it fails, so the whole protocol is testable without the
//! binary.
//!
//! Othello's rules, not Go's, decide what may be played: a colour that is not to move may
//! play only when the side to move has no move (its pass is then played for it, as a
//! transcript leaves passes out), `pass` only when the side to move has no move, and nothing
//! after the game's end. `undo` takes back everything the last `play` or `genmove` did,
//! such a pass included.

use std::time::{Duration, Instant};

use ply_othello::{
    analyze::{analyze, KeptSolver, Options},
    text, BoardSize, Color, GameRecord, Move, PlayError, Position,
};

use super::command::{vertex_name, Command, COMMANDS};
use crate::othello::common::move_options;

/// How hard ply thinks.
#[derive(Clone, Copy, Debug)]
pub struct Level {
    /// Deepest midgame search, plies (the solver takes over near the end regardless).
    pub depth: u32,
    /// The most a move may take, whatever the clock allows.
    pub move_time: Duration,
    /// Threads for the search.
    pub threads: usize,
}

/// `time_settings`: main time, then periods of `byo_yomi` seconds for `stones` moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TimeSettings {
    main: u32,
    byo_yomi: u32,
    stones: u32,
}

/// One side's clock: the seconds left in the current period and the moves still to play in
/// it (0 in main time).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Clock {
    seconds: f64,
    stones: u32,
}

/// The game and everything the commands set.
#[derive(Debug)]
pub struct Session {
    game: GameRecord,
    /// The game's length before each `play` and `genmove` still on the board.
    undo: Vec<usize>,
    time: Option<TimeSettings>,
    clocks: [Option<Clock>; 2],
    level: Level,
    /// The solver kept from one `genmove` to the next: near the end of the game each search
    /// starts from what the last ones found.
    kept: KeptSolver,
}

/// `black` or `white`.
fn name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn slot(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Session {
    /// A session on the 8x8 start position.
    pub fn new(level: Level) -> Session {
        Session {
            game: GameRecord::new(Position::start(BoardSize::Eight)),
            undo: Vec::new(),
            time: None,
            clocks: [None, None],
            level,
            kept: KeptSolver::default(),
        }
    }

    /// Applies one command: the answer's text, or why the command fails (the game is then
    /// unchanged). `quit` answers empty; ending the session is the caller's.
    ///
    /// # Errors
    /// The message of a `?` answer: an illegal move, a size ply does not play, nothing to
    /// undo, a game not over for `final_score`.
    pub fn apply(&mut self, command: &Command) -> Result<String, String> {
        match command {
            Command::ProtocolVersion => Ok("2".to_owned()),
            Command::Name => Ok("ply".to_owned()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").to_owned()),
            Command::IsKnown(c) => Ok(COMMANDS.contains(&c.as_str()).to_string()),
            Command::ListCommands => Ok(COMMANDS.join("\n")),
            Command::ListGames => Ok("Othello".to_owned()),
            Command::Quit => Ok(String::new()),
            Command::BoardSize(n) => {
                let size = n.to_string().parse::<BoardSize>().map_err(|_| {
                    format!(
                        "unacceptable size: ply plays Othello on 4x4, 6x6 and 8x8 boards, \
                             not {n}x{n}"
                    )
                })?;
                self.reset(size);
                Ok(String::new())
            }
            Command::ClearBoard => {
                self.reset(self.game.start().size());
                Ok(String::new())
            }
            // Read and checked by the parser, and of no use: Othello scores discs.
            Command::Komi(_) => Ok(String::new()),
            Command::Play(color, m) => self.play(*color, *m).map(|()| String::new()),
            Command::GenMove(color) => self.genmove(*color),
            Command::Undo => self.take_back(),
            Command::ShowBoard => Ok(self.board()),
            Command::FinalScore => final_score(&self.game.position()),
            Command::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => {
                // GTP: byo-yomi time with no stones means no time limit.
                self.time = (*byo_yomi == 0 || *stones > 0).then_some(TimeSettings {
                    main: *main,
                    byo_yomi: *byo_yomi,
                    stones: *stones,
                });
                self.clocks = [None, None];
                Ok(String::new())
            }
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                self.clocks[slot(*color)] = Some(Clock {
                    seconds: f64::from(*seconds),
                    stones: *stones,
                });
                Ok(String::new())
            }
        }
    }

    fn reset(&mut self, size: BoardSize) {
        self.game = GameRecord::new(Position::start(size));
        self.undo.clear();
    }

    /// Before `color` plays: nothing when it is `color`'s turn; its opponent's pass when the
    /// opponent has no move; otherwise the reason `color` may not play.
    fn turn_of(&mut self, color: Color) -> Result<(), String> {
        let pos = self.game.position();
        if pos.is_game_over() {
            return Err("illegal move: the game is over".to_owned());
        }
        if pos.turn() == color {
            return Ok(());
        }
        if pos.can_move() {
            return Err(format!(
                "illegal move: it is {}'s turn ({} has legal moves: {}), not {}'s",
                name(pos.turn()),
                name(pos.turn()),
                legal(&pos),
                name(color)
            ));
        }
        self.game
            .play(Move::Pass)
            .map_err(|e| format!("illegal move: {e}"))
    }

    fn play(&mut self, color: Color, m: Move) -> Result<(), String> {
        let before = self.game.moves().len();
        if m == Move::Pass && self.game.position().turn() != color {
            return Err(format!(
                "illegal move: {} cannot pass, it is {}'s turn",
                name(color),
                name(color.other())
            ));
        }
        self.turn_of(color)?;
        let pos = self.game.position();
        if let Err(e) = self.game.play(m) {
            self.truncate(before)?;
            let why = match e {
                PlayError::PassWithMoves => format!(
                    "{} cannot pass, it has legal moves: {}",
                    name(color),
                    legal(&pos)
                ),
                e => format!("{e} (legal moves: {})", legal(&pos)),
            };
            return Err(format!(
                "illegal move: {} {}: {why}",
                name(color),
                vertex_name(m)
            ));
        }
        self.undo.push(before);
        Ok(())
    }

    fn genmove(&mut self, color: Color) -> Result<String, String> {
        let before = self.game.moves().len();
        if self.game.position().is_game_over() {
            // Nothing to play, and nothing to record: a pass is all there is to say.
            return Ok(vertex_name(Move::Pass));
        }
        self.turn_of(color)?;
        let pos = self.game.position();
        let m = if pos.can_move() {
            let started = Instant::now();
            let budget = self.budget(color, pos.empties().count());
            let opts = Options {
                kept_solver: Some(self.kept.clone()),
                ..move_options(self.level.depth, budget, self.level.threads)
            };
            let a = analyze(&pos, &opts);
            self.spend(color, started.elapsed());
            match a.best {
                Some(sq) => Move::Play(sq),
                None => {
                    self.truncate(before)?;
                    return Err("the analysis found no move to play".to_owned());
                }
            }
        } else {
            Move::Pass
        };
        if let Err(e) = self.game.play(m) {
            self.truncate(before)?;
            return Err(format!("the engine's move {} failed: {e}", vertex_name(m)));
        }
        self.undo.push(before);
        Ok(vertex_name(m))
    }

    /// How long `color` may think now: the level's move time, or less when its clock says
    /// so (what is left shared among the moves it still has to play, at most
    /// `empties / 2` rounded up, or among the stones of its byo-yomi period), with a fifth
    /// kept back for the moves' overhead.
    fn budget(&self, color: Color, empties: u32) -> Duration {
        let Some(t) = self.time else {
            return self.level.move_time;
        };
        let clock = self.clocks[slot(color)].unwrap_or(Clock {
            seconds: f64::from(t.main),
            stones: 0,
        });
        let byo = if t.stones > 0 {
            f64::from(t.byo_yomi) / f64::from(t.stones)
        } else {
            0.0
        };
        let share = if clock.stones > 0 {
            clock.seconds / f64::from(clock.stones)
        } else {
            clock.seconds / f64::from(empties.div_ceil(2).max(1)) + byo
        };
        let share = Duration::from_secs_f64((share * 0.8).max(0.01));
        share.min(self.level.move_time)
    }

    /// Takes `used` off `color`'s clock after a move, moving it into byo-yomi when main time
    /// runs out and into a fresh period when a period's stones are played.
    fn spend(&mut self, color: Color, used: Duration) {
        let Some(t) = self.time else { return };
        let mut clock = self.clocks[slot(color)].unwrap_or(Clock {
            seconds: f64::from(t.main),
            stones: 0,
        });
        clock.seconds = (clock.seconds - used.as_secs_f64()).max(0.0);
        if clock.stones > 0 {
            clock.stones -= 1;
            if clock.stones == 0 {
                clock = Clock {
                    seconds: f64::from(t.byo_yomi),
                    stones: t.stones,
                };
            }
        } else if clock.seconds == 0.0 && t.stones > 0 {
            clock = Clock {
                seconds: f64::from(t.byo_yomi),
                stones: t.stones,
            };
        }
        self.clocks[slot(color)] = Some(clock);
    }

    fn take_back(&mut self) -> Result<String, String> {
        let Some(len) = self.undo.pop() else {
            return Err("cannot undo: no move to take back".to_owned());
        };
        self.truncate(len)?;
        Ok(String::new())
    }

    /// Keeps the first `len` moves of the game.
    fn truncate(&mut self, len: usize) -> Result<(), String> {
        let mut game = GameRecord::new(self.game.start());
        for &m in &self.game.moves()[..len] {
            game.play(m)
                .map_err(|e| format!("cannot replay the game's move {m}: {e}"))?;
        }
        self.game = game;
        Ok(())
    }

    /// The board, legal moves marked `.`, and a line on the discs and the turn.
    fn board(&self) -> String {
        let pos = self.game.position();
        let mut s = String::from("\n");
        s.push_str(&text::picture(&pos, pos.legal_moves()));
        let (b, w) = (pos.disc_count(Color::Black), pos.disc_count(Color::White));
        s.push_str(&format!("black (X) {b}, white (O) {w}; "));
        if pos.is_game_over() {
            s.push_str("the game is over\n");
        } else if pos.can_move() {
            s.push_str(&format!("{} to move: {}\n", name(pos.turn()), legal(&pos)));
        } else {
            s.push_str(&format!("{} to move, and must pass\n", name(pos.turn())));
        }
        s
    }
}

/// The legal moves, `c4 d3 e6 f5`, or `none`.
fn legal(pos: &Position) -> String {
    let moves: Vec<String> = pos.legal_moves().map(|sq| sq.to_string()).collect();
    if moves.is_empty() {
        "none".to_owned()
    } else {
        moves.join(" ")
    }
}

/// `B+n`, `W+n` or `0`: the disc difference, empty squares to the winner, once the game is
/// over.
fn final_score(pos: &Position) -> Result<String, String> {
    if !pos.is_game_over() {
        return Err(format!(
            "cannot score: the game is not over ({} to move, {} empty squares)",
            name(pos.turn()),
            pos.empties().count()
        ));
    }
    let black = match pos.turn() {
        Color::Black => pos.final_score(),
        Color::White => -pos.final_score(),
    };
    Ok(match black.signum() {
        1 => format!("B+{black}"),
        -1 => format!("W+{}", -black),
        _ => "0".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use ply_othello::Square;

    use super::*;
    use crate::gtp::command::parse;

    fn session() -> Session {
        Session::new(Level {
            depth: 2,
            move_time: Duration::from_secs(5),
            threads: 1,
        })
    }

    /// Runs one line through the parser and the session.
    fn run(s: &mut Session, line: &str) -> Result<String, String> {
        let l = parse(line).expect("a command");
        s.apply(&l.command?)
    }

    fn ok(s: &mut Session, line: &str) -> String {
        run(s, line).unwrap_or_else(|e| panic!("`{line}`: {e}"))
    }

    fn err(s: &mut Session, line: &str) -> String {
        run(s, line).expect_err(line)
    }

    #[test]
    fn moves_are_played_checked_and_taken_back() {
        let mut s = session();
        ok(&mut s, "play b d3");
        assert_eq!(s.game.moves(), [Move::Play(Square::parse("d3").unwrap())]);
        let e = err(&mut s, "play w d4");
        assert!(
            e.starts_with("illegal move: white D4: d4 is already taken"),
            "{e}"
        );
        assert!(e.contains("legal moves: c3 e3 c5"), "{e}");
        let e = err(&mut s, "play b c4");
        assert!(e.contains("it is white's turn"), "{e}");
        let e = err(&mut s, "play w pass");
        assert!(e.contains("white cannot pass, it has legal moves"), "{e}");
        ok(&mut s, "play w c5");
        ok(&mut s, "undo");
        ok(&mut s, "undo");
        assert!(s.game.moves().is_empty());
        assert_eq!(err(&mut s, "undo"), "cannot undo: no move to take back");
    }

    #[test]
    fn a_colour_with_no_move_passes_and_undo_takes_the_pass_back_too() {
        // 4x4: after b1 c1 d1 black has no move (the 4x4 review in the README).
        let mut s = session();
        ok(&mut s, "boardsize 4");
        for line in ["play b b1", "play w c1", "play b d1"] {
            ok(&mut s, line);
        }
        let pos = s.game.position();
        assert_eq!(pos.turn(), Color::White);
        // Black to play while white has moves is refused; white plays.
        assert!(err(&mut s, "play b a1").contains("it is white's turn"));
        let before = s.game.moves().len();
        let m = ok(&mut s, "genmove w");
        assert_ne!(m, "pass");
        // Whatever white played, the game goes on until both are out of moves, passes
        // played for whoever must.
        let mut guard = 0;
        while !s.game.position().is_game_over() {
            let pos = s.game.position();
            let c = if pos.can_move() {
                pos.turn()
            } else {
                pos.turn().other()
            };
            let line = format!("genmove {}", name(c));
            ok(&mut s, &line);
            guard += 1;
            assert!(guard < 40, "the game ends");
        }
        let score = ok(&mut s, "final_score");
        assert!(
            score == "0" || score.starts_with("B+") || score.starts_with("W+"),
            "{score}"
        );
        assert_eq!(
            ok(&mut s, "genmove b"),
            "pass",
            "nothing to play after the end"
        );
        while s.game.moves().len() > before {
            ok(&mut s, "undo");
        }
        assert_eq!(s.game.moves().len(), before);
        assert!(err(&mut s, "final_score").starts_with("cannot score: the game is not over"));
    }

    #[test]
    fn a_forced_pass_is_played_for_the_colour_that_has_no_move() {
        // 4x4, white to move with no move, black with one (d4): black's move is accepted
        // after white's pass, and `pass` itself only from white.
        let mut s = session();
        s.game =
            GameRecord::new(text::parse_position("XXXX XXXX XXXO ---- O").expect("a position"));
        assert!(!s.game.position().can_move());
        assert!(err(&mut s, "play b pass").contains("black cannot pass, it is white's turn"));
        ok(&mut s, "play w pass");
        ok(&mut s, "undo");
        assert_eq!(ok(&mut s, "genmove b"), "D4");
        assert_eq!(s.game.moves()[0], Move::Pass);
        assert_eq!(s.game.moves().len(), 2);
        ok(&mut s, "undo");
        assert!(
            s.game.moves().is_empty(),
            "undo takes the pass back with the move"
        );
        assert_eq!(ok(&mut s, "genmove w"), "pass");
        assert_eq!(s.game.moves(), [Move::Pass]);
    }

    #[test]
    fn sizes_scores_and_the_board() {
        let mut s = session();
        let e = err(&mut s, "boardsize 19");
        assert!(e.starts_with("unacceptable size"), "{e}");
        assert!(e.contains("not 19x19"), "{e}");
        ok(&mut s, "boardsize 6");
        assert_eq!(s.game.position().size(), BoardSize::Six);
        ok(&mut s, "play b c2");
        ok(&mut s, "clear_board");
        assert!(s.game.moves().is_empty());
        assert_eq!(s.game.position().size(), BoardSize::Six);
        let board = ok(&mut s, "showboard");
        assert!(board.contains("1 - - - - - - 1"), "{board}");
        assert!(board.contains("black to move: c2 b3 e4 d5"), "{board}");
        ok(&mut s, "komi 6.5");
        assert_eq!(ok(&mut s, "known_command genmove"), "true");
        assert_eq!(ok(&mut s, "known_command reg_genmove"), "false");
        assert_eq!(ok(&mut s, "protocol_version"), "2");
        assert_eq!(ok(&mut s, "list_games"), "Othello");
        assert!(ok(&mut s, "list_commands").contains("\nfinal_score\n"));
        // Scores with the empty squares to the winner.
        let over = |cells: &str| final_score(&text::parse_position(cells).unwrap());
        assert_eq!(over("XXXX XXXX XXXX XXX- O").as_deref(), Ok("B+16"));
        assert_eq!(over("OOOO OOOO XXXX XXXX X").as_deref(), Ok("0"));
        assert_eq!(over("OOOO OOOO OOOO XXX- X").as_deref(), Ok("W+10"));
    }

    #[test]
    fn the_clock_shares_what_is_left_among_the_moves_to_play() {
        let mut s = session();
        let level = s.level.move_time;
        assert_eq!(
            s.budget(Color::Black, 60),
            level,
            "no clock: the level's time"
        );
        ok(&mut s, "time_settings 300 0 0");
        // Absolute time: 300 s over 30 moves, four fifths of it, under the level's 5 s.
        assert_eq!(s.budget(Color::Black, 60), Duration::from_secs(5));
        ok(&mut s, "time_left b 60 0");
        assert_eq!(s.budget(Color::Black, 60), Duration::from_millis(1600));
        assert_eq!(s.budget(Color::White, 60), Duration::from_secs(5));
        // Byo-yomi: 10 s for 5 stones is 2 s a move, four fifths of it.
        ok(&mut s, "time_settings 0 10 5");
        ok(&mut s, "time_left w 10 5");
        assert_eq!(s.budget(Color::White, 40), Duration::from_millis(1600));
        s.spend(Color::White, Duration::from_secs(1));
        assert_eq!(
            s.clocks[1],
            Some(Clock {
                seconds: 9.0,
                stones: 4
            })
        );
        // Out of time: the floor, never zero.
        ok(&mut s, "time_settings 10 0 0");
        ok(&mut s, "time_left b 0 0");
        assert_eq!(s.budget(Color::Black, 20), Duration::from_millis(10));
        // Byo-yomi time with no stones: no limit.
        ok(&mut s, "time_settings 10 30 0");
        assert_eq!(s.budget(Color::Black, 20), level);
    }
}
