//! What more than one test file plays: seeded random moves, from ply's one generator.

use ply_core::SplitMix64;
use ply_othello::{BoardSize, GameRecord, Move, Position, Square};

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

/// Square `sq` of the 8x8 board under symmetry `s` (bit 2 transposes, bit 0 mirrors the
/// columns, bit 1 the rows), square by square: the slow reference of `rules::symmetry`.
#[allow(dead_code)]
pub fn map_square(sq: u8, s: u8) -> u8 {
    let (mut c, mut r) = (sq % 8, sq / 8);
    if s & 4 != 0 {
        std::mem::swap(&mut c, &mut r);
    }
    if s & 1 != 0 {
        c = 7 - c;
    }
    if s & 2 != 0 {
        r = 7 - r;
    }
    r * 8 + c
}

/// The discs of `b` (8x8) under symmetry `s`, square by square.
#[allow(dead_code)]
pub fn map_board(b: u64, s: u8) -> u64 {
    (0..64u8)
        .filter(|i| b >> i & 1 == 1)
        .fold(0u64, |acc, i| acc | 1 << map_square(i, s))
}

/// A game of random moves from the 8x8 start to its end, passes included.
#[allow(dead_code)]
pub fn random_game(rng: &mut SplitMix64) -> GameRecord {
    let mut game = GameRecord::new(Position::start(BoardSize::Eight));
    while !game.position().is_game_over() {
        let pos = game.position();
        let m = if pos.can_move() {
            Move::Play(random_move(&pos, rng))
        } else {
            Move::Pass
        };
        game.play(m).unwrap();
    }
    game
}
