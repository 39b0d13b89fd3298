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

    /// The union of the quadrants holding an odd number of `empties`. On 8x8 the parities
    /// come from folding the board onto one square a quadrant, without a loop
    /// ([`odd_quadrants_8x8`]); the other sizes count each quadrant.
    #[inline]
    pub fn odd_quadrants(&self, empties: u64) -> u64 {
        if self.n == 8 {
            let odd = odd_quadrants_8x8(empties);
            debug_assert_eq!(odd, self.odd_quadrants_by_count(empties));
            odd
        } else {
            self.odd_quadrants_by_count(empties)
        }
    }

    /// [`Geometry::odd_quadrants`] by counting the empties of each quadrant: any size, and
    /// the reference the 8x8 fold is tested against.
    #[inline]
    fn odd_quadrants_by_count(&self, empties: u64) -> u64 {
        let mut odd = 0;
        for q in self.quadrants {
            if (empties & q).count_ones() & 1 == 1 {
                odd |= q;
            }
        }
        odd
    }
}

/// The quadrants of the 8x8 board holding an odd number of `empties`: each row's two halves
/// folded onto their first column (bit 0 of a half becomes the parity of its four squares),
/// then the rows folded onto rows 1 and 5 the same way, leave each quadrant's parity on its
/// first square (a1, e1, a5, e5); one product spreads those four bits over their quadrants,
/// the 4x4 block of ones `0x0f0f_0f0f` shifted to each, without carries.
#[inline]
fn odd_quadrants_8x8(empties: u64) -> u64 {
    let mut x = empties ^ empties >> 1;
    x ^= x >> 2;
    x ^= x >> 8;
    x ^= x >> 16;
    (x & 0x0000_0011_0000_0011).wrapping_mul(0x0f0f_0f0f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_8x8_fold_finds_the_odd_quadrants_the_count_finds() {
        let g = Geometry::of(BoardSize::Eight);
        let mut rng = ply_core::SplitMix64::new(7);
        for _ in 0..10_000 {
            // Sparse and dense sets alike: the end of a game has few empties.
            let e = rng.next_u64() & rng.next_u64() & rng.next_u64();
            assert_eq!(odd_quadrants_8x8(e), g.odd_quadrants_by_count(e), "{e:#x}");
            assert_eq!(
                odd_quadrants_8x8(!e),
                g.odd_quadrants_by_count(!e),
                "{:#x}",
                !e
            );
        }
        for sq in 0..64 {
            assert_eq!(
                odd_quadrants_8x8(1 << sq),
                g.quadrants[usize::from(g.quadrant_of[sq])]
            );
        }
    }

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
