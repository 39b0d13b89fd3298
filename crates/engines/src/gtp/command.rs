//! One GTP line into one command: pure, no game, no I/O.
//!
//! GTP 2 (draft 2) lines are preprocessed before they are read: control characters other than
//! tab and newline are dropped, a tab counts as a space, everything from `#` on is a comment,
//! and a line left with nothing but spaces is no command at all. A command is an optional
//! id (digits), a name and its arguments. A wrong argument is an error that keeps the id, so
//! that the answer still names the command it answers.

use ply_othello::{Color, Move, Square};

/// Every command ply answers, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "list_games",
    "kgs-time_settings",
    "reg_genmove",
    "hint",
];

/// A game clock as `time_settings` and `kgs-time_settings` set it, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSystem {
    /// `kgs-time_settings none`, or `time_settings` with byo-yomi time and no stones.
    None,
    /// `kgs-time_settings absolute MAIN`, `time_settings MAIN 0 0`.
    Absolute {
        /// Main time, seconds.
        main: u32,
    },
    /// `kgs-time_settings fischer MAIN INCREMENT` (an extension of KGS's set).
    Fischer {
        /// Main time, seconds.
        main: u32,
        /// Seconds added after each move.
        increment: u32,
    },
    /// `kgs-time_settings canadian MAIN PERIOD STONES`, `time_settings MAIN PERIOD STONES`.
    Canadian {
        /// Main time, seconds.
        main: u32,
        /// A period, seconds.
        period: u32,
        /// Moves in a period.
        stones: u32,
    },
    /// `kgs-time_settings byoyomi MAIN PERIOD PERIODS`: Japanese byo-yomi.
    Byoyomi {
        /// Main time, seconds.
        main: u32,
        /// A period, seconds.
        period: u32,
        /// Periods.
        periods: u32,
    },
}

/// A command, its arguments read and checked for form (not against the game).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `protocol_version`.
    ProtocolVersion,
    /// `name`.
    Name,
    /// `version`.
    Version,
    /// `known_command NAME`.
    IsKnown(String),
    /// `list_commands`.
    ListCommands,
    /// `list_games`: the games the engine plays (`Othello`). Not in the GTP 2 draft, but
    /// Quarry asks it to learn which game an engine plays, and takes an engine without it
    /// for a Go engine.
    ListGames,
    /// `quit`.
    Quit,
    /// `boardsize N`: any whole number; the session says which sizes it plays.
    BoardSize(u32),
    /// `clear_board`.
    ClearBoard,
    /// `komi K`: read and checked, and not used (Othello scores discs).
    Komi(f64),
    /// `play COLOR VERTEX`, a pass as `pass`.
    Play(Color, Move),
    /// `genmove COLOR`.
    GenMove(Color),
    /// `undo`.
    Undo,
    /// `showboard`.
    ShowBoard,
    /// `final_score`.
    FinalScore,
    /// `time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`, in seconds and stones.
    TimeSettings {
        /// Main time, seconds.
        main: u32,
        /// Byo-yomi period, seconds.
        byo_yomi: u32,
        /// Moves to play in each byo-yomi period.
        stones: u32,
    },
    /// `kgs-time_settings none|absolute|byoyomi|canadian|fischer ...`.
    KgsTimeSettings(TimeSystem),
    /// `reg_genmove COLOR`: the move ply would play, not played and not charged to the
    /// clock.
    RegGenMove(Color),
    /// `hint COLOR`: every legal move of COLOR with its value, best first (`F5 +2.00 D6
    /// -1.50`, discs for COLOR; exact values marked `=`), as NBoard's and Edax's `hint`.
    Hint(Color),
    /// `time_left COLOR TIME STONES`: what is left of the period in seconds, and the moves
    /// still to play in it (0 in main time).
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Seconds left.
        seconds: u32,
        /// Moves left in the byo-yomi period; 0 in main time.
        stones: u32,
    },
}

/// One line read: its id, if it has one, and the command or what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The id, as the client wrote it (digits).
    pub id: Option<String>,
    /// The command, or a message naming what is wrong.
    pub command: Result<Command, String>,
}

/// Reads one line; `None` for a line with no command (empty, or only a comment).
pub fn parse(raw: &str) -> Option<Line> {
    let clean: String = raw
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words = clean.split_whitespace();
    let first = words.next()?;
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        let Some(name) = words.next() else {
            return Some(Line {
                id: Some(first.to_owned()),
                command: Err("syntax error: an id with no command".to_owned()),
            });
        };
        (Some(first.to_owned()), name)
    } else {
        (None, first)
    };
    let args: Vec<&str> = words.collect();
    Some(Line {
        id,
        command: command(name, &args),
    })
}

/// The command `name` with `args`.
fn command(name: &str, args: &[&str]) -> Result<Command, String> {
    let none = |c: Command| -> Result<Command, String> {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(format!(
                "syntax error: {name} takes no argument, found `{}`",
                args.join(" ")
            ))
        }
    };
    match name {
        "protocol_version" => none(Command::ProtocolVersion),
        "name" => none(Command::Name),
        "version" => none(Command::Version),
        "list_commands" => none(Command::ListCommands),
        "list_games" => none(Command::ListGames),
        "quit" => none(Command::Quit),
        "clear_board" => none(Command::ClearBoard),
        "undo" => none(Command::Undo),
        "showboard" => none(Command::ShowBoard),
        "final_score" => none(Command::FinalScore),
        "known_command" => match args {
            [n] => Ok(Command::IsKnown((*n).to_owned())),
            _ => Err(usage(name, "a command name", args)),
        },
        "boardsize" => match args {
            [n] => whole(name, "size", n).map(Command::BoardSize),
            _ => Err(usage(name, "a size (4, 6 or 8)", args)),
        },
        "komi" => match args {
            [k] => match k.parse::<f64>() {
                Ok(k) if k.is_finite() => Ok(Command::Komi(k)),
                _ => Err(format!("syntax error: komi `{k}` is not a number")),
            },
            _ => Err(usage(name, "a number", args)),
        },
        "play" => match args {
            [c, v] => Ok(Command::Play(color(c)?, vertex(v)?)),
            _ => Err(usage(name, "a colour and a vertex, as `play b d3`", args)),
        },
        "genmove" => match args {
            [c] => Ok(Command::GenMove(color(c)?)),
            _ => Err(usage(name, "a colour, as `genmove w`", args)),
        },
        "time_settings" => match args {
            [m, b, s] => Ok(Command::TimeSettings {
                main: whole(name, "main time", m)?,
                byo_yomi: whole(name, "byo-yomi time", b)?,
                stones: whole(name, "byo-yomi stones", s)?,
            }),
            _ => Err(usage(
                name,
                "main time, byo-yomi time and byo-yomi stones, as `time_settings 300 0 0`",
                args,
            )),
        },
        "kgs-time_settings" => kgs_time_settings(args).map(Command::KgsTimeSettings),
        "reg_genmove" => match args {
            [c] => Ok(Command::RegGenMove(color(c)?)),
            _ => Err(usage(name, "a colour, as `reg_genmove w`", args)),
        },
        "hint" => match args {
            [c] => Ok(Command::Hint(color(c)?)),
            _ => Err(usage(name, "a colour, as `hint b`", args)),
        },
        "time_left" => match args {
            [c, t, s] => Ok(Command::TimeLeft {
                color: color(c)?,
                seconds: whole(name, "time", t)?,
                stones: whole(name, "stones", s)?,
            }),
            _ => Err(usage(
                name,
                "a colour, the seconds left and the stones left, as `time_left b 120 0`",
                args,
            )),
        },
        _ => Err(format!("unknown command: `{name}`")),
    }
}

/// `kgs-time_settings`'s arguments.
fn kgs_time_settings(args: &[&str]) -> Result<TimeSystem, String> {
    const NAME: &str = "kgs-time_settings";
    let n = |what: &str, text: &str| whole(NAME, what, text);
    match args {
        ["none"] => Ok(TimeSystem::None),
        ["absolute", m] => Ok(TimeSystem::Absolute {
            main: n("main time", m)?,
        }),
        ["fischer", m, i] => Ok(TimeSystem::Fischer {
            main: n("main time", m)?,
            increment: n("increment", i)?,
        }),
        ["canadian", m, p, s] => Ok(TimeSystem::Canadian {
            main: n("main time", m)?,
            period: n("period", p)?,
            stones: n("stones", s)?,
        }),
        ["byoyomi", m, p, k] => Ok(TimeSystem::Byoyomi {
            main: n("main time", m)?,
            period: n("period", p)?,
            periods: n("periods", k)?,
        }),
        _ => Err(usage(
            NAME,
            "none, absolute MAIN, byoyomi MAIN PERIOD PERIODS, canadian MAIN PERIOD STONES or \
             fischer MAIN INCREMENT",
            args,
        )),
    }
}

/// The message for a command given the wrong number of arguments.
fn usage(name: &str, expected: &str, args: &[&str]) -> String {
    if args.is_empty() {
        format!("syntax error: {name} expects {expected}, found nothing")
    } else {
        format!(
            "syntax error: {name} expects {expected}, found `{}`",
            args.join(" ")
        )
    }
}

/// A whole number argument.
fn whole(name: &str, what: &str, text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .map_err(|_| format!("syntax error: {name}: {what} `{text}` is not a whole number"))
}

/// `b`, `black`, `w`, `white`, in any case.
pub fn color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!(
            "syntax error: `{text}` is not a colour (b, black, w or white)"
        )),
    }
}

/// `d3`, `D3` or `pass`, in any case. Columns are letters from `a` as Othello names them
/// (GTP skips `i`, which no Othello board reaches), rows numbers from 1 at the top.
pub fn vertex(text: &str) -> Result<Move, String> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    Square::parse(text)
        .map(Move::Play)
        .map_err(|_| format!("syntax error: `{text}` is not a vertex (a1..h8 or pass)"))
}

/// A move as GTP writes it: `D3`, or `pass`.
pub fn vertex_name(m: Move) -> String {
    match m {
        Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
        Move::Pass => "pass".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> (Option<String>, Command) {
        let l = parse(line).unwrap_or_else(|| panic!("`{line}` is a command"));
        (l.id, l.command.unwrap_or_else(|e| panic!("`{line}`: {e}")))
    }

    fn err(line: &str) -> (Option<String>, String) {
        let l = parse(line).unwrap_or_else(|| panic!("`{line}` is a command"));
        (l.id, l.command.expect_err(line))
    }

    fn sq(s: &str) -> Move {
        Move::Play(Square::parse(s).unwrap())
    }

    #[test]
    fn kgs_time_settings_reg_genmove_and_hint() {
        let kgs = |l: &str| match ok(l).1 {
            Command::KgsTimeSettings(t) => t,
            c => panic!("{c:?}"),
        };
        assert_eq!(kgs("kgs-time_settings none"), TimeSystem::None);
        assert_eq!(
            kgs("kgs-time_settings absolute 300"),
            TimeSystem::Absolute { main: 300 }
        );
        assert_eq!(
            kgs("kgs-time_settings fischer 2 1"),
            TimeSystem::Fischer {
                main: 2,
                increment: 1
            }
        );
        assert_eq!(
            kgs("kgs-time_settings canadian 60 30 5"),
            TimeSystem::Canadian {
                main: 60,
                period: 30,
                stones: 5
            }
        );
        assert_eq!(
            kgs("kgs-time_settings byoyomi 60 10 3"),
            TimeSystem::Byoyomi {
                main: 60,
                period: 10,
                periods: 3
            }
        );
        let e = err("kgs-time_settings byoyomi 60 10").1;
        assert!(e.contains("expects none, absolute MAIN"), "{e}");
        let e = err("kgs-time_settings absolute -1").1;
        assert!(e.contains("main time `-1` is not a whole number"), "{e}");
        assert!(err("kgs-time_settings hourglass 5")
            .1
            .contains("found `hourglass 5`"));
        assert_eq!(ok("reg_genmove b").1, Command::RegGenMove(Color::Black));
        assert_eq!(ok("hint W").1, Command::Hint(Color::White));
        assert!(err("hint").1.contains("hint expects a colour"));
    }

    #[test]
    fn ids_come_before_the_command_and_stay_with_errors() {
        assert_eq!(ok("12 name"), (Some("12".to_owned()), Command::Name));
        assert_eq!(ok("name"), (None, Command::Name));
        assert_eq!(ok("007 showboard").0.as_deref(), Some("007"));
        let (id, e) = err("3 play x d3");
        assert_eq!(id.as_deref(), Some("3"));
        assert!(e.contains("`x` is not a colour"), "{e}");
        assert!(err("5").1.contains("an id with no command"));
    }

    #[test]
    fn comments_tabs_control_characters_and_blank_lines() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("   \t "), None);
        assert_eq!(parse("# just a comment"), None);
        assert_eq!(
            ok("1\tplay\tB d3 # black's move\r").1,
            Command::Play(Color::Black, sq("d3"))
        );
        assert_eq!(ok("genm\u{7}ove w").1, Command::GenMove(Color::White));
    }

    #[test]
    fn colours_and_vertices_in_any_case() {
        for (c, want) in [
            ("b", Color::Black),
            ("B", Color::Black),
            ("black", Color::Black),
            ("BLACK", Color::Black),
            ("w", Color::White),
            ("White", Color::White),
        ] {
            assert_eq!(color(c), Ok(want), "{c}");
        }
        assert_eq!(ok("play w D3").1, Command::Play(Color::White, sq("d3")));
        assert_eq!(ok("play b PASS").1, Command::Play(Color::Black, Move::Pass));
        assert_eq!(ok("play b pass").1, Command::Play(Color::Black, Move::Pass));
        assert!(err("play b z9").1.contains("`z9` is not a vertex"));
        assert!(err("play b d9").1.contains("`d9` is not a vertex"));
        assert!(err("play red d3").1.contains("`red` is not a colour"));
        assert_eq!(vertex_name(sq("d3")), "D3");
        assert_eq!(vertex_name(Move::Pass), "pass");
    }

    #[test]
    fn wrong_arguments_name_what_is_wrong() {
        assert!(err("play b")
            .1
            .contains("play expects a colour and a vertex"));
        assert!(err("play").1.contains("found nothing"));
        assert!(err("genmove").1.contains("genmove expects a colour"));
        assert!(err("boardsize eight")
            .1
            .contains("size `eight` is not a whole number"));
        assert!(err("komi x").1.contains("komi `x` is not a number"));
        assert!(err("komi nan").1.contains("is not a number"));
        assert!(err("name please").1.contains("name takes no argument"));
        assert!(err("time_left b 10").1.contains("time_left expects"));
        assert!(err("time_settings 1 2 -3")
            .1
            .contains("`-3` is not a whole number"));
        assert_eq!(err("frobnicate").1, "unknown command: `frobnicate`");
    }

    #[test]
    fn every_listed_command_reads() {
        let args = |name: &str| match name {
            "known_command" => " play",
            "boardsize" => " 8",
            "komi" => " 6.5",
            "play" => " b d3",
            "genmove" | "reg_genmove" | "hint" => " w",
            "kgs-time_settings" => " canadian 300 10 5",
            "time_settings" => " 300 10 5",
            "time_left" => " b 120 0",
            _ => "",
        };
        for name in COMMANDS {
            let line = format!("{name}{}", args(name));
            assert!(parse(&line).unwrap().command.is_ok(), "{line}");
        }
        assert_eq!(
            ok("time_settings 300 10 5").1,
            Command::TimeSettings {
                main: 300,
                byo_yomi: 10,
                stones: 5
            }
        );
        assert_eq!(
            ok("time_left white 42 3").1,
            Command::TimeLeft {
                color: Color::White,
                seconds: 42,
                stones: 3
            }
        );
        assert_eq!(ok("komi -2.5").1, Command::Komi(-2.5));
    }

    /// Lines a client sends, to damage.
    const LINES: [&str; 12] = [
        "protocol_version",
        "1 boardsize 8",
        "2 clear_board",
        "play b d3",
        "12 genmove w",
        "time_settings 300 10 1",
        "kgs-time_settings byoyomi 300 10 3",
        "reg_genmove b",
        "known_command play",
        "play w pass",
        "komi -2.5",
        "undo # a comment",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::with_cases(512)
        })]

        /// Any line, and any damage to a good one (characters set, inserted, cut): a
        /// command or a message, never a panic; an id is kept as the client wrote it.
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
            let line = crate::damage::damaged(LINES[k], &edits);
            if let Some(l) = parse(&line) {
                if let Some(id) = &l.id {
                    proptest::prop_assert!(id.bytes().all(|b| b.is_ascii_digit()), "{line:?}");
                }
            }
        }
    }
}
