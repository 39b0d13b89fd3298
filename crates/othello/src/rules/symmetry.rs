//! The eight symmetries of a square board (rotations and reflections), on the shared 8x8
//! layout where a smaller board sits in the top-left corner: a property of the board, like
//! Edax's `board_symetry` and `board_unique`.
//!
//! Early in a game many positions are images of one another (the 6x6 start has four
//! equivalent first moves), and an image has the same value. Two users build on that: the
//! exact solver keys the table of its high nodes by the least image of the position
//! ([`canonical`]) and searches only one of the root moves whose children are images of each
//! other, and the opening books store one position per class (the least image) and map its
//! moves back onto the image asked about.
//!
//! A symmetry is a number `s` in `0..8`: bit 2 transposes (a1-h8 diagonal) first, then bit 0
//! mirrors the columns and bit 1 the rows of an `n`x`n` board. The tests check the bit
//! tricks against a square-by-square reference.

/// How many symmetries a square board has.
pub(crate) const COUNT: u8 = 8;

/// Swaps the bits of `b` selected by `mask` with those `delta` places higher.
#[inline]
const fn delta_swap(b: u64, mask: u64, delta: u32) -> u64 {
    let t = (b ^ (b >> delta)) & mask;
    b ^ t ^ (t << delta)
}

/// Reflects the 8x8 layout in its a1-h8 diagonal: (column, row) becomes (row, column), which
/// maps a board in the top-left corner onto itself.
#[inline]
const fn transpose(b: u64) -> u64 {
    let b = delta_swap(b, 0x00aa_00aa_00aa_00aa, 7);
    let b = delta_swap(b, 0x0000_cccc_0000_cccc, 14);
    delta_swap(b, 0x0000_0000_f0f0_f0f0, 28)
}

/// Mirrors the columns of an `n`x`n` board in the top-left corner: column `c` becomes
/// `n - 1 - c`.
#[inline]
const fn mirror_columns(b: u64, n: u32) -> u64 {
    // Reversing the bits of each byte sends column c to 7 - c; the shift moves the board back
    // into the corner (the low 8 - n columns are empty, so nothing spills into another row).
    b.reverse_bits().swap_bytes() >> (8 - n)
}

/// Mirrors the rows of an `n`x`n` board in the top-left corner: row `r` becomes `n - 1 - r`.
#[inline]
const fn mirror_rows(b: u64, n: u32) -> u64 {
    b.swap_bytes() >> (8 * (8 - n))
}

/// The image of the squares `b` of an `n`x`n` board under symmetry `s`.
#[inline]
pub(crate) const fn apply(b: u64, s: u8, n: u32) -> u64 {
    let mut b = b;
    if s & 4 != 0 {
        b = transpose(b);
    }
    if s & 1 != 0 {
        b = mirror_columns(b, n);
    }
    if s & 2 != 0 {
        b = mirror_rows(b, n);
    }
    b
}

/// The symmetry that undoes `s`: the reflections and the half turn undo themselves, the two
/// quarter turns (5 and 6) undo each other.
#[inline]
pub(crate) const fn inverse(s: u8) -> u8 {
    match s {
        5 => 6,
        6 => 5,
        _ => s,
    }
}

/// The image of square `sq` (0..64, on the board) under symmetry `s`.
#[inline]
pub(crate) const fn square(sq: u8, s: u8, n: u32) -> u8 {
    apply(1 << sq, s, n).trailing_zeros() as u8
}

/// The image of `pos` under symmetry `s`: the same side to move, its discs and the other
/// side's mapped.
pub(crate) fn image(pos: &crate::Position, s: u8) -> crate::Position {
    let n = u32::from(pos.size().n());
    crate::Position::from_raw(
        apply(pos.player().0, s, n),
        apply(pos.opponent().0, s, n),
        pos.turn(),
        pos.size(),
    )
}

/// The least image `(p, o)` of the position `(p, o)` of an `n`x`n` board, compared as pairs,
/// and a symmetry that maps the position onto it.
#[inline(always)]
pub(crate) fn canonical(p: u64, o: u64, n: u32) -> (u64, u64, u8) {
    let mut best = (p, o, 0);
    for s in 1..COUNT {
        let (ip, io) = (apply(p, s, n), apply(o, s, n));
        if (ip, io) < (best.0, best.1) {
            best = (ip, io, s);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Square-by-square image of `b` under `s`: the definition the bit tricks must meet.
    fn apply_slow(b: u64, s: u8, n: u32) -> u64 {
        let mut out = 0;
        for r in 0..n {
            for c in 0..n {
                if b >> (r * 8 + c) & 1 == 0 {
                    continue;
                }
                let (mut c2, mut r2) = if s & 4 != 0 { (r, c) } else { (c, r) };
                if s & 1 != 0 {
                    c2 = n - 1 - c2;
                }
                if s & 2 != 0 {
                    r2 = n - 1 - r2;
                }
                out |= 1 << (r2 * 8 + c2);
            }
        }
        out
    }

    fn board_mask(n: u32) -> u64 {
        (0..n)
            .flat_map(|r| (0..n).map(move |c| 1u64 << (r * 8 + c)))
            .sum()
    }

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(500) })]

        #[test]
        fn bit_tricks_match_the_square_by_square_images(bits: u64, s in 0..COUNT, k in 0..3u32) {
            let n = 4 + 2 * k;
            let b = bits & board_mask(n);
            let image = apply(b, s, n);
            prop_assert_eq!(image, apply_slow(b, s, n));
            prop_assert_eq!(image & !board_mask(n), 0);
            prop_assert_eq!(apply(image, inverse(s), n), b);
        }

        #[test]
        fn canonical_is_the_least_image_and_the_same_for_every_image(
            p: u64, o: u64, s in 0..COUNT, k in 0..3u32,
        ) {
            let n = 4 + 2 * k;
            let (p, o) = (p & board_mask(n), o & board_mask(n) & !p);
            let (cp, co, t) = canonical(p, o, n);
            prop_assert_eq!((apply(p, t, n), apply(o, t, n)), (cp, co));
            for u in 0..COUNT {
                prop_assert!((cp, co) <= (apply_slow(p, u, n), apply_slow(o, u, n)));
            }
            let image = canonical(apply(p, s, n), apply(o, s, n), n);
            prop_assert_eq!((image.0, image.1), (cp, co));
        }
    }

    #[test]
    fn squares_map_like_boards() {
        for k in 0..3 {
            let n = 4 + 2 * k;
            for s in 0..COUNT {
                for sq in 0..64u8 {
                    if board_mask(n) >> sq & 1 == 1 {
                        let image = square(sq, s, n);
                        assert_eq!(1 << image, apply_slow(1 << sq, s, n));
                        assert_eq!(square(image, inverse(s), n), sq);
                    }
                }
            }
        }
    }
}
