//! Slow, obviously right versions of the fast routines, which are tested against them: move
//! generation that walks each of the eight directions square by square (for [`crate::moves`]),
//! and the plain negamax (for [`crate::solve`]).

use crate::{BoardSize, Position};

/// Discs flipped by a move of `p` on `sq`, walking each direction on a board of `size`.
#[must_use]
pub fn flips_slow(p: u64, o: u64, sq: u8, size: BoardSize) -> u64 {
    let n = size.n() as i32;
    let (c0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    if c0 >= n || r0 >= n || (p | o) >> sq & 1 != 0 {
        return 0;
    }
    let mut all = 0;
    for dy in -1..=1 {
        for dx in -1..=1 {
            if dx == 0 && dy == 0 {
                continue;
            }
            let (mut c, mut r) = (c0 + dx, r0 + dy);
            let mut run = 0u64;
            while c >= 0 && c < n && r >= 0 && r < n && o >> (r * 8 + c) & 1 != 0 {
                run |= 1 << (r * 8 + c);
                c += dx;
                r += dy;
            }
            if c >= 0 && c < n && r >= 0 && r < n && p >> (r * 8 + c) & 1 != 0 {
                all |= run;
            }
        }
    }
    all
}

/// Legal moves of `p` against `o` on a board of `size`: empty squares that flip something.
#[must_use]
pub fn legal_moves_slow(p: u64, o: u64, size: BoardSize) -> u64 {
    (0..64u8)
        .filter(|&sq| flips_slow(p, o, sq, size) != 0)
        .fold(0, |m, sq| m | 1 << sq)
}

// The plain negamax every faster routine of the solver is tested against: no pruning, no
// table, no ordering, only the rules' own `Position` API. Exponential, so only for small
// positions (4x4 boards, or 8x8 with a dozen empty squares at most).

/// The exact score of `pos` for the side to move (disc difference, empties to the winner),
/// found by visiting every line of play to the end.
///
/// ```
/// use ply_othello::{reference::minimax, BoardSize, Position};
/// assert_eq!(minimax(&Position::start(BoardSize::Four)), -10);
/// ```
#[must_use]
pub fn minimax(pos: &Position) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        let passed = pos.passed();
        if passed.legal_moves().is_empty() {
            return pos.final_score();
        }
        return -minimax(&passed);
    }
    moves
        .map(|sq| -minimax(&pos.play_unchecked(sq)))
        .max()
        .unwrap_or(i32::MIN)
}
