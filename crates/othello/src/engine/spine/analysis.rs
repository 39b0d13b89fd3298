//! The one analysis type: what the midgame engine ([`crate::midgame`]) finds, and what
//! [`crate::analyze`] returns once the book and the solver have folded their findings into
//! it. Both use it, so it lives here rather than in either (the analysis layer calls the
//! midgame engine; the engine does not know the analysis layer). Its public name is
//! [`crate::analyze::Analysis`].

use super::units::{Discs64, WholeDiscs};
use crate::{Move, Position, Square};

/// The score of one legal move, for the side that plays it: the midgame engine's estimate,
/// kept as it is where no better is known, replaced by an exact one where the book or the
/// solver knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub square: Square,
    /// Final disc difference after the move for the side that played it, empties to the
    /// winner, in 64ths of a disc: exact or an estimate.
    pub score: Discs64,
    /// True when the score is the exact result under perfect play, false for an estimate.
    pub exact: bool,
    /// Plies searched for the score, the move itself included (the number of empty squares
    /// when exact).
    pub depth: u32,
    /// True when the score comes from the opening book ([`crate::book`]): never from the
    /// midgame engine itself, set by [`crate::analyze`].
    pub book: bool,
}

/// Which engine produced an analysis's scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Engine {
    /// Every score from the exact solver.
    Solver,
    /// Every score from the midgame engine (exact only if it reached the end).
    Midgame,
    /// Some moves exact (solved or from the book), the others estimated.
    Mixed,
    /// Every score from the opening book.
    Book,
    /// The best move and the score from a selective pass of the exact solver (its
    /// confidence in [`Analysis::selective`]), the other moves from the midgame engine.
    Selective,
}

impl Engine {
    /// `solver`, `midgame`, `mixed`, `book` or `selective`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Engine::Solver => "solver",
            Engine::Midgame => "midgame",
            Engine::Mixed => "mixed",
            Engine::Book => "book",
            Engine::Selective => "selective",
        }
    }
}

/// What an analysis found: the midgame engine's iterative deepening
/// ([`crate::midgame::analyze`]), or [`crate::analyze::analyze`], which folds the book's and
/// the solver's findings into the midgame engine's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Every legal move, best first (in play mode, only the best), with exact scores from
    /// the book and the solver in place of estimates where they know them. Empty when the
    /// side to move must pass or the game is over.
    pub moves: Vec<MoveValue>,
    /// The move to play; `None` for a pass or when the game is over.
    pub best: Option<Square>,
    /// Score of the position for the side to move, in 64ths of a disc: the best move's
    /// score.
    pub score: Discs64,
    /// True when `score` is the position's exact value (proven by the solver, the book, or a
    /// search to the end), whether or not every move's score is. The midgame engine alone
    /// proves it only with every move exact.
    pub proven: bool,
    /// True when every move's score is exact (and so is `score`).
    pub all_exact: bool,
    /// When the best move and `score` come from a selective pass of the exact solver (it
    /// could not finish in time, but its passes with Multi-ProbCut did): that pass's
    /// confidence in percent, as Edax prints `+6 @ 73%`. `None` otherwise (always from the
    /// midgame engine).
    pub selective: Option<u8>,
    /// Plies the best move was searched to (0 when the game is over): the midgame engine's
    /// last complete iteration, or the one time ran out in once it had finished that move;
    /// the empty squares once exact.
    pub depth: u32,
    /// The expected line from here, passes included: the midgame engine's, continued by the
    /// book or the solver where they know the best move.
    pub line: Vec<Move>,
    /// Positions searched, by both engines.
    pub nodes: u64,
    /// Which engine the scores come from.
    pub engine: Engine,
}

impl Analysis {
    /// The analysis of a finished game: its final score, exact, no move, one node, credited
    /// to the solver (the end of the game needs no estimate).
    pub(crate) fn game_over(pos: &Position) -> Analysis {
        Analysis {
            moves: Vec::new(),
            best: None,
            score: WholeDiscs(pos.final_score()).in_64ths(),
            proven: true,
            all_exact: true,
            selective: None,
            depth: 0,
            line: Vec::new(),
            nodes: 1,
            engine: Engine::Solver,
        }
    }

    /// The analysis of the position after a forced pass, seen from the side that passes.
    pub(crate) fn passed(mut self) -> Analysis {
        self.score = -self.score;
        self.line.insert(0, Move::Pass);
        self.best = None;
        self.moves.clear();
        self
    }
}
