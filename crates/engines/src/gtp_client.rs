//! The client side of the Go Text Protocol: another Othello engine (Edax's `-gtp` mode,
//! `ply gtp`, any engine that speaks GTP version 2 as Quarry drives it) run as a child
//! process ([`crate::process`]), told the moves and asked for its own.
//!
//! The engine is not trusted. Every command is numbered (`7 genmove b`) and its answer must
//! carry the number (`=7 d3`), so an answer is never taken for another command's; an answer
//! is at most [`ANSWER_BYTES`] and is read with a deadline. Anything else the engine writes
//! (text before an answer, a second answer, an answer to a command not asked), its end, its
//! silence, a refusal, and a move that is not legal are errors that name the engine and the
//! command.
//!
//! GTP has no move time and no depth: under [`Limit::Time`] and [`Limit::Depth`] the
//! engine's own command line sets how long it thinks. Under [`Limit::Clock`] it is told the
//! time control once a game (`time_settings`, or `kgs-time_settings` for Fischer and
//! Japanese byo-yomi) and its time left before every move (`time_left`, whole seconds).

use std::time::{Duration, Instant};

use ply_othello::{
    play::{SideClock, TimeControl},
    BoardSize, Color, GameRecord, Move, Position, Square,
};

use crate::{
    engine::{illegal, Answer, Engine, EngineError, Fault, Limit},
    process::{shown, Process, Wait, LINE_BYTES},
};

/// The most bytes read for one answer, all its lines together.
pub const ANSWER_BYTES: usize = 1 << 20;

/// How long a command other than `genmove` may take.
const COMMAND_WAIT: Duration = Duration::from_secs(30);

/// How a line read while waiting for the answer to command `id` reads.
#[derive(Debug, PartialEq, Eq)]
enum Head<'a> {
    /// An empty line (GTP's separator), between answers.
    Blank,
    /// The first line of an answer to `id`: success or not, and its text.
    Answer(bool, &'a str),
    /// The first line of an answer with another id, or none: what it carries.
    OtherId(Option<u64>),
    /// Not GTP.
    Text,
}

/// Reads the line `l` as the start of the answer to command `id`.
fn head(l: &str, id: u64) -> Head<'_> {
    if l.trim().is_empty() {
        return Head::Blank;
    }
    let ok = match l.as_bytes()[0] {
        b'=' => true,
        b'?' => false,
        _ => return Head::Text,
    };
    let rest = &l[1..];
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let found = rest[..digits].parse::<u64>().ok();
    if found != Some(id) {
        return Head::OtherId(found);
    }
    let text = &rest[digits..];
    // `=7` alone, or `=7 text`: anything else glued to the id is not an answer.
    if !text.is_empty() && !text.starts_with([' ', '\t']) {
        return Head::Text;
    }
    Head::Answer(ok, text.trim())
}

/// A running GTP engine.
#[derive(Debug)]
pub struct GtpEngine {
    /// `GTP engine `COMMAND``, as the errors name it.
    name: String,
    process: Process,
    /// The id of the next command.
    next_id: u64,
    /// The last command sent, with its id, as the errors name it.
    last: Option<String>,
    /// The game as the engine was told it.
    game: GameRecord,
    /// The time control the engine was told this game, if any.
    told: Option<TimeControl>,
    /// Added to a limit's time to bound the engine's silence ([`Limit::silence`]).
    slack: Duration,
}

impl GtpEngine {
    /// Starts `command` (a shell command line) and checks that it answers GTP.
    ///
    /// # Errors
    /// When it cannot be started or does not answer `protocol_version`.
    pub fn start(command: &str) -> Result<GtpEngine, EngineError> {
        let name = format!("GTP engine `{command}`");
        let process = Process::start(command, "quit").map_err(|e| {
            EngineError::new(&name, "start", Fault::Exited, format!("cannot start: {e}"))
        })?;
        let mut engine = GtpEngine {
            name,
            process,
            next_id: 1,
            last: None,
            game: GameRecord::new(Position::start(BoardSize::Eight)),
            told: None,
            slack: Duration::from_secs(5),
        };
        engine.ask("protocol_version", COMMAND_WAIT)?;
        Ok(engine)
    }

    /// Sets what is added to a limit's time before the engine is taken for hung (5 s unless
    /// set).
    #[must_use]
    pub fn with_slack(mut self, slack: Duration) -> GtpEngine {
        self.slack = slack;
        self
    }

    /// An error naming the engine and the command `asked`.
    fn fault(&self, asked: &str, fault: Fault, what: impl std::fmt::Display) -> EngineError {
        EngineError::new(&self.name, asked, fault, what.to_string())
    }

    /// Refuses anything but blank lines the engine wrote since its last answer.
    fn nothing_unasked(&mut self) -> Result<(), EngineError> {
        let after = self.last.clone().unwrap_or_default();
        loop {
            match self.process.pending() {
                Ok(Some(l)) if l.trim().is_empty() => {}
                Ok(Some(l)) => {
                    return Err(self.fault(
                        &after,
                        Fault::Protocol,
                        format_args!(
                            "wrote `{}` after its answer to `{after}`, unasked",
                            shown(&l)
                        ),
                    ))
                }
                Err(_) => {
                    return Err(self.fault(
                        &after,
                        Fault::Protocol,
                        format_args!(
                            "wrote a line of more than {LINE_BYTES} bytes after its answer to \
                             `{after}`, unasked"
                        ),
                    ))
                }
                Ok(None) => return Ok(()),
            }
        }
    }

    /// Sends one command, numbered, and returns the text of its success answer (`=id text`),
    /// within `wait`.
    ///
    /// # Errors
    /// Anything else, naming the engine and the command: a failure answer (`?id message`),
    /// output before the answer or after the last one that is not GTP or answers another
    /// command, a line or an answer too long, the engine's end, its silence past `wait`.
    pub fn ask(&mut self, command: &str, wait: Duration) -> Result<String, EngineError> {
        self.nothing_unasked()?;
        let id = self.next_id;
        self.next_id += 1;
        let asked = format!("{id} {command}");
        self.last = Some(asked.clone());
        // A message, not the I/O error itself: a closed pipe here is the engine's end, not
        // a reader of ply's output that went away.
        if let Err(e) = self.process.send(&asked) {
            return Err(self.fault(
                &asked,
                Fault::Exited,
                format_args!("ended before answering (writing to it: {e})"),
            ));
        }
        let deadline = Instant::now() + wait;
        let mut answer: Option<(bool, String)> = None;
        let mut read = 0usize;
        loop {
            let line = match self.process.line(deadline) {
                Ok(l) => l,
                Err(Wait::TooLong) => {
                    return Err(self.fault(
                        &asked,
                        Fault::Protocol,
                        format_args!("wrote a line of more than {LINE_BYTES} bytes"),
                    ))
                }
                Err(Wait::Ended(why)) => {
                    let why = why.map_or_else(String::new, |w| format!(" (reading it: {w})"));
                    return Err(self.fault(
                        &asked,
                        Fault::Exited,
                        format_args!("ended before answering{why}"),
                    ));
                }
                Err(Wait::Silent) => {
                    return Err(self.fault(
                        &asked,
                        Fault::Silent,
                        format_args!("gave no answer within {} s", wait.as_secs_f64()),
                    ))
                }
            };
            read += line.len() + 1;
            if read > ANSWER_BYTES {
                return Err(self.fault(
                    &asked,
                    Fault::Protocol,
                    format_args!("wrote more than {ANSWER_BYTES} bytes without a whole answer"),
                ));
            }
            match answer.as_mut() {
                None => match head(&line, id) {
                    Head::Blank => {}
                    Head::Answer(ok, text) => answer = Some((ok, text.to_owned())),
                    Head::OtherId(found) => {
                        let which = found.map_or_else(
                            || "without the command's id".to_owned(),
                            |n| format!("with id {n}, another command's"),
                        );
                        return Err(self.fault(
                            &asked,
                            Fault::Protocol,
                            format_args!("answered `{}` {which}", shown(&line)),
                        ));
                    }
                    Head::Text => {
                        return Err(self.fault(
                            &asked,
                            Fault::Protocol,
                            format_args!(
                                "wrote `{}` where an answer was due: not GTP",
                                shown(&line)
                            ),
                        ))
                    }
                },
                // An empty line ends the answer.
                Some(_) if line.trim().is_empty() => break,
                Some((_, text)) => {
                    text.push('\n');
                    text.push_str(line.trim());
                }
            }
        }
        match answer {
            Some((true, text)) => Ok(text),
            Some((false, text)) => {
                Err(self.fault(&asked, Fault::Refused, format_args!("refused it: {text}")))
            }
            None => Err(self.fault(&asked, Fault::Protocol, "gave no answer")),
        }
    }

    /// `genmove` for the side to move in `pos`, which has a legal move: the engine's move,
    /// checked.
    ///
    /// # Errors
    /// A pass, an answer that is no move and a move that is not legal, naming the engine
    /// and the command; and those of [`GtpEngine::ask`].
    pub fn genmove(&mut self, pos: &Position, wait: Duration) -> Result<Square, EngineError> {
        let command = format!("genmove {}", letter(pos.turn()));
        let text = self.ask(&command, wait)?;
        let asked = self.last.clone().unwrap_or(command);
        match parse_reply(&text) {
            Some(Reply::Play(sq)) if pos.is_legal(sq) => Ok(sq),
            Some(Reply::Play(sq)) => Err(self.fault(
                &asked,
                Fault::Illegal,
                format_args!(
                    "played {sq}, which is not a legal move in {}",
                    ply_othello::text::format_position(pos)
                ),
            )),
            Some(Reply::Pass) => Err(self.fault(
                &asked,
                Fault::Illegal,
                format_args!(
                    "passed in {}, where it has a move",
                    ply_othello::text::format_position(pos)
                ),
            )),
            None => Err(self.fault(
                &asked,
                Fault::Protocol,
                format_args!("answered `{}`, not a move", shown(&text)),
            )),
        }
    }

    /// Tells the engine that `color` played `sq`.
    fn tell(&mut self, color: Color, sq: Square) -> Result<(), EngineError> {
        self.ask(&format!("play {} {sq}", letter(color)), COMMAND_WAIT)
            .map(drop)
    }

    /// Tells the engine the time control (once a game) and the time left of `clock`.
    fn tell_clock(&mut self, color: Color, clock: &SideClock) -> Result<(), EngineError> {
        let control = clock.control();
        if self.told != Some(control) {
            let s = |d: Duration| d.as_secs();
            let command = match control {
                TimeControl::None => "kgs-time_settings none".to_owned(),
                TimeControl::SuddenDeath { main } => format!("time_settings {} 0 0", s(main)),
                TimeControl::Canadian {
                    main,
                    period,
                    stones,
                } => format!("time_settings {} {} {stones}", s(main), s(period)),
                TimeControl::Fischer { main, increment } => {
                    format!("kgs-time_settings fischer {} {}", s(main), s(increment))
                }
                TimeControl::Japanese {
                    main,
                    period,
                    periods,
                } => format!(
                    "kgs-time_settings byoyomi {} {} {periods}",
                    s(main),
                    s(period)
                ),
            };
            self.ask(&command, COMMAND_WAIT)?;
            self.told = Some(control);
        }
        if control != TimeControl::None {
            let (left, stones) = if clock.in_byo_yomi() {
                (clock.period_left(), clock.byo_yomi_count())
            } else {
                (clock.main_left(), 0)
            };
            self.ask(
                &format!("time_left {} {} {stones}", letter(color), left.as_secs()),
                COMMAND_WAIT,
            )?;
        }
        Ok(())
    }
}

impl Engine for GtpEngine {
    fn name(&self) -> &str {
        &self.name
    }

    /// `boardsize`, `clear_board`, then the game's moves (passes left out: an engine told
    /// the other colour's move passes for the side without one). GTP cannot set a position
    /// other than the start.
    fn new_game(&mut self, game: &GameRecord) -> Result<(), EngineError> {
        let start = game.start();
        if start != Position::start(start.size()) {
            return Err(self.fault(
                "new game",
                Fault::Unsupported,
                "cannot start from a position other than the start (GTP sets none)",
            ));
        }
        self.ask(&format!("boardsize {}", start.size().n()), COMMAND_WAIT)?;
        self.ask("clear_board", COMMAND_WAIT)?;
        self.game = GameRecord::new(start);
        self.told = None;
        for (pos, m) in game.plies() {
            if let Move::Play(sq) = m {
                self.tell(pos.turn(), sq)?;
            }
            self.game
                .play(m)
                .map_err(|e| illegal(&self.name, "new game", &self.game, m, e))?;
        }
        Ok(())
    }

    fn play(&mut self, m: Move) -> Result<(), EngineError> {
        let pos = self.game.position();
        let asked = format!("play {m}");
        if let Move::Play(sq) = m {
            let color = if pos.can_move() {
                pos.turn()
            } else {
                pos.turn().other()
            };
            self.tell(color, sq)?;
            self.game
                .play_with_implicit_pass(sq)
                .map_err(|e| illegal(&self.name, &asked, &self.game, m, e))?;
        } else {
            self.game
                .play(m)
                .map_err(|e| illegal(&self.name, &asked, &self.game, m, e))?;
        }
        Ok(())
    }

    fn go(&mut self, limit: &Limit) -> Result<Answer, EngineError> {
        let pos = self.game.position();
        if !pos.can_move() {
            if !pos.is_game_over() {
                self.game.play(Move::Pass).ok();
            }
            return Ok(Answer {
                best: Move::Pass,
                info: None,
            });
        }
        if let Limit::Clock(clock) = limit {
            self.tell_clock(pos.turn(), clock)?;
        }
        let sq = self.genmove(&pos, limit.silence(self.slack))?;
        self.game
            .play(Move::Play(sq))
            .map_err(|e| illegal(&self.name, "genmove", &self.game, Move::Play(sq), e))?;
        Ok(Answer {
            best: Move::Play(sq),
            info: None,
        })
    }

    /// Asks the program to quit, and kills it if it is still there after a moment.
    fn quit(&mut self) -> Result<(), EngineError> {
        self.process.end();
        Ok(())
    }
}

/// What the engine said to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply {
    Play(Square),
    Pass,
}

/// GTP's colour letter.
fn letter(color: Color) -> char {
    if color == Color::Black {
        'b'
    } else {
        'w'
    }
}

/// A `genmove` answer's text: a square (either case, as engines write it) or `pass`.
fn parse_reply(text: &str) -> Option<Reply> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Some(Reply::Pass);
    }
    Square::parse(&t.to_ascii_lowercase()).ok().map(Reply::Play)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_squares_in_either_case_or_a_pass() {
        let e6 = Square::parse("e6").unwrap();
        assert_eq!(parse_reply("e6"), Some(Reply::Play(e6)));
        assert_eq!(parse_reply(" E6 "), Some(Reply::Play(e6)));
        assert_eq!(parse_reply("PASS"), Some(Reply::Pass));
        assert_eq!(parse_reply("resign"), None);
        assert_eq!(parse_reply("j9"), None);
        assert_eq!(parse_reply(""), None);
    }

    #[test]
    fn an_answer_must_carry_the_command_s_id() {
        assert_eq!(head("=7 d3", 7), Head::Answer(true, "d3"));
        assert_eq!(head("=7", 7), Head::Answer(true, ""));
        assert_eq!(
            head("?7 unknown command", 7),
            Head::Answer(false, "unknown command")
        );
        assert_eq!(head("=6 d3", 7), Head::OtherId(Some(6)));
        assert_eq!(head("= d3", 7), Head::OtherId(None));
        assert_eq!(head("=7d3", 7), Head::Text);
        assert_eq!(head("=", 7), Head::OtherId(None));
        assert_eq!(head("hello", 7), Head::Text);
        assert_eq!(head("  ", 7), Head::Blank);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::with_cases(512)
        })]

        /// Any line is read as an answer's head and as a reply without a panic.
        #[test]
        fn any_line_is_read_without_a_panic(line in ".{0,80}", id in 0..20u64) {
            let _ = head(&line, id);
            let _ = parse_reply(&line);
        }
    }
}
