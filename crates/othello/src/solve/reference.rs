//! The plain negamax every faster routine of the solver is tested against: no pruning, no
//! table, no ordering, only the rules core's own `Position` API. Exponential, so only for
//! small positions (4x4 boards, or 8x8 with a dozen empty squares at most).

use crate::Position;

/// The exact score of `pos` for the side to move (disc difference, empties to the winner),
/// found by visiting every line of play to the end.
///
/// ```
/// use ply_othello::{solve::reference::minimax, BoardSize, Position};
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
