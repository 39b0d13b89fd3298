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

use std::{sync::Arc, time::Duration};

use ply_othello::{
    analyze::Analysis,
    book::Book,
    play::{Player, Settings, TimeControl},
    text, BoardSize, Color, GameRecord, Move, PlayError, Position,
};

use super::command::{vertex_name, Command, TimeSystem, COMMANDS};

/// How hard ply thinks.
#[derive(Clone, Debug)]
pub struct Level {
    /// Deepest midgame search without a game clock, plies (the solver takes over near the
    /// end regardless); with a clock, the clock decides.
    pub depth: u32,
    /// The most a move may take without a game clock.
    pub move_time: Duration,
    /// Threads for the search.
    pub threads: usize,
    /// The book to answer from in place of the shipped one.
    pub book: Option<Arc<Book>>,
    /// Think on the opponent's time.
    pub ponder: bool,
}

/// The game and everything the commands set, over the one player
/// ([`ply_othello::play`]), which keeps the game, the tables, the clocks and the pondering.
#[derive(Debug)]
pub struct Session {
    player: Player,
    /// The game's length before each `play` and `genmove` still on the board.
    undo: Vec<usize>,
}

/// `black` or `white`.
fn name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A time system in seconds as the player's time control.
pub fn time_control(t: TimeSystem) -> TimeControl {
    let s = |n: u32| Duration::from_secs(u64::from(n));
    match t {
        TimeSystem::None => TimeControl::None,
        TimeSystem::Absolute { main } => TimeControl::SuddenDeath { main: s(main) },
        TimeSystem::Fischer { main, increment } => TimeControl::Fischer {
            main: s(main),
            increment: s(increment),
        },
        TimeSystem::Canadian {
            main,
            period,
            stones,
        } => TimeControl::Canadian {
            main: s(main),
            period: s(period),
            stones,
        },
        TimeSystem::Byoyomi {
            main,
            period,
            periods,
        } => TimeControl::Japanese {
            main: s(main),
            period: s(period),
            periods,
        },
    }
}

/// `time_settings MAIN BYO_YOMI STONES` as a time system: byo-yomi time with no stones
/// means no time limit (GTP), no byo-yomi time sudden death, else Canadian byo-yomi.
pub fn time_settings(main: u32, byo_yomi: u32, stones: u32) -> TimeSystem {
    match (byo_yomi, stones) {
        (0, _) => TimeSystem::Absolute { main },
        (_, 0) => TimeSystem::None,
        (period, stones) => TimeSystem::Canadian {
            main,
            period,
            stones,
        },
    }
}

impl Session {
    /// A session on the 8x8 start position.
    ///
    /// # Errors
    /// The level's depth or threads out of range, in the words of the one request check
    /// ([`Settings::check`]): `threads 0: expected 1 to 256`.
    pub fn new(level: Level) -> Result<Session, String> {
        let settings = Settings {
            depth: Some(level.depth),
            move_time: level.move_time,
            threads: level.threads,
            hash_mb: None,
            book: true,
            book_file: level.book,
            ponder: level.ponder,
        };
        // The book is checked against each board size the client asks for.
        let size = settings
            .book_file
            .as_ref()
            .map_or(BoardSize::Eight, |b| b.size());
        settings.check(size).map_err(|e| e.to_string())?;
        Ok(Session {
            player: Player::new(settings),
            undo: Vec::new(),
        })
    }

    fn game(&self) -> &GameRecord {
        self.player.game()
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
            Command::Quit => {
                self.player.stop_pondering();
                Ok(String::new())
            }
            Command::BoardSize(n) => {
                let size = n.to_string().parse::<BoardSize>().map_err(|_| {
                    format!(
                        "unacceptable size: ply plays Othello on 4x4, 6x6 and 8x8 boards, \
                             not {n}x{n}"
                    )
                })?;
                self.player
                    .settings()
                    .check(size)
                    .map_err(|e| format!("unacceptable size: {e}"))?;
                self.reset(size);
                Ok(String::new())
            }
            Command::ClearBoard => {
                self.reset(self.game().start().size());
                Ok(String::new())
            }
            // Read and checked by the parser, and of no use: Othello scores discs.
            Command::Komi(_) => Ok(String::new()),
            Command::Play(color, m) => self.play(*color, *m).map(|()| String::new()),
            Command::GenMove(color) => self.genmove(*color),
            Command::RegGenMove(color) => self.reg_genmove(*color),
            Command::Hint(color) => self.hint(*color),
            Command::Undo => self.take_back(),
            Command::ShowBoard => Ok(self.board()),
            Command::FinalScore => final_score(&self.game().position()),
            Command::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => {
                let t = time_settings(*main, *byo_yomi, *stones);
                self.player.set_time_control(time_control(t));
                Ok(String::new())
            }
            Command::KgsTimeSettings(t) => {
                self.player.set_time_control(time_control(*t));
                Ok(String::new())
            }
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                self.player.set_time_left(
                    *color,
                    Duration::from_secs(u64::from(*seconds)),
                    *stones,
                );
                Ok(String::new())
            }
        }
    }

    /// A new game of `size`; the solver ply keeps is made now, outside any `genmove`'s
    /// time ([`Player::prepare`]).
    fn reset(&mut self, size: BoardSize) {
        self.player.new_game(Position::start(size));
        self.player.prepare();
        self.undo.clear();
    }

    /// Before `color` plays: nothing when it is `color`'s turn; its opponent's pass when the
    /// opponent has no move; otherwise the reason `color` may not play.
    fn turn_of(&mut self, color: Color) -> Result<(), String> {
        let pos = self.game().position();
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
        self.player
            .play(Move::Pass)
            .map_err(|e| format!("illegal move: {e}"))
    }

    fn play(&mut self, color: Color, m: Move) -> Result<(), String> {
        let before = self.game().moves().len();
        if m == Move::Pass && self.game().position().turn() != color {
            return Err(format!(
                "illegal move: {} cannot pass, it is {}'s turn",
                name(color),
                name(color.other())
            ));
        }
        self.turn_of(color)?;
        let pos = self.game().position();
        if let Err(e) = self.player.play(m) {
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
        let before = self.game().moves().len();
        if self.game().position().is_game_over() {
            // Nothing to play, and nothing to record: a pass is all there is to say.
            return Ok(vertex_name(Move::Pass));
        }
        self.turn_of(color)?;
        let m = self.player.go().best;
        if let Err(e) = self.player.play(m) {
            self.truncate(before)?;
            return Err(format!("the engine's move {} failed: {e}", vertex_name(m)));
        }
        self.undo.push(before);
        Ok(vertex_name(m))
    }

    /// The analysis of every move of `color`, which must be to move (or have the only
    /// moves after the other side's forced pass): nothing is played, no clock is charged.
    fn review_for(&mut self, color: Color) -> Result<Option<Analysis>, String> {
        let pos = self.game().position();
        if pos.is_game_over() {
            return Ok(None);
        }
        let mover = if pos.can_move() {
            pos.turn()
        } else {
            pos.turn().other()
        };
        if mover != color {
            return Err(format!(
                "it is {}'s turn ({} has legal moves: {}), not {}'s",
                name(pos.turn()),
                name(pos.turn()),
                legal(&pos),
                name(color)
            ));
        }
        if pos.turn() != color {
            // The other side's forced pass, taken back at once.
            let len = self.game().moves().len();
            self.turn_of(color)?;
            let a = self.player.hint(None);
            self.truncate(len)?;
            return Ok(Some(a));
        }
        Ok(Some(self.player.hint(None)))
    }

    /// `reg_genmove`: the move ply would play, neither played nor charged to the clock.
    fn reg_genmove(&mut self, color: Color) -> Result<String, String> {
        let a = self.review_for(color)?;
        Ok(vertex_name(
            a.and_then(|a| a.best).map_or(Move::Pass, Move::Play),
        ))
    }

    /// `hint`: every legal move with its value in discs for `color`, best first.
    fn hint(&mut self, color: Color) -> Result<String, String> {
        let Some(a) = self.review_for(color)? else {
            return Ok(vertex_name(Move::Pass));
        };
        Ok(hint_text(&a))
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
        if self.player.truncate(len) {
            Ok(())
        } else {
            Err(format!(
                "cannot take the game back to its first {len} moves"
            ))
        }
    }

    /// The board, legal moves marked `.`, and a line on the discs and the turn.
    fn board(&self) -> String {
        let pos = self.game().position();
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

/// `hint`'s answer: `F5 +2.00 D6 -1.50 …`, every move with its value in discs for the side
/// that plays it, best first; `pass` when it has none.
pub fn hint_text(a: &Analysis) -> String {
    if a.moves.is_empty() {
        return vertex_name(Move::Pass);
    }
    a.moves
        .iter()
        .map(|m| {
            format!(
                "{} {:+.2}",
                vertex_name(Move::Play(m.square)),
                m.score.discs()
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
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

    fn level() -> Level {
        Level {
            depth: 2,
            move_time: Duration::from_secs(5),
            threads: 1,
            book: None,
            ponder: false,
        }
    }

    fn session() -> Session {
        Session::new(level()).unwrap()
    }

    #[test]
    fn a_book_of_another_size_and_bad_threads_are_refused_in_the_requests_words() {
        let eight = ply_othello::book::Book::builtin(BoardSize::Eight)
            .expect("the 8x8 book")
            .clone();
        let mut s = Session::new(Level {
            book: Some(Arc::new(eight)),
            ..level()
        })
        .unwrap();
        assert_eq!(
            err(&mut s, "boardsize 6"),
            "unacceptable size: book: an 8x8 book, the position is 6x6"
        );
        assert_eq!(s.game().position().size(), BoardSize::Eight, "unchanged");
        ok(&mut s, "boardsize 8");
        let e = Session::new(Level {
            threads: 0,
            ..level()
        })
        .unwrap_err();
        assert_eq!(e, "threads 0: expected 1 to 256");
        let e = Session::new(Level {
            depth: 0,
            ..level()
        })
        .unwrap_err();
        assert_eq!(e, "depth 0: expected 1 to 64");
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
        assert_eq!(s.game().moves(), [Move::Play(Square::parse("d3").unwrap())]);
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
        assert!(s.game().moves().is_empty());
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
        let pos = s.game().position();
        assert_eq!(pos.turn(), Color::White);
        // Black to play while white has moves is refused; white plays.
        assert!(err(&mut s, "play b a1").contains("it is white's turn"));
        let before = s.game().moves().len();
        let m = ok(&mut s, "genmove w");
        assert_ne!(m, "pass");
        // Whatever white played, the game goes on until both are out of moves, passes
        // played for whoever must.
        let mut guard = 0;
        while !s.game().position().is_game_over() {
            let pos = s.game().position();
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
        while s.game().moves().len() > before {
            ok(&mut s, "undo");
        }
        assert_eq!(s.game().moves().len(), before);
        assert!(err(&mut s, "final_score").starts_with("cannot score: the game is not over"));
    }

    #[test]
    fn a_forced_pass_is_played_for_the_colour_that_has_no_move() {
        // 4x4, white to move with no move, black with one (d4): black's move is accepted
        // after white's pass, and `pass` itself only from white.
        let mut s = session();
        s.player.set_game(GameRecord::new(
            text::parse_position("XXXX XXXX XXXO ---- O").expect("a position"),
        ));
        assert!(!s.game().position().can_move());
        assert!(err(&mut s, "play b pass").contains("black cannot pass, it is white's turn"));
        ok(&mut s, "play w pass");
        ok(&mut s, "undo");
        assert_eq!(ok(&mut s, "genmove b"), "D4");
        assert_eq!(s.game().moves()[0], Move::Pass);
        assert_eq!(s.game().moves().len(), 2);
        ok(&mut s, "undo");
        assert!(
            s.game().moves().is_empty(),
            "undo takes the pass back with the move"
        );
        assert_eq!(ok(&mut s, "genmove w"), "pass");
        assert_eq!(s.game().moves(), [Move::Pass]);
    }

    #[test]
    fn sizes_scores_and_the_board() {
        let mut s = session();
        let e = err(&mut s, "boardsize 19");
        assert!(e.starts_with("unacceptable size"), "{e}");
        assert!(e.contains("not 19x19"), "{e}");
        ok(&mut s, "boardsize 6");
        assert_eq!(s.game().position().size(), BoardSize::Six);
        ok(&mut s, "play b c2");
        ok(&mut s, "clear_board");
        assert!(s.game().moves().is_empty());
        assert_eq!(s.game().position().size(), BoardSize::Six);
        let board = ok(&mut s, "showboard");
        assert!(board.contains("1 - - - - - - 1"), "{board}");
        assert!(board.contains("black to move: c2 b3 e4 d5"), "{board}");
        ok(&mut s, "komi 6.5");
        assert_eq!(ok(&mut s, "known_command genmove"), "true");
        assert_eq!(ok(&mut s, "known_command reg_genmove"), "true");
        assert_eq!(ok(&mut s, "known_command loadsgf"), "false");
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
    fn the_clock_commands_set_the_players_clocks() {
        let mut s = session();
        let budget = |s: &Session| s.player.budget();
        assert_eq!(
            budget(&s),
            Duration::from_secs(5),
            "no clock: the level's time"
        );
        ok(&mut s, "time_settings 300 0 0");
        let c = *s.player.clock_of(Color::Black);
        assert_eq!(
            c.control(),
            TimeControl::SuddenDeath {
                main: Duration::from_secs(300)
            }
        );
        assert_eq!(Some(budget(&s)), c.budget(60));
        ok(&mut s, "time_left b 60 0");
        assert_eq!(
            s.player.clock_of(Color::Black).main_left(),
            Duration::from_secs(60)
        );
        // Byo-yomi: 10 s for 5 stones is Canadian.
        ok(&mut s, "time_settings 0 10 5");
        ok(&mut s, "time_left b 10 5");
        let c = *s.player.clock_of(Color::Black);
        assert!(c.in_byo_yomi());
        assert_eq!(c.byo_yomi_count(), 5);
        // Byo-yomi time with no stones: no limit.
        ok(&mut s, "time_settings 10 30 0");
        assert_eq!(s.player.clock_of(Color::White).control(), TimeControl::None);
        ok(&mut s, "kgs-time_settings fischer 2 1");
        assert_eq!(
            s.player.clock_of(Color::White).control(),
            TimeControl::Fischer {
                main: Duration::from_secs(2),
                increment: Duration::from_secs(1)
            }
        );
        ok(&mut s, "kgs-time_settings byoyomi 0 5 3");
        let c = *s.player.clock_of(Color::White);
        assert!(c.in_byo_yomi());
        assert_eq!(c.byo_yomi_count(), 3);
        ok(&mut s, "kgs-time_settings none");
        assert_eq!(budget(&s), Duration::from_secs(5));
    }

    #[test]
    fn hint_and_reg_genmove_play_nothing() {
        let mut s = session();
        ok(&mut s, "boardsize 6");
        let hint = ok(&mut s, "hint b");
        let moves: Vec<&str> = hint.split(' ').step_by(2).collect();
        let mut sorted = moves.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, ["B3", "C2", "D5", "E4"], "{hint}");
        // 6x6 is a white win by 4 discs: every black move scores -4 or less, the best -4.
        assert_eq!(hint.split(' ').nth(1), Some("-4.00"), "{hint}");
        let best = ok(&mut s, "reg_genmove b");
        assert!(moves.contains(&best.as_str()), "{best}");
        assert!(s.game().moves().is_empty(), "nothing played");
        assert!(err(&mut s, "hint w").contains("it is black's turn"));
    }
}
