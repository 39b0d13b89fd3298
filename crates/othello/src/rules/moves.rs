//! Move generation and flips on raw bitboards (`u64`), the hot path of perft and the solvers.
//!
//! Both routines work on the 8x8 layout; a smaller board needs no special case because its
//! discs all lie inside its mask: a ray that leaves the board meets no opponent disc and stops.
//!
//! Each routine comes in several builds. The portable one ([`legal_moves_portable`],
//! [`flips_portable`]) is plain `u64` arithmetic. Where the processor has the vector
//! instructions ([`crate::cpu`] chooses when the process starts; the hot code calls
//! [`legal_moves_in`] and [`flips_in`] with its level's token), they work on four
//! directions at once in one 256-bit register: the move generator
//! with AVX2 shifts, the flip with AVX-512 (VL + CD) for its per-lane leading-zero count,
//! which finds the first non-opponent square on the four rays that run towards lower
//! indices as cheaply as `x & -x` finds it on the four that run towards higher ones, and
//! with AVX2 alone (no AVX-512) by the move generator's fill, run from the move's square.
//! Every build is tested against [`crate::reference`], the square-by-square walk, and
//! against the others.

#[cfg(target_arch = "x86_64")]
use crate::cpu::Level;
use crate::cpu::{with_cpu, Cpu};

/// Columns b..g: masks the opponent for horizontal and diagonal shifts so that a line never
/// wraps from the h column into the a column of the next row.
const INNER_COLS: u64 = 0x7e7e_7e7e_7e7e_7e7e;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;

/// The squares next to any of `b` (8 directions) on the 8x8 layout.
#[inline]
#[must_use]
pub(crate) const fn neighbours(b: u64) -> u64 {
    let e = (b << 1) & !FILE_A;
    let w = (b >> 1) & !FILE_H;
    let row = b | e | w;
    e | w | row << 8 | row >> 8
}

/// All squares where the player with discs `p` may move against `o`, restricted to `empty`
/// (the empty squares that exist on the board), on the paths [`crate::cpu::level`] chose.
///
/// ```
/// use ply_othello::{moves, BoardSize, Position};
/// let pos = Position::start(BoardSize::Eight);
/// let m = moves::legal_moves(pos.player().0, pos.opponent().0, pos.empties().0);
/// assert_eq!(m.count_ones(), 4);
/// ```
#[inline]
#[must_use]
pub fn legal_moves(p: u64, o: u64, empty: u64) -> u64 {
    with_cpu!(cpu => legal_moves_in(cpu, p, o, empty))
}

/// [`legal_moves`] at the level of `cpu`: the hot code, compiled per level, calls this one.
#[inline(always)]
#[must_use]
pub fn legal_moves_in<C: Cpu>(cpu: C, p: u64, o: u64, empty: u64) -> u64 {
    let _ = cpu;
    #[cfg(target_arch = "x86_64")]
    if C::LEVEL >= Level::V3 {
        // SAFETY: a token of V3 or above proves AVX2 (`cpu`).
        return unsafe { vector::legal_moves(p, o, empty) };
    }
    legal_moves_portable(p, o, empty)
}

/// The discs of `o` that a move by `p` on square `sq` (0..64, assumed empty) turns over.
/// Zero means the move is not legal.
///
/// ```
/// use ply_othello::{moves, BoardSize, Position, Square};
/// let pos = Position::start(BoardSize::Eight);
/// let f5 = Square::parse("f5").unwrap();
/// let e5 = Square::parse("e5").unwrap();
/// assert_eq!(moves::flips(pos.player().0, pos.opponent().0, f5.index()), 1 << e5.index());
/// ```
#[inline]
#[must_use]
pub fn flips(p: u64, o: u64, sq: u8) -> u64 {
    with_cpu!(cpu => flips_in(cpu, p, o, sq))
}

/// [`flips`] at the level of `cpu`: AVX-512's leading-zero count, AVX2's fill, or the
/// portable body.
#[inline(always)]
#[must_use]
pub fn flips_in<C: Cpu>(cpu: C, p: u64, o: u64, sq: u8) -> u64 {
    let _ = cpu;
    #[cfg(target_arch = "x86_64")]
    if C::LEVEL >= Level::Avx512 {
        // SAFETY: an AVX-512 token proves AVX-512 F, VL and CD (`cpu`).
        return unsafe { vector::flips(p, o, sq) };
    } else if C::LEVEL >= Level::V3 {
        // SAFETY: a token of V3 or above proves AVX2 (`cpu`).
        return unsafe { vector::flips_fill(p, o, sq) };
    }
    flips_portable(p, o, sq)
}

/// Fills from `p` through contiguous `o` discs in one direction (`shift` bits, left when
/// `left`) and returns the squares just past the run: the candidate moves in that direction.
/// Two single steps, then two double steps through pairs of opponent discs: runs of up to
/// six discs, the longest a line of eight holds.
#[inline(always)]
fn dir_moves(p: u64, o: u64, shift: u32, left: bool) -> u64 {
    let step = |x: u64, s: u32| if left { x << s } else { x >> s };
    let mut f = o & step(p, shift);
    f |= o & step(f, shift);
    let pre = o & step(o, shift);
    f |= pre & step(f, 2 * shift);
    f |= pre & step(f, 2 * shift);
    step(f, shift)
}

/// [`legal_moves`] in plain `u64` arithmetic, for any target.
#[inline]
#[must_use]
pub fn legal_moves_portable(p: u64, o: u64, empty: u64) -> u64 {
    let oh = o & INNER_COLS;
    let m = dir_moves(p, oh, 1, true)
        | dir_moves(p, oh, 1, false)
        | dir_moves(p, o, 8, true)
        | dir_moves(p, o, 8, false)
        | dir_moves(p, oh, 7, true)
        | dir_moves(p, oh, 7, false)
        | dir_moves(p, oh, 9, true)
        | dir_moves(p, oh, 9, false);
    m & empty
}

/// Ray masks: `RAYS.0[sq][d]` holds the squares strictly beyond `sq` in direction `d`, within
/// the 8x8 layout. Directions 0..4 go towards higher indices, 4..8 towards lower ones. Each
/// square's eight rays fill one 64-byte line, so the vector flip loads them with two aligned
/// loads.
#[repr(C, align(64))]
struct Rays([[u64; 8]; 64]);

static RAYS: Rays = Rays(build_rays());

const DIRS: [(i8, i8); 8] = [
    (1, 0),   // east
    (-1, 1),  // south-west
    (0, 1),   // south
    (1, 1),   // south-east
    (-1, 0),  // west
    (1, -1),  // north-east
    (0, -1),  // north
    (-1, -1), // north-west
];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRS[d];
            let mut x = (sq % 8) as i8 + dx;
            let mut y = (sq / 8) as i8 + dy;
            let mut ray = 0u64;
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                ray |= 1u64 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// [`flips`] in plain `u64` arithmetic, for any target, without branches: on each ray the
/// first square that is not an opponent disc is found (lowest bit towards higher indices,
/// highest bit towards lower ones); if it is the player's, the opponent discs before it flip.
#[inline]
#[must_use]
pub fn flips_portable(p: u64, o: u64, sq: u8) -> u64 {
    let rays = &RAYS.0[usize::from(sq & 63)];
    let mut f = 0u64;
    for &ray in &rays[..4] {
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg() & p;
        // `first - 1` is all ones when `first` is 0; the mask `0 - (first != 0)` drops it.
        f |= ray & first.wrapping_sub(1) & 0u64.wrapping_sub(u64::from(first != 0));
    }
    for &ray in &rays[4..] {
        let stop = ray & !o;
        // Highest bit of `stop` (0 when `stop` is 0), kept only if it is the player's.
        let first = (0x8000_0000_0000_0000u64
            .checked_shr(stop.leading_zeros())
            .unwrap_or(0))
            & p;
        f |= ray & first.wrapping_shl(1).wrapping_neg();
    }
    f
}

#[cfg(target_arch = "x86_64")]
mod vector {
    //! The vector builds; see the module docs above.

    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_castsi256_si128, _mm256_extracti128_si256,
        _mm256_or_si256, _mm256_set1_epi64x, _mm256_set_epi64x, _mm256_sllv_epi64,
        _mm256_srlv_epi64, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_or_si128,
    };

    use super::INNER_COLS;

    /// The four 64-bit lanes of `v` or-ed together.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn or_lanes(v: __m256i) -> u64 {
        let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        (_mm_cvtsi128_si64(x) | _mm_extract_epi64::<1>(x)) as u64
    }

    /// The runs of opponent discs next to `seed` in the eight directions: four per register,
    /// lanes shifting by 1, 8, 9 and 7 bits, `(towards higher indices, towards lower)`, as
    /// [`super::legal_moves_portable`] fills one direction at a time. Also returns the shifts.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn runs(seed: __m256i, o: u64) -> (__m256i, __m256i, __m256i) {
        let inner = INNER_COLS as i64;
        let shift = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_set_epi64x(14, 18, 16, 2);
        let oo = _mm256_and_si256(
            _mm256_set1_epi64x(o as i64),
            _mm256_set_epi64x(inner, inner, -1, inner),
        );
        let mut fl = _mm256_and_si256(oo, _mm256_sllv_epi64(seed, shift));
        let mut fr = _mm256_and_si256(oo, _mm256_srlv_epi64(seed, shift));
        fl = _mm256_or_si256(fl, _mm256_and_si256(oo, _mm256_sllv_epi64(fl, shift)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(oo, _mm256_srlv_epi64(fr, shift)));
        let pl = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
        let pr = _mm256_and_si256(oo, _mm256_srlv_epi64(oo, shift));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, shift2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, shift2)));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, shift2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, shift2)));
        (fl, fr, shift)
    }

    /// The squares just past the runs that start at the player's discs.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn legal_moves(p: u64, o: u64, empty: u64) -> u64 {
        let (fl, fr, shift) = runs(_mm256_set1_epi64x(p as i64), o);
        let m = _mm256_or_si256(_mm256_sllv_epi64(fl, shift), _mm256_srlv_epi64(fr, shift));
        or_lanes(m) & empty
    }

    /// [`super::flips`] with AVX2 alone: the [`runs`] from the move's square, each kept
    /// when the square past it is the player's.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn flips_fill(p: u64, o: u64, sq: u8) -> u64 {
        use std::arch::x86_64::{_mm256_andnot_si256, _mm256_cmpeq_epi64, _mm256_setzero_si256};
        let (fl, fr, shift) = runs(_mm256_set1_epi64x((1u64 << (sq & 63)) as i64), o);
        let pp = _mm256_set1_epi64x(p as i64);
        // The square past each run; a run without the player's disc there flips nothing.
        let zero = _mm256_setzero_si256();
        let end_l = _mm256_and_si256(pp, _mm256_sllv_epi64(fl, shift));
        let end_r = _mm256_and_si256(pp, _mm256_srlv_epi64(fr, shift));
        let fl = _mm256_andnot_si256(_mm256_cmpeq_epi64(end_l, zero), fl);
        let fr = _mm256_andnot_si256(_mm256_cmpeq_epi64(end_r, zero), fr);
        or_lanes(_mm256_or_si256(fl, fr))
    }

    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
    pub(super) fn flips(p: u64, o: u64, sq: u8) -> u64 {
        use std::arch::x86_64::{
            _mm256_add_epi64, _mm256_andnot_si256, _mm256_load_si256, _mm256_lzcnt_epi64,
            _mm256_maskz_and_epi64, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_sub_epi64,
            _mm256_test_epi64_mask,
        };
        let rays = &super::RAYS.0[usize::from(sq & 63)];
        // SAFETY: each row of `RAYS` is 64 bytes aligned to 64 (`repr(align(64))`), so both
        // halves are 32-byte aligned and in bounds.
        let (up, down) = unsafe {
            (
                _mm256_load_si256(rays.as_ptr().cast::<__m256i>()),
                _mm256_load_si256(rays.as_ptr().add(4).cast::<__m256i>()),
            )
        };
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi64x(1);
        // Towards higher indices: lowest non-opponent square, kept if it is ours; the ray
        // below it flips.
        let stop = _mm256_andnot_si256(oo, up);
        let first = _mm256_and_si256(_mm256_and_si256(stop, _mm256_sub_epi64(zero, stop)), pp);
        let found = _mm256_test_epi64_mask(first, first);
        let f_up = _mm256_maskz_and_epi64(found, _mm256_sub_epi64(first, one), up);
        // Towards lower indices: highest non-opponent square (a shift by 64 gives 0 when
        // there is none), kept if it is ours; the ray above it flips.
        let stop = _mm256_andnot_si256(oo, down);
        let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(stop));
        let first = _mm256_and_si256(top, pp);
        let f_down = _mm256_and_si256(down, _mm256_sub_epi64(zero, _mm256_add_epi64(first, first)));
        or_lanes(_mm256_or_si256(f_up, f_down))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_builds_agree_on_edge_rays() {
        // Lines of opponent discs running off every edge, with and without a closing disc.
        for sq in 0..64u8 {
            let bit = 1u64 << sq;
            for o in [
                !bit,
                !bit & 0x00ff_ffff_ffff_ff00,
                !bit & INNER_COLS,
                0x0042_2418_1824_4200 & !bit,
            ] {
                for p in [0, 0x8100_0000_0000_0081 & !bit & !o, !(o | bit)] {
                    assert_eq!(
                        flips(p, o, sq),
                        flips_portable(p, o, sq),
                        "{sq} {p:x} {o:x}"
                    );
                    let e = !(p | o);
                    assert_eq!(legal_moves(p, o, e), legal_moves_portable(p, o, e));
                }
            }
        }
    }
}
