//! The one shape of an exploration that every front end presents.

use super::{Exploration, GamesPage};
use crate::Color;

/// An exploration as every front end presents it: the CLI's `--json` and the API print this
/// one shape (with the `serde` feature).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// The position: 64 cells (`X`, `O`, `-`) and the side to move, as `text` writes it.
    pub position: String,
    /// The side to move, `X` or `O`.
    pub turn: char,
    /// Games in the databases.
    pub indexed_games: u64,
    /// Games that went through the position (or an image of it) and played on.
    pub games: u64,
    /// Games that ended in the position (or an image of it).
    pub ended: u64,
    /// Black's mean disc result over the games that ended here; none when none did.
    pub ended_black_mean_discs: Option<f64>,
    /// Every move, most played first.
    pub moves: Vec<MoveReport>,
    /// The standard name of the opening ([`crate::opening::name`] of the position; a front
    /// end that knows the game's moves may put [`crate::opening::name_of_game`] in its
    /// place).
    pub opening: Option<&'static str>,
    /// A page of the games that reached the position, when they were asked for.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub reached: Option<GamesPage>,
}

/// One move of a [`Report`]: its games and their results for Black, and the engine's value.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoveReport {
    /// The square, `a1`..., or `pass`.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: String,
    /// Games that played it.
    pub games: u64,
    /// Black's score rate over them (a win 1, a draw 1/2); none when no game did.
    pub black_score_rate: Option<f64>,
    /// Black's mean disc result over them; none when no game did.
    pub black_mean_discs: Option<f64>,
    /// The engine's value, when it was asked for.
    pub engine: Option<EngineValue>,
}

/// The engine's value of a move, for Black.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct EngineValue {
    /// Black's final disc difference after the move, exact or estimated.
    pub black_discs: f64,
    /// `exact`, `book` or `estimate`.
    pub kind: &'static str,
    /// Plies searched (the empties when exact; for a book move, the depth its score rests
    /// on).
    pub depth: u32,
}

impl Report {
    /// The report of `found`, explored over an index of `indexed_games` games.
    #[must_use]
    pub fn new(found: &Exploration, indexed_games: u64) -> Report {
        let turn = found.position.turn();
        Report {
            position: crate::text::format_position(&found.position),
            turn: turn.symbol(),
            indexed_games,
            games: found.games,
            ended: found.ended.games,
            ended_black_mean_discs: (found.ended.games > 0)
                .then(|| unsigned_zero(found.ended.black_discs as f64 / found.ended.games as f64)),
            moves: found
                .moves
                .iter()
                .map(|m| MoveReport {
                    mv: m.mv.to_string(),
                    games: m.games,
                    black_score_rate: m.black_score_rate(),
                    black_mean_discs: m.black_mean_discs().map(unsigned_zero),
                    engine: m.engine.map(|v| {
                        let d = v.score.discs();
                        EngineValue {
                            black_discs: unsigned_zero(if turn == Color::Black { d } else { -d }),
                            kind: match (v.exact, v.book) {
                                (true, _) => "exact",
                                (false, true) => "book",
                                (false, false) => "estimate",
                            },
                            depth: v.depth,
                        }
                    }),
                })
                .collect(),
            opening: crate::opening::name(&found.position),
            reached: None,
        }
    }

    /// The report with a page of the games that reached the position.
    #[must_use]
    pub fn with_games(self, page: GamesPage) -> Report {
        Report {
            reached: Some(page),
            ..self
        }
    }
}

/// `x`, with a negative zero (black's value of a drawn move found for white, say) made the
/// zero every front end prints without a sign.
fn unsigned_zero(x: f64) -> f64 {
    x + 0.0
}

#[cfg(test)]
mod tests {
    use super::unsigned_zero;

    #[test]
    fn a_negative_zero_prints_without_its_sign() {
        assert!(unsigned_zero(-0.0).is_sign_positive());
        assert_eq!(format!("{:+.1}", unsigned_zero(-0.0)), "+0.0");
        assert_eq!(unsigned_zero(-2.5), -2.5);
    }
}
