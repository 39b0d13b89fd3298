//! The [`Game`] trait: the only thing a game must provide to be solved generically.
//!
//! Positions carry the side to move themselves (a tic-tac-toe board knows it from the counts,
//! an Othello position stores it), so the trait is implemented on the position type. A move
//! type is the game's own; a game with passes (Othello) lists the pass as its only legal move
//! when the side to move is blocked, so "no legal moves" always means "game over".

use std::{fmt::Debug, hash::Hash};

use crate::Outcome;

/// One of the two players, named by the order of play rather than by colour or mark:
/// the game decides which mark or colour moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player who makes the first move of the game.
    First,
    /// The player who moves second.
    Second,
}

impl Player {
    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// A finite two-player game of perfect information, seen from one position.
///
/// The contract the generic algorithms rely on:
/// - `outcome()` is `Some` exactly when `legal_moves()` is empty;
/// - every move in `legal_moves()` may be passed to `play`;
/// - the game is finite (no position repeats along a line of play);
/// - `canonical()` maps every position to one fixed member of its symmetry class, and
///   symmetric positions have symmetric moves and equal values.
pub trait Game: Clone + Eq + Hash {
    /// A move, including a pass if the game has them.
    type Move: Copy + Eq + Debug;

    /// The player whose turn it is.
    fn to_move(&self) -> Player;

    /// The legal moves; empty exactly when the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// The position after `mv`, which must be one of [`Game::legal_moves`].
    #[must_use]
    fn play(&self, mv: Self::Move) -> Self;

    /// The result for the side to move once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// One representative of the position's symmetry class (the position itself by default,
    /// i.e. no symmetry is used).
    #[must_use]
    fn canonical(&self) -> Self {
        self.clone()
    }
}
