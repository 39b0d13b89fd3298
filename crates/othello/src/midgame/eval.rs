//! The hand-built evaluation: what a human player counts in the middle game.
//!
//! Every term is a difference "mine minus theirs" from the side to move's view, in the same
//! unit as exact results ([`DISC`] per disc), so that an estimate and an exact score can be
//! compared in one search. The weights slide from opening to ending with the share of empty
//! squares: early on mobility and corners dominate, at the end the disc count does.

use crate::{moves, BoardSize};

/// One disc of final score in evaluation units.
pub const DISC: i32 = 100;

/// Squares whose column is not `a` (a shift east must not wrap into them).
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Squares whose column is not `h` (a shift west must not wrap into them).
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const COL_A: u64 = !NOT_A;
const COL_H: u64 = !NOT_H;
const ROW_1: u64 = 0xff;
const ROW_8: u64 = 0xff << 56;

/// Corners and the squares next to them on one board size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    /// Each corner with its X-square (diagonal neighbour) and C-squares (edge neighbours).
    corners: [(u64, u64, u64); 4],
}

const fn bit(col: u8, row: u8) -> u64 {
    1u64 << (row * 8 + col)
}

/// A corner at (`c`, `r`) with the board stretching towards (`dc`, `dr`).
const fn corner(c: u8, r: u8, dc: i8, dr: i8) -> (u64, u64, u64) {
    let nc = (c as i8 + dc) as u8;
    let nr = (r as i8 + dr) as u8;
    (bit(c, r), bit(nc, nr), bit(nc, r) | bit(c, nr))
}

const fn geometry(n: u8) -> Geometry {
    let m = n - 1;
    Geometry {
        corners: [
            corner(0, 0, 1, 1),
            corner(m, 0, -1, 1),
            corner(0, m, 1, -1),
            corner(m, m, -1, -1),
        ],
    }
}

const GEOMETRY: [Geometry; 3] = [geometry(4), geometry(6), geometry(8)];

pub(crate) fn geometry_of(size: BoardSize) -> &'static Geometry {
    match size {
        BoardSize::Four => &GEOMETRY[0],
        BoardSize::Six => &GEOMETRY[1],
        BoardSize::Eight => &GEOMETRY[2],
    }
}

/// The squares next to any square of `b` (8 directions), on the 8x8 layout.
fn neighbours(b: u64) -> u64 {
    let e = (b << 1) & NOT_A;
    let w = (b >> 1) & NOT_H;
    let row = b | e | w;
    e | w | (row << 8) | (row >> 8)
}

/// Discs of `p` that can never be turned over, by a safe under-count: a disc is stable when
/// on each of the four lines through it one neighbour is off the board or a stable disc of
/// the same colour. Grows from the corners until nothing changes.
#[must_use]
pub fn stable_discs(p: u64, mask: u64) -> u64 {
    let off = !mask;
    let mut stable = 0u64;
    loop {
        let s = stable | off;
        let w = ((s << 1) & NOT_A) | COL_A; // the west neighbour is stable or off
        let e = ((s >> 1) & NOT_H) | COL_H;
        let n = (s << 8) | ROW_1;
        let so = (s >> 8) | ROW_8;
        let nw = ((s << 9) & NOT_A) | COL_A | ROW_1;
        let se = ((s >> 9) & NOT_H) | COL_H | ROW_8;
        let ne = ((s << 7) & NOT_H) | COL_H | ROW_1;
        let sw = ((s >> 7) & NOT_A) | COL_A | ROW_8;
        let next = p & (w | e) & (n | so) & (nw | se) & (ne | sw);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Estimated score of the position for the side with `p` to move, in [`DISC`] units.
/// Assumes the game is not over (a finished game is scored exactly by the search).
#[must_use]
pub fn evaluate(p: u64, o: u64, size: BoardSize) -> i32 {
    let mask = size.mask().0;
    let empty = !(p | o) & mask;
    let squares = size.squares() as i32;
    let empties = empty.count_ones() as i32;
    // Phase: 0 at the start, `squares` at the end.
    let done = squares - empties;
    let mix = |open: i32, end: i32| (open * empties + end * done) / squares;

    let my_moves = moves::legal_moves(p, o, empty).count_ones() as i32;
    let their_moves = moves::legal_moves(o, p, empty).count_ones() as i32;
    let mobility = my_moves - their_moves;

    // Potential mobility: empty squares next to the other side's discs.
    let potential =
        (empty & neighbours(o)).count_ones() as i32 - (empty & neighbours(p)).count_ones() as i32;

    let mut corners = 0;
    let mut x_squares = 0;
    let mut c_squares = 0;
    if size != BoardSize::Four {
        for &(corner, x, c) in &geometry_of(size).corners {
            corners += i32::from(p & corner != 0) - i32::from(o & corner != 0);
            if empty & corner != 0 {
                x_squares += i32::from(p & x != 0) - i32::from(o & x != 0);
                c_squares += (p & c).count_ones() as i32 - (o & c).count_ones() as i32;
            }
        }
    } else {
        for &(corner, _, _) in &geometry_of(size).corners {
            corners += i32::from(p & corner != 0) - i32::from(o & corner != 0);
        }
    }

    let stable =
        stable_discs(p, mask).count_ones() as i32 - stable_discs(o, mask).count_ones() as i32;
    let discs = p.count_ones() as i32 - o.count_ones() as i32;
    // The side to move plays last when the number of empty squares is odd (no passes).
    let parity = if empties % 2 == 1 { 1 } else { -1 };

    let score = mix(80, 30) * mobility + mix(30, 5) * potential + mix(800, 400) * corners
        - mix(350, 100) * x_squares
        - mix(120, 30) * c_squares
        + mix(120, 100) * stable
        + mix(-10, 100) * discs
        + mix(0, 150) * parity;
    // Keep estimates strictly inside the range of exact scores.
    score.clamp(-(squares * DISC - 1), squares * DISC - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn the_start_position_is_balanced() {
        for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
            let pos = Position::start(size);
            let e = evaluate(pos.player().0, pos.opponent().0, size);
            assert!(e.abs() <= DISC, "{size:?}: {e}");
        }
    }

    #[test]
    fn corners_are_stable_and_edges_grow_from_them() {
        let mask = BoardSize::Eight.mask().0;
        assert_eq!(stable_discs(bit(0, 0), mask), bit(0, 0));
        let edge = bit(0, 0) | bit(1, 0) | bit(2, 0);
        assert_eq!(stable_discs(edge, mask), edge);
        // A lone centre disc is not stable, nor is an edge disc away from the corner.
        assert_eq!(stable_discs(bit(3, 3) | bit(3, 0), mask), 0);
        // On 6x6 the corner is f6, not h8.
        let mask6 = BoardSize::Six.mask().0;
        assert_eq!(stable_discs(bit(5, 5), mask6), bit(5, 5));
        assert_eq!(stable_discs(bit(5, 5), mask), 0);
    }

    #[test]
    fn owning_a_corner_is_worth_more_than_giving_one() {
        let size = BoardSize::Eight;
        let base = Position::start(size);
        let (p, o) = (base.player().0, base.opponent().0);
        let with_corner = evaluate(p | bit(0, 0), o, size);
        let with_x = evaluate(p | bit(1, 1), o, size);
        assert!(with_corner > with_x, "{with_corner} vs {with_x}");
    }
}
