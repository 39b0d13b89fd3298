//! One line of the protocol read into a [`Command`]: pure, no game, no I/O, so the grammar is
//! tested line by line. A line that means nothing, or means something wrong, is an `Err` with
//! the message the engine logs (naming the line); the session then goes on.

use std::time::Duration;

use ply_othello::{
    ggf::{self, GgfGame},
    GameRecord, Move, Square,
};

/// What a `set game` line says: the game, the clock it is played on (`TI`, if given), and
/// the time each ply took (from its move's third field; `None` where none is given).
#[derive(Clone, Debug, PartialEq)]
pub struct GameSet {
    /// The start position and the moves played.
    pub game: GameRecord,
    /// The clock of `TI[…]`; `None` without the tag.
    pub clock: Option<ggf::Clock>,
    /// The time of each ply of the game, in its order.
    pub times: Vec<Option<Duration>>,
}

/// What a line from the GUI asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `nboard 1` or `nboard 2`: the protocol version, both spoken as version 2.
    Nboard,
    /// `set depth N`, N from 1 to 60.
    SetDepth(u32),
    /// `set game (;GM[Othello]…;)`: the start position, the moves played, the clock.
    SetGame(GameSet),
    /// A `set game` whose game cannot be read, with the message saying why: the engine
    /// answers it (the GUI must know its game was not taken) and has no game until the next
    /// one it can read.
    BadGame(String),
    /// `set contempt N`: read and checked, but changes nothing (see `nboard`'s module doc).
    SetContempt(f64),
    /// `move F5`, `move F5/eval/time`, `move PA`.
    Move(Move),
    /// `go`: the move to play.
    Go,
    /// `hint N`: the values of the N best moves, N at least 1.
    Hint(usize),
    /// `analyze`: the value of every position of the game.
    Analyze,
    /// `ping N`: answered `pong N` once nothing more is said about the old position.
    Ping(String),
    /// `learn`: answered `learned`.
    Learn,
    /// `quit`.
    Quit,
}

/// Reads one line; `Ok(None)` for a blank one.
///
/// # Errors
/// The message to log: the line, and what is wrong with it.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    let (word, rest) = split_word(line);
    Ok(Some(match word {
        "" => return Ok(None),
        "nboard" => match rest.parse::<u32>() {
            Ok(1 | 2) => Command::Nboard,
            _ => {
                return Err(format!(
                    "`{line}`: protocol version {rest} is not 1 or 2; speaking version 2"
                ))
            }
        },
        "set" => set(line, rest)?,
        "move" => Command::Move(parse_move(rest).map_err(|e| move_refused(line, &e))?),
        "go" => Command::Go,
        "analyze" => Command::Analyze,
        "hint" => match rest.parse::<usize>() {
            Ok(n) if n > 0 => Command::Hint(n),
            _ => return Err(format!("`{line}`: expected `hint N` with N at least 1")),
        },
        "ping" => Command::Ping(rest.to_owned()),
        "learn" => Command::Learn,
        "quit" => Command::Quit,
        _ => return Err(format!("`{line}`: unknown command, ignored")),
    }))
}

/// The message for a `move` line whose move cannot be read or played.
pub fn move_refused(line: &str, why: &str) -> String {
    format!("`{}`: {why}; the move is ignored", line.trim())
}

/// `ping` and `quit` stop a search; every other command waits until it is done.
pub fn interrupts(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("ping" | "quit"))
}

/// `go`, `hint` and `analyze` start a search.
pub fn searches(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some("go" | "hint" | "analyze")
    )
}

/// The first word and the rest, trimmed.
fn split_word(text: &str) -> (&str, &str) {
    text.split_once(char::is_whitespace)
        .map_or((text, ""), |(w, r)| (w, r.trim()))
}

/// `set depth|game|contempt VALUE`.
fn set(line: &str, rest: &str) -> Result<Command, String> {
    let (what, value) = split_word(rest);
    match what {
        "depth" => match value.parse::<u32>() {
            Ok(d) if (1..=60).contains(&d) => Ok(Command::SetDepth(d)),
            _ => Err(format!("`{line}`: expected a depth from 1 to 60")),
        },
        "game" => Ok(read_game(value).map_or_else(
            |e| Command::BadGame(format!("set game: {e}")),
            Command::SetGame,
        )),
        "contempt" => match value.parse::<f64>() {
            Ok(c) if c.is_finite() => Ok(Command::SetContempt(c)),
            _ => Err(format!("`{line}`: expected a number")),
        },
        _ => Err(format!("`{line}`: unknown setting, ignored")),
    }
}

/// The game of a `set game` line, with a board size check against `TY` when it is given,
/// and its clock.
fn read_game(text: &str) -> Result<GameSet, String> {
    let (rec, times) = GgfGame::parse_timed(text).map_err(|e| e.to_string())?;
    let n = rec.game.start().size().n();
    if let Some(ty) = rec.tag("TY") {
        let digits: String = ty.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(t) = digits.parse::<u8>() {
            if t != n {
                return Err(format!(
                    "TY[{ty}] says {t}x{t} but the board (BO) is {n}x{n}"
                ));
            }
        }
    }
    let clock = rec.tag("TI").map(ggf::clock).transpose()?;
    Ok(GameSet {
        game: rec.game,
        clock,
        times,
    })
}

/// `F5`, `f5/1.50/0.3`, `PA`: the move before any `/`.
fn parse_move(text: &str) -> Result<Move, String> {
    let m = text.split('/').next().unwrap_or("").trim();
    if m.is_empty() {
        return Err("expected a move like `F5` or `PA`".to_owned());
    }
    if m.eq_ignore_ascii_case("pa") || m.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    Square::parse(m).map(Move::Play).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    fn refused(line: &str) -> String {
        parse(line).unwrap_err()
    }

    /// `line` is refused with a message that starts and ends so (a library's words between).
    fn refused_as(line: &str, start: &str, end: &str) {
        let e = refused(line);
        assert!(e.starts_with(start) && e.ends_with(end), "{e}");
    }

    #[test]
    fn moves_read_with_or_without_eval_and_time() {
        assert_eq!(parse_move("F5"), Ok(Move::Play(sq("f5"))));
        assert_eq!(parse_move("f5/1.50/0.3"), Ok(Move::Play(sq("f5"))));
        assert_eq!(parse_move("PA"), Ok(Move::Pass));
        assert_eq!(parse_move("pa/-2.00"), Ok(Move::Pass));
        assert!(parse_move("").unwrap_err().contains("expected a move"));
        assert!(parse_move("Z9").unwrap_err().contains("not a square"));
        assert_eq!(
            ok("  move F5/1.50/0.3  "),
            Command::Move(Move::Play(sq("f5")))
        );
        assert_eq!(ok("move pass"), Command::Move(Move::Pass));
        refused_as("move Z9", "`move Z9`: ", "; the move is ignored");
    }

    #[test]
    fn every_command_of_the_protocol_is_read() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("   ").unwrap(), None);
        assert_eq!(ok("nboard 2"), Command::Nboard);
        assert_eq!(ok("nboard 1"), Command::Nboard);
        assert_eq!(ok("set depth 7"), Command::SetDepth(7));
        assert_eq!(ok("set contempt -1.5"), Command::SetContempt(-1.5));
        assert_eq!(ok("go"), Command::Go);
        assert_eq!(ok("go now"), Command::Go);
        assert_eq!(ok("analyze"), Command::Analyze);
        assert_eq!(ok("hint 3"), Command::Hint(3));
        assert_eq!(ok("ping 12"), Command::Ping("12".into()));
        assert_eq!(ok("ping"), Command::Ping(String::new()));
        assert_eq!(ok("learn"), Command::Learn);
        assert_eq!(ok("quit"), Command::Quit);
        let Command::SetGame(g) = ok("set game (;GM[Othello]TI[5:00/2]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5//1.5]W[d6];)")
        else {
            panic!("not a game");
        };
        assert_eq!(g.game.moves().len(), 2);
        assert_eq!(
            g.clock,
            Some(ggf::Clock {
                main: Duration::from_secs(300),
                increment: Duration::from_secs(2),
                extension: Duration::ZERO
            })
        );
        assert_eq!(g.times, [Some(Duration::from_millis(1500)), None]);
    }

    #[test]
    fn bad_lines_are_refused_with_the_line_named() {
        assert_eq!(
            refused("nboard 3"),
            "`nboard 3`: protocol version 3 is not 1 or 2; speaking version 2"
        );
        for d in ["0", "61", "deep", ""] {
            let line = format!("set depth {d}");
            assert_eq!(
                refused(&line),
                format!("`{}`: expected a depth from 1 to 60", line.trim())
            );
        }
        assert_eq!(
            refused("set contempt inf"),
            "`set contempt inf`: expected a number"
        );
        assert_eq!(
            refused("set colour red"),
            "`set colour red`: unknown setting, ignored"
        );
        assert_eq!(
            refused("hint 0"),
            "`hint 0`: expected `hint N` with N at least 1"
        );
        assert_eq!(
            refused(" frobnicate x "),
            "`frobnicate x`: unknown command, ignored"
        );
        // A game that cannot be read is a command of its own: the engine answers it.
        let Command::BadGame(e) = ok("set game (;GM[Othello];") else {
            panic!("not refused");
        };
        assert!(e.starts_with("set game: "), "{e}");
        let Command::BadGame(e) = ok("set game (;GM[Othello]TI[soon]BO[4 ---- -O*- -*O- ---- *];)")
        else {
            panic!("not refused");
        };
        assert_eq!(e, "set game: TI[soon]: `soon` is not a time ([[h:]m:]s)");
    }

    #[test]
    fn a_game_whose_type_and_board_disagree_is_refused() {
        let e = read_game("(;GM[Othello]TY[8]BO[4 ---- -O*- -*O- ---- *];)").unwrap_err();
        assert!(
            e.contains("TY[8] says 8x8 but the board (BO) is 4x4"),
            "{e}"
        );
        let g =
            read_game("(;GM[Othello]TY[6]BO[6 ------ ------ --O*-- --*O-- ------ ------ *]B[b3];)")
                .unwrap();
        assert_eq!(g.game.moves().len(), 1);
        assert_eq!(g.clock, None);
    }

    #[test]
    fn ping_and_quit_interrupt_and_three_commands_search() {
        assert!(interrupts("ping 3") && interrupts("quit") && interrupts("  ping"));
        assert!(!interrupts("go") && !interrupts("pingpong") && !interrupts(""));
        assert!(searches("go") && searches("hint 2") && searches("analyze"));
        assert!(
            searches("hint x"),
            "a bad hint is dropped by a ping like a good one"
        );
        assert!(!searches("move f5") && !searches("ping 1") && !searches(""));
    }

    /// Lines a GUI sends, to damage.
    const LINES: [&str; 11] = [
        "nboard 2",
        "set depth 12",
        "set game (;GM[Othello]PC[NBoard]PB[a]PW[b]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5//1.2]W[d6];)",
        "move F5/1.50/0.3",
        "move PA",
        "go",
        "hint 3",
        "analyze",
        "ping 7",
        "set contempt 0.5",
        "quit",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::with_cases(512)
        })]

        /// Any line, and any damage to a good one (characters set, inserted, cut): a
        /// command or a message, never a panic; a game that is read replays from its start.
        #[test]
        fn damaged_lines_never_panic(
            k in 0..LINES.len(),
            edits in proptest::collection::vec(
                (proptest::prelude::any::<usize>(), proptest::prelude::any::<char>(), 0..3u8),
                0..6,
            ),
            raw in proptest::prelude::any::<String>(),
        ) {
            let _ = parse(&raw);
            let _ = (interrupts(&raw), searches(&raw));
            let line = crate::damage::damaged(LINES[k], &edits);
            match parse(&line) {
                Ok(Some(Command::SetGame(GameSet { game: g, .. }))) => {
                    let mut replay = GameRecord::new(g.start());
                    for &m in g.moves() {
                        proptest::prop_assert!(replay.play(m).is_ok(), "{line:?}");
                    }
                    proptest::prop_assert_eq!(replay.position(), g.position());
                }
                Ok(Some(Command::SetDepth(d))) => proptest::prop_assert!((1..=60).contains(&d)),
                Ok(Some(Command::Hint(n))) => proptest::prop_assert!(n > 0),
                _ => {}
            }
        }
    }
}
