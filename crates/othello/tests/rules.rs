//! The rules: fast against slow move generation along random games, and small perft counts.

use ply_othello::{moves, reference, BoardSize, Position};

fn perft(pos: &Position, depth: u32, passed: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let m = pos.legal_moves();
    if m.is_empty() {
        if passed {
            return 1; // game over: one leaf at every depth past the end
        }
        return perft(&pos.passed(), depth - 1, true);
    }
    m.map(|sq| perft(&pos.play_unchecked(sq), depth - 1, false))
        .sum()
}

#[test]
fn small_perft_counts_match_the_shared_table() {
    for (size, depth, want) in [
        (BoardSize::Eight, 6, 8200),
        (BoardSize::Six, 6, 7604),
        (BoardSize::Four, 10, 36540),
        (BoardSize::Four, 16, 60060),
    ] {
        assert_eq!(
            perft(&Position::start(size), depth, false),
            want,
            "{size:?} depth {depth}"
        );
    }
}

#[test]
fn fast_moves_and_flips_equal_the_slow_reference_along_random_games() {
    let mut rng = ply_core::SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
        for _ in 0..300 {
            let mut pos = Position::start(size);
            while !pos.is_game_over() {
                let (p, o) = (pos.player().0, pos.opponent().0);
                let fast = moves::legal_moves(p, o, pos.empties().0);
                assert_eq!(fast, reference::legal_moves_slow(p, o, size));
                for sq in 0..64u8 {
                    if pos.empties().0 >> sq & 1 != 0 {
                        assert_eq!(
                            moves::flips(p, o, sq),
                            reference::flips_slow(p, o, sq, size)
                        );
                    }
                }
                let m: Vec<_> = pos.legal_moves().collect();
                pos = if m.is_empty() {
                    pos.passed()
                } else {
                    pos.play_unchecked(m[rng.below(m.len())])
                };
            }
        }
    }
}
