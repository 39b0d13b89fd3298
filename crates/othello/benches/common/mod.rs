//! What more than one benchmark measures on: positions met in seeded random games.

use ply_core::SplitMix64;
use ply_othello::{BoardSize, Position, Square};

/// At least `count` positions met along random 8x8 games from `seed` (whole games, so a
/// few more), each with the move that was played from it. Positions where the mover had
/// to pass are left out.
pub fn random_game_moves(seed: u64, count: usize) -> Vec<(Position, Square)> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(BoardSize::Eight);
        while !pos.is_game_over() {
            let m: Vec<_> = pos.legal_moves().collect();
            if m.is_empty() {
                pos = pos.passed();
                continue;
            }
            let sq = m[rng.below(m.len())];
            out.push((pos, sq));
            pos = pos.play_unchecked(sq);
        }
    }
    out
}
