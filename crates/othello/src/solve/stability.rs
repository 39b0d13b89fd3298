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
static DIAGONALS: [[u64; 15]; 2] = build_diagonals();

const fn build_diagonals() -> [[u64; 15]; 2] {
    let mut d = [[0u64; 15]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        d[0][c + r] |= 1u64 << sq; // a8-h1 direction: col + row constant
        d[1][c + 7 - r] |= 1u64 << sq; // a1-h8 direction: col - row constant
        sq += 1;
    }
    d
}

/// Masks of the squares whose horizontal, vertical and two diagonal lines are full, where
/// `filled` holds the discs and every square off the board.
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
    let mut d = [0u64; 2];
    for (k, lines) in DIAGONALS.iter().enumerate() {
        for &l in lines {
            if filled & l == l {
                d[k] |= l;
            }
        }
    }
    [h, v, d[0], d[1]]
}

/// The discs of `p` found stable, on a board whose existing squares are `mask`.
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

    #[test]
    fn every_disc_called_stable_stays_put() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
            let mask = size.mask().0;
            for _ in 0..300 {
                // A random nearly full board: 5 empties.
                let mut empty = 0u64;
                while (empty & mask).count_ones() < 5 {
                    empty |= 1 << (rnd() % 64);
                }
                empty &= mask;
                let p = rnd() & mask & !empty;
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
