//! Small books for the tests of the book's modules: 4x4, solved or searched exactly.

use super::{after, key, negamax, roots, successors, After, Book, ScoredMove};
use crate::{
    solve::{SolveOptions, Solver},
    BoardSize, Position,
};

/// Every 4x4 position from the roots down to `min` empties that `step` leads to, once
/// per symmetry class: `step` gets each with a solver and returns where it leads.
pub(super) fn walk4(min: u32, mut step: impl FnMut(&mut Solver, Position) -> Vec<Position>) {
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 4,
    });
    let mut todo: Vec<Position> = roots(BoardSize::Four);
    let mut seen = std::collections::HashSet::new();
    while let Some(p) = todo.pop() {
        if p.empties().count() < min || !seen.insert(key(&p)) {
            continue;
        }
        todo.extend(step(&mut solver, p));
    }
}

/// A 4x4 book to depth `min`, by solving every position the closure asks for.
pub(super) fn book4(min: u32) -> Book {
    let mut entries = Vec::new();
    walk4(min, |solver, p| {
        let r = solver.solve(&p);
        let best = r.best_move.unwrap();
        entries.push((p, best, r.score));
        successors(&p, best)
    });
    Book::from_entries(BoardSize::Four, min, entries).unwrap()
}

/// A searched 4x4 book: every position the exact solver reaches from the roots down to
/// `min` empties, every move scored exactly (as a search to the end scores it).
pub(super) fn searched4(min: u32) -> Book {
    let mut entries = Vec::new();
    walk4(min, |solver, p| {
        let mut next = Vec::new();
        let moves: Vec<ScoredMove> = p
            .legal_moves()
            .map(|square| {
                let score = match after(&p.play_unchecked(square)) {
                    After::Over(score) => score,
                    After::Next(q, sign) => {
                        next.push(q);
                        solver.solve(&q).score * sign
                    }
                };
                ScoredMove {
                    square,
                    score,
                    depth: p.empties().count(),
                }
            })
            .collect();
        entries.push((p, moves));
        next
    });
    Book::from_searched(BoardSize::Four, negamax(entries)).unwrap()
}
