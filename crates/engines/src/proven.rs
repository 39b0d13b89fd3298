//! The consistency check of proven values along a game: perfect play keeps a position's
//! value, so a proven answer must agree with the proven answer before it (the value can only
//! have moved against a side whose answer in between was not proven) and with the game's
//! final score. `ply bench play` fails on a game this check refuses.

use ply_othello::Color;

use crate::matches::{Asked, Game};

/// The proven value for black of the position an answer was given in, in discs.
fn black_value(a: &Asked) -> Option<i32> {
    let info = a.info.as_ref().filter(|i| i.proven)?;
    let v = info.score.round() as i32;
    Some(if a.side == Color::Black { v } else { -v })
}

/// Where a game's proven answers contradict each other or its result: the index in
/// `game.asked` of the answer (or `game.asked.len()` for the final score) and what is
/// wrong. An answer without information counts as not proven.
///
/// The value for black is tracked as a range: a proven answer pins it, its move keeps it
/// (perfect play), and an answer that is not proven can only lower its own side's value (an
/// unproven black move can lower black's value, an unproven white move raise it).
#[must_use]
pub fn contradiction(game: &Game) -> Option<(usize, String)> {
    let answers = &game.asked;
    let (mut lo, mut hi): (Option<i32>, Option<i32>) = (None, None);
    let mut pinned_by: Option<usize> = None;
    let within = |v: i32, lo: Option<i32>, hi: Option<i32>| {
        lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h)
    };
    let since = |by: Option<usize>| {
        by.map_or(String::new(), |i| {
            format!(
                " (the proven answer at {} empties said {:+})",
                answers[i].empties,
                black_value(&answers[i]).unwrap_or(0)
            )
        })
    };
    for (i, a) in answers.iter().enumerate() {
        match black_value(a) {
            Some(v) => {
                if !within(v, lo, hi) {
                    return Some((
                        i,
                        format!(
                            "proven {v:+} for black at {} empties, outside {}..{}{}",
                            a.empties,
                            lo.map_or(String::new(), |l| format!("{l:+}")),
                            hi.map_or(String::new(), |h| format!("{h:+}")),
                            since(pinned_by)
                        ),
                    ));
                }
                (lo, hi, pinned_by) = (Some(v), Some(v), Some(i));
            }
            None if a.side == Color::Black => lo = None,
            None => hi = None,
        }
    }
    let final_black = game.black_score;
    (game.flagged.is_none() && !within(final_black, lo, hi)).then(|| {
        (
            answers.len(),
            format!(
                "the game ended {final_black:+} for black{}",
                since(pinned_by)
            ),
        )
    })
}

/// The empties of the first answer from which every answer to the end of the game was
/// proven; `None` when the last was not.
#[must_use]
pub fn proven_from(game: &Game) -> Option<u32> {
    let answers = &game.asked;
    let last_unproven = answers.iter().rposition(|a| black_value(a).is_none());
    let first = last_unproven.map_or(0, |i| i + 1);
    answers.get(first).map(|a| a.empties)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use ply_othello::{BoardSize, GameRecord, Move, Position, Square};

    use super::*;
    use crate::engine::Info;

    fn answer(empties: u32, side: Color, score: f64, proven: bool) -> Asked {
        Asked {
            side,
            empties,
            played: Move::Play(Square::parse("a1").unwrap()),
            used: Duration::ZERO,
            info: Some(Info {
                score,
                proven,
                depth: 0,
                book: false,
                line: Vec::new(),
                nodes: 0,
                ponder_hit: false,
            }),
        }
    }

    fn game(asked: &[Asked], black_score: i32) -> Game {
        let start = GameRecord::new(Position::start(BoardSize::Four));
        Game {
            black: "b".into(),
            white: "w".into(),
            opening: start.clone(),
            record: start,
            asked: asked.to_vec(),
            flagged: None,
            black_score,
        }
    }

    use Color::{Black as B, White as W};

    #[test]
    fn proven_answers_must_keep_the_value() {
        // Black proves +4, white then proves -4 (+4 for black), and the game ends +4.
        let kept = [answer(3, B, 4.0, true), answer(2, W, -4.0, true)];
        assert_eq!(contradiction(&game(&kept, 4)), None);
        assert_eq!(proven_from(&game(&kept, 4)), Some(3));
        // White's proven answer says black has +6: the value moved with no unproven answer.
        let moved = [answer(3, B, 4.0, true), answer(2, W, -6.0, true)];
        assert_eq!(contradiction(&game(&moved, 6)).map(|c| c.0), Some(1));
        // The final score disagrees with the last proven answer.
        assert_eq!(contradiction(&game(&kept, 2)).map(|c| c.0), Some(2));
    }

    #[test]
    fn an_unproven_answer_can_only_lower_its_own_sides_value() {
        // Black estimates, then white proves black's value: it may be lower than before...
        let lower = [
            answer(5, B, 4.0, true),
            answer(4, W, 0.0, false),
            answer(3, B, 2.0, false),
            answer(2, W, -2.0, true),
        ];
        // ... white's unproven answer could have raised it too, so anything goes.
        assert_eq!(contradiction(&game(&lower, 2)), None);
        let black_only = [
            answer(5, B, 4.0, true),
            answer(4, B, 2.0, false),
            answer(3, W, -6.0, true),
        ];
        // Only black answered without proof: black's value cannot have risen to +6.
        assert_eq!(contradiction(&game(&black_only, 6)).map(|c| c.0), Some(2));
        assert_eq!(proven_from(&game(&black_only, 6)), Some(3));
        assert_eq!(proven_from(&game(&black_only[..2], 6)), None);
    }

    #[test]
    fn an_answer_without_information_is_not_proven() {
        let mut silent = answer(3, B, 4.0, true);
        silent.info = None;
        let asked = [answer(4, W, -4.0, true), silent];
        assert_eq!(proven_from(&game(&asked, 4)), None);
        // Black's silent answer may have lowered black's value: +2 is no contradiction.
        assert_eq!(contradiction(&game(&asked, 2)), None);
        assert_eq!(contradiction(&game(&asked, 6)).map(|c| c.0), Some(2));
    }
}
