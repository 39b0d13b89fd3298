//! A picture of a position as SVG, drawn as the web page draws its board: the felt and its
//! squares, coordinates along the top and the left (`a`… and `1`…, as moves are named),
//! black and white discs, a gold dot on the last move, a grey dot on each legal move, and,
//! when given, each move's value on its square (green for the best, through amber to red as
//! a move gives away more discs; `≈` and a dashed frame for an estimate, the best move framed
//! in gold). A line below says the disc count and whose turn it is.
//!
//! The SVG stands alone (no style sheet, no font file, no script), so a saved file shows the
//! same anywhere; every element a reader may want to find carries a class: `disc black`,
//! `disc white`, `last`, `legal`, `value`. Pure: a position and options in, text out.
//!
//! ```
//! use ply_othello::{svg, BoardSize, Position};
//! let pos = Position::start(BoardSize::Four);
//! let picture = svg::picture(&pos, &svg::Options { legal_moves: true, ..Default::default() });
//! assert!(picture.starts_with("<?xml"));
//! assert_eq!(picture.matches(r#"class="disc black""#).count(), 2);
//! assert_eq!(picture.matches(r#"class="legal""#).count(), 4);
//! ```

use std::fmt::Write;

use crate::{Color, Position, Square};

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

/// Side of a square, in SVG units (pixels at 100%).
const CELL: u32 = 60;
/// Room for the coordinates, left and top.
const EDGE: u32 = 24;
/// Margin right and below the board.
const MARGIN: u32 = 8;
/// Height of the line below the board.
const FOOTER: u32 = 30;

/// The picture of `pos` with `opts`.
#[must_use]
pub fn picture(pos: &Position, opts: &Options) -> String {
    let n = u32::from(pos.size().n());
    let board = n * CELL;
    let width = EDGE + board + MARGIN;
    let height = EDGE + board + MARGIN + FOOTER;
    let mut s = String::new();
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(
        s,
        "<title>{}</title>",
        escape(&format!("Othello position, {}", turn_text(pos)))
    );
    let _ = writeln!(
        s,
        "<desc>{}</desc>",
        escape(&crate::text::format_position(pos))
    );
    let _ = writeln!(
        s,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    // Coordinates.
    for k in 0..n {
        let centre = EDGE + k * CELL + CELL / 2;
        let letter = char::from(b'a' + u8::try_from(k).unwrap_or(0));
        let _ = writeln!(
            s,
            "<text class=\"coord\" x=\"{centre}\" y=\"{}\" font-size=\"14\" font-weight=\"600\" \
             fill=\"#68716c\" text-anchor=\"middle\">{letter}</text>",
            EDGE - 8
        );
        let _ = writeln!(
            s,
            "<text class=\"coord\" x=\"{}\" y=\"{}\" font-size=\"14\" font-weight=\"600\" \
             fill=\"#68716c\" text-anchor=\"middle\">{}</text>",
            EDGE / 2,
            centre + 5,
            k + 1
        );
    }
    // The felt: a dark frame, squares with a gap between them.
    let _ = writeln!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"#174d35\"/>",
        EDGE - 2,
        EDGE - 2,
        board + 4,
        board + 4
    );
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
    for row in 0..n {
        for col in 0..n {
            let (x, y) = (EDGE + col * CELL, EDGE + row * CELL);
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" fill=\"#2e7d57\"/>",
                x + 1,
                y + 1,
                CELL - 2,
                CELL - 2
            );
            let sq = square(col, row);
            let (cx, cy) = (x + CELL / 2, y + CELL / 2);
            let disc = [Color::Black, Color::White]
                .into_iter()
                .find(|&c| pos.discs(c).contains(sq));
            if let Some(c) = disc {
                let (class, fill, stroke) = match c {
                    Color::Black => ("black", "#111111", "#000000"),
                    Color::White => ("white", "#f4f1e8", "#b9b3a5"),
                };
                let _ = writeln!(
                    s,
                    "<circle class=\"disc {class}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" \
                     fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>",
                    CELL * 41 / 100
                );
            } else if let Some(v) = values.iter().find(|v| v.square == sq) {
                value_tile(&mut s, x, y, v, best);
            } else if opts.legal_moves && legal.contains(sq) {
                let _ = writeln!(
                    s,
                    "<circle class=\"legal\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" \
                     fill=\"#000000\" fill-opacity=\"0.22\"/>",
                    CELL * 14 / 100
                );
            }
            if opts.last_move == Some(sq) {
                let _ = writeln!(
                    s,
                    "<circle class=\"last\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"#f0b429\"/>",
                    CELL * 9 / 100
                );
            }
        }
    }
    let (b, w) = (pos.disc_count(Color::Black), pos.disc_count(Color::White));
    let _ = writeln!(
        s,
        "<text class=\"status\" x=\"{EDGE}\" y=\"{}\" font-size=\"15\" fill=\"#1d2421\">{}</text>",
        EDGE + board + MARGIN + 20,
        escape(&format!("Black {b} – White {w}, {}", turn_text(pos)))
    );
    s.push_str("</svg>\n");
    s
}

/// The square at `col`, `row` of the board (both below its size, so below 8).
fn square(col: u32, row: u32) -> Square {
    let c = u8::try_from(col).unwrap_or(u8::MAX);
    let r = u8::try_from(row).unwrap_or(u8::MAX);
    Square::new(c, r).expect("a square of a board of at most 8x8")
}

/// A move's value on its square, as the page draws it.
fn value_tile(s: &mut String, x: u32, y: u32, v: &Value, best: f64) {
    let gap = (best - v.discs).max(0.0);
    let is_best = gap == 0.0;
    let border = if is_best {
        "#f0b429"
    } else if v.exact {
        "none"
    } else {
        "#00000040"
    };
    let inset = CELL * 7 / 100;
    let _ = writeln!(
        s,
        "<rect class=\"value-tile\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\" \
         fill=\"#faf8f0\" fill-opacity=\"0.92\" stroke=\"{border}\" stroke-width=\"2\"{}/>",
        x + inset,
        y + inset,
        CELL - 2 * inset,
        CELL - 2 * inset,
        if v.exact {
            ""
        } else {
            " stroke-dasharray=\"4 3\""
        }
    );
    let style = if v.exact {
        "font-weight=\"700\""
    } else {
        "font-weight=\"600\" font-style=\"italic\""
    };
    let _ = writeln!(
        s,
        "<text class=\"value\" x=\"{}\" y=\"{}\" font-size=\"{}\" {style} fill=\"{}\" \
         text-anchor=\"middle\">{}</text>",
        x + CELL / 2,
        y + CELL / 2 + 6,
        if v.exact { 17 } else { 15 },
        value_color(gap, v.exact),
        escape(&value_text(v.discs, v.exact))
    );
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

/// The page's colour for a value `gap` discs below the best: green to amber to red, a
/// darker, fuller green for exact values.
fn value_color(gap: f64, exact: bool) -> String {
    let t = (gap / if exact { 12.0 } else { 8.0 }).clamp(0.0, 1.0);
    let hue = 140.0 - 135.0 * t;
    let (sat, light) = if exact { (70, 30) } else { (55, 34) };
    format!("hsl({hue:.0},{sat}%,{light}%)")
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

/// Text for XML: `&`, `<`, `>` and quotes as entities.
fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c => s.push(c),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(value_color(0.0, true), "hsl(140,70%,30%)");
        assert_eq!(value_color(12.0, true), "hsl(5,70%,30%)");
        assert_eq!(value_color(100.0, false), "hsl(5,55%,34%)");
        assert_eq!(value_color(2.0, false), "hsl(106,55%,34%)");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
