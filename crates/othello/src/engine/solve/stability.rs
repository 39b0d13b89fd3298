//! Stable discs: discs that no sequence of moves can ever turn over. If the opponent owns `s`
//! stable discs, the side to move scores at most `squares - 2s`; the search cuts a node off
//! when that bound cannot reach its window.
//!
//! A disc is stable when, along each of its four lines, the line is full or one of its two
//! neighbours is a wall or a stable disc of its own colour. Squares off a smaller board count
//! as walls. Starting from nothing stable and applying the rule until nothing changes finds a
//! sound subset of the truly stable discs (corners, edges anchored on them, full lines); it may
//! miss some, which only weakens the cutoff.
//!
//! On 8x8 the edges are settled first and exactly: a disc on an edge can only be flipped
//! along that edge, so which of its discs stay put is a question about one line of eight
//! squares, answered for every line once ([`EDGE_STABLE`]). The rule above then only has the
//! inner squares left, starting from the stable edge discs, and ends at once when nothing is
//! stable, the common case.

use std::sync::LazyLock;

use crate::cpu::Cpu;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00ff;
const RANK_8: u64 = 0xff00_0000_0000_0000;

/// The 15 lines in each diagonal direction.
/// `OFF[d][k]`: the squares from which `2^k` steps along diagonal direction `d` leave the
/// board; `d` is 0 for (col - 1, row + 1), the `+7` direction, 1 for (col + 1, row + 1), the
/// `+9` one, 2 and 3 for their opposites.
static OFF: [[u64; 3]; 4] = build_off();

const fn build_off() -> [[u64; 3]; 4] {
    const STEPS: [(i32, i32); 4] = [(-1, 1), (1, 1), (1, -1), (-1, -1)];
    let mut t = [[0u64; 3]; 4];
    let mut d = 0;
    while d < 4 {
        let mut k = 0;
        while k < 3 {
            let mut sq = 0;
            while sq < 64 {
                let (c, r) = (
                    sq % 8 + STEPS[d].0 * (1 << k),
                    sq / 8 + STEPS[d].1 * (1 << k),
                );
                if c < 0 || c > 7 || r < 0 || r > 7 {
                    t[d][k] |= 1u64 << sq;
                }
                sq += 1;
            }
            k += 1;
        }
        d += 1;
    }
    t
}

/// The squares of `filled` whose whole diagonal through direction `shift` (7 or 9) is filled:
/// a square stays while the squares 1, 2, then 4 steps on (each standing for the run behind
/// it) stay or lie off the board, forwards and backwards.
#[inline]
fn full_diagonal(filled: u64, shift: u32, fwd: &[u64; 3], back: &[u64; 3]) -> u64 {
    let (mut f, mut b) = (filled, filled);
    for (k, (&fo, &bo)) in fwd.iter().zip(back).enumerate() {
        f &= f >> (shift << k) | fo;
        b &= b << (shift << k) | bo;
    }
    f & b
}

/// The squares of `filled` on full lines: horizontal, vertical, and the two diagonals.
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut h = filled;
    h &= h >> 4;
    h &= h >> 2;
    h &= h >> 1;
    let h = (h & FILE_A) * 0xff;
    let mut v = filled;
    v &= v >> 32;
    v &= v >> 16;
    v &= v >> 8;
    let v = (v & RANK_1) * FILE_A;
    let d7 = full_diagonal(filled, 7, &OFF[0], &OFF[2]);
    let d9 = full_diagonal(filled, 9, &OFF[1], &OFF[3]);
    [h, v, d7, d9]
}

/// For each line of eight squares, indexed by `p | o << 8` (one bit a square): the discs of
/// `p` that no sequence of moves on the line, by either side, in any order, ever flips.
/// A disc may be placed on the line without flipping anything on it (its move may flip along
/// another line), so every empty square may be filled by either side at any time.
static EDGE_STABLE: LazyLock<Box<[u8]>> = LazyLock::new(edge_table);

/// The discs that a disc of `mover` placed on the empty square `x` of the line `(mover, other)`
/// flips along it: the board's flips with the line as its first rank and nothing else on it.
fn line_flips(mover: u8, other: u8, x: u32) -> u8 {
    crate::moves::flips(u64::from(mover), u64::from(other), x as u8) as u8
}

fn edge_table() -> Box<[u8]> {
    // `fixed[p | o << 8]`: the occupied squares of the line that never change colour again.
    // A move only adds discs, so the lines are settled from the fullest down.
    let mut fixed = vec![0u8; 1 << 16];
    let mut table = vec![0u8; 1 << 16];
    for filled in (0..=8u32).rev() {
        for occ in (0..=255u8).filter(|m| m.count_ones() == filled) {
            // Every split of the occupied squares between the two sides.
            let mut p = occ;
            loop {
                let o = occ & !p;
                let mut keep = occ;
                for x in (0..8).filter(|&x| occ >> x & 1 == 0) {
                    for mover_is_p in [true, false] {
                        let (m, t) = if mover_is_p { (p, o) } else { (o, p) };
                        let f = line_flips(m, t, x);
                        let (m, t) = (m | f | 1 << x, t & !f);
                        let (np, no) = if mover_is_p { (m, t) } else { (t, m) };
                        keep &= !f & fixed[usize::from(np) | usize::from(no) << 8];
                    }
                }
                let i = usize::from(p) | usize::from(o) << 8;
                fixed[i] = keep;
                table[i] = keep & p;
                if p == 0 {
                    break;
                }
                p = (p - 1) & occ;
            }
        }
    }
    table.into_boxed_slice()
}

/// The discs of `p` on the four edges of an 8x8 board that never flip.
#[inline(always)]
fn stable_edges(p: u64, o: u64) -> u64 {
    // File A packed into one byte, a1 lowest: bit 8k moves to bit 56 + k.
    const PACK_A: u64 = 0x0102_0408_1020_4080;
    let t = &**EDGE_STABLE;
    let line = |p: u64, o: u64| t[(p & 0xff | (o & 0xff) << 8) as usize];
    let file = |x: u64| (x & FILE_A).wrapping_mul(PACK_A) >> 56;
    let unpack_a = |b: u8| UNPACK_A[usize::from(b)];
    u64::from(line(p, o))
        | u64::from(line(p >> 56, o >> 56)) << 56
        | unpack_a(line(file(p), file(o)))
        | unpack_a(line(file(p >> 7), file(o >> 7))) << 7
}

/// A byte's bits spread to file A: bit k to square 8k.
static UNPACK_A: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b >> k & 1 != 0 {
                t[b] |= 1 << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// The inner 36 squares of an 8x8 board: off every edge.
const INNER: u64 = 0x007e_7e7e_7e7e_7e00;

/// [`stable_discs`] on a full 8x8 board: the exact edges first, then the inner squares by
/// the rule, from them.
#[inline(always)]
fn stable_discs_8x8(p: u64, o: u64, enough: u32) -> u64 {
    let [fh, fv, fd7, fd9] = full_lines(p | o);
    let inner = p & INNER;
    let mut stable = stable_edges(p, o) | (inner & fh & fv & fd7 & fd9);
    if stable == 0 || stable.count_ones() >= enough {
        return stable;
    }
    // An inner square's neighbours all lie on the board, so the shifts wrap nowhere that
    // `inner` keeps.
    loop {
        let h = fh | stable << 1 | stable >> 1;
        let v = fv | stable << 8 | stable >> 8;
        let d7 = fd7 | stable << 7 | stable >> 7;
        let d9 = fd9 | stable << 9 | stable >> 9;
        let next = stable | (inner & h & v & d7 & d9);
        if next == stable || next.count_ones() >= enough {
            return next;
        }
        stable = next;
    }
}

/// The discs of `p` that can never be flipped, as far as the rule above finds (a sound
/// subset), on the board of the squares `mask`.
#[must_use]
pub(crate) fn stable_discs(p: u64, o: u64, mask: u64) -> u64 {
    stable_discs_enough(p, o, mask, u32::MAX)
}

/// [`stable_discs`], free to stop once it has found `enough` of them (on 8x8; the other sizes
/// find them all): a sound subset all the same, with at least `enough` discs if
/// [`stable_discs`] has. A cutoff that needs `enough` stable discs asks no more.
#[must_use]
#[inline(always)]
pub(crate) fn stable_discs_enough(p: u64, o: u64, mask: u64, enough: u32) -> u64 {
    if mask == u64::MAX {
        return stable_discs_8x8(p, o, enough);
    }
    stable_discs_by_rule(p, o, mask)
}

/// [`stable_discs_enough`] compiled for the level of `cpu` ([`crate::cpu`]): the searches'
/// stability cutoff calls it out of line, so it needs its own way into the level's code.
#[must_use]
#[inline]
pub(crate) fn stable_discs_enough_in<C: Cpu>(
    cpu: C,
    p: u64,
    o: u64,
    mask: u64,
    enough: u32,
) -> u64 {
    cpu.run(
        #[inline(always)]
        || stable_discs_enough(p, o, mask, enough),
    )
}

/// The rule alone, from nothing stable: any board (squares off it are walls), and the
/// reference the 8x8 routine is tested against.
fn stable_discs_by_rule(p: u64, o: u64, mask: u64) -> u64 {
    let walls = !mask;
    let [fh, fv, fd7, fd9] = full_lines(p | o | walls);
    let mut stable = walls;
    loop {
        let h = fh | (stable << 1 & !FILE_A) | FILE_A | (stable >> 1 & !FILE_H) | FILE_H;
        let v = fv | stable << 8 | RANK_1 | stable >> 8 | RANK_8;
        // a1-h8 diagonal: neighbours at -9 and +9.
        let d9 = fd9
            | (stable << 9 & !FILE_A)
            | FILE_A
            | RANK_1
            | (stable >> 9 & !FILE_H)
            | FILE_H
            | RANK_8;
        // h1-a8 diagonal: neighbours at -7 and +7.
        let d7 = fd7
            | (stable << 7 & !FILE_H)
            | FILE_H
            | RANK_1
            | (stable >> 7 & !FILE_A)
            | FILE_A
            | RANK_8;
        let next = walls | (p & h & v & d9 & d7);
        if next == stable {
            return stable & p;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{moves, BoardSize};

    /// True when some sequence of moves (by either side, any order) can flip a disc on `sq`:
    /// searched exhaustively, so only for nearly full boards.
    fn can_flip(p: u64, o: u64, mask: u64, target: u64, depth: u32) -> bool {
        let empty = !(p | o) & mask;
        if depth == 0 || empty == 0 {
            return false;
        }
        for (me, you) in [(p, o), (o, p)] {
            let mut m = moves::legal_moves(me, you, empty);
            while m != 0 {
                let sq = m.trailing_zeros() as u8;
                m &= m - 1;
                let f = moves::flips(me, you, sq);
                if f & target != 0 {
                    return true;
                }
                let (me2, you2) = (me | f | 1 << sq, you ^ f);
                let (np, no) = if me == p { (me2, you2) } else { (you2, me2) };
                if can_flip(np, no, mask, target, depth - 1) {
                    return true;
                }
            }
        }
        false
    }

    /// The full diagonals found one diagonal at a time: the reference for [`full_lines`].
    fn full_diagonals_slowly(filled: u64) -> [u64; 2] {
        let mut d = [0u64; 2];
        for (k, out) in d.iter_mut().enumerate() {
            for line in 0..15 {
                let squares = (0..64u32).filter(|&sq| {
                    let (c, r) = (sq % 8, sq / 8);
                    if k == 0 {
                        c + r == line
                    } else {
                        c + 7 - r == line
                    }
                });
                let l = squares.fold(0u64, |m, sq| m | 1 << sq);
                if filled & l == l {
                    *out |= l;
                }
            }
        }
        d
    }

    #[test]
    fn full_diagonals_match_the_line_by_line_count() {
        let mut rng = ply_core::SplitMix64::new(0x0dd_ba11_cafe_f00d);
        for i in 0..20_000 {
            let seed = rng.next_u64();
            // Mostly filled boards, where full lines are common.
            let filled = seed | seed.rotate_left(i % 64) | seed.rotate_left(17);
            let [_, _, d7, d9] = full_lines(filled);
            assert_eq!([d7, d9], full_diagonals_slowly(filled), "{filled:#x}");
        }
        assert_eq!(full_lines(u64::MAX), [u64::MAX; 4]);
    }

    #[test]
    fn every_disc_called_stable_stays_put() {
        let mut rng = ply_core::SplitMix64::new(0x1234_5678_9abc_def1);
        for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
            let mask = size.mask().0;
            for _ in 0..300 {
                // A random nearly full board: 5 empties.
                let mut empty = 0u64;
                while (empty & mask).count_ones() < 5 {
                    empty |= 1 << rng.below(64);
                }
                empty &= mask;
                let p = rng.next_u64() & mask & !empty;
                let o = mask & !empty & !p;
                for (a, b) in [(p, o), (o, p)] {
                    let s = stable_discs(a, b, mask);
                    assert_eq!(s & !a, 0);
                    assert!(!can_flip(p, o, mask, s, 5), "{p:#x} {o:#x} {s:#x}");
                }
            }
        }
    }

    /// Whether some sequence of placements on the line `(p, o)` (either side, any empty
    /// square, flipping along the line) flips the disc on `sq`: every reachable line visited.
    fn line_can_flip(p: u8, o: u8, sq: u32) -> bool {
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![(p, o)];
        while let Some((p, o)) = todo.pop() {
            if !seen.insert((p, o)) {
                continue;
            }
            for x in (0..8).filter(|&x| (p | o) >> x & 1 == 0) {
                for (m, t, mover_is_p) in [(p, o, true), (o, p, false)] {
                    let f = line_flips(m, t, x);
                    if f >> sq & 1 != 0 {
                        return true;
                    }
                    let (m, t) = (m | f | 1 << x, t & !f);
                    todo.push(if mover_is_p { (m, t) } else { (t, m) });
                }
            }
        }
        false
    }

    #[test]
    fn the_edge_table_is_exact_on_sampled_lines() {
        let mut rng = ply_core::SplitMix64::new(0x5eed_ed9e);
        let mut stable_seen = 0;
        for _ in 0..400 {
            let occ = (rng.next_u64() | rng.next_u64()) as u8;
            let p = rng.next_u64() as u8 & occ;
            let o = occ & !p;
            let s = EDGE_STABLE[usize::from(p) | usize::from(o) << 8];
            assert_eq!(s & !p, 0);
            for sq in (0..8).filter(|&sq| p >> sq & 1 != 0) {
                let stable = s >> sq & 1 != 0;
                assert_eq!(stable, !line_can_flip(p, o, sq), "{p:08b} {o:08b} {sq}");
                stable_seen += u32::from(stable);
            }
        }
        assert!(
            stable_seen > 100,
            "too few stable discs sampled: {stable_seen}"
        );
        // A lone disc beside an opponent's: the opponent takes the square on its other side.
        assert_eq!(EDGE_STABLE[0b0000_1000 | 0b0001_0000 << 8], 0);
        assert_eq!(EDGE_STABLE[0xff], 0xff);
    }

    #[test]
    fn the_8x8_routine_finds_what_the_rule_finds_and_its_edges_are_unpacked_right() {
        let mut rng = ply_core::SplitMix64::new(0xfeed_beef_1234);
        let mut more = 0;
        for i in 0..20_000 {
            let filled = rng.next_u64() | rng.next_u64() | rng.next_u64().rotate_left(i % 64);
            let p = rng.next_u64() & filled;
            let o = filled & !p;
            let fast = stable_discs(p, o, u64::MAX);
            let rule = stable_discs_by_rule(p, o, u64::MAX);
            assert_eq!(fast & !p, 0);
            assert_eq!(rule & !fast, 0, "{p:#x} {o:#x}");
            more += u32::from(fast != rule);
            // Asked for `enough`, a subset with at least that many when there are.
            for enough in [0, 1, fast.count_ones(), fast.count_ones() + 1, i % 40] {
                let some = stable_discs_enough(p, o, u64::MAX, enough);
                assert_eq!(some & !fast, 0, "{p:#x} {o:#x} {enough}");
                assert!(
                    some.count_ones() >= enough.min(fast.count_ones()),
                    "{p:#x} {o:#x} {enough}"
                );
            }
            // The edges one square at a time.
            let lines: [[u32; 8]; 4] = [
                std::array::from_fn(|k| k as u32),
                std::array::from_fn(|k| 56 + k as u32),
                std::array::from_fn(|k| 8 * k as u32),
                std::array::from_fn(|k| 8 * k as u32 + 7),
            ];
            let mut edges = 0u64;
            for line in lines {
                let byte = |x: u64| (0..8).fold(0u8, |b, k| b | ((x >> line[k] & 1) as u8) << k);
                let s = EDGE_STABLE[usize::from(byte(p)) | usize::from(byte(o)) << 8];
                for (k, &sq) in line.iter().enumerate() {
                    edges |= u64::from(s >> k & 1) << sq;
                }
            }
            assert_eq!(stable_edges(p, o), edges, "{p:#x} {o:#x}");
        }
        assert!(more > 100, "the exact edges found more only {more} times");
    }

    #[test]
    fn corners_and_full_boards_are_stable() {
        let mask = BoardSize::Eight.mask().0;
        assert_eq!(stable_discs(1, 2, mask), 1);
        assert_eq!(stable_discs(0xff, 0, mask), 0xff);
        let p = 0x5555_5555_5555_5555;
        assert_eq!(stable_discs(p, !p, mask), p);
    }
}
