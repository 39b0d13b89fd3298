//! Counting: the reachable positions, the distinct final positions, and the games.
//!
//! Each routine walks the game graph from a start position once, with a hash set or map, so
//! the cost is linear in the number of reachable positions; the counts of games (paths)
//! are memoised per position rather than enumerated one by one.

use std::collections::{HashMap, HashSet};

use crate::{Game, Outcome, Player};

/// Counts split by who won: the first player, the second player, or nobody.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Won by [`Player::First`].
    pub first: u64,
    /// Won by [`Player::Second`].
    pub second: u64,
    /// Drawn.
    pub draw: u64,
}

impl Tally {
    /// All of them.
    #[must_use]
    pub const fn total(&self) -> u64 {
        self.first + self.second + self.draw
    }

    /// One final position counted under its result.
    fn of_final<G: Game>(pos: &G, outcome: Outcome) -> Tally {
        let mover = pos.to_move();
        let winner = match outcome {
            Outcome::Win => Some(mover),
            Outcome::Loss => Some(mover.other()),
            Outcome::Draw => None,
        };
        match winner {
            Some(Player::First) => Tally {
                first: 1,
                ..Tally::default()
            },
            Some(Player::Second) => Tally {
                second: 1,
                ..Tally::default()
            },
            None => Tally {
                draw: 1,
                ..Tally::default()
            },
        }
    }

    fn add(&mut self, other: Tally) {
        self.first += other.first;
        self.second += other.second;
        self.draw += other.draw;
    }
}

/// Every position reachable from `start` by legal moves, `start` included.
pub fn reachable<G: Game>(start: &G) -> HashSet<G> {
    let mut seen = HashSet::new();
    seen.insert(start.clone());
    let mut stack = vec![start.clone()];
    while let Some(pos) = stack.pop() {
        for mv in pos.legal_moves() {
            let next = pos.play(mv);
            if seen.insert(next.clone()) {
                stack.push(next);
            }
        }
    }
    seen
}

/// The distinct final positions reachable from `start` (itself if it is final), by result.
pub fn count_finals<G: Game>(start: &G) -> Tally {
    let mut tally = Tally::default();
    for pos in reachable(start) {
        if let Some(outcome) = pos.outcome() {
            tally.add(Tally::of_final(&pos, outcome));
        }
    }
    tally
}

/// The number of games (sequences of legal moves to a final position) from `start`, by the
/// result they end in.
pub fn count_games<G: Game>(start: &G) -> Tally {
    fn go<G: Game>(pos: &G, memo: &mut HashMap<G, Tally>) -> Tally {
        if let Some(outcome) = pos.outcome() {
            return Tally::of_final(pos, outcome);
        }
        if let Some(&t) = memo.get(pos) {
            return t;
        }
        let mut tally = Tally::default();
        for mv in pos.legal_moves() {
            tally.add(go(&pos.play(mv), memo));
        }
        memo.insert(pos.clone(), tally);
        tally
    }
    go(start, &mut HashMap::new())
}

/// The number of games from `start` when moves that lead to symmetric positions count as
/// one: at every position only the distinct [`Game::canonical`] successors are followed.
/// For tic-tac-toe from the empty board this is the classic 26,830.
pub fn count_games_up_to_symmetry<G: Game>(start: &G) -> Tally {
    fn go<G: Game>(pos: &G, memo: &mut HashMap<G, Tally>) -> Tally {
        if let Some(outcome) = pos.outcome() {
            return Tally::of_final(pos, outcome);
        }
        if let Some(&t) = memo.get(pos) {
            return t;
        }
        let mut children: Vec<G> = Vec::new();
        for mv in pos.legal_moves() {
            let child = pos.play(mv).canonical();
            if !children.contains(&child) {
                children.push(child);
            }
        }
        let mut tally = Tally::default();
        for child in &children {
            tally.add(go(child, memo));
        }
        memo.insert(pos.clone(), tally);
        tally
    }
    go(&start.canonical(), &mut HashMap::new())
}
