//! perft: the number of leaves of the game tree to a fixed depth, the standard check of a
//! move generator.
//!
//! The convention is the one of `testdata/perft.txt` and of the published 8x8 figures: a
//! pass is a ply, and a game that has ended is one leaf at every depth past its end. The last
//! ply is counted, not played: a node one ply above the leaves has as many leaves as it has
//! moves, or exactly one when it has none (its pass, or its end of game, is the one leaf). So
//! the cost of perft(d) is the cost of reaching the nodes at depth d - 1 and generating their
//! moves once.
//!
//! Long runs report progress through a callback: the tree is split at a shallow frontier and
//! the callback hears after each frontier subtree, so the CLI can draw a bar and tests can
//! ignore it.

use crate::cpu::{with_cpu, Cpu};
use crate::{moves, BoardSize, Move, Position};

/// Leaves of the game tree from `pos` to `depth` plies.
///
/// ```
/// use ply_othello::{perft, BoardSize, Position};
/// assert_eq!(perft::perft(&Position::start(BoardSize::Eight), 6), 8200);
/// assert_eq!(perft::perft(&Position::start(BoardSize::Four), 16), 60060);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (p, o, mask) = (pos.player().0, pos.opponent().0, pos.size().mask().0);
    with_cpu!(cpu => count(cpu, p, o, mask, depth))
}

/// Leaves under each move of `pos` (a single `Move::Pass` when the side to move must pass;
/// nothing when the game is over or `depth` is 0).
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 || pos.is_game_over() {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return vec![(Move::Pass, perft(&pos.passed(), depth - 1))];
    }
    moves
        .map(|sq| (Move::Play(sq), perft(&pos.play_unchecked(sq), depth - 1)))
        .collect()
}

/// As [`divide`], calling `progress` as the subtrees under the moves are counted (`done` and
/// `total` then count thousandths of the whole run).
pub fn divide_with_progress(
    pos: &Position,
    depth: u32,
    progress: &mut dyn FnMut(Progress),
) -> Vec<(Move, u64)> {
    if depth == 0 || pos.is_game_over() {
        return Vec::new();
    }
    let children: Vec<(Move, Position)> = if pos.can_move() {
        pos.legal_moves()
            .map(|sq| (Move::Play(sq), pos.play_unchecked(sq)))
            .collect()
    } else {
        vec![(Move::Pass, pos.passed())]
    };
    let n = children.len();
    let mut before = 0;
    let mut out = Vec::with_capacity(n);
    for (i, (m, child)) in children.into_iter().enumerate() {
        let leaves = perft_with_progress(&child, depth - 1, &mut |p| {
            progress(Progress {
                done: (i * 1000 + p.done * 1000 / p.total.max(1)) / n,
                total: 1000,
                leaves: before + p.leaves,
            });
        });
        before += leaves;
        out.push((m, leaves));
    }
    out
}

/// Published counts from the start position (`testdata/perft.txt`), for benchmarks that
/// must check their answer: index `depth - 1`.
const KNOWN_8: [u64; 14] = [
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
    1_939_886_636,
    18_429_641_748,
    184_042_084_512,
];
const KNOWN_6: [u64; 13] = [
    4,
    12,
    56,
    244,
    1_364,
    7_604,
    47_740,
    308_716,
    2_114_912,
    14_976_792,
    108_820_292,
    811_201_176,
    6_079_074_684,
];
const KNOWN_4: [u64; 16] = [
    4, 12, 44, 128, 424, 1_256, 3_624, 9_116, 20_044, 36_540, 50_704, 57_436, 59_564, 59_980,
    60_060, 60_060,
];

/// The known perft count from the start position of `size` at `depth`, if published (the
/// 4x4 game tree is finished by depth 16, so every deeper count equals it).
///
/// ```
/// use ply_othello::{perft, BoardSize};
/// assert_eq!(perft::known_count(BoardSize::Eight, 11), Some(212_258_800));
/// assert_eq!(perft::known_count(BoardSize::Four, 30), Some(60_060));
/// assert_eq!(perft::known_count(BoardSize::Eight, 20), None);
/// ```
#[must_use]
pub fn known_count(size: BoardSize, depth: u32) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let table: &[u64] = match size {
        BoardSize::Four => &KNOWN_4,
        BoardSize::Six => &KNOWN_6,
        BoardSize::Eight => &KNOWN_8,
    };
    let i = depth as usize - 1;
    match size {
        BoardSize::Four => Some(table[i.min(table.len() - 1)]),
        _ => table.get(i).copied(),
    }
}

/// Where a long perft run stands: `done` of `total` subtrees counted, `leaves` so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Progress {
    /// Subtrees finished.
    pub done: usize,
    /// Subtrees in all.
    pub total: usize,
    /// Leaves counted so far.
    pub leaves: u64,
}

/// As [`perft`], calling `progress` after each subtree of a shallow split (at most a few
/// hundred calls).
pub fn perft_with_progress(pos: &Position, depth: u32, progress: &mut dyn FnMut(Progress)) -> u64 {
    let split = depth.saturating_sub(1).min(3);
    let mut frontier = Vec::new();
    expand(
        pos.player().0,
        pos.opponent().0,
        pos.size().mask().0,
        split,
        &mut frontier,
    );
    let rest = depth - split;
    let total = frontier.len();
    let mut leaves = 0;
    for (done, &(p, o)) in frontier.iter().enumerate() {
        leaves += if rest == 0 {
            1
        } else {
            with_cpu!(cpu => count(cpu, p, o, pos.size().mask().0, rest))
        };
        progress(Progress {
            done: done + 1,
            total,
            leaves,
        });
    }
    leaves
}

/// The positions `k` plies below `(p, o)`, with a finished game standing for itself.
fn expand(p: u64, o: u64, mask: u64, k: u32, out: &mut Vec<(u64, u64)>) {
    if k == 0 {
        out.push((p, o));
        return;
    }
    let empty = !(p | o) & mask;
    let m = moves::legal_moves(p, o, empty);
    if m == 0 {
        if moves::legal_moves(o, p, empty) == 0 {
            // A finished game counts one leaf at any depth: keep it as it is.
            out.push((p, o));
        } else {
            expand(o, p, mask, k - 1, out);
        }
        return;
    }
    let mut rest = m;
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let f = moves::flips(p, o, sq);
        expand(o ^ f, p | f | 1u64 << sq, mask, k - 1, out);
    }
}

/// Leaves below `(p, o)` at `depth >= 1`; `mask` is the board. Compiled for the level of
/// `cpu` ([`crate::cpu`]): each call enters the level's code through [`Cpu::run`], so the
/// nodes two plies above the leaves, where most of the time goes, count their children
/// with [`count2`] inlined instead of a call each.
pub(crate) fn count<C: Cpu>(cpu: C, p: u64, o: u64, mask: u64, depth: u32) -> u64 {
    cpu.run(
        #[inline(always)]
        move || {
            debug_assert!(depth >= 1);
            if depth == 2 {
                return count2(cpu, p, o, mask);
            }
            let empty = !(p | o) & mask;
            let m = moves::legal_moves_in(cpu, p, o, empty);
            if depth == 1 {
                // Each move is a leaf; a pass or the end of the game is one leaf.
                return u64::from(m.count_ones().max(1));
            }
            if m == 0 {
                if moves::legal_moves_in(cpu, o, p, empty) == 0 {
                    return 1;
                }
                return count(cpu, o, p, mask, depth - 1);
            }
            let mut n = 0;
            let mut rest = m;
            while rest != 0 {
                let sq = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let f = moves::flips_in(cpu, p, o, sq);
                let (np, no) = (o ^ f, p | f | 1u64 << sq);
                n += if depth == 3 {
                    count2(cpu, np, no, mask)
                } else {
                    count(cpu, np, no, mask, depth - 1)
                };
            }
            n
        },
    )
}

/// [`count`] at depth 2: each move's replies are leaves (a pass or the end of the game one
/// leaf).
#[inline(always)]
fn count2<C: Cpu>(cpu: C, p: u64, o: u64, mask: u64) -> u64 {
    let empty = !(p | o) & mask;
    let m = moves::legal_moves_in(cpu, p, o, empty);
    if m == 0 {
        // A pass: the opponent's moves are the leaves, or the game is over (one leaf).
        let theirs = moves::legal_moves_in(cpu, o, p, empty);
        return u64::from(theirs.count_ones().max(1));
    }
    let mut n = 0;
    let mut rest = m;
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let f = moves::flips_in(cpu, p, o, sq);
        let (np, no) = (o ^ f, p | f | 1u64 << sq);
        let nm = moves::legal_moves_in(cpu, np, no, !(np | no) & mask);
        n += u64::from(nm.count_ones().max(1));
    }
    n
}

/// The naive bitboard perft, a yardstick of a machine's speed for Othello programs: the
/// textbook move generator (each of the eight directions shifted step by step) and flips
/// found by walking each ray square by square, every move played down to the leaves, the
/// last ply too, no table. None of ply's fast routines is used, so the yardstick stays the
/// same program while they change. Only for 8x8. Same counts as [`perft`].
///
/// ```
/// use ply_othello::{perft, BoardSize, Position};
/// assert_eq!(perft::perft_naive(&Position::start(BoardSize::Eight), 7), 55_092);
/// ```
///
/// # Panics
/// For a board size other than 8x8.
#[must_use]
pub fn perft_naive(pos: &Position, depth: u32) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    /// One step in direction `d` (0-7: E, W, S, N, SE, SW, NE, NW with a1 = bit 0).
    fn step(b: u64, d: usize) -> u64 {
        match d {
            0 => (b << 1) & NOT_A,
            1 => (b >> 1) & NOT_H,
            2 => b << 8,
            3 => b >> 8,
            4 => (b << 9) & NOT_A,
            5 => (b << 7) & NOT_H,
            6 => (b >> 7) & NOT_A,
            _ => (b >> 9) & NOT_H,
        }
    }
    fn legal(p: u64, o: u64) -> u64 {
        let empty = !(p | o);
        let mut m = 0;
        for d in 0..8 {
            let mut x = step(p, d) & o;
            for _ in 0..5 {
                x |= step(x, d) & o;
            }
            m |= step(x, d) & empty;
        }
        m
    }
    fn flips(p: u64, o: u64, at: u64) -> u64 {
        let mut all = 0;
        for d in 0..8 {
            let (mut ray, mut s) = (0, step(at, d));
            while s & o != 0 {
                ray |= s;
                s = step(s, d);
            }
            if s & p != 0 {
                all |= ray;
            }
        }
        all
    }
    fn walk(p: u64, o: u64, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let m = legal(p, o);
        if m == 0 {
            if legal(o, p) == 0 {
                return 1;
            }
            return walk(o, p, depth - 1);
        }
        let mut n = 0;
        let mut rest = m;
        while rest != 0 {
            let at = rest & rest.wrapping_neg();
            rest ^= at;
            let f = flips(p, o, at);
            n += walk(o ^ f, p | f | at, depth - 1);
        }
        n
    }
    assert_eq!(pos.size(), BoardSize::Eight, "the yardstick is 8x8");
    walk(pos.player().0, pos.opponent().0, depth)
}

/// The slow perft every fast path is checked against: plays every move, the last ply too,
/// through the checked [`Position`] methods.
#[must_use]
pub fn perft_slow(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_game_over() {
        return 1;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return perft_slow(&pos.pass().expect("a pass is legal here"), depth - 1);
    }
    moves
        .map(|sq| perft_slow(&pos.play(sq).expect("a legal move"), depth - 1))
        .sum()
}

/// Perft timed (`ply bench perft`): `runs` counts of `depth` plies from the start position
/// of a size, each checked against the published count before its time is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Timed {
    /// The leaves counted (the published count).
    pub leaves: u64,
    /// The runs' seconds, sorted.
    pub seconds: Vec<f64>,
}

/// Why [`timed`] gave no time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimedError {
    /// No published count to check against (bad input).
    Unknown,
    /// No run asked for (bad input).
    NoRuns,
    /// Run `run` (from 1) counted `got` leaves where `want` are published (a bug).
    Miscounted {
        /// Leaves counted.
        got: u64,
        /// The published count.
        want: u64,
        /// The run.
        run: usize,
    },
}

impl Timed {
    /// The median run's seconds.
    #[must_use]
    pub fn median(&self) -> f64 {
        self.seconds[self.seconds.len() / 2]
    }

    /// Leaves a second at the median run.
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.leaves as f64 / self.median().max(1e-9)
    }
}

/// Counts perft(`depth`) from the start of `size` `runs` times, one thread, no table, each
/// count checked.
///
/// # Errors
/// No published count, no runs, or a run that counted otherwise.
pub fn timed(size: BoardSize, depth: u32, runs: usize) -> Result<Timed, TimedError> {
    let want = known_count(size, depth).ok_or(TimedError::Unknown)?;
    if runs == 0 {
        return Err(TimedError::NoRuns);
    }
    let pos = Position::start(size);
    let mut seconds = Vec::with_capacity(runs);
    for run in 1..=runs {
        let t = std::time::Instant::now();
        let got = perft(&pos, depth);
        let s = t.elapsed().as_secs_f64();
        if got != want {
            return Err(TimedError::Miscounted { got, want, run });
        }
        seconds.push(s);
    }
    seconds.sort_by(f64::total_cmp);
    Ok(Timed {
        leaves: want,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_the_processor_has_counts_as_the_slow_perft() {
        fn at<C: Cpu>(cpu: C) {
            for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
                let pos = Position::start(size);
                let (p, o, mask) = (pos.player().0, pos.opponent().0, size.mask().0);
                for depth in 1..=6 {
                    let want = perft_slow(&pos, depth);
                    assert_eq!(
                        count(cpu, p, o, mask, depth),
                        want,
                        "{:?} {size:?} {depth}",
                        C::LEVEL
                    );
                }
            }
        }
        at(crate::cpu::Baseline);
        match crate::cpu::V3::new() {
            Some(cpu) => at(cpu),
            None => eprintln!("skipped: this processor has no x86-64-v3 paths"),
        }
        match crate::cpu::Avx512::new() {
            Some(cpu) => at(cpu),
            None => eprintln!("skipped: this processor has no AVX-512 paths"),
        }
    }

    #[test]
    fn fast_equals_slow_and_the_progress_total() {
        for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
            for depth in 0..=6 {
                let pos = Position::start(size);
                let slow = perft_slow(&pos, depth);
                assert_eq!(perft(&pos, depth), slow, "{size:?} {depth}");
                if size == BoardSize::Eight {
                    assert_eq!(perft_naive(&pos, depth), slow, "{depth}");
                }
                let mut last = None;
                let with = perft_with_progress(&pos, depth, &mut |p| last = Some(p));
                assert_eq!(with, slow);
                let last = last.expect("at least one subtree");
                assert_eq!((last.done, last.leaves), (last.total, slow));
                if depth > 0 {
                    let d = divide(&pos, depth);
                    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), slow);
                    let mut last = None;
                    assert_eq!(
                        divide_with_progress(&pos, depth, &mut |p| last = Some(p)),
                        d
                    );
                    let last = last.expect("progress is reported");
                    assert_eq!((last.done, last.total, last.leaves), (1000, 1000, slow));
                }
            }
        }
    }

    #[test]
    fn finished_games_and_passes_count_as_the_convention_says() {
        // Game over: one leaf at every depth.
        let over = crate::text::parse_position("XXXXXXXXXXXXXXXX O").unwrap();
        for depth in 0..5 {
            assert_eq!(perft(&over, depth), 1);
            assert_eq!(perft_slow(&over, depth), 1);
        }
        assert!(divide(&over, 3).is_empty());
        // White must pass, then black has d4 only, then the board is full.
        let pass = crate::text::parse_position("XXXXXXXXXXXO---- O").unwrap();
        let d = divide(&pass, 2);
        assert_eq!(d, vec![(Move::Pass, perft(&pass.passed(), 1))]);
        for depth in 0..6 {
            assert_eq!(perft(&pass, depth), perft_slow(&pass, depth), "{depth}");
        }
    }

    #[test]
    fn timed_runs_are_checked_and_sorted() {
        let t = timed(BoardSize::Four, 5, 3).unwrap();
        assert_eq!(t.leaves, known_count(BoardSize::Four, 5).unwrap());
        assert_eq!(t.seconds.len(), 3);
        assert!(t.seconds.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(timed(BoardSize::Eight, 20, 1), Err(TimedError::Unknown));
        assert_eq!(timed(BoardSize::Eight, 1, 0), Err(TimedError::NoRuns));
    }
}
