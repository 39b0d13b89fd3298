//! The fast move generator and flip (vector and portable builds) against the slow reference,
//! on random positions of every size: positions met in random games, and arbitrary discs.
//! Each level of [`cpu`] the processor has is checked through its token, the way the hot
//! code compiled for that level calls them (`PLY_CPU` picks among the same tokens); a level
//! the processor lacks is named on stderr and skipped.

use ply_core::SplitMix64;
use ply_othello::{
    cpu::{self, Cpu},
    moves, reference, BoardSize, Position,
};
use proptest::prelude::*;

/// Compares one level's routines on `(p, o)` with the slow reference's answers.
fn check_level<C: Cpu>(cpu: C, p: u64, o: u64, size: BoardSize, slow: u64) {
    let empty = !(p | o) & size.mask().0;
    // Run inside the level's compiled code, as the hot code does.
    cpu.run(
        #[inline(always)]
        || {
            let level = C::LEVEL;
            assert_eq!(
                moves::legal_moves_in(cpu, p, o, empty),
                slow,
                "{level:?} moves {p:#x} {o:#x} {size:?}"
            );
            let mut e = empty;
            while e != 0 {
                let sq = e.trailing_zeros() as u8;
                e &= e - 1;
                let want = reference::flips_slow(p, o, sq, size);
                assert_eq!(
                    moves::flips_in(cpu, p, o, sq),
                    want,
                    "{level:?} flips {p:#x} {o:#x} {sq}"
                );
            }
        },
    );
}

/// Compares every routine on `(p, o)` for the board `size`; returns the moves found.
fn check(p: u64, o: u64, size: BoardSize) -> u64 {
    let empty = !(p | o) & size.mask().0;
    let slow = reference::legal_moves_slow(p, o, size);
    assert_eq!(
        moves::legal_moves(p, o, empty),
        slow,
        "moves {p:#x} {o:#x} {size:?}"
    );
    assert_eq!(
        moves::legal_moves_portable(p, o, empty),
        slow,
        "portable moves {p:#x} {o:#x}"
    );
    let mut e = empty;
    while e != 0 {
        let sq = e.trailing_zeros() as u8;
        e &= e - 1;
        let want = reference::flips_slow(p, o, sq, size);
        assert_eq!(moves::flips(p, o, sq), want, "flips {p:#x} {o:#x} {sq}");
        assert_eq!(
            moves::flips_portable(p, o, sq),
            want,
            "portable flips {p:#x} {o:#x} {sq}"
        );
    }
    check_level(cpu::Baseline, p, o, size, slow);
    if let Some(v3) = cpu::V3::new() {
        check_level(v3, p, o, size, slow);
    }
    if let Some(avx512) = cpu::Avx512::new() {
        check_level(avx512, p, o, size, slow);
    }
    slow
}

#[test]
fn every_level_the_processor_has_is_checked() {
    // `check` runs each level whose token exists; say which are skipped here.
    let best = cpu::detect();
    for level in cpu::Level::ALL {
        if level > best {
            eprintln!("skipped: this processor has no {} paths", level.describe());
        }
    }
    assert_eq!(cpu::V3::new().is_some(), best >= cpu::Level::V3);
    assert_eq!(cpu::Avx512::new().is_some(), best >= cpu::Level::Avx512);
    let pos = Position::start(BoardSize::Eight);
    assert_eq!(
        check(pos.player().0, pos.opponent().0, BoardSize::Eight).count_ones(),
        4
    );
}

/// `n` positions per size: half from random games (both sides to move), half random discs.
fn sweep(n: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
        let mask = size.mask().0;
        let mut checked = 0;
        // Random games.
        while checked < n / 2 {
            let mut pos = Position::start(size);
            while !pos.is_game_over() && checked < n / 2 {
                let (p, o) = (pos.player().0, pos.opponent().0);
                check(p, o, size);
                check(o, p, size);
                checked += 1;
                let m: Vec<_> = pos.legal_moves().collect();
                pos = if m.is_empty() {
                    pos.passed()
                } else {
                    pos.play_unchecked(m[rng.below(m.len())])
                };
            }
        }
        // Arbitrary discs: each existing square empty, black or white, with varied density.
        for _ in 0..n / 2 {
            let fill = rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64() & mask;
            let who = rng.next_u64();
            let (p, o) = (fill & who & mask, fill & !who & mask);
            check(p, o, size);
        }
    }
}

#[test]
fn fast_and_slow_agree_on_random_positions() {
    sweep(20_000, 0x1234_5678_9abc_def1);
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn fast_and_slow_agree_on_a_hundred_thousand_positions_per_size() {
    sweep(200_000, 0x0dd_ba11_cafe_f00d);
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(2000) })]

    #[test]
    fn fast_and_slow_agree_on_any_discs(bits in any::<u64>(), who in any::<u64>(), s in 0usize..3) {
        let size = [BoardSize::Four, BoardSize::Six, BoardSize::Eight][s];
        let mask = size.mask().0;
        check(bits & who & mask, bits & !who & mask, size);
    }
}
