//! The one shape of an exploration that every front end presents.

use super::{Exploration, GamesPage};
use crate::{text::plural, Color};

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

    /// The report as `ply othello explore` prints it: the position, its opening, how many
    /// games reached it and how they went on, every move with its games, score rate, mean
    /// discs and the engine's value (all for black), and the page of games when one was
    /// asked for.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        let mut line = |s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        line(format!("position   {}", self.position));
        let ended = match self.ended_black_mean_discs {
            Some(d) => format!(
                ", {} ended here (black {} on average)",
                self.ended,
                signed(d, 1)
            ),
            None => String::new(),
        };
        if let Some(name) = self.opening {
            line(format!("opening    {name}"));
        }
        line(format!(
            "games      {} of {} reached it ({} to move): {} played on{ended}; results for black",
            self.games + self.ended,
            self.indexed_games,
            if self.turn == 'X' { "black" } else { "white" },
            self.games,
        ));
        if !self.moves.is_empty() {
            line("move   games   score   discs   engine (for black)".to_string());
        }
        for m in &self.moves {
            let rate = m
                .black_score_rate
                .map_or("-".to_string(), |r| format!("{:.1}%", 100.0 * r));
            let discs = m.black_mean_discs.map_or("-".to_string(), |d| signed(d, 1));
            let engine = match m.engine {
                Some(v) if v.kind == "exact" => format!("{} (exact)", signed(v.black_discs, 0)),
                Some(v) => format!(
                    "{} ({}, depth {})",
                    signed(v.black_discs, 1),
                    v.kind,
                    v.depth
                ),
                None => "-".to_string(),
            };
            line(format!(
                "{:<5}{:>7}{:>8}{:>8}   {engine}",
                m.mv, m.games, rate, discs
            ));
        }
        if let Some(page) = &self.reached {
            let shown = page.games.len();
            let range = if shown == 0 {
                "none".to_string()
            } else {
                format!("{}-{}", page.offset + 1, page.offset + shown)
            };
            line(format!(
                "reached by {} ({range} below)",
                plural(page.total, "game")
            ));
            if shown > 0 {
                line(
                    "db  game  year  black                 white                 result"
                        .to_string(),
                );
            }
            for g in &page.games {
                line(format!(
                    "{:<4}{:>4}  {:>4}  {:<20}  {:<20}  {}-{} ({})",
                    g.database,
                    g.game,
                    g.year,
                    g.black,
                    g.white,
                    g.black_discs,
                    64 - u32::from(g.black_discs),
                    signed(f64::from(g.black_score), 0)
                ));
            }
        }
        out
    }
}

/// `d` with its sign and `digits` decimals, rounded first so that a value that rounds to
/// zero prints as `+0`, never `-0.0`.
fn signed(d: f64, digits: i32) -> String {
    let scale = 10f64.powi(digits);
    let rounded = (d * scale).round() / scale + 0.0;
    format!("{rounded:+.*}", digits as usize)
}

/// `x`, with a negative zero (black's value of a drawn move found for white, say) made the
/// zero every front end prints without a sign.
fn unsigned_zero(x: f64) -> f64 {
    x + 0.0
}

#[cfg(test)]
mod tests {
    use super::{signed, unsigned_zero};

    #[test]
    fn values_that_round_to_zero_have_no_minus_sign() {
        assert_eq!(signed(-0.04, 1), "+0.0");
        assert_eq!(signed(-0.0, 0), "+0");
        assert_eq!(signed(-0.05, 1), "-0.1");
        assert_eq!(signed(7.0, 0), "+7");
    }

    #[test]
    fn a_negative_zero_prints_without_its_sign() {
        assert!(unsigned_zero(-0.0).is_sign_positive());
        assert_eq!(format!("{:+.1}", unsigned_zero(-0.0)), "+0.0");
        assert_eq!(unsigned_zero(-2.5), -2.5);
    }
}
