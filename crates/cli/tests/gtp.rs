//! `ply gtp`, driven by scripted clients: the real binary, a script on stdin, every answer
//! checked against the GTP frame (`=id text` or `?id message`, then an empty line) and
//! against the rules.

mod common;

use common::{ply_with_input, stderr, stdout};
use ply_othello::{text, BoardSize, Color, GameRecord, Move, Position, Square};

/// One answer: whether it succeeded, its id, and its text (lines joined by `\n`).
#[derive(Debug, PartialEq)]
struct Answer {
    ok: bool,
    id: Option<String>,
    text: String,
}

/// Runs `ply gtp ARGS` on `script` and splits what it printed into answers, checking the
/// frame: every answer ends with an empty line, and stderr stays empty.
fn session(args: &[&str], script: &str) -> Vec<Answer> {
    let mut all = vec!["gtp"];
    all.extend_from_slice(args);
    let out = ply_with_input(&all, script.as_bytes());
    assert!(
        out.status.success(),
        "exit {}: {}",
        out.status,
        stderr(&out)
    );
    assert_eq!(stderr(&out), "", "nothing on stderr");
    let text = stdout(&out);
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "every answer ends with an empty line: {text:?}"
    );
    text.split_terminator("\n\n")
        .map(|block| {
            let (head, rest) = block.split_once('\n').unwrap_or((block, ""));
            let sign = head.chars().next().expect("an answer starts with a sign");
            assert!(sign == '=' || sign == '?', "{block:?}");
            let head = &head[1..];
            let (id, first) = head.split_once(' ').unwrap_or((head, ""));
            assert!(id.bytes().all(|b| b.is_ascii_digit()), "{block:?}");
            let mut text = first.to_owned();
            if !rest.is_empty() {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(rest);
            }
            Answer {
                ok: sign == '=',
                id: (!id.is_empty()).then(|| id.to_owned()),
                text,
            }
        })
        .collect()
}

fn ok(text: &str) -> Answer {
    Answer {
        ok: true,
        id: None,
        text: text.to_owned(),
    }
}

#[test]
fn answers_carry_their_ids_and_errors_name_what_is_wrong() {
    let a = session(
        &["--depth", "1"],
        "1 protocol_version\n\
         2 name\n\
         # a comment line and a blank one are no commands\n\
         \n\
         3 known_command genmove\n\
         known_command loadsgf\n\
         4 boardsize 19\n\
         5 play b z9\n\
         6 play red d3\n\
         7 frobnicate\n\
         8 undo\n\
         9 play b d4\n\
         10 play b\n\
         11 final_score\n\
         12 komi 6.5\n\
         13 time_settings 300 0 0\n\
         14 time_left b 290 0\n\
         15 list_commands\n\
         16 quit\n\
         17 name\n",
    );
    assert_eq!(a.len(), 17, "nothing after quit: {a:#?}");
    let id = |n: usize| Some(n.to_string());
    assert_eq!(
        a[0],
        Answer {
            ok: true,
            id: id(1),
            text: "2".into()
        }
    );
    assert_eq!(a[1].text, "ply");
    assert_eq!((a[2].id.clone(), a[2].text.as_str()), (id(3), "true"));
    assert_eq!(a[3], ok("false"));
    for (i, n, words) in [
        (
            4,
            4,
            "unacceptable size: ply plays Othello on 4x4, 6x6 and 8x8 boards, not 19x19",
        ),
        (5, 5, "syntax error: `z9` is not a vertex"),
        (6, 6, "syntax error: `red` is not a colour"),
        (7, 7, "unknown command: `frobnicate`"),
        (8, 8, "cannot undo: no move to take back"),
        (
            9,
            9,
            "illegal move: black D4: d4 is already taken (legal moves: d3 c4 f5 e6)",
        ),
        (10, 10, "syntax error: play expects a colour and a vertex"),
        (
            11,
            11,
            "cannot score: the game is not over (black to move, 60 empty squares)",
        ),
    ] {
        assert!(!a[i].ok, "{:?}", a[i]);
        assert_eq!(a[i].id, id(n));
        assert!(
            a[i].text.starts_with(words),
            "{:?} should say {words}",
            a[i]
        );
    }
    for x in &a[12..=14] {
        assert!(x.ok && x.text.is_empty(), "{x:?}");
    }
    let commands: Vec<&str> = a[15].text.lines().collect();
    for c in [
        "protocol_version",
        "name",
        "version",
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
        "list_commands",
        "known_command",
        "quit",
    ] {
        assert!(commands.contains(&c), "{c} in {commands:?}");
    }
    assert_eq!(
        a[16],
        Answer {
            ok: true,
            id: id(16),
            text: String::new()
        }
    );
}

#[test]
fn garbage_and_stdin_closing_end_nothing_badly() {
    let out = ply_with_input(&["gtp"], b"\xff\xfe name\n\x00\x01\nshowboard");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("? unknown command: `\u{fffd}\u{fffd}`\n\n"),
        "{text}"
    );
    // The last line has no newline: it is still a command, answered before the end.
    assert!(
        text.ends_with("a b c d e f g h\nblack (X) 2, white (O) 2; black to move: d3 c4 f5 e6\n\n"),
        "{text}"
    );
    assert!(!ply_with_input(&["gtp", "--time", "0"], b"")
        .status
        .success());
    assert!(!ply_with_input(&["gtp", "--depth", "61"], b"")
        .status
        .success());
}

/// The shortest 4x4 game (first found, moves in square order) in which a side must pass:
/// the moves before the pass, and the colour that passes.
fn game_with_a_pass() -> (Vec<Square>, Color) {
    fn search(game: &GameRecord, depth: usize) -> Option<(Vec<Square>, Color)> {
        let pos = game.position();
        if pos.is_game_over() {
            return None;
        }
        if !pos.can_move() {
            let moves = game
                .moves()
                .iter()
                .map(|m| match m {
                    Move::Play(sq) => *sq,
                    Move::Pass => unreachable!("the search stops at the first pass"),
                })
                .collect();
            return Some((moves, pos.turn()));
        }
        if depth == 0 {
            return None;
        }
        pos.legal_moves().find_map(|sq| {
            let mut next = game.clone();
            next.play(Move::Play(sq)).expect("legal");
            search(&next, depth - 1)
        })
    }
    let start = GameRecord::new(Position::start(BoardSize::Four));
    (1..12)
        .find_map(|d| search(&start, d))
        .expect("some 4x4 game has a pass")
}

#[test]
fn a_forced_pass_is_played_answered_and_taken_back() {
    let (moves, passer) = game_with_a_pass();
    let name = |c: Color| if c == Color::Black { "b" } else { "w" };
    let mut script = String::from("boardsize 4\nclear_board\n");
    let mut color = Color::Black;
    for sq in &moves {
        script.push_str(&format!("play {} {sq}\n", name(color)));
        color = color.other();
    }
    assert_eq!(color, passer);
    let other = name(passer.other());
    // The side with no move asks for one: `pass`; undo takes it back; an explicit pass by
    // the wrong side is refused and by the right side accepted; then the other side plays
    // straight away (the pass played for the side that has no move), and undo takes back
    // both.
    script.push_str(&format!(
        "genmove {p}\nshowboard\nundo\nplay {other} pass\nplay {p} pass\nundo\ngenmove {other}\nundo\nshowboard\nquit\n",
        p = name(passer)
    ));
    let a = session(&["--depth", "2"], &script);
    let n = 2 + moves.len();
    assert!(a[..n].iter().all(|x| x.ok && x.text.is_empty()), "{a:#?}");
    assert_eq!(a[n], ok("pass"));
    assert!(
        a[n + 1].text.contains("to move: "),
        "after the pass, the other side: {:?}",
        a[n + 1]
    );
    assert_eq!(a[n + 2], ok(""));
    assert!(!a[n + 3].ok, "{:?}", a[n + 3]);
    assert!(
        a[n + 3].text.contains("cannot pass, it is"),
        "{:?}",
        a[n + 3]
    );
    assert_eq!(a[n + 4], ok(""));
    assert_eq!(a[n + 5], ok(""));
    let reply = &a[n + 6];
    assert!(reply.ok, "{reply:?}");
    let sq = Square::parse(&reply.text).expect("a square");
    let mut game = GameRecord::new(Position::start(BoardSize::Four));
    for &m in &moves {
        game.play(Move::Play(m)).unwrap();
    }
    game.play(Move::Pass).unwrap();
    game.play(Move::Play(sq))
        .unwrap_or_else(|e| panic!("{sq} is legal after the pass: {e}"));
    assert_eq!(a[n + 7], ok(""));
    let board = &a[n + 8].text;
    let pos = {
        let mut g = GameRecord::new(Position::start(BoardSize::Four));
        for &m in &moves {
            g.play(Move::Play(m)).unwrap();
        }
        g.position()
    };
    assert!(
        board.starts_with(text::picture(&pos, pos.legal_moves()).trim_end()),
        "undo is back before the pass: {board}"
    );
    assert!(board.ends_with("and must pass"), "{board}");
}

/// Plays a whole game through `genmove` for both sides, alternating colours as a client
/// does; checks every move by the rules and `final_score` against the game played.
fn whole_game(size: u8, depth: &str) -> (GameRecord, String) {
    let n = usize::from(size) * usize::from(size);
    let mut script = format!("boardsize {size}\nclear_board\n");
    for i in 0..n + 8 {
        script.push_str(if i % 2 == 0 {
            "genmove b\n"
        } else {
            "genmove w\n"
        });
    }
    script.push_str("final_score\nshowboard\n");
    let a = session(&["--depth", depth], &script);
    assert_eq!(a.len(), 2 + n + 8 + 2);
    let mut game = GameRecord::new(Position::start(BoardSize::from_n(size).unwrap()));
    let mut color = Color::Black;
    for answer in &a[2..2 + n + 8] {
        assert!(answer.ok, "{answer:?}");
        let pos = game.position();
        if answer.text == "pass" {
            assert!(
                pos.is_game_over() || (pos.turn() == color && !pos.can_move()),
                "{color:?} passes only with no move"
            );
            if !pos.is_game_over() {
                game.play(Move::Pass).unwrap();
            }
        } else {
            let sq = Square::parse(&answer.text).expect("a vertex");
            assert_eq!(
                pos.turn(),
                color,
                "ply plays only for the side to move here"
            );
            game.play(Move::Play(sq))
                .unwrap_or_else(|e| panic!("{color:?} {sq}: {e}"));
        }
        color = color.other();
    }
    let end = game.position();
    assert!(
        end.is_game_over(),
        "the game is over after {} plies",
        game.moves().len()
    );
    let score = &a[2 + n + 8];
    assert!(score.ok, "{score:?}");
    let black = if end.turn() == Color::Black {
        end.final_score()
    } else {
        -end.final_score()
    };
    let want = match black.signum() {
        1 => format!("B+{black}"),
        -1 => format!("W+{}", -black),
        _ => "0".to_owned(),
    };
    assert_eq!(score.text, want);
    assert!(a[2 + n + 9].text.ends_with("the game is over"));
    (game, score.text.clone())
}

#[test]
fn a_whole_6x6_game_to_the_end_is_perfect_play() {
    // Both sides answer from the exact 6x6 book and the solver: the game ends with the
    // board's value, white by 4 (16-20).
    let (_, score) = whole_game(6, "4");
    assert_eq!(score, "W+4");
}

#[test]
fn a_whole_4x4_game_to_the_end() {
    let (game, _) = whole_game(4, "1");
    assert!(game.moves().len() >= 9);
}

#[test]
fn the_8x8_default_plays_legal_moves_within_the_clock() {
    let a = session(
        &["--depth", "2"],
        "time_settings 60 0 0\ntime_left b 60 0\ngenmove black\ngenmove W\nshowboard\n",
    );
    assert!(a.iter().all(|x| x.ok), "{a:#?}");
    let mut game = GameRecord::new(Position::start(BoardSize::Eight));
    for answer in &a[2..4] {
        let sq = Square::parse(&answer.text).expect("a vertex");
        game.play(Move::Play(sq)).unwrap();
    }
    let pos = game.position();
    assert!(a[4].text.contains("black to move: "), "{}", a[4].text);
    assert!(a[4]
        .text
        .starts_with(text::picture(&pos, pos.legal_moves()).trim_end()));
}

/// 36 empty squares: far from the book and from the exact solver, so that a move takes
/// the time its clock gives it.
const MIDGAME: &str = "f5d6c3d3c4f4f6f3e6e7c6g6g5f7e8c5b6h6d2b5e3b4g4f2";

/// The `play` commands of `MIDGAME`, and the colour to move after it.
fn midgame_script() -> (String, &'static str) {
    let game = ply_othello::transcript::parse(MIDGAME, Position::start(BoardSize::Eight))
        .expect("a legal game");
    let mut script = String::new();
    let mut replay = GameRecord::new(game.start());
    for &m in game.moves() {
        let c = match replay.position().turn() {
            Color::Black => "b",
            Color::White => "w",
        };
        script.push_str(&format!("play {c} {m}\n"));
        replay.play(m).unwrap();
    }
    let turn = match game.position().turn() {
        Color::Black => "b",
        Color::White => "w",
    };
    (script, turn)
}

/// Runs `clock` (a time setting), then four `genmove`s from `MIDGAME`, ply playing both
/// colours: every answer a legal move, and the whole session's wall time.
fn timed_moves(clock: &str) -> std::time::Duration {
    let (mut script, turn) = midgame_script();
    script.push_str(clock);
    let other = if turn == "b" { "w" } else { "b" };
    for c in [turn, other, turn, other] {
        script.push_str(&format!("genmove {c}\n"));
    }
    let started = std::time::Instant::now();
    let a = session(&[], &script);
    let took = started.elapsed();
    assert!(a.iter().all(|x| x.ok), "{a:#?}");
    let moves = &a[a.len() - 4..];
    for m in moves {
        assert!(Square::parse(&m.text).is_ok(), "{m:?}");
    }
    took
}

/// A GTP session with a Fischer clock (`kgs-time_settings fischer 3 1`): each move spends
/// most of its increment and a share of the main time (the four take over 2 s: more
/// time is used, not left on the clock), and none runs past what the clocks hold (3 s and
/// 1 s a move for each side: 10 s for four moves, doubled for a loaded 2-core machine).
#[test]
fn a_fischer_clock_is_spent_and_never_overrun() {
    let took = timed_moves("kgs-time_settings fischer 3 1\n");
    assert!(took > std::time::Duration::from_secs(2), "{took:?}");
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
}

/// Japanese byo-yomi with no main time (`kgs-time_settings byoyomi 0 1 3`): each move
/// takes most of its 1 s period and keeps it; Canadian (`time_settings 0 4 4`, 4 s for 4
/// moves) shares the period. Bounds generous enough for a loaded machine.
#[test]
fn byo_yomi_clocks_spend_most_of_a_period() {
    let took = timed_moves("kgs-time_settings byoyomi 0 1 3\n");
    assert!(took > std::time::Duration::from_secs(2), "{took:?}");
    assert!(took < std::time::Duration::from_secs(12), "{took:?}");
    let took = timed_moves("time_settings 0 4 4\ntime_left b 4 4\ntime_left w 4 4\n");
    assert!(took > std::time::Duration::from_secs(2), "{took:?}");
    assert!(took < std::time::Duration::from_secs(12), "{took:?}");
}

/// `--no-ponder` plays the same protocol; `--book` with a file that cannot be read is bad
/// input, named, exit status 2.
#[test]
fn no_ponder_and_a_missing_book() {
    let a = session(
        &["--no-ponder", "--depth", "1"],
        "boardsize 4\ngenmove b\nreg_genmove w\nhint w\n",
    );
    assert!(a.iter().all(|x| x.ok), "{a:#?}");
    assert!(Square::parse(&a[1].text).is_ok(), "{a:#?}");
    assert!(
        a[3].text.contains(&a[2].text),
        "the suggested move is hinted: {a:#?}"
    );
    let out = ply_with_input(&["gtp", "--book", "/nonexistent/ply-book.bin"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("/nonexistent/ply-book.bin"),
        "{}",
        stderr(&out)
    );
}
