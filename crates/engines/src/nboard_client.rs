//! The client side of the NBoard protocol (version 2), as the NBoard GUI drives an engine:
//! `nboard 2`, `set depth N`, `set game GGF`, `move F5`, `go` answered by `=== F5/eval/time`,
//! and `ping N` answered by `pong N` once the engine has nothing more to say about the old
//! position. The program runs as a child process ([`crate::process`]).
//!
//! NBoard numbers nothing, so the client synchronises with `ping`: after starting, after
//! every new game and before every `go`, it pings and reads until the `pong` with its
//! number. While waiting it skips what an engine may say at any time (`status`,
//! `nodestats`, `search`, `set myname`, `learned`, `hint`, an `===` of a search it stopped);
//! any other line, the engine's end, its silence past the bound and a move that is not
//! legal are errors that name the engine and the command.
//!
//! Under [`Limit::Depth`] the engine is told `set depth N`; under [`Limit::Clock`] the game
//! is sent again before the move with the side to move's time left in GGF's `TI` tag;
//! under [`Limit::Time`] (NBoard has no move time) its own depth decides.

use std::time::{Duration, Instant};

use ply_othello::{ggf::GgfGame, BoardSize, GameRecord, Move, Position, Square};

use crate::{
    engine::{illegal, Answer, Engine, EngineError, Fault, Info, Limit},
    process::{shown, Process, Wait, LINE_BYTES},
};

/// How long a `ping` may take to be answered.
const PING_WAIT: Duration = Duration::from_secs(30);

/// A running NBoard engine.
#[derive(Debug)]
pub struct NboardEngine {
    /// `NBoard engine `COMMAND``, as the errors name it.
    name: String,
    process: Process,
    /// The number of the next `ping`.
    next_ping: u64,
    /// The game as the engine was told it.
    game: GameRecord,
    /// The depth the engine was last told.
    depth: Option<u32>,
    /// Added to a limit's time to bound the engine's silence ([`Limit::silence`]).
    slack: Duration,
}

/// What a line the engine wrote is, to the client.
#[derive(Debug, PartialEq)]
enum Said {
    /// `pong N`.
    Pong(u64),
    /// `=== MOVE[/eval[/time]]`: the move, and the evaluation if given.
    Moved(Move, Option<f64>),
    /// A line the protocol lets an engine say at any time.
    Chatter,
    /// Anything else.
    Other,
}

/// Reads one line of the engine's.
fn said(line: &str) -> Said {
    let t = line.trim();
    if t.is_empty() {
        return Said::Chatter;
    }
    let (word, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    match word {
        "pong" => rest.trim().parse().map_or(Said::Other, Said::Pong),
        "===" => {
            let mut parts = rest.trim().split('/');
            let m = parts.next().unwrap_or("").trim();
            let eval = parts.next().and_then(|e| e.trim().parse::<f64>().ok());
            if m.eq_ignore_ascii_case("pa") || m.eq_ignore_ascii_case("pass") {
                Said::Moved(Move::Pass, eval)
            } else {
                Square::parse(&m.to_ascii_lowercase())
                    .map_or(Said::Other, |sq| Said::Moved(Move::Play(sq), eval))
            }
        }
        "status" | "nodestats" | "search" | "set" | "learned" | "hint" | "book" => Said::Chatter,
        _ => Said::Other,
    }
}

/// NBoard's name of a move: `F5`, or `PA` for a pass.
fn move_name(m: Move) -> String {
    match m {
        Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
        Move::Pass => "PA".to_owned(),
    }
}

impl NboardEngine {
    /// Starts `command` (a shell command line), says `nboard 2` and checks that it answers a
    /// `ping`.
    ///
    /// # Errors
    /// When it cannot be started or does not answer the ping.
    pub fn start(command: &str) -> Result<NboardEngine, EngineError> {
        let name = format!("NBoard engine `{command}`");
        let process = Process::start(command, "quit").map_err(|e| {
            EngineError::new(&name, "start", Fault::Exited, format!("cannot start: {e}"))
        })?;
        let mut engine = NboardEngine {
            name,
            process,
            next_ping: 1,
            game: GameRecord::new(Position::start(BoardSize::Eight)),
            depth: None,
            slack: Duration::from_secs(5),
        };
        engine.send("nboard 2")?;
        engine.sync("nboard 2")?;
        Ok(engine)
    }

    /// Sets what is added to a limit's time before the engine is taken for hung (5 s unless
    /// set).
    #[must_use]
    pub fn with_slack(mut self, slack: Duration) -> NboardEngine {
        self.slack = slack;
        self
    }

    fn fault(&self, asked: &str, fault: Fault, what: impl std::fmt::Display) -> EngineError {
        EngineError::new(&self.name, asked, fault, what.to_string())
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.process.send(line).map_err(|e| {
            self.fault(
                line,
                Fault::Exited,
                format_args!("ended (writing to it: {e})"),
            )
        })
    }

    /// The next line within `deadline`, as an error naming `asked` when there is none.
    fn next(
        &mut self,
        asked: &str,
        deadline: Instant,
        wait: Duration,
    ) -> Result<String, EngineError> {
        self.process.line(deadline).map_err(|w| match w {
            Wait::TooLong => self.fault(
                asked,
                Fault::Protocol,
                format_args!("wrote a line of more than {LINE_BYTES} bytes"),
            ),
            Wait::Ended(why) => {
                let why = why.map_or_else(String::new, |w| format!(" (reading it: {w})"));
                self.fault(
                    asked,
                    Fault::Exited,
                    format_args!("ended before answering{why}"),
                )
            }
            Wait::Silent => self.fault(
                asked,
                Fault::Silent,
                format_args!("gave no answer within {} s", wait.as_secs_f64()),
            ),
        })
    }

    /// Pings and reads until the matching `pong`, skipping what an engine may say at any
    /// time; `after` names the command synchronised on.
    fn sync(&mut self, after: &str) -> Result<(), EngineError> {
        let n = self.next_ping;
        self.next_ping += 1;
        let asked = format!("ping {n}");
        self.send(&asked)?;
        let deadline = Instant::now() + PING_WAIT;
        loop {
            let line = self.next(&asked, deadline, PING_WAIT)?;
            match said(&line) {
                Said::Pong(k) if k == n => return Ok(()),
                Said::Pong(_) | Said::Chatter | Said::Moved(..) => {}
                Said::Other => {
                    return Err(self.fault(
                        &asked,
                        Fault::Protocol,
                        format_args!("wrote `{}` after `{after}`: not NBoard", shown(&line)),
                    ))
                }
            }
        }
    }

    /// `set game` of the engine's game, with `TI` when `left` is given.
    fn set_game(&mut self, left: Option<Duration>) -> Result<(), EngineError> {
        let mut ggf = GgfGame::from_game(self.game.clone());
        ggf.tags.retain(|(name, _)| name != "RE");
        if let Some(left) = left {
            let s = left.as_secs();
            ggf.tags
                .push(("TI".to_owned(), format!("{}:{:02}", s / 60, s % 60)));
        }
        let line = format!("set game {ggf}");
        self.send(&line)?;
        self.sync("set game")
    }
}

impl Engine for NboardEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, game: &GameRecord) -> Result<(), EngineError> {
        self.game = game.clone();
        self.set_game(None)
    }

    fn play(&mut self, m: Move) -> Result<(), EngineError> {
        let asked = format!("move {}", move_name(m));
        let played = match m {
            Move::Play(sq) => self.game.play_with_implicit_pass(sq).map(drop),
            Move::Pass => self.game.play(m),
        };
        played.map_err(|e| illegal(&self.name, &asked, &self.game, m, e))?;
        self.send(&asked)
    }

    fn go(&mut self, limit: &Limit) -> Result<Answer, EngineError> {
        let pos = self.game.position();
        if !pos.can_move() {
            if !pos.is_game_over() {
                self.play(Move::Pass)?;
            }
            return Ok(Answer {
                best: Move::Pass,
                info: None,
            });
        }
        match limit {
            Limit::Depth(d) if self.depth != Some(*d) => {
                self.send(&format!("set depth {d}"))?;
                self.depth = Some(*d);
            }
            Limit::Clock(c) => self.set_game(Some(c.main_left() + c.period_left()))?,
            _ => {}
        }
        self.sync("the moves")?;
        let wait = limit.silence(self.slack);
        let deadline = Instant::now() + wait;
        self.send("go")?;
        let (m, eval) = loop {
            let line = self.next("go", deadline, wait)?;
            match said(&line) {
                Said::Moved(m, eval) => break (m, eval),
                Said::Chatter => {}
                Said::Pong(_) | Said::Other => {
                    return Err(self.fault(
                        "go",
                        Fault::Protocol,
                        format_args!("wrote `{}` where a move was due: not NBoard", shown(&line)),
                    ))
                }
            }
        };
        match m {
            Move::Play(sq) if pos.is_legal(sq) => {}
            _ => {
                return Err(illegal(
                    &self.name,
                    "go",
                    &self.game,
                    m,
                    "the rules refuse it",
                ))
            }
        }
        self.play(m)?;
        Ok(Answer {
            best: m,
            info: eval.map(|score| Info {
                score,
                proven: false,
                depth: self.depth.unwrap_or(0),
                book: false,
                line: vec![m],
                nodes: 0,
                ponder_hit: false,
                source: None,
                budget: None,
            }),
        })
    }

    /// Asks the program to quit, and kills it if it is still there after a moment.
    fn quit(&mut self) -> Result<(), EngineError> {
        self.process.end();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_s_lines_are_read_as_the_gui_reads_them() {
        let f5 = Move::Play(Square::parse("f5").unwrap());
        assert_eq!(said("=== F5/2.00/1.23"), Said::Moved(f5, Some(2.0)));
        assert_eq!(said("=== f5"), Said::Moved(f5, None));
        assert_eq!(said("=== PA"), Said::Moved(Move::Pass, None));
        assert_eq!(said("pong 7"), Said::Pong(7));
        assert_eq!(said("status ply is thinking"), Said::Chatter);
        assert_eq!(said("set myname ply12"), Said::Chatter);
        assert_eq!(said("=== Z9"), Said::Other);
        assert_eq!(said("pong x"), Said::Other);
        assert_eq!(said("hello"), Said::Other);
        assert_eq!(move_name(f5), "F5");
        assert_eq!(move_name(Move::Pass), "PA");
    }
}
