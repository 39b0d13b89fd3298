//! How the engine spends a budget, measured on a clock that moves by the engine's own reads
//! ([`SteppingClock`]): the same figures on every machine and under any load, so these are
//! not timed tests.

use std::{sync::Arc, time::Duration};

use ply_othello::{
    analyze::{analyze, Options},
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

/// Analyses `pos` with `budget` on a clock that moves 5 ms a read (the engine reads it every
/// 1024 nodes): the clock's time spent, the depth reached and the nodes.
fn spend(pos: &Position, budget: Duration, all_moves: bool) -> (Duration, u32, u64) {
    let clock = Arc::new(SteppingClock::new(Duration::from_millis(5)));
    let opts = Options {
        all_moves,
        clock: clock.clone(),
        ..Options::budget(budget)
    };
    let a = analyze(pos, &opts);
    assert!(a.best.is_some());
    (clock.elapsed(), a.depth, a.nodes)
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
