//! The learnt evaluation against the exact move scores of the FFO files: it must rank the
//! moves of real endgames clearly better than chance, or it would only slow the solver down.

use ply_othello::{obf, pattern, Move};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data");

#[test]
fn the_evaluation_ranks_the_moves_of_ffo_endgames() {
    let eval = pattern::builtin().expect("the shipped weights load");
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
                    Move::Play(sq) => {
                        let child = pos.play_unchecked(sq);
                        let v = -eval.evaluate(child.player().0, child.opponent().0);
                        Some((v, m.score))
                    }
                    Move::Pass => None,
                })
                .collect();
            for (i, a) in rated.iter().enumerate() {
                for b in &rated[i + 1..] {
                    if a.1 != b.1 {
                        pairs += 1;
                        right += u32::from((a.0 > b.0) == (a.1 > b.1));
                    }
                }
            }
        }
    }
    let share = f64::from(right) / f64::from(pairs);
    println!("{right} of {pairs} pairs of moves in the right order ({share:.3})");
    assert!(pairs > 1000, "{pairs} pairs");
    assert!(share > 0.65, "{right} of {pairs} pairs in the right order");
}
