//! The solver's move primitives. Flips and legal moves are the rules core's
//! ([`crate::moves`], vectorised and tested against the slow reference); what the solver adds
//! is the count of discs turned by a move on the last empty square, read from line tables
//! (BMI2 `pext`) without making the move.

use crate::cpu::Cpu;
pub(crate) use crate::moves::{flips_in, legal_moves_in};

/// The squares next to each square on the 8x8 layout: a move turns nothing over unless one
/// of them holds an opponent disc.
static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = crate::moves::neighbours(1 << sq);
        sq += 1;
    }
    t
}

/// [`flips`], answering 0 at once when no opponent disc is next to `sq`: the search near the
/// end tries every empty square, and many have no opponent disc beside them.
#[inline(always)]
#[must_use]
pub(crate) fn flips_near<C: Cpu>(cpu: C, p: u64, o: u64, sq: u8) -> u64 {
    if o & NEIGHBOURS[usize::from(sq & 63)] == 0 {
        0
    } else {
        flips_in(cpu, p, o, sq)
    }
}

/// The four lines through each square (row, column, two diagonals) as `(mask, length,
/// place of the square in the line)`, for [`count_last_flips`] (with BMI2; without it the
/// count comes from [`flips_in`]).
#[cfg(target_arch = "x86_64")]
static LINES: [[(u64, u8, u8); 4]; 64] = build_lines();

#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
static COUNTS: [[[u8; 256]; 8]; 9] = build_counts();

#[cfg(target_arch = "x86_64")]
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
pub(crate) fn count_last_flips<C: Cpu>(cpu: C, p: u64, sq: u8) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if C::LEVEL >= crate::cpu::Level::V3 {
        let mut n = 0;
        for &(mask, len, place) in &LINES[sq as usize] {
            // SAFETY: a token of V3 or above proves BMI2 (`cpu`).
            let pattern = unsafe { std::arch::x86_64::_pext_u64(p, mask) } as usize;
            n += u32::from(COUNTS[len as usize][place as usize][pattern & 0xff]);
        }
        return n;
    }
    flips_in(cpu, p, !p & !(1u64 << sq), sq).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        cpu::{self, Cpu},
        reference::flips_slow,
        BoardSize,
    };

    /// Runs `check` with each level's token the processor has (the same tokens `PLY_CPU`
    /// picks among), inside that level's compiled code.
    fn each_level(check: impl Fn(&dyn Fn(u64, u64, u8) -> u64, &dyn Fn(u64, u8) -> u32)) {
        fn at<C: Cpu>(
            cpu: C,
            check: &impl Fn(&dyn Fn(u64, u64, u8) -> u64, &dyn Fn(u64, u8) -> u32),
        ) {
            cpu.run(
                #[inline(always)]
                move || {
                    check(&|p, o, sq| flips_near(cpu, p, o, sq), &|p, sq| {
                        count_last_flips(cpu, p, sq)
                    })
                },
            );
        }
        at(cpu::Baseline, &check);
        match cpu::V3::new() {
            Some(c) => at(c, &check),
            None => eprintln!("skipped: this processor has no x86-64-v3 paths"),
        }
        match cpu::Avx512::new() {
            Some(c) => at(c, &check),
            None => eprintln!("skipped: this processor has no AVX-512 paths"),
        }
    }

    #[test]
    fn flips_near_equal_slow_flips_at_every_level() {
        each_level(|flips_near, _| {
            let mut rng = ply_core::SplitMix64::new(0x2545_f491_4f6c_dd1d);
            for i in 0..100_000u32 {
                let seed = rng.next_u64();
                let sq = (i % 64) as u8;
                // Sparse opponents, so that many squares have none beside them.
                let o = seed & seed.rotate_left(23) & seed.rotate_left(41) & !(1u64 << sq);
                let p = seed.rotate_left(7) & !o & !(1u64 << sq);
                assert_eq!(
                    flips_near(p, o, sq),
                    flips_slow(p, o, sq, BoardSize::Eight),
                    "p {p:#x} o {o:#x} sq {sq}"
                );
            }
        });
    }

    #[test]
    fn last_flip_counts_equal_slow_flips_at_every_level() {
        each_level(|_, count_last_flips| {
            let mut rng = ply_core::SplitMix64::new(0x9e37_79b9_7f4a_7c15);
            for i in 0..200_000u32 {
                let seed = rng.next_u64();
                let sq = (i % 64) as u8;
                // Dense and sparse sets of the mover's discs both.
                let p = if i % 2 == 0 {
                    seed
                } else {
                    seed & seed.rotate_left(17)
                } & !(1u64 << sq);
                let full_o = !p & !(1u64 << sq);
                assert_eq!(
                    count_last_flips(p, sq),
                    flips_slow(p, full_o, sq, BoardSize::Eight).count_ones(),
                    "p {p:#x} sq {sq}"
                );
            }
        });
    }
}
