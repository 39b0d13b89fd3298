//! Pictures of a position, drawn as the web page draws its board: the felt and its squares,
//! coordinates along the top and the left (`a`… and `1`…, as moves are named), black and
//! white discs, a gold dot on the last move, a grey dot on each legal move, and, when given,
//! each move's value on its square (green for the best, through amber to red as a move gives
//! away more discs; `≈` and a dashed frame for an estimate, the best move framed in gold).
//!
//! Two writers share this layout and these rules: [`svg`] (text; a line below the board says
//! the disc count and whose turn it is) and [`png()`] (the [`pixels`] drawn here, with a 5x7
//! pixel font for the coordinates and values, encoded by the `png` crate; it has no status
//! line, which would need a font of every letter). Both are pure: a position and options
//! in, a file's bytes out.
//!
//! ```
//! use ply_othello::{picture, BoardSize, Position};
//! let pos = Position::start(BoardSize::Four);
//! let svg = picture::svg(&pos, &picture::Options { legal_moves: true, ..Default::default() });
//! assert!(svg.starts_with("<?xml"));
//! assert_eq!(svg.matches(r#"class="disc black""#).count(), 2);
//! assert_eq!(svg.matches(r#"class="legal""#).count(), 4);
//! let png = picture::png(&pos, &picture::Options::default());
//! assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
//! ```

mod font;
mod raster;
mod vector;

pub use raster::{pixels, png, Pixels};
pub use vector::svg;

use crate::{Color, GameRecord, Move, Position, Square};

/// A move's value to write on its square: discs for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// The move.
    pub square: Square,
    /// Final disc difference for the mover after it (empties to the winner).
    pub discs: f64,
    /// Proven (by the book or the solver), not an estimate.
    pub exact: bool,
}

/// What to draw besides the discs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// The square the last move was played on, marked with a dot.
    pub last_move: Option<Square>,
    /// Mark the side to move's legal moves (those without a value) with a dot.
    pub legal_moves: bool,
    /// Values to write on the squares of legal moves; an entry for any other square is
    /// ignored.
    pub values: Vec<Value>,
}

impl Options {
    /// What the picture of the position a game reaches draws: its last move (none after a
    /// pass or before any move) and the legal moves, without values.
    #[must_use]
    pub fn of_game(game: &GameRecord) -> Options {
        Options {
            last_move: match game.moves().last() {
                Some(Move::Play(sq)) => Some(*sq),
                _ => None,
            },
            legal_moves: true,
            values: Vec::new(),
        }
    }
}

/// Side of a square, in pixels.
const CELL: u32 = 60;
/// Room for the coordinates, left and top.
const EDGE: u32 = 24;
/// Margin right and below the board.
const MARGIN: u32 = 8;
/// Height of the SVG's line below the board.
const FOOTER: u32 = 30;

/// The felt's frame, its squares, a white disc's rim, the page's colours.
const FRAME: u32 = 0x17_4d35;
const FELT: u32 = 0x2e_7d57;
const BLACK_DISC: u32 = 0x11_1111;
const WHITE_DISC: u32 = 0xf4_f1e8;
const WHITE_RIM: u32 = 0xb9_b3a5;
const GOLD: u32 = 0xf0_b429;
const COORD: u32 = 0x68_716c;
const TILE: u32 = 0xfa_f8f0;
const INK: u32 = 0x1d_2421;

/// The squares of the board, row by row, with the pixel of each one's top-left corner.
fn squares(pos: &Position) -> impl Iterator<Item = (Square, u32, u32)> {
    let n = pos.size().n();
    (0..n).flat_map(move |row| {
        (0..n).map(move |col| {
            let sq = Square::new(col, row).expect("a square of a board of at most 8x8");
            (
                sq,
                EDGE + u32::from(col) * CELL,
                EDGE + u32::from(row) * CELL,
            )
        })
    })
}

/// The disc on `sq`, if any.
fn disc(pos: &Position, sq: Square) -> Option<Color> {
    [Color::Black, Color::White]
        .into_iter()
        .find(|&c| pos.discs(c).contains(sq))
}

/// The values to draw (those on legal moves), and the best of them.
fn shown_values<'a>(pos: &Position, opts: &'a Options) -> (Vec<&'a Value>, f64) {
    let legal = if pos.is_game_over() {
        crate::Bitboard(0)
    } else {
        pos.legal_moves()
    };
    let values: Vec<&Value> = opts
        .values
        .iter()
        .filter(|v| legal.contains(v.square) && v.discs.is_finite())
        .collect();
    let best = values
        .iter()
        .map(|v| v.discs)
        .fold(f64::NEG_INFINITY, f64::max);
    (values, best)
}

/// The squares to mark with a legal-move dot: legal moves without a value, when asked.
fn dotted(pos: &Position, opts: &Options, values: &[&Value], sq: Square) -> bool {
    opts.legal_moves
        && !pos.is_game_over()
        && pos.legal_moves().contains(sq)
        && !values.iter().any(|v| v.square == sq)
}

/// How the page writes a value: whole discs as they are, others to a tenth (whole from 10
/// on), a sign, `−` for minus, `≈` before an estimate.
#[must_use]
pub fn value_text(discs: f64, exact: bool) -> String {
    let shown = if discs.fract() == 0.0 || discs.abs() >= 10.0 {
        format!("{}", discs.round().abs())
    } else {
        format!("{:.1}", discs.abs())
    };
    let sign = if discs > 0.0 {
        "+"
    } else if discs < 0.0 && shown.chars().any(|c| c != '0' && c != '.') {
        "−"
    } else {
        ""
    };
    format!("{}{sign}{shown}", if exact { "" } else { "≈" })
}

/// The page's colour for a value `gap` discs below the best, as hue (degrees), saturation
/// and lightness (percent): green to amber to red, a darker, fuller green for exact values.
fn value_hsl(gap: f64, exact: bool) -> (f64, f64, f64) {
    let t = (gap / if exact { 12.0 } else { 8.0 }).clamp(0.0, 1.0);
    let hue = 140.0 - 135.0 * t;
    if exact {
        (hue, 70.0, 30.0)
    } else {
        (hue, 55.0, 34.0)
    }
}

/// `black to move`, `white to move, must pass`, `game over: black wins by 4`.
fn turn_text(pos: &Position) -> String {
    let name = |c: Color| match c {
        Color::Black => "black",
        Color::White => "white",
    };
    if pos.is_game_over() {
        let black = match pos.turn() {
            Color::Black => pos.final_score(),
            Color::White => -pos.final_score(),
        };
        return match black.signum() {
            1 => format!("game over: black wins by {black}"),
            -1 => format!("game over: white wins by {}", -black),
            _ => "game over: a draw".to_owned(),
        };
    }
    if pos.can_move() {
        format!("{} to move", name(pos.turn()))
    } else {
        format!("{} to move, must pass", name(pos.turn()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's picture marks its last move, none after a pass.
    #[test]
    fn a_games_picture_marks_its_last_move() {
        use crate::{transcript, BoardSize};
        let game = transcript::parse("f5d6", Position::start(BoardSize::Eight)).unwrap();
        let opts = Options::of_game(&game);
        assert_eq!(opts.last_move, Square::parse("d6").ok());
        assert!(opts.legal_moves && opts.values.is_empty());
        let start = GameRecord::new(Position::start(BoardSize::Eight));
        assert_eq!(Options::of_game(&start).last_move, None);
    }

    #[test]
    fn values_read_as_the_page_writes_them() {
        assert_eq!(value_text(2.0, true), "+2");
        assert_eq!(value_text(-4.0, true), "−4");
        assert_eq!(value_text(0.0, true), "0");
        assert_eq!(value_text(1.54, false), "≈+1.5");
        assert_eq!(value_text(-0.04, false), "≈0.0");
        assert_eq!(value_text(-12.6, false), "≈−13");
    }

    #[test]
    fn colours_run_from_green_to_red() {
        assert_eq!(value_hsl(0.0, true), (140.0, 70.0, 30.0));
        assert_eq!(value_hsl(12.0, true), (5.0, 70.0, 30.0));
        assert_eq!(value_hsl(100.0, false), (5.0, 55.0, 34.0));
        assert_eq!(value_hsl(2.0, false), (106.25, 55.0, 34.0));
    }
}
