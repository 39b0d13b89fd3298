//! A game reviewed move by move: every position before a move valued by the one analysis
//! entry point ([`crate::analyze`], exact where the book or the solver reaches), the best
//! move and its score, the score of the move played, what the move cost its mover, a mark
//! for the costly ones, and each side's summary. `ply othello review` prints it as text,
//! JSON (this module's types, with the `serde` feature) and GGF with a comment per move
//! ([`Review::to_ggf`]); a side's sums read as text through [`Side`]'s `Display`.
//!
//! The conventions are the web page's (`crates/server/web/review.js`), so that the page and
//! the command line agree: the loss is the best move's score less the played move's, as
//! shown (whole discs when exact, tenths when estimated), never below 0, exact when both
//! scores are; a move is a **mistake** (`?`) when an exact loss is above 0 or an estimated
//! one is 4 discs or more (estimates of one search disagree by a few discs, so only a clear
//! gap counts), a **blunder** (`??`) from 10 discs. The page marks nothing below a mistake;
//! here an estimated loss from 2 discs is an **inaccuracy** (`?!`). Every move has one mark
//! at most: a blunder is not counted among the mistakes.
//!
//! A pass is a move with no choice: it is listed, never valued or marked, and counts for no
//! side's moves.
//!
//! ```
//! use ply_othello::{analyze::Options, review, transcript, BoardSize, Position};
//! let game = transcript::parse("b1a1", Position::start(BoardSize::Four)).unwrap();
//! let r = review::review(&game, &Options::depth(16), &mut |_, _| {});
//! assert_eq!(r.moves.len(), 2);
//! assert!(r.moves.iter().all(|m| m.exact));
//! ```

use std::fmt;

mod games;

pub use games::{games_of_file, to_review, Game};

use crate::{
    analyze::{self, Analysis, KeptSolver, Options, Shown},
    ggf::GgfGame,
    opening, text, transcript, Color, GameRecord, Move, Position, Square,
};

/// Estimated losses from this many discs are inaccuracies.
pub const INACCURACY: f64 = 2.0;
/// Estimated losses from this many discs are mistakes (exact ones from any loss).
pub const MISTAKE: f64 = 4.0;
/// Losses from this many discs, exact or estimated, are blunders.
pub const BLUNDER: f64 = 10.0;

/// How bad a move was (see the module docs for the thresholds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// `?!`: an estimated loss of [`INACCURACY`] discs or more.
    Inaccuracy,
    /// `?`: an exact loss above 0, or an estimated one of [`MISTAKE`] discs or more.
    Mistake,
    /// `??`: a loss of [`BLUNDER`] discs or more.
    Blunder,
}

impl Mark {
    /// The mark of a loss of `loss` discs, exact or estimated; `None` for a good move.
    ///
    /// ```
    /// use ply_othello::review::Mark;
    /// assert_eq!(Mark::of(2.0, true), Some(Mark::Mistake));
    /// assert_eq!(Mark::of(2.0, false), Some(Mark::Inaccuracy));
    /// assert_eq!(Mark::of(3.9, false), Some(Mark::Inaccuracy));
    /// assert_eq!(Mark::of(1.9, false), None);
    /// assert_eq!(Mark::of(0.0, true), None);
    /// assert_eq!(Mark::of(10.0, false), Some(Mark::Blunder));
    /// ```
    #[must_use]
    pub fn of(loss: f64, exact: bool) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if (exact && loss > 0.0) || loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if !exact && loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// `?!`, `?` or `??`.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// `inaccuracy`, `mistake` or `blunder`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// One ply of the game, valued.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReviewedMove {
    /// Its number in the game, from 1 (passes count).
    pub ply: usize,
    /// Who played it, `X` black or `O` white.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::color"))]
    pub turn: Color,
    /// The move played, `pass` for a pass.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "move", serialize_with = "ser::display")
    )]
    pub played: Move,
    /// The best move of the analysis; `None` for a pass.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::display_opt"))]
    pub best: Option<Square>,
    /// The best move's score for the mover: the value of the position before the move.
    pub best_score: Option<Shown>,
    /// The played move's score for the mover.
    pub score: Option<Shown>,
    /// What the move cost the mover: `best_score - score`, never below 0.
    pub loss: Option<Shown>,
    /// The move's mark, if it earned one.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::mark"))]
    pub mark: Option<Mark>,
    /// Whether the loss is exact (both scores proven); true for a pass.
    pub exact: bool,
}

impl ReviewedMove {
    /// What a GGF comment and the text table say of the move: `?! -2.5 (best d3 +4.0)`,
    /// `best` for the best move (or one as good), empty for a pass.
    #[must_use]
    pub fn comment(&self) -> String {
        let (Some(best), Some(best_score), Some(loss)) = (self.best, self.best_score, self.loss)
        else {
            return String::new();
        };
        if loss.discs <= 0.0 {
            return format!("best {best_score}");
        }
        let mark = self.mark.map_or(String::new(), |m| format!("{m} "));
        format!("{mark}-{} (best {best} {best_score})", unsigned(loss))
    }
}

/// Discs without a sign: whole when exact, to a tenth when estimated.
#[must_use]
pub fn unsigned(s: Shown) -> String {
    if s.exact {
        format!("{}", s.discs.abs() as i64)
    } else {
        format!("{:.1}", s.discs.abs())
    }
}

/// One side's moves in sum.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Side {
    /// Moves played (passes not counted).
    pub moves: u32,
    /// Discs lost over them: the sum of their losses, exact when every loss is.
    pub total_loss: Shown,
    /// The mean loss a move, to a tenth of a disc (0 without moves).
    pub average_loss: f64,
    /// Moves marked `?!`.
    pub inaccuracies: u32,
    /// Moves marked `?`.
    pub mistakes: u32,
    /// Moves marked `??`.
    pub blunders: u32,
}

impl Side {
    fn of(moves: &[ReviewedMove], color: Color) -> Side {
        let mine: Vec<&ReviewedMove> = moves
            .iter()
            .filter(|m| m.turn == color && m.played != Move::Pass)
            .collect();
        let total: f64 = mine.iter().filter_map(|m| m.loss).map(|l| l.discs).sum();
        let total = tenths(total);
        let count = |mark| mine.iter().filter(|m| m.mark == Some(mark)).count() as u32;
        let n = mine.len() as u32;
        Side {
            moves: n,
            total_loss: Shown {
                discs: total,
                exact: mine.iter().all(|m| m.exact),
            },
            average_loss: if n == 0 {
                0.0
            } else {
                tenths(total / f64::from(n))
            },
            inaccuracies: count(Mark::Inaccuracy),
            mistakes: count(Mark::Mistake),
            blunders: count(Mark::Blunder),
        }
    }
}

/// `30 moves, 1 ??, 2 ?, 3 ?!, about 14.5 discs lost, 0.5 a move`: the sum as the text
/// report and the GGF record's comment give it (`about` where a loss is estimated).
impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lost = unsigned(self.total_loss);
        let about = if self.total_loss.exact || self.total_loss.discs == 0.0 {
            ""
        } else {
            "about "
        };
        write!(
            f,
            "{} moves, {} ??, {} ?, {} ?!, {about}{lost} discs lost, {:.1} a move",
            self.moves, self.blunders, self.mistakes, self.inaccuracies, self.average_loss
        )
    }
}

/// A reviewed game (see the module docs).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Review {
    /// Black's name, where the caller knows it (a WTHOR names file, a GGF record's `PB`).
    pub black: Option<String>,
    /// White's name, where the caller knows it.
    pub white: Option<String>,
    /// The year the game was played, where the caller knows it.
    pub year: Option<u16>,
    /// Where the game comes from (a file and the game's number in it), where the caller
    /// says.
    pub source: Option<String>,
    /// The opening's standard name ([`opening::name_of_game`]).
    pub opening: Option<&'static str>,
    /// The start position, as `text` writes it.
    pub start: String,
    /// The moves, passes left out (`f5d6c3...`).
    pub transcript: String,
    /// Black's final score (empties to the winner) when the game is over.
    pub result: Option<i32>,
    /// Every ply, in order.
    pub moves: Vec<ReviewedMove>,
    /// Black's moves in sum.
    pub black_summary: Side,
    /// White's moves in sum.
    pub white_summary: Side,
}

impl Review {
    /// The review as a GGF record of `game` (the game reviewed): the players and the year
    /// where known, a comment before the board with the opening and each side's sums
    /// (`ply review; opening ...; black: ...; white: ...`), and each move's comment
    /// ([`ReviewedMove::comment`]) after it.
    #[must_use]
    pub fn to_ggf(&self, game: GameRecord) -> GgfGame {
        let mut rec = GgfGame::from_game(game);
        for (tag, value) in [("PB", &self.black), ("PW", &self.white)] {
            if let Some(v) = value {
                rec.tags.push((tag.to_owned(), v.clone()));
            }
        }
        if let Some(y) = self.year {
            rec.tags.push(("DT".to_owned(), y.to_string()));
        }
        let mut summary = String::from("ply review");
        if let Some(name) = self.opening {
            summary.push_str(&format!("; opening {name}"));
        }
        summary.push_str(&format!(
            "; black: {}; white: {}",
            self.black_summary, self.white_summary
        ));
        rec.tags.push(("C".to_owned(), summary));
        rec.comments = self
            .moves
            .iter()
            .map(|m| (m.ply, m.comment()))
            .filter(|(_, c)| !c.is_empty())
            .collect();
        rec
    }

    /// The review as `ply othello review` prints it: where the game comes from and its
    /// players where known, the opening, the moves and the result, a table of every ply
    /// (side, move, best move and its value, the value of the move played, its loss and its
    /// mark), and each side's sums.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        let mut line = |s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        if let Some(src) = &self.source {
            line(format!("game       {src}"));
        }
        if self.black.is_some() || self.white.is_some() {
            let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_owned());
            let year = self.year.map_or(String::new(), |y| format!(", {y}"));
            line(format!(
                "players    {} (black) v {} (white){year}",
                name(&self.black),
                name(&self.white)
            ));
        }
        line(format!("opening    {}", self.opening.unwrap_or("-")));
        line(format!("moves      {}", self.transcript));
        if let Some(black) = self.result {
            line(format!("result     {black:+} for black"));
        }
        line("ply  side  move  best  value  played  loss  mark".to_string());
        for m in &self.moves {
            let side = if m.turn == Color::Black { "X" } else { "O" };
            let cell = |s: Option<Shown>| s.map_or("-".to_owned(), |s| s.to_string());
            let row = format!(
                "{:>3}  {side:<4}  {:<4}  {:<4}  {:>5}  {:>6}  {:>4}  {}",
                m.ply,
                m.played.to_string(),
                m.best.map_or("-".to_owned(), |s| s.to_string()),
                cell(m.best_score),
                cell(m.score),
                m.loss.map_or("-".to_owned(), unsigned),
                m.mark.map_or("", |k| k.symbol()),
            );
            line(row.trim_end().to_string());
        }
        line(format!("black      {}", self.black_summary));
        line(format!("white      {}", self.white_summary));
        out
    }
}

/// Rounds to a tenth, as the page shows estimates.
fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The score of `sq` in `a`, an analysis of `pos`, for the side to move: from the analysis
/// when it scored the move (an analysis of every move scores them all), else from an
/// analysis of the position after it.
fn score_of(a: &Analysis, pos: &Position, sq: Square, opts: &Options) -> Shown {
    if let Some(m) = a.moves.iter().find(|m| m.square == sq) {
        return Shown::new(m.score, m.exact);
    }
    let after = analyze::analyze(&pos.play_unchecked(sq), opts);
    Shown::new(-after.score, after.proven)
}

/// Reviews every move of `game` with analyses of `opts` (every move scored, whatever
/// `opts.all_moves` says; one solver kept from move to move unless `opts` brings one).
/// `progress(done, plies)` is called before each ply is valued and once at the end.
/// The names, year and source are left for the caller.
pub fn review(game: &GameRecord, opts: &Options, progress: &mut dyn FnMut(usize, usize)) -> Review {
    let opts = Options {
        all_moves: true,
        kept_solver: opts
            .kept_solver
            .clone()
            .or_else(|| Some(KeptSolver::default())),
        ..opts.clone()
    };
    let plies = game.moves().len();
    let mut moves = Vec::with_capacity(plies);
    for (k, (before, m)) in game.plies().enumerate() {
        progress(k, plies);
        let turn = before.turn();
        let Move::Play(sq) = m else {
            moves.push(ReviewedMove {
                ply: k + 1,
                turn,
                played: m,
                best: None,
                best_score: None,
                score: None,
                loss: None,
                mark: None,
                exact: true,
            });
            continue;
        };
        let a = analyze::analyze(&before, &opts);
        let best = a.best.expect("the side to move has a move: it played one");
        let best_score = score_of(&a, &before, best, &opts);
        let score = score_of(&a, &before, sq, &opts);
        let exact = best_score.exact && score.exact;
        let loss = tenths(best_score.discs - score.discs).max(0.0);
        moves.push(ReviewedMove {
            ply: k + 1,
            turn,
            played: m,
            best: Some(best),
            best_score: Some(best_score),
            score: Some(score),
            loss: Some(Shown { discs: loss, exact }),
            mark: Mark::of(loss, exact),
            exact,
        });
    }
    progress(plies, plies);
    let end = game.position();
    Review {
        black: None,
        white: None,
        year: None,
        source: None,
        opening: opening::name_of_game(game),
        start: text::format_position(&game.start()),
        transcript: transcript::format(game),
        result: end
            .is_game_over()
            .then(|| end.final_score_for(Color::Black)),
        black_summary: Side::of(&moves, Color::Black),
        white_summary: Side::of(&moves, Color::White),
        moves,
    }
}

/// The JSON spellings of the rules' types.
#[cfg(feature = "serde")]
mod ser {
    use std::fmt::Display;

    use serde::Serializer;

    use super::Mark;
    use crate::Color;

    pub(super) fn color<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(c.symbol())
    }

    pub(super) fn display<T: Display, S: Serializer>(x: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(x)
    }

    pub(super) fn display_opt<T: Display, S: Serializer>(
        x: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match x {
            Some(x) => s.collect_str(x),
            None => s.serialize_none(),
        }
    }

    pub(super) fn mark<S: Serializer>(m: &Option<Mark>, s: S) -> Result<S::Ok, S::Error> {
        match m {
            Some(m) => s.serialize_str(m.symbol()),
            None => s.serialize_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;

    /// A 4x4 game played to its end with the first legal move each time (passes put in).
    fn first_moves_game() -> GameRecord {
        let mut game = GameRecord::new(Position::start(BoardSize::Four));
        while let Some(sq) = game.position().legal_moves().next() {
            game.play_with_implicit_pass(sq).unwrap();
        }
        game
    }

    /// A side's sum reads as the text report prints it: `about` only for an estimated,
    /// non-zero loss.
    #[test]
    fn a_sides_sum_reads_moves_marks_and_loss() {
        let side = Side {
            moves: 30,
            total_loss: Shown {
                discs: 14.5,
                exact: false,
            },
            average_loss: 0.5,
            inaccuracies: 3,
            mistakes: 2,
            blunders: 1,
        };
        assert_eq!(
            side.to_string(),
            "30 moves, 1 ??, 2 ?, 3 ?!, about 14.5 discs lost, 0.5 a move"
        );
        let exact = Side {
            total_loss: Shown {
                discs: 4.0,
                exact: true,
            },
            ..side
        };
        assert!(exact.to_string().contains(", 4 discs lost,"), "{exact}");
    }

    /// The GGF record of a review holds the game, the names and year given, the sums in
    /// its comment, and every non-empty move comment at its ply.
    #[test]
    fn a_reviews_ggf_record_holds_the_names_the_sums_and_the_move_comments() {
        let game = first_moves_game();
        let mut r = review(&game, &Options::depth(2), &mut |_, _| {});
        r.black = Some(String::from("Ann"));
        r.year = Some(2024);
        let rec = r.to_ggf(game.clone());
        assert_eq!(rec.game, game);
        assert_eq!(rec.tag("PB"), Some("Ann"));
        assert_eq!(rec.tag("PW"), None);
        assert_eq!(rec.tag("DT"), Some("2024"));
        let c = rec.tag("C").unwrap();
        assert!(c.starts_with("ply review"), "{c}");
        assert!(
            c.ends_with(&format!(
                "; black: {}; white: {}",
                r.black_summary, r.white_summary
            )),
            "{c}"
        );
        let want: Vec<(usize, String)> = r
            .moves
            .iter()
            .map(|m| (m.ply, m.comment()))
            .filter(|(_, c)| !c.is_empty())
            .collect();
        assert!(!want.is_empty());
        assert_eq!(rec.comments, want);
    }

    /// The text names the players given (`?` for the one not known), has a row for every
    /// ply under the table's head, and ends with each side's sums.
    #[test]
    fn the_text_has_the_players_a_row_a_ply_and_the_sums() {
        let game = first_moves_game();
        let mut r = review(&game, &Options::depth(2), &mut |_, _| {});
        r.black = Some(String::from("Ann"));
        r.year = Some(2024);
        let text = r.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "players    Ann (black) v ? (white), 2024");
        let head = lines
            .iter()
            .position(|l| *l == "ply  side  move  best  value  played  loss  mark")
            .expect("the table's head");
        assert_eq!(lines.len(), head + 1 + r.moves.len() + 2, "{text}");
        assert!(lines[head + 1].starts_with("  1  X     "), "{text}");
        assert_eq!(
            lines[lines.len() - 1],
            format!("white      {}", r.white_summary)
        );
        assert!(text.ends_with('\n'));
    }
}
