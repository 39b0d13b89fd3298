//! Move transcripts: `f5d6c3d3c4…`, the way games are written down and pasted.
//!
//! Squares are two characters (either case) with optional whitespace or `,`/`;` between them.
//! A pass may be written (`pass`, `pa` or `ps`, either case) but need not be: when the side to
//! move has no legal move, the next square is played by the other side. A written pass is
//! checked like any move (the side must really have no move, and the game must go on).
//!
//! The writer leaves passes out, except passes at the very end, which no later move implies;
//! so `parse(format(game)) == game` for every game.

use crate::{GameRecord, Move, ParseError, Position, Square};

/// Reads a transcript played from `start`.
///
/// # Errors
/// When a token is neither a square nor a pass, or a move is not legal; the message names the
/// move by number, the token, its character position (1-based) and the reason.
///
/// ```
/// use ply_othello::{transcript, BoardSize, Position};
/// let start = Position::start(BoardSize::Eight);
/// let game = transcript::parse("f5 D6 c3", start).unwrap();
/// assert_eq!(transcript::format(&game), "f5d6c3");
/// let err = transcript::parse("f5f5", start).unwrap_err();
/// assert!(err.to_string().contains("move 2"));
/// ```
pub fn parse(text: &str, start: Position) -> Result<GameRecord, ParseError> {
    let mut game = GameRecord::new(start);
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut number = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' || c == ';' {
            i += 1;
            continue;
        }
        number += 1;
        let word = |n: usize| -> String { chars[i..(i + n).min(chars.len())].iter().collect() };
        let (token, len, mv) = if word(4).eq_ignore_ascii_case("pass") {
            (word(4), 4, Move::Pass)
        } else if word(2).eq_ignore_ascii_case("pa") || word(2).eq_ignore_ascii_case("ps") {
            (word(2), 2, Move::Pass)
        } else {
            let token = word(2);
            match Square::parse(&token) {
                Ok(sq) => (token, 2, Move::Play(sq)),
                Err(_) => {
                    return Err(ParseError::new(format!(
                        "move {number} at character {}: `{}` is not a square (a1..h8) or a pass",
                        i + 1,
                        token.escape_debug()
                    )))
                }
            }
        };
        let side = game.position().turn();
        let result = match mv {
            Move::Play(sq) => game.play_with_implicit_pass(sq).map(|_| ()),
            Move::Pass => game.play(Move::Pass),
        };
        if let Err(e) = result {
            let who = if matches!(mv, Move::Play(_)) && !game.position().can_move() {
                side.other()
            } else {
                side
            };
            return Err(ParseError::new(format!(
                "move {number} (`{token}`) at character {}: {e} ({} to move)",
                i + 1,
                color_name(who)
            )));
        }
        i += len;
    }
    Ok(game)
}

fn color_name(c: crate::Color) -> &'static str {
    match c {
        crate::Color::Black => "black",
        crate::Color::White => "white",
    }
}

/// Writes the moves of a game as a transcript: lowercase squares, no separators, passes left
/// out except at the end (written `pa`).
#[must_use]
pub fn format(game: &GameRecord) -> String {
    let moves = game.moves();
    let trailing = moves.iter().rev().take_while(|m| **m == Move::Pass).count();
    let mut s = String::with_capacity(moves.len() * 2);
    for (k, m) in moves.iter().enumerate() {
        match m {
            Move::Play(sq) => s.push_str(&sq.to_string()),
            Move::Pass if k >= moves.len() - trailing => s.push_str("pa"),
            Move::Pass => {}
        }
    }
    s
}

/// Writes every ply, passes as `pa`.
#[must_use]
pub fn format_with_passes(game: &GameRecord) -> String {
    game.moves()
        .iter()
        .map(|m| match m {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "pa".to_owned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardSize, Color};

    /// A 4x4 game in which white must pass after black's a4 and black plays on: perfect
    /// play from the start is no part of this, only a pass that is forced.
    fn game_with_a_pass() -> (String, GameRecord) {
        // Play random legal moves until a pass is forced, deterministically.
        let start = Position::start(BoardSize::Four);
        for seed in 0..10_000u64 {
            let mut game = GameRecord::new(start);
            let mut rng = ply_core::SplitMix64::new(seed);
            while !game.position().is_game_over() {
                let pos = game.position();
                let moves: Vec<_> = pos.legal_moves().collect();
                if moves.is_empty() {
                    game.play(Move::Pass).unwrap();
                    continue;
                }
                game.play(Move::Play(moves[rng.below(moves.len())]))
                    .unwrap();
            }
            let passes = game.moves().iter().filter(|m| **m == Move::Pass).count();
            if passes > 0 && game.moves().last() != Some(&Move::Pass) {
                return (format(&game), game);
            }
        }
        unreachable!("some random 4x4 game has a pass in the middle")
    }

    #[test]
    fn implicit_and_explicit_passes_give_the_same_game() {
        let (text, game) = game_with_a_pass();
        let start = game.start();
        assert_eq!(parse(&text, start).unwrap(), game);
        let explicit = format_with_passes(&game);
        assert!(explicit.contains("pa"));
        assert_eq!(parse(&explicit, start).unwrap(), game);
        assert_eq!(parse(&explicit.to_uppercase(), start).unwrap(), game);
        assert_eq!(
            parse(&explicit.replace("pa", " pass "), start).unwrap(),
            game
        );
    }

    #[test]
    fn a_pass_with_moves_left_is_refused() {
        let start = Position::start(BoardSize::Eight);
        let err = parse("f5 pass", start).unwrap_err().to_string();
        assert!(err.contains("move 2 (`pass`)"), "{err}");
        assert!(err.contains("(white to move)"), "{err}");
    }

    #[test]
    fn trailing_passes_survive_a_round_trip() {
        // White to move, no move; black has d4.
        let pos = crate::text::parse_position("XXXXXXXXXXXO---- O").unwrap();
        let game = parse("pa", pos).unwrap();
        assert_eq!(game.position().turn(), Color::Black);
        assert_eq!(format(&game), "pa");
        assert_eq!(parse(&format(&game), pos).unwrap(), game);
        let game = parse("d4", pos).unwrap();
        assert_eq!(
            game.moves(),
            &[Move::Pass, Move::Play(Square::parse("d4").unwrap())]
        );
    }

    #[test]
    fn bad_tokens_are_placed() {
        let start = Position::start(BoardSize::Six);
        let err = parse("d5 z9", start).unwrap_err().to_string();
        assert!(err.contains("move 2 at character 4"), "{err}");
        let err = parse("d5g1", start).unwrap_err().to_string();
        assert!(err.contains("not on the board"), "{err}");
        let err = parse("d5d5", start).unwrap_err().to_string();
        assert!(err.contains("already taken"), "{err}");
    }
}
