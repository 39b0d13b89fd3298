//! Folding the solver's results into an analysis: a solved move (the order, the best move,
//! the line and the flags recomputed), and a selective pass's move and score.

use super::{Analysis, Discs64, Engine, MoveValue};
use crate::{Move, Position, Square};

/// After move `solved` (with the line `pv` after it) became exact: the moves in order, the
/// best move, score, line and flags recomputed. An exact best move stays ahead of an
/// estimate of the same score.
pub(super) fn settle(a: &mut Analysis, pos: &Position, solved: Square, pv: &[Move]) {
    a.moves
        .sort_by_key(|m| (std::cmp::Reverse(m.score), !m.exact));
    let best = a.moves[0];
    if best.square == solved {
        a.line = std::iter::once(Move::Play(solved))
            .chain(pv.iter().copied())
            .collect();
    } else if a.best != Some(best.square) {
        a.line = vec![Move::Play(best.square)];
    }
    a.best = Some(best.square);
    a.score = best.score;
    a.all_exact = a.moves.iter().all(|m| m.exact);
    // The position was solved (or its value known) before any single move was.
    a.proven |= a.all_exact;
    a.engine = if a.all_exact {
        Engine::Solver
    } else {
        Engine::Mixed
    };
    if a.all_exact {
        a.depth = pos.empties().count();
    }
}

/// A selective pass of the solver found `sq` worth `score` with
/// `percent` confidence: it becomes the best move and the position's score, an estimate
/// searched to the end. The other moves' estimates are capped at it (the pass showed, as
/// surely, that none does better); in play mode it is the one move.
pub(super) fn fold_selective(
    a: &mut Analysis,
    sq: Square,
    score: Discs64,
    percent: u8,
    empties: u32,
    all_moves: bool,
) {
    let found = MoveValue {
        square: sq,
        score,
        exact: false,
        depth: empties,
        book: false,
    };
    if all_moves {
        for m in a.moves.iter_mut().filter(|m| !m.exact) {
            m.score = m.score.min(score);
        }
        match a.moves.iter_mut().find(|m| m.square == sq) {
            Some(m) => *m = found,
            None => a.moves.push(found),
        }
        a.moves
            .sort_by_key(|m| (std::cmp::Reverse(m.score), m.square != sq));
    } else {
        a.moves = vec![found];
    }
    if a.line.first() != Some(&Move::Play(sq)) {
        a.line = vec![Move::Play(sq)];
    }
    a.best = Some(sq);
    a.score = score;
    a.proven = false;
    a.all_exact = false;
    a.selective = Some(percent);
    a.depth = empties;
    a.engine = Engine::Selective;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::WholeDiscs;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn estimate(s: &str, discs: i32) -> MoveValue {
        MoveValue {
            square: sq(s),
            score: WholeDiscs(discs).into(),
            exact: false,
            depth: 16,
            book: false,
        }
    }

    #[test]
    fn a_selective_result_replaces_the_estimate_and_caps_the_others() {
        let mut a = Analysis {
            moves: vec![estimate("d7", 5), estimate("f8", 3), estimate("a4", -5)],
            best: Some(sq("d7")),
            score: WholeDiscs(5).in_64ths(),
            proven: false,
            all_exact: false,
            selective: None,
            depth: 16,
            line: vec![Move::Play(sq("d7")), Move::Play(sq("c8"))],
            nodes: 1,
            engine: Engine::Midgame,
        };
        let mut play = a.clone();
        fold_selective(&mut a, sq("f8"), WholeDiscs(4).in_64ths(), 97, 26, true);
        assert_eq!(a.best, Some(sq("f8")));
        assert_eq!(
            (a.score, a.selective, a.depth),
            (WholeDiscs(4).in_64ths(), Some(97), 26)
        );
        assert_eq!(a.engine, Engine::Selective);
        assert!(!a.proven && !a.all_exact);
        let scores: Vec<(Square, Discs64)> = a.moves.iter().map(|m| (m.square, m.score)).collect();
        // d7's estimate is capped at the selective score, and f8 stays ahead of it.
        assert_eq!(
            scores,
            [
                (sq("f8"), WholeDiscs(4).in_64ths()),
                (sq("d7"), WholeDiscs(4).in_64ths()),
                (sq("a4"), WholeDiscs(-5).in_64ths())
            ]
        );
        assert_eq!(a.line, [Move::Play(sq("f8"))]);
        // Play mode keeps the one move.
        fold_selective(&mut play, sq("f8"), WholeDiscs(4).in_64ths(), 73, 26, false);
        assert_eq!(play.moves.len(), 1);
        assert_eq!(play.moves[0].square, sq("f8"));
        assert_eq!(play.selective, Some(73));
    }
}
