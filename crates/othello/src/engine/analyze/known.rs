//! Folding the opening book into an analysis: what the book knows of a position (the
//! scores of the moves it knows, the position's own value in an exact book), the whole
//! analysis where that is enough, and an analysis with the book's scores put in.

use super::{Analysis, Discs64, Engine, MoveValue, WholeDiscs};
use crate::{
    book::{self, After, Book},
    Move, Position, Square,
};

/// What the opening book knows of a position: the scores of the moves it knows (every move
/// of a position a searched book holds; else those whose position after them is in the
/// book), and the position's own exact value when an exact book holds it.
#[derive(Default)]
pub(super) struct Known<'b> {
    book: Option<&'b Book>,
    /// Moves with scores from the book, marked [`MoveValue::book`].
    pub(super) moves: Vec<MoveValue>,
    /// The position's exact value, when an exact book holds it: no move scores more.
    pub(super) value: Option<Discs64>,
    /// A searched book holds the position itself: its best move is the best of all, even
    /// where (in a partial book) it scores only some.
    held: bool,
}

impl<'b> Known<'b> {
    pub(super) fn from_book(book: &'b Book, pos: &Position) -> Known<'b> {
        let exact = book.is_exact();
        let known = |square, score: WholeDiscs, depth| MoveValue {
            square,
            score: score.into(),
            exact,
            depth,
            book: true,
        };
        if !exact {
            if let Some(own) = book.moves(pos) {
                return Known {
                    book: Some(book),
                    moves: own
                        .iter()
                        .map(|m| known(m.square, m.score, m.depth))
                        .collect(),
                    value: None,
                    held: true,
                };
            }
        }
        let empties = pos.empties().count();
        let mut moves: Vec<MoveValue> = pos
            .legal_moves()
            .filter_map(|sq| match book::after(&pos.play_unchecked(sq)) {
                After::Over(score) => Some(MoveValue {
                    exact: true,
                    depth: empties,
                    ..known(sq, score, empties)
                }),
                After::Next(next, sign) => {
                    let m = book.lookup(&next)?;
                    let depth = if exact { empties } else { m.depth + 1 };
                    Some(known(sq, m.score * sign, depth))
                }
            })
            .collect();
        let own = book.lookup(pos);
        if let Some(m) = own {
            if !moves.iter().any(|k| k.square == m.best) {
                moves.push(known(m.best, m.score, empties));
            }
        }
        Known {
            book: Some(book),
            moves,
            value: own.map(|m| m.score.into()),
            held: false,
        }
    }
}

impl Known<'_> {
    /// The whole analysis from the book, when it knows enough: every move, or (for play)
    /// the best one.
    pub(super) fn complete(&self, pos: &Position, all_moves: bool) -> Option<Analysis> {
        let legal = pos.legal_moves().count() as usize;
        let enough = if all_moves {
            !self.moves.is_empty() && self.moves.len() == legal
        } else {
            self.value.is_some()
                || self.held
                || (!self.moves.is_empty() && self.moves.len() == legal)
        };
        if !enough {
            return None;
        }
        let mut moves = self.moves.clone();
        moves.sort_by_key(|m| (std::cmp::Reverse(m.score), !m.exact));
        if !all_moves {
            moves.truncate(1);
        }
        let best = moves[0];
        let all_exact = moves.iter().all(|m| m.exact);
        Some(Analysis {
            line: self.line(pos, best.square),
            best: Some(best.square),
            score: best.score,
            proven: all_exact || (best.exact && self.value == Some(best.score)),
            all_exact,
            selective: None,
            depth: best.depth,
            nodes: 0,
            engine: Engine::Book,
            moves,
        })
    }

    /// `a` with the book's scores in it, the estimates capped at the position's exact
    /// value when the book knows it, and the best move, score and line to match.
    pub(super) fn folded(&self, pos: &Position, mut a: Analysis) -> Analysis {
        if self.moves.is_empty() || a.moves.is_empty() {
            return a;
        }
        // In play the midgame engine scores only its best move: the book's join it.
        for k in &self.moves {
            if let Some(m) = a.moves.iter_mut().find(|m| m.square == k.square) {
                *m = *k;
            } else {
                a.moves.push(*k);
            }
        }
        if let Some(v) = self.value {
            for m in a.moves.iter_mut().filter(|m| !m.exact) {
                m.score = m.score.min(v);
            }
        }
        a.moves
            .sort_by_key(|m| (std::cmp::Reverse(m.score), !m.exact));
        let best = a.moves[0];
        if a.best != Some(best.square) || self.moves.iter().any(|k| k.square == best.square) {
            a.line = self.line(pos, best.square);
        }
        a.best = Some(best.square);
        a.score = best.score;
        a.all_exact =
            a.moves.iter().all(|m| m.exact) && a.moves.len() == pos.legal_moves().count() as usize;
        // The book's value of the position, reached by an exact move, is the score.
        a.proven = a.all_exact || (best.exact && self.value == Some(best.score));
        a.engine = Engine::Mixed;
        if a.all_exact {
            a.depth = pos.empties().count();
        }
        a
    }

    /// `first`, then the book's moves for both sides while it knows the position.
    fn line(&self, pos: &Position, first: Square) -> Vec<Move> {
        let mut line = vec![Move::Play(first)];
        let Some(book) = self.book else {
            return line;
        };
        let mut cur = pos.play_unchecked(first);
        while !cur.is_game_over() {
            if !cur.can_move() {
                line.push(Move::Pass);
                cur = cur.passed();
                continue;
            }
            let Some(m) = book.lookup(&cur) else {
                break;
            };
            line.push(Move::Play(m.best));
            cur = cur.play_unchecked(m.best);
        }
        while line.last() == Some(&Move::Pass) {
            line.pop();
        }
        line
    }
}
