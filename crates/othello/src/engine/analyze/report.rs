//! The one report of an analysis that the front ends present: `ply othello analyze
//! --json`, the web API (`/api/othello/analyze`) and the Python package (NBoard and GTP
//! print their protocol lines from the [`Analysis`] itself). One place decides how a score
//! is shown: whole when it is exact (proven), to a tenth of a disc when it is an estimate.
//!
//! With the `serde` feature the report serializes to the JSON the CLI and the API print.
//!
//! ```
//! use std::time::Duration;
//! use ply_othello::{analyze::{analyze, Options, Report}, BoardSize, Position};
//!
//! let pos = Position::start(BoardSize::Four);
//! let a = analyze(&pos, &Options::budget(Duration::from_secs(5)));
//! let r = Report::new(&pos, &a, Duration::from_millis(12));
//! assert_eq!(r.position, "-----OX--XO-----");
//! assert!(r.proven && r.all_exact);
//! assert_eq!(r.score.to_string(), "-10");
//! assert_eq!(r.moves.len(), 4);
//! ```

use std::{fmt, time::Duration};

use super::{Analysis, Discs64, Engine};
use crate::{opening, picture, text, Color, Position};

/// A score in discs as shown to people: whole when exact, to a tenth when estimated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    /// The score in discs, already rounded (a whole number when `exact`).
    pub discs: f64,
    /// Whether it is exact.
    pub exact: bool,
}

impl Shown {
    /// The score `score` as shown: exact scores are whole numbers of discs (a fraction,
    /// which an exact score has not, rounded toward zero), estimates are rounded to a tenth.
    #[must_use]
    pub fn new(score: Discs64, exact: bool) -> Shown {
        let discs = if exact {
            f64::from(score.whole().0)
        } else {
            score.tenths()
        };
        Shown { discs, exact }
    }
}

/// `+6` for an exact score, `+5.3` for an estimate (`0` and `0.0` without a sign).
impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.discs > 0.0 { "+" } else { "" };
        if self.exact {
            write!(f, "{sign}{}", self.discs as i64)
        } else {
            write!(f, "{sign}{:.1}", self.discs)
        }
    }
}

/// A JSON number: an integer when exact, a number with a fraction otherwise.
#[cfg(feature = "serde")]
impl serde::Serialize for Shown {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.exact {
            s.serialize_i64(self.discs as i64)
        } else {
            s.serialize_f64(self.discs)
        }
    }
}

/// Whether the side to move plays, must pass, or the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Status {
    /// The side to move has a legal move.
    Play,
    /// The side to move must pass.
    Pass,
    /// Neither side can move.
    Over,
}

impl Status {
    /// The status of `pos`.
    #[must_use]
    pub fn of(pos: &Position) -> Status {
        if pos.is_game_over() {
            Status::Over
        } else if pos.can_move() {
            Status::Play
        } else {
            Status::Pass
        }
    }

    /// `play`, `pass` or `over`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Status::Play => "play",
            Status::Pass => "pass",
            Status::Over => "over",
        }
    }
}

/// Discs on the board per colour (`X` black, `O` white in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Discs {
    /// Black discs.
    #[cfg_attr(feature = "serde", serde(rename = "X"))]
    pub black: u32,
    /// White discs.
    #[cfg_attr(feature = "serde", serde(rename = "O"))]
    pub white: u32,
}

/// One legal move and its score for the side that plays it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoveReport {
    /// The square, `a1`...
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub square: String,
    /// The score after the move for the side that plays it.
    pub score: Shown,
    /// Whether the score is exact.
    pub exact: bool,
    /// Plies searched for an estimate (the empty squares when exact); for a book move, the
    /// depth its score rests on.
    pub depth: u32,
    /// Whether the score comes from the opening book.
    pub book: bool,
}

/// An analysis as every front end presents it (see the module docs).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// Squares on a side.
    pub size: u8,
    /// The board as `n * n` cells row by row, `X` black, `O` white, `-` empty
    /// ([`text::cells`]).
    pub position: String,
    /// The side to move, `X` or `O`.
    pub turn: char,
    /// Whether the side to move plays, must pass, or the game is over.
    pub status: Status,
    /// Empty squares.
    pub empties: u32,
    /// Discs per colour.
    pub discs: Discs,
    /// Score of the position for the side to move: the final disc difference, empty squares
    /// to the winner. Whole when `proven`, an estimate to a tenth otherwise.
    pub score: Shown,
    /// Whether `score` is the position's exact value.
    pub proven: bool,
    /// Whether every move's score is exact.
    pub all_exact: bool,
    /// When the best move and the score come from a selective pass of the exact solver: its
    /// confidence in percent (Edax's `+6 @ 73%`); `None` otherwise.
    pub confidence: Option<u8>,
    /// The best move; `None` when the side to move must pass or the game is over.
    pub best: Option<String>,
    /// The expected line from here (`pass` for a pass).
    pub line: Vec<String>,
    /// Every legal move scored, best first (only the best in play mode).
    pub moves: Vec<MoveReport>,
    /// Plies the best move's estimate was searched to (the empty squares once exact).
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time the analysis took.
    pub elapsed_ms: u64,
    /// Where the scores come from.
    pub engine: Engine,
    /// The standard name of the opening ([`opening::name`] of the position; a front end
    /// that knows the game's moves may put [`opening::name_of_game`] in its place).
    pub opening: Option<&'static str>,
}

impl Analysis {
    /// The progress line of an analysis `seconds` in, from its latest iteration (none
    /// yet: `thinking`): the depth, best move and score, how many moves are exact, and the
    /// nodes so far.
    #[must_use]
    pub fn progress_line(latest: Option<&Analysis>, seconds: f64) -> String {
        match latest {
            Some(a) => format!(
                "depth {:>2}  best {}  {}  exact {}/{}  {} nodes  {seconds:.1} s",
                a.depth,
                a.best.map_or("--".to_string(), |s| s.to_string()),
                Shown::new(a.score, a.proven),
                a.moves.iter().filter(|m| m.exact).count(),
                a.moves.len(),
                a.nodes,
            ),
            None => format!("thinking  {seconds:.1} s"),
        }
    }

    /// Every scored move's value as a picture writes it on its square
    /// ([`picture::Options::values`]): discs for the side that plays it, exact or not.
    #[must_use]
    pub fn picture_values(&self) -> Vec<picture::Value> {
        self.moves
            .iter()
            .map(|m| picture::Value {
                square: m.square,
                discs: m.score.discs(),
                exact: m.exact,
            })
            .collect()
    }
}

impl Report {
    /// The report of `a`, an analysis of `pos` that took `elapsed`.
    #[must_use]
    pub fn new(pos: &Position, a: &Analysis, elapsed: Duration) -> Report {
        Report {
            size: pos.size().n(),
            position: text::cells(pos),
            turn: pos.turn().symbol(),
            status: Status::of(pos),
            empties: pos.empties().count(),
            discs: Discs {
                black: pos.disc_count(Color::Black),
                white: pos.disc_count(Color::White),
            },
            score: Shown::new(a.score, a.proven),
            proven: a.proven,
            all_exact: a.all_exact,
            confidence: a.selective,
            best: a.best.map(|s| s.to_string()),
            line: a.line.iter().map(ToString::to_string).collect(),
            moves: a
                .moves
                .iter()
                .map(|m| MoveReport {
                    square: m.square.to_string(),
                    score: Shown::new(m.score, m.exact),
                    exact: m.exact,
                    depth: m.depth,
                    book: m.book,
                })
                .collect(),
            depth: a.depth,
            nodes: a.nodes,
            elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            engine: a.engine,
            opening: opening::name(pos),
        }
    }

    /// The report as `ply othello analyze` prints it: the position, the opening, the score
    /// and how it is known, every move with how it was scored, the line, and what was
    /// searched. A selective pass's result is named as one everywhere: the score, its move
    /// and the source.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        let mut line = |s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        line(format!("position   {} {}", self.position, self.turn));
        if let Some(name) = self.opening {
            line(format!("opening    {name}"));
        }
        let kind = if self.all_exact {
            "exact".to_string()
        } else if self.proven {
            let left = self.moves.iter().filter(|m| !m.exact).count();
            format!("exact; {left} other moves still estimated")
        } else if self.engine == Engine::Book {
            "book: an estimate from searches negamaxed through the opening book".to_string()
        } else if let Some(percent) = self.confidence {
            format!("selective @ {percent}%: the solver's selective search to the end")
        } else {
            "estimate".to_string()
        };
        line(format!("score      {} ({kind})", self.score));
        match self.status {
            Status::Over => line("the game is over".to_string()),
            Status::Pass => line("the side to move must pass".to_string()),
            Status::Play => {}
        }
        for m in &self.moves {
            let how = match (m.exact, m.book, self.confidence) {
                (true, false, _) => "exact".to_string(),
                (true, true, _) => "exact, book".to_string(),
                (false, true, _) => format!("book, depth {}", m.depth),
                (false, false, Some(percent)) if self.best.as_ref() == Some(&m.square) => {
                    format!("selective @ {percent}%")
                }
                (false, false, _) => format!("estimate, depth {}", m.depth),
            };
            line(format!("  {}  {:>6}  {how}", m.square, m.score.to_string()));
        }
        line(format!("line       {}", self.line.join(" ")));
        // Where the scores come from; an exact result is just that, whichever engine proved it.
        let source = match (self.all_exact, self.engine, self.confidence) {
            (true, Engine::Book, _) => "book".to_string(),
            (true, _, _) => "exact".to_string(),
            (false, Engine::Selective, Some(percent)) => format!("selective @ {percent}%"),
            (false, engine, _) => engine.name().to_string(),
        };
        line(format!(
            "searched   depth {}, {} nodes, {:.2} s ({source})",
            self.depth,
            self.nodes,
            self.elapsed_ms as f64 / 1000.0,
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{WholeDiscs, DISC};

    fn whole(discs: i32) -> Discs64 {
        WholeDiscs(discs).into()
    }

    /// A selective pass's result is named as one everywhere in the text: the score, its move
    /// and the source (once labelled `estimate` and `(midgame)`).
    #[test]
    fn a_selective_result_is_labelled_selective() {
        use crate::{analyze::MoveValue, BoardSize, Move, Square};
        let pos = Position::start(BoardSize::Eight);
        let sq = |s: &str| Square::parse(s).unwrap();
        let mv = |s: &str, discs: i32, depth: u32| MoveValue {
            square: sq(s),
            score: whole(discs),
            exact: false,
            depth,
            book: false,
        };
        let a = Analysis {
            moves: vec![mv("d3", 4, 60), mv("c4", 2, 9)],
            best: Some(sq("d3")),
            score: whole(4),
            proven: false,
            all_exact: false,
            selective: Some(73),
            depth: 60,
            line: vec![Move::Play(sq("d3"))],
            nodes: 5,
            engine: Engine::Selective,
        };
        let r = Report::new(&pos, &a, Duration::from_millis(1500));
        let text = r.text();
        assert!(
            text.starts_with(&format!("position   {}\n", text::format_position(&pos))),
            "{text}"
        );
        assert!(
            text.contains("score      +4.0 (selective @ 73%: "),
            "{text}"
        );
        assert!(text.contains("  d3    +4.0  selective @ 73%\n"), "{text}");
        assert!(text.contains("  c4    +2.0  estimate, depth 9\n"), "{text}");
        assert!(text.ends_with("1.50 s (selective @ 73%)\n"), "{text}");
        assert!(!text.contains("midgame"), "{text}");
        assert_eq!((r.engine.name(), r.confidence), ("selective", Some(73)));
        assert_eq!(
            Analysis::progress_line(Some(&a), 2.0),
            "depth 60  best d3  +4.0  exact 0/2  5 nodes  2.0 s"
        );
        assert_eq!(Analysis::progress_line(None, 0.3), "thinking  0.3 s");
    }

    #[test]
    fn exact_scores_are_whole_and_estimates_are_tenths() {
        assert_eq!(Shown::new(whole(6), true).to_string(), "+6");
        assert_eq!(Shown::new(whole(-4), true).to_string(), "-4");
        assert_eq!(Shown::new(Discs64(0), true).to_string(), "0");
        let estimate = Shown::new(Discs64(5 * DISC + DISC / 3), false);
        assert_eq!(estimate.to_string(), "+5.3");
        assert_eq!(estimate.discs, 5.3);
        assert_eq!(Shown::new(Discs64(-DISC / 2), false).to_string(), "-0.5");
        assert_eq!(Shown::new(Discs64(0), false).to_string(), "0.0");
    }

    /// Negative 64ths: an estimate rounds to the nearest tenth, halves away from zero; an
    /// exact score's (impossible) fraction is dropped toward zero, never to the disc below.
    #[test]
    fn negative_64ths_are_shown_rounded_as_the_units_round_them() {
        let quarter_below = Discs64(-(3 * DISC + DISC / 4)); // -3.25 discs
        assert_eq!(Shown::new(quarter_below, false).to_string(), "-3.3");
        assert_eq!(Shown::new(quarter_below, true).to_string(), "-3");
        assert_eq!(Shown::new(Discs64(-(DISC - 1)), true).to_string(), "0");
        assert_eq!(Shown::new(Discs64(-10), false).discs, -0.2); // -0.156 discs
    }
}
