//! What `ply ttt` prints of a board: its picture with coordinates, and for each question
//! (analyze, check, count, the state-space figures) the text and the one JSON object (with
//! the `serde` feature) that answer it. Every figure comes from the solved table and the
//! generic algorithms; this module only words them, so that any front end prints the same.
//!
//! ```
//! use ply_tictactoe::{report, Mark, Position};
//!
//! let pos = Position::new("xo./.x./..o".parse()?, Mark::X)?;
//! let text = report::analysis_text(&pos);
//! assert!(text.contains("X to move: win in 3 moves\n  a2  win in 3 moves\n"), "{text}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;

use ply_core::Value;

use crate::{check, Board, Counts, Mark, Position, Stats};

/// The board with coordinates, cells named a1..c3, one row a line under a header of the
/// columns, rows ruled apart.
#[must_use]
pub fn picture(b: Board) -> String {
    let mut s = String::from("    a   b   c\n");
    for (r, row) in b.rows().iter().enumerate() {
        if r > 0 {
            s.push_str("   ---+---+---\n");
        }
        let _ = writeln!(s, "{}   {} | {} | {}", r + 1, row[0], row[1], row[2]);
    }
    s
}

/// A value in words: `win in 3 moves`, `draw in 1 move`.
#[must_use]
pub fn describe(v: Value) -> String {
    let plural = if v.remoteness == 1 { "move" } else { "moves" };
    format!("{} in {} {plural}", v.outcome.as_str(), v.remoteness)
}

/// The result of a finished game in words: `X wins`, `O wins` or `draw`.
fn result_text(pos: &Position) -> String {
    match pos.winner() {
        Some(w) => format!("{w} wins"),
        None => "draw".to_string(),
    }
}

/// The legal moves of `pos` with their values, best first (the cells in order among equals).
fn moves_best_first(pos: &Position) -> Vec<(crate::Cell, Value)> {
    let mut moves = pos.analyze();
    moves.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    moves
}

/// `ply ttt analyze`'s text: the picture, then the game's result when it is over, else the
/// value for the side to move and every move's value, best first.
#[must_use]
pub fn analysis_text(pos: &Position) -> String {
    let mut s = picture(pos.board());
    if pos.is_over() {
        let _ = writeln!(s, "game over: {}", result_text(pos));
        return s;
    }
    let _ = writeln!(s, "{} to move: {}", pos.to_move(), describe(pos.value()));
    for (cell, v) in moves_best_first(pos) {
        let _ = writeln!(s, "  {cell}  {}", describe(v));
    }
    s
}

/// `ply ttt analyze --json`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Analysis {
    /// The board as `XO./.X./..O`.
    pub board: String,
    /// `X` or `O`: who moved first.
    pub first: char,
    /// `X` or `O`: who moves next (also on a finished board).
    pub to_move: char,
    /// `win`, `draw` or `loss` for the side to move.
    pub value: &'static str,
    /// Moves to the end under perfect play.
    pub remoteness: u32,
    /// Every legal move, best first (none on a finished board).
    pub moves: Vec<MoveValue>,
}

/// One move of [`Analysis`], valued for the side making it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoveValue {
    /// The cell's name, `a1`..`c3` (column, row from the top).
    pub r#move: String,
    /// The cell's row-major index, 0..8.
    pub cell: u8,
    /// `win`, `draw` or `loss` for the side making the move.
    pub value: &'static str,
    /// Moves to the end after this one, counting it.
    pub remoteness: u32,
}

impl Analysis {
    /// The analysis of `pos`: its value and every move's, best first.
    #[must_use]
    pub fn new(pos: &Position) -> Analysis {
        let value = pos.value();
        Analysis {
            board: pos.board().to_string(),
            first: pos.first().as_char(),
            to_move: pos.to_move().as_char(),
            value: value.outcome.as_str(),
            remoteness: value.remoteness,
            moves: moves_best_first(pos)
                .iter()
                .map(|(cell, v)| MoveValue {
                    r#move: cell.to_string(),
                    cell: cell.index(),
                    value: v.outcome.as_str(),
                    remoteness: v.remoteness,
                })
                .collect(),
        }
    }
}

/// `ply ttt check`'s answer: whether `board` can occur with `first` moving first (and why
/// not), whether the game is over and who won.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Check {
    /// The board as `XO./.X./..O`.
    pub board: String,
    /// `X` or `O`: who moved first.
    pub first: char,
    /// Whether the board can occur in a game.
    pub reachable: bool,
    /// Why the board cannot occur (null when it can).
    pub reason: Option<String>,
    /// Null when the board cannot occur.
    pub to_move: Option<char>,
    /// Whether the game is over; null when the board cannot occur.
    pub r#final: Option<bool>,
    /// `X`, `O` or `draw` on a finished board, else null.
    pub winner: Option<&'static str>,
}

impl Check {
    /// The verdict on `board` with `first` moving first.
    #[must_use]
    pub fn new(board: Board, first: Mark) -> Check {
        let verdict = check(board, first).map(|()| {
            Position::new(board, first).expect("check passed, so the position can occur")
        });
        match verdict {
            Ok(pos) => Check {
                board: board.to_string(),
                first: first.as_char(),
                reachable: true,
                reason: None,
                to_move: Some(pos.to_move().as_char()),
                r#final: Some(pos.is_over()),
                winner: pos.is_over().then(|| {
                    pos.winner()
                        .map_or("draw", |w| if w == Mark::X { "X" } else { "O" })
                }),
            },
            Err(reason) => Check {
                board: board.to_string(),
                first: first.as_char(),
                reachable: false,
                reason: Some(reason.to_string()),
                to_move: None,
                r#final: None,
                winner: None,
            },
        }
    }
}

/// `ply ttt check`'s text: the picture, whether `board` can occur with `first` moving first
/// (and why not), and whether the game is over (and its result, or who moves).
#[must_use]
pub fn check_text(board: Board, first: Mark) -> String {
    let mut s = picture(board);
    match check(board, first) {
        Ok(()) => {
            let pos = Position::new(board, first).expect("check passed, so the position can occur");
            let _ = writeln!(s, "reachable: yes ({first} moved first)");
            if pos.is_over() {
                let _ = writeln!(s, "final: yes, {}", result_text(&pos));
            } else {
                let _ = writeln!(s, "final: no, {} to move", pos.to_move());
            }
        }
        Err(reason) => {
            let _ = writeln!(s, "reachable: no ({first} moving first): {reason}");
        }
    }
    s
}

/// `ply ttt count --json`: the distinct final boards reachable from a board, by result.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Finals {
    /// The board as `XO./.X./..O`.
    pub board: String,
    /// `X` or `O`: who moved first.
    pub first: char,
    /// Every distinct final board.
    pub total: u64,
    /// Those X wins.
    pub x_wins: u64,
    /// Those O wins.
    pub o_wins: u64,
    /// The drawn ones.
    pub draws: u64,
}

impl Finals {
    /// The final boards reachable from `pos`.
    #[must_use]
    pub fn new(pos: &Position) -> Finals {
        let c = pos.count_finals();
        Finals {
            board: pos.board().to_string(),
            first: pos.first().as_char(),
            total: c.total(),
            x_wins: c.x,
            o_wins: c.o,
            draws: c.draw,
        }
    }

    /// `ply ttt count`'s text: the picture of `pos` (whose counts these are) and the counts.
    #[must_use]
    pub fn text(&self, pos: &Position) -> String {
        let mut s = picture(pos.board());
        let _ = writeln!(
            s,
            "distinct final boards reachable: {} (X wins {}, O wins {}, draws {})",
            self.total, self.x_wins, self.o_wins, self.draws
        );
        s
    }
}

/// `ply ttt stats --json`: the state-space figures.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Figures {
    /// Positions reachable from the empty board.
    pub reachable: u64,
    /// The same, symmetric positions once.
    pub reachable_up_to_symmetry: u64,
    /// Distinct final positions.
    pub finals: ByResult,
    /// Games.
    pub games: ByResult,
    /// Games, moves to symmetric positions as one.
    pub games_up_to_symmetry: ByResult,
}

/// Counts by result, with their total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ByResult {
    /// All of them.
    pub total: u64,
    /// X won.
    pub x: u64,
    /// O won.
    pub o: u64,
    /// Drawn.
    pub draw: u64,
}

impl From<Counts> for ByResult {
    fn from(c: Counts) -> ByResult {
        ByResult {
            total: c.total(),
            x: c.x,
            o: c.o,
            draw: c.draw,
        }
    }
}

impl From<Stats> for Figures {
    fn from(s: Stats) -> Figures {
        Figures {
            reachable: s.reachable,
            reachable_up_to_symmetry: s.reachable_up_to_symmetry,
            finals: s.finals.into(),
            games: s.games.into(),
            games_up_to_symmetry: s.games_up_to_symmetry.into(),
        }
    }
}

/// `ply ttt stats`'s text: the figures of a game X starts (`s` from [`crate::stats`]).
#[must_use]
pub fn stats_text(s: &Stats) -> String {
    let split = |c: Counts| format!("X {}, O {}, draw {}", c.x, c.o, c.draw);
    let mut t = String::from("tic-tac-toe, X moving first\n");
    let _ = writeln!(
        t,
        "reachable positions   {:>7} ({} up to symmetry)",
        s.reachable, s.reachable_up_to_symmetry
    );
    for (name, c) in [
        ("final positions     ", s.finals),
        ("games               ", s.games),
        ("games up to symmetry", s.games_up_to_symmetry),
    ] {
        let _ = writeln!(t, "{name}  {:>7} ({})", c.total(), split(c));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        Position::new(text.parse().unwrap(), Mark::X).unwrap()
    }

    #[test]
    fn the_picture_names_columns_and_rows() {
        assert_eq!(
            picture("xo./.x./..o".parse().unwrap()),
            "    a   b   c\n1   X | O | .\n   ---+---+---\n2   . | X | .\n   ---+---+---\n3   \
             . | . | O\n"
        );
    }

    #[test]
    fn a_finished_board_is_analysed_as_its_result_without_moves() {
        let won = pos("xxx/oo./...");
        assert!(analysis_text(&won).ends_with("game over: X wins\n"));
        assert!(Analysis::new(&won).moves.is_empty());
    }

    #[test]
    fn moves_are_listed_best_first() {
        let a = Analysis::new(&pos("xo./.x./..o"));
        assert_eq!(a.value, "win");
        assert_eq!(
            (a.moves[0].r#move.as_str(), a.moves[0].remoteness),
            ("a2", 3)
        );
        let values: Vec<&str> = a.moves.iter().map(|m| m.value).collect();
        assert_eq!(values, ["win", "win", "draw", "draw", "draw"]);
    }

    #[test]
    fn check_says_why_a_board_cannot_occur() {
        let board: Board = "oo./.../...".parse().unwrap();
        let c = Check::new(board, Mark::X);
        assert!(!c.reachable && c.to_move.is_none() && c.winner.is_none());
        let text = check_text(board, Mark::X);
        assert!(text.contains("reachable: no (X moving first): "), "{text}");
        let drawn = Check::new("xox/xoo/oxx".parse().unwrap(), Mark::X);
        assert_eq!((drawn.r#final, drawn.winner), (Some(true), Some("draw")));
    }

    #[test]
    fn the_figures_are_the_published_ones() {
        let s = crate::stats(Mark::X);
        let f = Figures::from(s);
        assert_eq!(
            (f.reachable, f.finals.total, f.games.total),
            (5478, 958, 255_168)
        );
        assert!(stats_text(&s).contains("final positions           958 (X 626, O 316, draw 16)"));
    }
}
