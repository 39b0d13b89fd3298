//! The solver's own move primitives: the discs a move turns over and the legal moves, all
//! directions at once.
//!
//! With AVX2 the four directions of each sense (shifts by 1, 8, 7 and 9 bits) sit in the
//! lanes of one vector and are filled together, without a branch. Elsewhere a scalar version
//! walks precomputed rays: along a ray the first square that is not an opponent disc (the
//! lowest set bit of `ray & !o` going up, the highest going down) decides; if it is ours,
//! the squares before it flip. Both are tested against [`crate::reference::flips_slow`].

/// Rays from each square: `[east, south-west, south, south-east, west, north-east, north,
/// north-west]`; the first four go towards higher indices.
#[repr(C, align(64))]
struct Rays([[u64; 8]; 64]);

static RAYS: Rays = Rays(build_rays());

const fn build_rays() -> [[u64; 8]; 64] {
    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRS[d];
            let (mut x, mut y) = ((sq % 8) as i32 + dx, (sq / 8) as i32 + dy);
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                rays[sq][d] |= 1u64 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The discs of `o` that a move by `p` on the empty square `sq` turns over (zero: illegal).
#[inline(always)]
#[must_use]
pub(crate) fn flips(p: u64, o: u64, sq: u8) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the cfg above guarantees the CPU feature the intrinsics need.
        unsafe { flips_avx2(p, o, sq) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar(p, o, sq)
    }
}

/// [`flips`] on scalars, without branches.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
#[inline]
#[must_use]
pub(crate) fn flips_scalar(p: u64, o: u64, sq: u8) -> u64 {
    let rays = &RAYS.0[sq as usize];
    let mut f = 0;
    for &ray in &rays[..4] {
        let blockers = ray & !o;
        let outflank = blockers & blockers.wrapping_neg() & p;
        f |= outflank.wrapping_sub(u64::from(outflank != 0)) & ray;
    }
    for &ray in &rays[4..] {
        let blockers = ray & !o;
        let outflank = (1u64 << 63)
            .checked_shr(blockers.leading_zeros())
            .unwrap_or(0)
            & p;
        f |= outflank.wrapping_mul(2).wrapping_neg() & ray;
    }
    f
}

/// [`flips`] with the four directions of each sense in the lanes of one AVX2 vector: fill
/// from the move through opponent discs (one step, another, then two doubling steps: runs of
/// up to six), and keep a lane's fill only if the square after it is ours.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn flips_avx2(p: u64, o: u64, sq: u8) -> u64 {
    use std::arch::x86_64::{
        _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64,
        _mm256_extracti128_si256, _mm256_or_si256, _mm256_set1_epi64x, _mm256_set_epi64x,
        _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_srlv_epi64, _mm_cvtsi128_si64,
        _mm_extract_epi64, _mm_or_si128,
    };
    const INNER: i64 = 0x7e7e_7e7e_7e7e_7e7e;
    let shift = _mm256_set_epi64x(9, 7, 8, 1);
    let shift2 = _mm256_set_epi64x(18, 14, 16, 2);
    let x = _mm256_set1_epi64x((1u64 << sq) as i64);
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_and_si256(
        _mm256_set1_epi64x(o as i64),
        _mm256_set_epi64x(INNER, INNER, -1, INNER),
    );
    let zero = _mm256_setzero_si256();
    // Towards higher indices.
    let mut f = _mm256_and_si256(oo, _mm256_sllv_epi64(x, shift));
    f = _mm256_or_si256(f, _mm256_and_si256(oo, _mm256_sllv_epi64(f, shift)));
    let pre = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
    f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_sllv_epi64(f, shift2)));
    f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_sllv_epi64(f, shift2)));
    let closed = _mm256_and_si256(pp, _mm256_sllv_epi64(f, shift));
    let up = _mm256_andnot_si256(_mm256_cmpeq_epi64(closed, zero), f);
    // Towards lower indices.
    let mut g = _mm256_and_si256(oo, _mm256_srlv_epi64(x, shift));
    g = _mm256_or_si256(g, _mm256_and_si256(oo, _mm256_srlv_epi64(g, shift)));
    let pre = _mm256_and_si256(oo, _mm256_srlv_epi64(oo, shift));
    g = _mm256_or_si256(g, _mm256_and_si256(pre, _mm256_srlv_epi64(g, shift2)));
    g = _mm256_or_si256(g, _mm256_and_si256(pre, _mm256_srlv_epi64(g, shift2)));
    let closed = _mm256_and_si256(pp, _mm256_srlv_epi64(g, shift));
    let down = _mm256_andnot_si256(_mm256_cmpeq_epi64(closed, zero), g);
    let m = _mm256_or_si256(up, down);
    let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
    (_mm_cvtsi128_si64(m) | _mm_extract_epi64::<1>(m)) as u64
}

/// All squares of `empty` where `p` may move against `o`.
#[inline(always)]
#[must_use]
pub(crate) fn legal_moves(p: u64, o: u64, empty: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the cfg above guarantees the CPU feature the intrinsics need.
        unsafe { legal_moves_avx2(p, o, empty) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        crate::moves::legal_moves(p, o, empty)
    }
}

/// Legal moves with the four shift directions (1, 8, 7, 9) in the lanes of one vector: a
/// fill from our discs through opponent discs, one step, one more, then two doubling steps
/// (runs of up to six), both ways.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn legal_moves_avx2(p: u64, o: u64, empty: u64) -> u64 {
    use std::arch::x86_64::{
        _mm256_and_si256, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_or_si256,
        _mm256_set1_epi64x, _mm256_set_epi64x, _mm256_sllv_epi64, _mm256_srlv_epi64,
        _mm_cvtsi128_si64, _mm_extract_epi64, _mm_or_si128,
    };
    const INNER: i64 = 0x7e7e_7e7e_7e7e_7e7e;
    let shift = _mm256_set_epi64x(9, 7, 8, 1);
    let shift2 = _mm256_set_epi64x(18, 14, 16, 2);
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_and_si256(
        _mm256_set1_epi64x(o as i64),
        _mm256_set_epi64x(INNER, INNER, -1, INNER),
    );
    // Towards higher indices.
    let mut f = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, shift));
    f = _mm256_or_si256(f, _mm256_and_si256(oo, _mm256_sllv_epi64(f, shift)));
    let pre = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
    f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_sllv_epi64(f, shift2)));
    f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_sllv_epi64(f, shift2)));
    let up = _mm256_sllv_epi64(f, shift);
    // Towards lower indices.
    let mut g = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, shift));
    g = _mm256_or_si256(g, _mm256_and_si256(oo, _mm256_srlv_epi64(g, shift)));
    let pre = _mm256_and_si256(oo, _mm256_srlv_epi64(oo, shift));
    g = _mm256_or_si256(g, _mm256_and_si256(pre, _mm256_srlv_epi64(g, shift2)));
    g = _mm256_or_si256(g, _mm256_and_si256(pre, _mm256_srlv_epi64(g, shift2)));
    let down = _mm256_srlv_epi64(g, shift);
    let m = _mm256_or_si256(up, down);
    let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
    (_mm_cvtsi128_si64(m) | _mm_extract_epi64::<1>(m)) as u64 & empty
}

/// The four lines through each square (row, column, two diagonals) as `(mask, length,
/// place of the square in the line)`, for [`count_last_flips`].
static LINES: [[(u64, u8, u8); 4]; 64] = build_lines();

const fn build_lines() -> [[(u64, u8, u8); 4]; 64] {
    const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut lines = [[(0u64, 0u8, 0u8); 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = DIRS[d];
            // Walk back to the start of the line, then forward over it.
            let (mut x, mut y) = (c, r);
            while x - dx >= 0 && x - dx < 8 && y - dy >= 0 && y - dy < 8 {
                x -= dx;
                y -= dy;
            }
            let (mut mask, mut len, mut place) = (0u64, 0u8, 0u8);
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                if x == c && y == r {
                    place = len;
                }
                mask |= 1u64 << (y * 8 + x);
                len += 1;
                x += dx;
                y += dy;
            }
            // pext keeps the bits of `mask` in index order; the walk above may run the other way.
            if dy < 0 {
                place = len - 1 - place;
            }
            lines[sq][d] = (mask, len, place);
            d += 1;
        }
        sq += 1;
    }
    lines
}

/// `COUNTS[len][place][pattern]`: discs turned over along one line of `len` squares by a
/// move on `place` when the mover's discs are `pattern` and every other square of the line
/// holds an opponent disc.
static COUNTS: [[[u8; 256]; 8]; 9] = build_counts();

const fn build_counts() -> [[[u8; 256]; 8]; 9] {
    let mut t = [[[0u8; 256]; 8]; 9];
    let mut len = 1;
    while len <= 8 {
        let mut place = 0;
        while place < len {
            let mut pattern = 0;
            while pattern < 1 << len {
                let mut total = 0;
                // Up the line.
                let mut i = place + 1;
                let mut run = 0;
                while i < len && pattern >> i & 1 == 0 {
                    run += 1;
                    i += 1;
                }
                if i < len {
                    total += run;
                }
                // Down the line.
                let mut i = place as i32 - 1;
                let mut run = 0;
                while i >= 0 && pattern >> i & 1 == 0 {
                    run += 1;
                    i -= 1;
                }
                if i >= 0 {
                    total += run;
                }
                t[len][place][pattern] = total as u8;
                pattern += 1;
            }
            place += 1;
        }
        len += 1;
    }
    t
}

/// Discs the mover with discs `p` turns over by playing on `sq`, the last empty square of a
/// full 8x8 board (every other square not in `p` holds an opponent disc).
#[inline(always)]
#[must_use]
pub(crate) fn count_last_flips(p: u64, sq: u8) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        let mut n = 0;
        for &(mask, len, place) in &LINES[sq as usize] {
            // SAFETY: the cfg above guarantees BMI2.
            let pattern = unsafe { std::arch::x86_64::_pext_u64(p, mask) } as usize;
            n += u32::from(COUNTS[len as usize][place as usize][pattern & 0xff]);
        }
        n
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        flips(p, !p & !(1u64 << sq), sq).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{reference::flips_slow, BoardSize};

    #[test]
    fn fast_flips_equal_slow_flips() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..200_000u32 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let a = seed;
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Dense and sparse boards both.
            let b = if i % 2 == 0 {
                seed
            } else {
                seed & seed.rotate_left(17)
            };
            let (p, o) = (a & b, !a & b);
            let sq = (i % 64) as u8;
            let (p, o) = (p & !(1 << sq), o & !(1 << sq));
            let want = flips_slow(p, o, sq, BoardSize::Eight);
            assert_eq!(flips(p, o, sq), want, "p {p:#x} o {o:#x} sq {sq}");
            assert_eq!(flips_scalar(p, o, sq), want, "p {p:#x} o {o:#x} sq {sq}");
            let full_o = !p & !(1u64 << sq);
            assert_eq!(
                count_last_flips(p, sq),
                flips_slow(p, full_o, sq, BoardSize::Eight).count_ones(),
                "p {p:#x} sq {sq}"
            );
            if i % 16 == 0 {
                let want = crate::reference::legal_moves_slow(p, o, BoardSize::Eight);
                assert_eq!(legal_moves(p, o, !(p | o)), want, "p {p:#x} o {o:#x}");
            }
        }
    }
}
