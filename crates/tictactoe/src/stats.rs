//! The state-space figures of tic-tac-toe, computed by the generic algorithms of ply-core
//! (so they double as a check of those algorithms against the published numbers).

use ply_core::{count_finals, count_games, count_games_up_to_symmetry, reachable};

use crate::{Counts, Mark, Position};

/// The state-space figures of the game from the empty board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Positions reachable from the empty board, the empty board included.
    pub reachable: u64,
    /// The same, counting symmetric positions once.
    pub reachable_up_to_symmetry: u64,
    /// Distinct final positions, by result.
    pub finals: Counts,
    /// Games (move sequences to the end), by result.
    pub games: Counts,
    /// Games when moves to symmetric positions count as one, by result.
    pub games_up_to_symmetry: Counts,
}

/// The figures for a game `first` starts: with `X` first, 5478 positions (765 up to
/// symmetry), 958 finals, 255,168 games and 26,830 games up to symmetry.
#[must_use]
pub fn stats(first: Mark) -> Stats {
    let start = Position::start(first);
    let all = reachable(&start);
    let mut classes: Vec<_> = all.iter().map(|p| p.board().canonical()).collect();
    classes.sort_unstable();
    classes.dedup();
    Stats {
        reachable: all.len() as u64,
        reachable_up_to_symmetry: classes.len() as u64,
        finals: Counts::from_tally(count_finals(&start), first),
        games: Counts::from_tally(count_games(&start), first),
        games_up_to_symmetry: Counts::from_tally(count_games_up_to_symmetry(&start), first),
    }
}
