//! The SVG writer. The file stands alone (no style sheet, no font file, no script), so a
//! saved picture shows the same anywhere; every element a reader may want to find carries a
//! class: `disc black`, `disc white`, `last`, `legal`, `value`, `coord`, `status`.

use std::fmt::Write;

use super::{
    disc, dotted, shown_values, squares, turn_text, value_hsl, value_text, Options, Value,
    BLACK_DISC, CELL, COORD, EDGE, FELT, FOOTER, FRAME, GOLD, INK, MARGIN, TILE, WHITE_DISC,
    WHITE_RIM,
};
use crate::{Color, Position};

/// The picture of `pos` with `opts` as an SVG document.
#[must_use]
pub fn svg(pos: &Position, opts: &Options) -> String {
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
    for k in 0..n {
        let centre = EDGE + k * CELL + CELL / 2;
        let letter = char::from(b'a' + u8::try_from(k).unwrap_or(0));
        let _ = writeln!(
            s,
            "<text class=\"coord\" x=\"{centre}\" y=\"{}\" font-size=\"14\" font-weight=\"600\" \
             fill=\"{}\" text-anchor=\"middle\">{letter}</text>",
            EDGE - 8,
            hex(COORD)
        );
        let _ = writeln!(
            s,
            "<text class=\"coord\" x=\"{}\" y=\"{}\" font-size=\"14\" font-weight=\"600\" \
             fill=\"{}\" text-anchor=\"middle\">{}</text>",
            EDGE / 2,
            centre + 5,
            hex(COORD),
            k + 1
        );
    }
    let _ = writeln!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"{}\"/>",
        EDGE - 2,
        EDGE - 2,
        board + 4,
        board + 4,
        hex(FRAME)
    );
    let (values, best) = shown_values(pos, opts);
    for (sq, x, y) in squares(pos) {
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" fill=\"{}\"/>",
            x + 1,
            y + 1,
            CELL - 2,
            CELL - 2,
            hex(FELT)
        );
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        if let Some(c) = disc(pos, sq) {
            let (class, fill, stroke) = match c {
                Color::Black => ("black", BLACK_DISC, 0),
                Color::White => ("white", WHITE_DISC, WHITE_RIM),
            };
            let _ = writeln!(
                s,
                "<circle class=\"disc {class}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" \
                 fill=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
                CELL * 41 / 100,
                hex(fill),
                hex(stroke)
            );
        } else if let Some(v) = values.iter().find(|v| v.square == sq) {
            value_tile(&mut s, x, y, v, best);
        } else if dotted(pos, opts, &values, sq) {
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
                "<circle class=\"last\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{}\"/>",
                CELL * 9 / 100,
                hex(GOLD)
            );
        }
    }
    let (b, w) = (pos.disc_count(Color::Black), pos.disc_count(Color::White));
    let _ = writeln!(
        s,
        "<text class=\"status\" x=\"{EDGE}\" y=\"{}\" font-size=\"15\" fill=\"{}\">{}</text>",
        EDGE + board + MARGIN + 20,
        hex(INK),
        escape(&format!("Black {b} – White {w}, {}", turn_text(pos)))
    );
    s.push_str("</svg>\n");
    s
}

/// `#rrggbb`.
fn hex(rgb: u32) -> String {
    format!("#{rgb:06x}")
}

/// A move's value on its square, as the page draws it.
fn value_tile(s: &mut String, x: u32, y: u32, v: &Value, best: f64) {
    let gap = (best - v.discs).max(0.0);
    let border = if gap == 0.0 {
        hex(GOLD)
    } else if v.exact {
        "none".to_owned()
    } else {
        "#00000040".to_owned()
    };
    let inset = CELL * 7 / 100;
    let _ = writeln!(
        s,
        "<rect class=\"value-tile\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\" \
         fill=\"{}\" fill-opacity=\"0.92\" stroke=\"{border}\" stroke-width=\"2\"{}/>",
        x + inset,
        y + inset,
        CELL - 2 * inset,
        CELL - 2 * inset,
        hex(TILE),
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
    let (h, sat, l) = value_hsl(gap, v.exact);
    let _ = writeln!(
        s,
        "<text class=\"value\" x=\"{}\" y=\"{}\" font-size=\"{}\" {style} \
         fill=\"hsl({h:.0},{sat:.0}%,{l:.0}%)\" text-anchor=\"middle\">{}</text>",
        x + CELL / 2,
        y + CELL / 2 + 6,
        if v.exact { 17 } else { 15 },
        escape(&value_text(v.discs, v.exact))
    );
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
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(hex(0x0a_0b0c), "#0a0b0c");
    }
}
