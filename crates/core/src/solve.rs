//! The exact generic solver: plain negamax over GAMESMAN values, memoised by position.
//!
//! It keeps no move ordering and no bounds: every child is solved, which is what makes the
//! result (including the remoteness) exact and the code easy to trust. The memo is keyed by
//! [`Game::canonical`], so symmetric positions are solved once.

use std::collections::HashMap;

use crate::{Game, Value};

/// A memoised exact solver; keep one around to reuse what it has solved.
#[derive(Debug)]
pub struct Solver<G: Game> {
    memo: HashMap<G, Value>,
}

impl<G: Game> Default for Solver<G> {
    fn default() -> Self {
        Solver::new()
    }
}

impl<G: Game> Solver<G> {
    /// An empty solver.
    #[must_use]
    pub fn new() -> Solver<G> {
        Solver {
            memo: HashMap::new(),
        }
    }

    /// The value of `pos` for its side to move.
    ///
    /// # Panics
    ///
    /// If the game breaks the [`Game`] contract: a position that is not over without a
    /// legal move.
    pub fn solve(&mut self, pos: &G) -> Value {
        if let Some(outcome) = pos.outcome() {
            return Value {
                outcome,
                remoteness: 0,
            };
        }
        let key = pos.canonical();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let best = pos
            .legal_moves()
            .into_iter()
            .map(|mv| self.solve(&pos.play(mv)).before_move())
            .max()
            .expect("a position that is not over has a legal move");
        self.memo.insert(key, best);
        best
    }

    /// Every legal move of `pos` with its value for the side making it, in the order of
    /// [`Game::legal_moves`]. The best of them equals [`Solver::solve`] of `pos`; a finished
    /// position has none.
    pub fn analyze(&mut self, pos: &G) -> Vec<(G::Move, Value)> {
        pos.legal_moves()
            .into_iter()
            .map(|mv| (mv, self.solve(&pos.play(mv)).before_move()))
            .collect()
    }

    /// How many non-final positions have been solved and remembered.
    #[must_use]
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }
}
