//! The learnt evaluation against exact move scores (8x8: the FFO files; 6x6: positions our
//! solver scores): they must rank the moves of endgames clearly better than chance, or they
//! would only slow the solver down.

use ply_othello::{eval, obf, Move};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata");

/// Adds to `pairs` each pair of `(evaluation, exact score)` with different exact scores, and
/// to `right` those the evaluation puts in the same order.
fn count_pairs(rated: &[(i32, i32)], right: &mut u32, pairs: &mut u32) {
    for (i, a) in rated.iter().enumerate() {
        for b in &rated[i + 1..] {
            if a.1 != b.1 {
                *pairs += 1;
                *right += u32::from((a.0 > b.0) == (a.1 > b.1));
            }
        }
    }
}

/// Our evaluated score after `sq` in `pos`.
fn rate(eval: &eval::Eval, pos: &ply_othello::Position, sq: ply_othello::Square) -> i32 {
    let child = pos.play_unchecked(sq);
    -eval.evaluate_reference(child.player().0, child.opponent().0)
}

/// More than `min_pairs` pairs were compared, and more than 65% of them are in the right order.
fn assert_orders_well(right: u32, pairs: u32, min_pairs: u32) {
    let share = f64::from(right) / f64::from(pairs);
    println!("{right} of {pairs} pairs of moves in the right order ({share:.3})");
    assert!(pairs > min_pairs, "{pairs} pairs");
    assert!(share > 0.65, "{right} of {pairs} pairs in the right order");
}

#[test]
fn the_evaluation_ranks_the_moves_of_ffo_endgames() {
    let eval = eval::builtin(ply_othello::BoardSize::Eight).expect("the shipped weights load");
    let (mut right, mut pairs) = (0u32, 0u32);
    for file in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ] {
        let text = std::fs::read_to_string(format!("{DATA}/{file}")).expect(file);
        for entry in obf::parse_file(&text).expect(file) {
            let pos = entry.obf.position;
            // Our evaluated score after each scored move, beside its exact score.
            let rated: Vec<(i32, i32)> = entry
                .obf
                .moves
                .iter()
                .filter_map(|m| match m.mv {
                    Move::Play(sq) => Some((rate(eval, &pos, sq), m.score)),
                    Move::Pass => None,
                })
                .collect();
            count_pairs(&rated, &mut right, &mut pairs);
        }
    }
    assert_orders_well(right, pairs, 1000);
}

/// Share of the pairs of differently scored moves that `eval` puts in the right order, over
/// 6x6 positions with 12 empties from seeded random games, every move solved exactly.
#[test]
fn the_six_by_six_evaluation_ranks_moves_of_solved_positions() {
    use ply_othello::{
        solve::{SolveOptions, Solver},
        BoardSize, Position,
    };
    let size = BoardSize::Six;
    let eval = eval::builtin(size).expect("the shipped 6x6 weights load");
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 8,
    });
    let mut rng = ply_core::SplitMix64::new(0x2545_f491_4f6c_dd1d);
    let (mut right, mut pairs) = (0u32, 0u32);
    let mut games = 0;
    while games < 60 {
        let mut pos = Position::start(size);
        while pos.empties().count() > 12 && !pos.is_game_over() {
            let moves: Vec<_> = pos.legal_moves().collect();
            pos = if moves.is_empty() {
                pos.passed()
            } else {
                pos.play_unchecked(moves[rng.below(moves.len())])
            };
        }
        if pos.legal_moves().count() < 2 {
            continue;
        }
        games += 1;
        let rated: Vec<(i32, i32)> = solver
            .solve_all_moves(&pos)
            .into_iter()
            .map(|(sq, score)| (rate(eval, &pos, sq), score.0))
            .collect();
        count_pairs(&rated, &mut right, &mut pairs);
    }
    assert_orders_well(right, pairs, 300);
}
