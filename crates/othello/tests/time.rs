//! How the engine spends a budget, measured on a clock that moves by the engine's own reads
//! ([`SteppingClock`]): the same figures on every machine and under any load, so these are
//! not timed tests. The midgame engine reads the clock every 1024 nodes, the solver every
//! 65,536.

mod common;

use std::{sync::Arc, time::Duration};

use common::random_position;
use ply_core::SplitMix64;
use ply_othello::{
    analyze::{analyze, analyze_with, Analysis, Engine, Options},
    spine::clock::SteppingClock,
    transcript, BoardSize, Position,
};

/// 36 empty squares: far from the end, where only the midgame engine searches.
const POSITIONS: [&str; 1] = ["f5d6c3d3c4f4f6f3e6e7c6g6g5f7e8c5b6h6d2b5e3b4g4f2"];

fn position(moves: &str) -> Position {
    transcript::parse(moves, Position::start(BoardSize::Eight))
        .expect("a legal game")
        .position()
}

/// Analyses `pos` with `budget` on a clock that moves `step` a read: the analysis and the
/// clock's time spent.
fn spend_on(
    pos: &Position,
    budget: Duration,
    step: Duration,
    all_moves: bool,
    hash_mb: Option<usize>,
) -> (Analysis, Duration) {
    let clock = Arc::new(SteppingClock::new(step));
    let opts = Options {
        all_moves,
        clock: clock.clone(),
        hash_mb,
        ..Options::budget(budget)
    };
    let a = analyze(pos, &opts);
    assert!(a.best.is_some());
    (a, clock.elapsed())
}

/// Analyses `pos` with `budget` on a clock that moves 5 ms a read: the clock's time spent,
/// the depth reached and the nodes.
fn spend(pos: &Position, budget: Duration, all_moves: bool) -> (Duration, u32, u64) {
    let (a, spent) = spend_on(pos, budget, Duration::from_millis(5), all_moves, None);
    (spent, a.depth, a.nodes)
}

#[test]
fn a_budget_is_spent_whole_and_a_longer_one_reaches_deeper() {
    let budget = Duration::from_millis(300);
    for moves in POSITIONS {
        let pos = position(moves);
        for all_moves in [true, false] {
            let (spent, depth, nodes) = spend(&pos, budget, all_moves);
            // At least 90% of the budget, and not past it by more than a few reads.
            assert!(
                spent >= budget.mul_f64(0.9) && spent <= budget + Duration::from_millis(25),
                "{moves} (all moves: {all_moves}): {spent:?} of {budget:?}, depth {depth}, {nodes} nodes"
            );
            let (_, deeper, _) = spend(&pos, budget * 4, all_moves);
            assert!(
                deeper > depth,
                "{moves} (all moves: {all_moves}): depth {depth} in {budget:?}, {deeper} in four times that"
            );
        }
    }
}

/// 40 empty squares; a budget ending inside an iteration once ranked a move still at the
/// last iteration's depth above moves searched a ply deeper, and cut its line to that move.
const CLIPPED: &str = "f5f4f3f6d3f2g6c3b3b2g4g3b1d2c4c5f1g2g1g5";

#[test]
fn the_best_move_is_searched_as_deep_as_any_and_keeps_its_line() {
    let pos = position(CLIPPED);
    let mut partial = 0;
    for ms in (20..=400).step_by(20) {
        let clock = Arc::new(SteppingClock::new(Duration::from_millis(5)));
        let opts = Options {
            clock,
            ..Options::budget(Duration::from_millis(ms))
        };
        let a = analyze(&pos, &opts);
        let best = a.moves[0];
        let deepest = a.moves.iter().map(|m| m.depth).max().unwrap();
        assert_eq!(a.best, Some(best.square), "{ms} ms");
        assert_eq!(a.depth, best.depth, "{ms} ms");
        assert_eq!(
            best.depth, deepest,
            "{ms} ms: the best move {} at depth {}, another move at depth {deepest}",
            best.square, best.depth
        );
        assert!(
            a.line.len() >= 2,
            "{ms} ms: depth {}, the line is only {:?}",
            a.depth,
            a.line
        );
        partial += usize::from(a.moves.iter().any(|m| m.depth != deepest));
    }
    // Some budgets end inside an iteration, so the partial one is tested.
    assert!(partial > 0, "no budget ended inside an iteration");
}

/// Where the solver runs, it reads the analysis's clock too: a position it finishes is
/// proven within the budget, and one it cannot finish is answered at the first look at the
/// clock past the deadline. The clock moves 20 ms a read, so 300 ms is 15 looks: about a
/// million of the solver's nodes. (Small tables: a debug build takes long to clear 64 MB.)
#[test]
fn the_solver_keeps_to_the_budget_on_the_clock_it_is_given() {
    let budget = Duration::from_millis(300);
    let step = Duration::from_millis(20);
    let mut rng = SplitMix64::new(34);
    // (empties, whether the solver finishes it in the budget)
    for (empties, proven) in [(12, true), (16, true), (26, false)] {
        let pos = random_position(BoardSize::Eight, 60 - empties, &mut rng);
        assert_eq!(pos.empties().count() as usize, empties, "{pos:?}");
        for all_moves in [true, false] {
            let (a, spent) = spend_on(&pos, budget, step, all_moves, Some(8));
            let what = format!(
                "{empties} empties (all moves: {all_moves}): {spent:?} of {budget:?}, proven {}, {} nodes",
                a.proven, a.nodes
            );
            assert_eq!(a.proven, proven, "{what}");
            // Never later than the budget and the one look that finds it spent (and the
            // read the deadline was set by).
            assert!(spent <= budget + 2 * step, "{what}");
            if proven {
                assert!(spent <= budget, "{what}");
            } else {
                assert!(spent >= budget, "{what}");
            }
        }
    }
}

/// In play (the best move only) the exact solver takes over at 24 empties and the midgame
/// engine keeps a tenth of the budget before it, where an analysis of every move keeps two
/// fifths for its estimates: the midgame engine's last report comes by a tenth of the budget
/// (and the read that finds it spent) in play, after it in an analysis. At 25 empties play
/// keeps two fifths too, so a change of the 24 either way fails here.
#[test]
fn in_play_the_solver_takes_most_of_the_budget_from_24_empties() {
    let budget = Duration::from_millis(300);
    let step = Duration::from_millis(5);
    let mut rng = SplitMix64::new(24);
    for empties in [22, 23, 24, 25] {
        let pos = random_position(BoardSize::Eight, 60 - empties, &mut rng);
        assert_eq!(pos.empties().count() as usize, empties, "{pos:?}");
        for all_moves in [false, true] {
            let clock = Arc::new(SteppingClock::new(step));
            let opts = Options {
                all_moves,
                clock: clock.clone(),
                hash_mb: Some(8),
                ..Options::budget(budget)
            };
            let mut last_estimate = Duration::ZERO;
            let a = analyze_with(&pos, &opts, &mut |a: &Analysis| {
                if a.engine == Engine::Midgame {
                    last_estimate = clock.elapsed();
                }
            });
            let spent = clock.elapsed();
            let what = format!(
                "{empties} empties (all moves: {all_moves}): estimates until {last_estimate:?}, \
                 {spent:?} in all, proven {}",
                a.proven
            );
            assert!(spent <= budget + 2 * step, "{what}");
            if all_moves || empties > 24 {
                assert!(last_estimate > budget / 10 + step, "{what}");
            } else {
                assert!(last_estimate <= budget / 10 + step, "{what}");
            }
        }
    }
}
