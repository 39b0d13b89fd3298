//! The PNG writer: the SVG's layout drawn into pixels ([`pixels`]), then encoded by the
//! `png` crate.
//!
//! Shapes are filled by coverage (each pixel sampled 4x4 times), so disc edges are smooth;
//! text is the pixel font of [`super::font`], doubled. The encoding is 8-bit RGB, filtered
//! and deflated by the `png` crate at its best compression: a picture of an 8x8 board is
//! about 2% of the 787 kB ply's own writer stored uncompressed until 2026-11-27.

use super::{
    disc, dotted, font, shown_values, squares, value_hsl, value_text, Options, BLACK_DISC, CELL,
    COORD, EDGE, FELT, FRAME, GOLD, MARGIN, TILE, WHITE_DISC, WHITE_RIM,
};
use crate::{Color, Position};

/// An RGB image being drawn.
struct Canvas {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Canvas {
    fn new(width: u32, height: u32, background: u32) -> Canvas {
        let [_, r, g, b] = background.to_be_bytes();
        let size = usize::try_from(width * height).unwrap_or(0);
        Canvas {
            width,
            height,
            rgb: [r, g, b].repeat(size),
        }
    }

    /// Blends `color` at `alpha` over pixel (`x`, `y`), `coverage` of it.
    fn blend(&mut self, x: u32, y: u32, color: u32, alpha: f64) {
        if x >= self.width || y >= self.height {
            return;
        }
        let i = usize::try_from((y * self.width + x) * 3).unwrap_or(usize::MAX);
        let [_, r, g, b] = color.to_be_bytes();
        for (k, c) in [r, g, b].into_iter().enumerate() {
            let old = f64::from(self.rgb[i + k]);
            let new = old + (f64::from(c) - old) * alpha.clamp(0.0, 1.0);
            self.rgb[i + k] = new.round().clamp(0.0, 255.0) as u8;
        }
    }

    /// Fills the points where `inside` holds, within the box from (`x0`, `y0`) to (`x1`,
    /// `y1`), by coverage.
    fn fill(
        &mut self,
        (x0, y0, x1, y1): (f64, f64, f64, f64),
        color: u32,
        alpha: f64,
        inside: impl Fn(f64, f64) -> bool,
    ) {
        let (px0, py0) = (x0.floor().max(0.0) as u32, y0.floor().max(0.0) as u32);
        let (px1, py1) = (x1.ceil().max(0.0) as u32, y1.ceil().max(0.0) as u32);
        for py in py0..py1.min(self.height) {
            for px in px0..px1.min(self.width) {
                let mut hits = 0u32;
                for sy in 0..4 {
                    for sx in 0..4 {
                        let x = f64::from(px) + (f64::from(sx) + 0.5) / 4.0;
                        let y = f64::from(py) + (f64::from(sy) + 0.5) / 4.0;
                        if inside(x, y) {
                            hits += 1;
                        }
                    }
                }
                if hits > 0 {
                    self.blend(px, py, color, alpha * f64::from(hits) / 16.0);
                }
            }
        }
    }

    fn circle(&mut self, cx: f64, cy: f64, r: f64, color: u32, alpha: f64) {
        self.fill((cx - r, cy - r, cx + r, cy + r), color, alpha, |x, y| {
            (x - cx).powi(2) + (y - cy).powi(2) <= r * r
        });
    }

    fn rounded_rect(&mut self, rect: (f64, f64, f64, f64), r: f64, color: u32, alpha: f64) {
        let (x, y, w, h) = rect;
        self.fill((x, y, x + w, y + h), color, alpha, |px, py| {
            in_rounded(px, py, rect, r)
        });
    }

    /// Writes `text` in the pixel font at `scale`, centred on `cx`, its top at `top`.
    fn text(&mut self, cx: f64, top: u32, text: &str, color: u32, scale: u32) {
        let width = font::width(text) * scale;
        let mut x = (cx - f64::from(width) / 2.0).round().max(0.0) as u32;
        for glyph in text.chars().filter_map(font::glyph) {
            for (row, line) in (0u32..).zip(glyph.iter()) {
                for (col, p) in (0u32..).zip(line.chars()) {
                    if p == '#' {
                        for dy in 0..scale {
                            for dx in 0..scale {
                                self.blend(
                                    x + col * scale + dx,
                                    top + row * scale + dy,
                                    color,
                                    1.0,
                                );
                            }
                        }
                    }
                }
            }
            x += (u32::try_from(glyph[0].len()).unwrap_or(0) + 1) * scale;
        }
    }
}

/// Whether (`px`, `py`) is inside the rectangle `(x, y, w, h)` with corners of radius `r`.
fn in_rounded(px: f64, py: f64, (x, y, w, h): (f64, f64, f64, f64), r: f64) -> bool {
    if px < x || py < y || px > x + w || py > y + h {
        return false;
    }
    let cx = px.clamp(x + r, x + w - r);
    let cy = py.clamp(y + r, y + h - r);
    (px - cx).powi(2) + (py - cy).powi(2) <= r * r
}

/// `hsl(h, s%, l%)` as `0xrrggbb`.
fn hsl(h: f64, s: f64, l: f64) -> u32 {
    let (s, l) = (s / 100.0, l / 100.0);
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = (h.rem_euclid(360.0)) / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u32;
    (byte(r) << 16) | (byte(g) << 8) | byte(b)
}

/// A picture as raw pixels: 8-bit RGB, `width` by `height`, row by row from the top left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pixels {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Three bytes (red, green, blue) a pixel.
    pub rgb: Vec<u8>,
}

/// The picture of `pos` with `opts` as a PNG file (the SVG's board, without its status
/// line): [`pixels`], encoded.
#[must_use]
pub fn png(pos: &Position, opts: &Options) -> Vec<u8> {
    encode(&pixels(pos, opts))
}

/// The pixels [`png()`] encodes.
#[must_use]
pub fn pixels(pos: &Position, opts: &Options) -> Pixels {
    let n = u32::from(pos.size().n());
    let board = n * CELL;
    let side = EDGE + board + MARGIN;
    let mut c = Canvas::new(side, side, 0xff_ffff);
    let cell = f64::from(CELL);
    for k in 0..n {
        let centre = f64::from(EDGE + k * CELL + CELL / 2);
        let letter = char::from(b'a' + u8::try_from(k).unwrap_or(0));
        c.text(centre, 4, &letter.to_string(), COORD, 2);
        c.text(
            f64::from(EDGE / 2),
            EDGE + k * CELL + CELL / 2 - 7,
            &(k + 1).to_string(),
            COORD,
            2,
        );
    }
    let frame = f64::from(EDGE - 2);
    c.rounded_rect(
        (frame, frame, f64::from(board + 4), f64::from(board + 4)),
        6.0,
        FRAME,
        1.0,
    );
    let (values, best) = shown_values(pos, opts);
    for (sq, x, y) in squares(pos) {
        let (fx, fy) = (f64::from(x), f64::from(y));
        c.rounded_rect((fx + 1.0, fy + 1.0, cell - 2.0, cell - 2.0), 2.0, FELT, 1.0);
        let (cx, cy) = (fx + cell / 2.0, fy + cell / 2.0);
        if let Some(color) = disc(pos, sq) {
            let r = f64::from(CELL * 41 / 100);
            let (fill, rim) = match color {
                Color::Black => (BLACK_DISC, 0),
                Color::White => (WHITE_DISC, WHITE_RIM),
            };
            c.circle(cx, cy, r + 0.75, rim, 1.0);
            c.circle(cx, cy, r - 0.75, fill, 1.0);
        } else if let Some(v) = values.iter().find(|v| v.square == sq) {
            let gap = (best - v.discs).max(0.0);
            let inset = f64::from(CELL * 7 / 100);
            let tile = (
                fx + inset,
                fy + inset,
                cell - 2.0 * inset,
                cell - 2.0 * inset,
            );
            c.rounded_rect(tile, 8.0, TILE, 0.92);
            let border = if gap == 0.0 {
                Some((GOLD, 1.0))
            } else if v.exact {
                None
            } else {
                Some((0, 0.25))
            };
            if let Some((color, alpha)) = border {
                let (tx, ty, tw, th) = tile;
                let inner = (tx + 2.0, ty + 2.0, tw - 4.0, th - 4.0);
                let dashed = !v.exact;
                c.fill((tx, ty, tx + tw, ty + th), color, alpha, |px, py| {
                    let on_ring = in_rounded(px, py, tile, 8.0) && !in_rounded(px, py, inner, 6.0);
                    // Dashes of 4 and gaps of 3, along the edge's own direction.
                    let along = if py < ty + 8.0 || py > ty + th - 8.0 {
                        px
                    } else {
                        py
                    };
                    on_ring && (!dashed || (along as u32) % 7 < 4)
                });
            }
            let text = value_text(v.discs, v.exact);
            let (h, s, l) = value_hsl(gap, v.exact);
            let scale = if font::width(&text) * 2 <= CELL - 12 {
                2
            } else {
                1
            };
            c.text(
                cx,
                (cy as u32).saturating_sub(7 * scale / 2),
                &text,
                hsl(h, s, l),
                scale,
            );
        } else if dotted(pos, opts, &values, sq) {
            c.circle(cx, cy, f64::from(CELL * 14 / 100), 0, 0.22);
        }
        if opts.last_move == Some(sq) {
            c.circle(cx, cy, f64::from(CELL * 9 / 100), GOLD, 1.0);
        }
    }
    Pixels {
        width: c.width,
        height: c.height,
        rgb: c.rgb,
    }
}

/// A PNG file of `pixels`: 8-bit RGB, the filters chosen row by row and the data deflated
/// at the `png` crate's best compression.
fn encode(pixels: &Pixels) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixels.width, pixels.height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    // Writing to memory cannot fail on I/O, and the canvas always holds `width * height`
    // pixels, the one thing the encoder checks of the data: an error here is a bug.
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&pixels.rgb))
        .expect("a canvas holds width * height RGB pixels");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours() {
        assert_eq!(hsl(140.0, 70.0, 30.0), 0x17_823b);
        assert_eq!(hsl(0.0, 100.0, 50.0), 0xff_0000);
        assert_eq!(hsl(240.0, 100.0, 50.0), 0x00_00ff);
    }
}
