//! What more than one test file plays: seeded random moves, from ply's one generator.

use ply_core::SplitMix64;
use ply_othello::{BoardSize, Position, Square};

/// A legal move of `pos` at random; the side to move must have one.
pub fn random_move(pos: &Position, rng: &mut SplitMix64) -> Square {
    let moves: Vec<Square> = pos.legal_moves().collect();
    moves[rng.below(moves.len())]
}

/// A position reached by `plies` random moves from the start (a pass counts as a ply), or
/// the end of the game if that comes first.
pub fn random_position(size: BoardSize, plies: usize, rng: &mut SplitMix64) -> Position {
    let mut pos = Position::start(size);
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        pos = if pos.can_move() {
            pos.play_unchecked(random_move(&pos, rng))
        } else {
            pos.passed()
        };
    }
    pos
}
