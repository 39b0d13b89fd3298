//! Square classes of one board size, as masks on the shared 8x8 layout: the squares that exist,
//! the corners, the squares next to them, and the four quadrants that parity ordering uses.
//!
//! A 4x4 or 6x6 board sits in the top-left corner of the 8x8 layout, so its corners and
//! quadrants are not those of the 8x8 board; one table per size keeps the search free of
//! special cases.

use crate::BoardSize;

/// Masks of one board size.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Squares that exist.
    pub mask: u64,
    /// Number of squares.
    pub squares: i32,
    /// The four corners.
    pub corners: u64,
    /// Squares diagonally next to a corner (X-squares) and beside it on an edge (C-squares).
    pub near_corners: u64,
    /// Edge squares beside a corner (C-squares).
    pub c_squares: u64,
    /// The four quadrants (top-left, top-right, bottom-left, bottom-right).
    pub quadrants: [u64; 4],
    /// For each square of the 8x8 layout, the quadrant (0 to 3) it lies in; 4 off the board.
    pub quadrant_of: [u8; 64],
    /// Size tag mixed into hash keys, so boards of different sizes never share an entry.
    pub key: u64,
    /// Side length of the board.
    pub n: u32,
    /// Fewest empties at which the table is keyed by the least symmetric image of a position
    /// (see [`super::symmetry`]).
    pub sym_from: u32,
}

const fn sq(col: u32, row: u32) -> u64 {
    1u64 << (row * 8 + col)
}

const fn block(c0: u32, r0: u32, w: u32) -> u64 {
    let mut m = 0;
    let mut r = r0;
    while r < r0 + w {
        let mut c = c0;
        while c < c0 + w {
            m |= sq(c, r);
            c += 1;
        }
        r += 1;
    }
    m
}

const fn build(n: u32, key: u64, sym_from: u32) -> Geometry {
    let l = n - 1;
    let corners = sq(0, 0) | sq(l, 0) | sq(0, l) | sq(l, l);
    let x = sq(1, 1) | sq(l - 1, 1) | sq(1, l - 1) | sq(l - 1, l - 1);
    let c = sq(1, 0)
        | sq(0, 1)
        | sq(l - 1, 0)
        | sq(l, 1)
        | sq(0, l - 1)
        | sq(1, l)
        | sq(l, l - 1)
        | sq(l - 1, l);
    let h = n / 2;
    let quadrants = [
        block(0, 0, h),
        block(h, 0, h),
        block(0, h, h),
        block(h, h, h),
    ];
    let mut quadrant_of = [4u8; 64];
    let mut q = 0;
    while q < 4 {
        let mut s = 0;
        while s < 64 {
            if quadrants[q] >> s & 1 == 1 {
                quadrant_of[s] = q as u8;
            }
            s += 1;
        }
        q += 1;
    }
    Geometry {
        mask: block(0, 0, n),
        squares: (n * n) as i32,
        corners,
        near_corners: (x | c) & !corners,
        c_squares: c & !corners,
        quadrants,
        quadrant_of,
        key,
        n,
        sym_from,
    }
}

// Where symmetric keys start: images of one another are common only in the first moves of
// a game, and the FFO positions (at most 36 empties on 8x8) never pay for them.
static FOUR: Geometry = build(4, 0x6a09_e667_f3bc_c908, 8);
static SIX: Geometry = build(6, 0xbb67_ae85_84ca_a73b, 22);
static EIGHT: Geometry = build(8, 0, 48);

impl Geometry {
    /// The masks of a board size.
    pub fn of(size: BoardSize) -> &'static Geometry {
        match size {
            BoardSize::Four => &FOUR,
            BoardSize::Six => &SIX,
            BoardSize::Eight => &EIGHT,
        }
    }

    /// The union of the quadrants holding an odd number of `empties`.
    #[inline]
    pub fn odd_quadrants(&self, empties: u64) -> u64 {
        let mut odd = 0;
        for q in self.quadrants {
            if (empties & q).count_ones() & 1 == 1 {
                odd |= q;
            }
        }
        odd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_fit_their_board() {
        for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
            let g = Geometry::of(size);
            assert_eq!(g.mask.count_ones() as i32, g.squares);
            assert_eq!(g.corners.count_ones(), 4);
            assert_eq!(g.near_corners.count_ones(), 12);
            assert_eq!(g.quadrants.iter().fold(0, |a, q| a | q), g.mask);
            assert_eq!(
                g.quadrants.iter().map(|q| q.count_ones()).sum::<u32>() as i32,
                g.squares
            );
        }
    }
}
