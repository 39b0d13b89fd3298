//! How an analysis spends its memory and its time, as pure functions of the position's size,
//! its empty squares and the options: the tables' size ([`table_mb`]), the midgame table's
//! share of it, whether the solver runs and what share of the budget the midgame engine
//! keeps before it ([`Plan`]). Nothing here searches or reads a clock, so each policy is
//! tested by itself.

use std::time::Duration;

use super::Options;
use crate::{midgame, BoardSize};

/// What an analysis of a position does with its options: how deep and for how long the
/// midgame engine searches, and whether the solver follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Plan {
    /// The share of the budget the midgame engine keeps before the solver, when the solver
    /// runs at all (`Some(0.0)`: a one-ply estimate only orders the moves).
    pub solver: Option<f64>,
    /// The midgame engine's deepest iteration.
    pub midgame_depth: u32,
    /// The midgame engine's part of the budget; `None` for no clock.
    pub midgame_budget: Option<Duration>,
}

impl Plan {
    /// The plan for a position of `size` with `empties` empty squares under `opts`.
    pub(super) fn new(size: BoardSize, empties: u32, opts: &Options) -> Plan {
        let solver = if opts.solver {
            match (opts.budget, opts.depth) {
                (Some(_), _) => solver_plan(size, empties, opts.all_moves),
                // No clock: the solver only when the midgame engine would search to the end.
                (None, Some(d)) if d >= empties => Some(0.0),
                (None, _) => None,
            }
        } else {
            None
        };
        let midgame_budget = match (opts.budget, solver) {
            (Some(b), Some(share)) => Some(b.mul_f64(share)),
            (b, _) => b,
        };
        let midgame_depth = match solver {
            Some(share) if opts.budget.is_none() || share == 0.0 => 1,
            _ => opts.depth.unwrap_or(u32::MAX),
        };
        Plan {
            solver,
            midgame_depth,
            midgame_budget,
        }
    }
}

/// The tables' memory, in megabytes, for an analysis of a position of `size` (1 MB on 4x4,
/// 16 on 6x6, 64 on 8x8): enough for a search of a few seconds to keep its work, small
/// enough for several analyses at once; and as every analysis clears new tables, a small
/// board, whose whole tree fits in a little, does not pay for clearing a large one. The CLI,
/// the API, NBoard and Python all use it unless told otherwise.
///
/// ```
/// use ply_othello::{analyze::table_mb, BoardSize};
/// assert_eq!(table_mb(BoardSize::Eight), 64);
/// ```
#[must_use]
pub fn table_mb(size: BoardSize) -> usize {
    match size {
        BoardSize::Four => 1,
        BoardSize::Six => 16,
        BoardSize::Eight => 64,
    }
}

/// The midgame engine's table for `hash_mb` megabytes: half of them at most, in entries of
/// [`midgame::TABLE_ENTRY_BYTES`] (`2^20` entries for 64 MB).
pub(super) fn midgame_table_bits(hash_mb: usize) -> u32 {
    let entries = (hash_mb.max(1) << 20) / 2 / midgame::TABLE_ENTRY_BYTES;
    entries.max(16).ilog2()
}

/// Empty squares at which the solver is tried, and the share of the budget the midgame
/// engine keeps before it: (empties up to, midgame share). An analysis of every move keeps
/// 40% for estimates of every move until the solver is quick; in play (the best move only),
/// from [`PLAY_SOLVE_FROM`] empties down the solver takes 90% at once: there a solve that
/// finishes is the answer, and the midgame engine's estimate is only the fallback (the
/// solver's selective passes, which settle early, replace it).
fn solver_plan(size: BoardSize, empties: u32, all_moves: bool) -> Option<f64> {
    let (quick, slow) = match size {
        BoardSize::Four => (16, 16),
        BoardSize::Six => (22, 30),
        BoardSize::Eight if all_moves => (20, 28),
        BoardSize::Eight => (PLAY_SOLVE_FROM, 28),
    };
    if empties <= 14 {
        // Solved in a blink: a one-ply estimate only orders the moves.
        Some(0.0)
    } else if empties <= quick {
        Some(0.1)
    } else if empties <= slow {
        Some(0.4)
    } else {
        None
    }
}

/// Empties from which, on 8x8 in play, the solver takes most of the budget. Measured with
/// `ply bench play --games 20 --ms 300` on 2026-11-26, one core busy with another job: with
/// the solver from 20 empties as for an analysis of every move (and a new solver each
/// move), the answers were proven from a median of 20 empties (1 game of 20 from 22); from
/// 24 with a new solver each move (`--fresh`), 21 (7 games); from 24 with the solver kept
/// from move to move, 22 (13 and 12 games in two runs); from 26, 22 (13 games), no better
/// within the noise, and the midgame engine's estimates are the surer guide there. A new
/// solve at 22 empties takes 0.2-0.9 s here: what the solver gains from 24 on is mostly
/// the selective passes' moves and the finished subtrees, which it keeps for the next.
const PLAY_SOLVE_FROM: u32 = 24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_midgame_table_takes_at_most_half_the_memory_and_more_than_a_quarter() {
        for mb in [1, 4, 16, 48, 64, 100, 1024] {
            let bytes = (1usize << midgame_table_bits(mb)) * midgame::TABLE_ENTRY_BYTES;
            let half = mb << 19;
            assert!(bytes <= half && 2 * bytes > half, "{mb} MB: {bytes} bytes");
        }
        assert_eq!(midgame_table_bits(64), 20);
    }

    #[test]
    fn each_size_has_its_table() {
        let mb: Vec<usize> = [BoardSize::Four, BoardSize::Six, BoardSize::Eight]
            .into_iter()
            .map(table_mb)
            .collect();
        assert_eq!(mb, [1, 16, 64]);
    }

    fn budget(secs: u64, all_moves: bool) -> Options {
        Options {
            all_moves,
            ..Options::budget(Duration::from_secs(secs))
        }
    }

    #[test]
    fn on_a_clock_the_solver_comes_in_by_empties_and_takes_its_share() {
        let e8 = |empties, all_moves| Plan::new(BoardSize::Eight, empties, &budget(10, all_moves));
        // Far from the end: the midgame engine alone, all of the budget, no depth limit.
        let far = e8(29, true);
        assert_eq!(far.solver, None);
        assert_eq!(far.midgame_budget, Some(Duration::from_secs(10)));
        assert_eq!(far.midgame_depth, u32::MAX);
        // 28 empties (analysis): 40% for the estimates; 20: 10%; 14: a one-ply estimate.
        assert_eq!(e8(28, true).solver, Some(0.4));
        assert_eq!(e8(28, true).midgame_budget, Some(Duration::from_secs(4)));
        assert_eq!(e8(21, true).solver, Some(0.4));
        assert_eq!(e8(20, true).solver, Some(0.1));
        assert_eq!(e8(20, true).midgame_budget, Some(Duration::from_secs(1)));
        let blink = e8(14, true);
        assert_eq!((blink.solver, blink.midgame_depth), (Some(0.0), 1));
        assert_eq!(blink.midgame_budget, Some(Duration::ZERO));
        // In play the solver takes 90% from PLAY_SOLVE_FROM empties.
        assert_eq!(e8(PLAY_SOLVE_FROM, false).solver, Some(0.1));
        assert_eq!(e8(PLAY_SOLVE_FROM + 1, false).solver, Some(0.4));
        // 6x6 and 4x4 by their own thresholds.
        let e = |size, empties| Plan::new(size, empties, &budget(1, true)).solver;
        assert_eq!(
            (e(BoardSize::Six, 30), e(BoardSize::Six, 31)),
            (Some(0.4), None)
        );
        assert_eq!(e(BoardSize::Six, 22), Some(0.1));
        assert_eq!(e(BoardSize::Four, 12), Some(0.0));
    }

    #[test]
    fn without_a_clock_the_solver_runs_only_where_the_depth_reaches_the_end() {
        let at = |depth, empties| Plan::new(BoardSize::Eight, empties, &Options::depth(depth));
        let short = at(10, 30);
        assert_eq!(
            (short.solver, short.midgame_depth, short.midgame_budget),
            (None, 10, None)
        );
        let whole = at(30, 30);
        assert_eq!((whole.solver, whole.midgame_depth), (Some(0.0), 1));
        // The solver off: the midgame engine to its depth, whatever the empties.
        let off = Options {
            solver: false,
            ..Options::depth(30)
        };
        let p = Plan::new(BoardSize::Eight, 20, &off);
        assert_eq!((p.solver, p.midgame_depth), (None, 30));
        let p = Plan::new(
            BoardSize::Eight,
            20,
            &Options {
                solver: false,
                ..budget(3, true)
            },
        );
        assert_eq!(
            (p.solver, p.midgame_budget),
            (None, Some(Duration::from_secs(3)))
        );
    }
}
