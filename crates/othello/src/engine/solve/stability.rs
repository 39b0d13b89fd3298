//! Stable discs: discs that no sequence of moves can ever turn over. If the opponent owns `s`
//! stable discs, the side to move scores at most `squares - 2s`; the search cuts a node off
//! when that bound cannot reach its window.
//!
//! A disc is stable when, along each of its four lines, the line is full or one of its two
//! neighbours is a wall or a stable disc of its own colour. Squares off a smaller board count
//! as walls. Starting from nothing stable and applying the rule until nothing changes finds a
//! sound subset of the truly stable discs (corners, edges anchored on them, full lines); it may
//! miss some, which only weakens the cutoff.

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

#[must_use]
pub(crate) fn stable_discs(p: u64, o: u64, mask: u64) -> u64 {
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

    #[test]
    fn corners_and_full_boards_are_stable() {
        let mask = BoardSize::Eight.mask().0;
        assert_eq!(stable_discs(1, 2, mask), 1);
        assert_eq!(stable_discs(0xff, 0, mask), 0xff);
        let p = 0x5555_5555_5555_5555;
        assert_eq!(stable_discs(p, !p, mask), p);
    }
}
