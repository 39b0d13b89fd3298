//! Move generation and flips on raw bitboards (`u64`), the hot path of perft and the solvers.
//!
//! Both routines work on the 8x8 layout; a smaller board needs no special case because its
//! discs all lie inside its mask: a ray that leaves the board meets no opponent disc and stops.
//! [`crate::reference`] holds the slow, square-by-square versions these are tested against.

/// Columns b..g: masks the opponent for horizontal and diagonal shifts so that a line never
/// wraps from the h column into the a column of the next row.
const INNER_COLS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Fills from `p` through contiguous `o` discs in one direction (`shift` bits, left when
/// positive) and returns the squares just past the run: the candidate moves in that direction.
#[inline(always)]
fn dir_moves(p: u64, o: u64, shift: u32, left: bool) -> u64 {
    let step = |x: u64| if left { x << shift } else { x >> shift };
    let mut f = o & step(p);
    f |= o & step(f);
    f |= o & step(f);
    f |= o & step(f);
    f |= o & step(f);
    f |= o & step(f);
    step(f)
}

/// All squares where the player with discs `p` may move against `o`, restricted to `empty`
/// (the empty squares that exist on the board).
#[inline]
#[must_use]
pub fn legal_moves(p: u64, o: u64, empty: u64) -> u64 {
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

/// Ray masks: `RAYS[sq][d]` holds the squares strictly beyond `sq` in direction `d`, within
/// the 8x8 layout. Directions 0..4 go towards higher indices, 4..8 towards lower ones.
static RAYS: [[u64; 8]; 64] = build_rays();

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

/// The discs of `o` that a move by `p` on square `sq` (0..64, assumed empty) turns over.
/// Zero means the move is not legal.
#[inline]
#[must_use]
pub fn flips(p: u64, o: u64, sq: u8) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut f = 0u64;
    // Towards higher indices: the first square of the ray that is not an opponent disc is the
    // lowest set bit of `ray & !o`; if it is ours, everything below it on the ray flips.
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        if first & p != 0 {
            f |= ray & (first - 1);
        }
        d += 1;
    }
    // Towards lower indices: the highest set bit of `ray & !o`.
    while d < 8 {
        let ray = rays[d];
        let stop = ray & !o;
        if stop != 0 {
            let first = 1u64 << (63 - stop.leading_zeros());
            if first & p != 0 {
                f |= ray & !((first << 1).wrapping_sub(1));
            }
        }
        d += 1;
    }
    f
}
