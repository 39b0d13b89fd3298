//! The one evaluation: incremental indices agree with a from-scratch reading after any
//! sequence of moves, passes and take-backs; the shipped weights load and refuse damage.

use ply_othello::{
    eval::{self, weights, EvalState},
    BoardSize, Position, Square,
};
use proptest::prelude::*;

/// A position, its evaluation state, and the move played from it (`None`: a pass) as
/// square and flips.
type Step = (Position, EvalState, Option<(u8, u64)>);

/// Plays a random game by `choices`, checking the incremental state against the reference
/// after every move and after taking back the last `back` moves at the end.
fn check_game(size: BoardSize, choices: &[u8], back: usize) {
    // Weights all different, so that a wrong index shows in the value.
    let per_phase = eval::Eval::weights_per_phase(size).unwrap();
    let n = per_phase * eval::phase_count(size);
    let w = (0..n).map(|i| ((i * 7919) % 2001) as i16 - 1000).collect();
    let e = &eval::Eval::from_weights(size, w).unwrap();
    let mut pos = Position::start(size);
    let mut state = e.state(pos.player().0, pos.opponent().0);
    let mut history: Vec<Step> = Vec::new();
    for &c in choices {
        if pos.is_game_over() {
            break;
        }
        let before = (pos, state);
        let played = if pos.can_move() {
            let moves: Vec<Square> = pos.legal_moves().into_iter().collect();
            let sq = moves[usize::from(c) % moves.len()];
            let flips = pos.flips(sq).0;
            state.play(sq.index(), flips);
            pos = pos.play_unchecked(sq);
            Some((sq.index(), flips))
        } else {
            state.pass();
            pos = pos.passed();
            None
        };
        history.push((before.0, before.1, played));
        let (p, o) = (pos.player().0, pos.opponent().0);
        assert_eq!(state, e.state(p, o), "{size:?} after {pos}");
        let reference = eval::EvalState::new_reference(e.layout(), p, o);
        assert_eq!(state, reference, "{size:?} after {pos}");
        assert_eq!(e.evaluate(&state, p, o), e.evaluate_reference(p, o));
    }
    for _ in 0..back.min(history.len()) {
        let (prev, prev_state, played) = history.pop().expect("a move to take back");
        match played {
            Some((sq, flips)) => state.undo(sq, flips),
            None => state.pass(),
        }
        assert_eq!(state, prev_state, "{size:?} taking back to {prev}");
        pos = prev;
    }
    let (p, o) = (pos.player().0, pos.opponent().0);
    assert_eq!(e.evaluate(&state, p, o), e.evaluate_reference(p, o));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn incremental_indices_match_a_fresh_reading(
        eight in any::<bool>(),
        choices in proptest::collection::vec(any::<u8>(), 0..70),
        back in 0usize..70,
    ) {
        let size = if eight { BoardSize::Eight } else { BoardSize::Six };
        check_game(size, &choices, back);
    }
}

#[test]
fn whole_games_of_both_sizes_stay_in_step() {
    for seed in 0..20u8 {
        let choices: Vec<u8> = (0..80u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(seed))
            .collect();
        check_game(BoardSize::Six, &choices, 40);
        check_game(BoardSize::Eight, &choices, 80);
    }
}

#[test]
fn the_shipped_files_load_and_damaged_copies_do_not() {
    for (size, file) in [
        (BoardSize::Eight, "eval8.bin"),
        (BoardSize::Six, "eval6.bin"),
    ] {
        let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).expect("the shipped file");
        let e = weights::read(size, &bytes).expect("loads");
        assert_eq!(
            &e.with_tempo(eval::shipped_tempo(size)),
            eval::tables(size).unwrap()
        );
        let err = weights::read(size, &bytes[..bytes.len() / 2]).unwrap_err();
        assert!(err.to_string().contains("truncated"), "{err}");
        let other = if size == BoardSize::Six {
            BoardSize::Eight
        } else {
            BoardSize::Six
        };
        let err = weights::read(other, &bytes).unwrap_err();
        assert!(err.to_string().contains("the file is for"), "{err}");
    }
    // The 8x8 network: what ply evaluates 8x8 with (unless PLY_EVAL8 names another file),
    // ordering its moves by the shipped tables.
    let path = format!("{}/data/eval8-net.bin", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("the shipped network");
    let e = weights::read(BoardSize::Eight, &bytes).expect("loads");
    assert!(e.network().is_some());
    assert_eq!(e.for_ordering(), eval::tables(BoardSize::Eight).unwrap());
    if std::env::var_os("PLY_EVAL8").is_none() {
        let shipped = eval::builtin(BoardSize::Eight).unwrap();
        assert_eq!(
            &e.with_tempo(eval::shipped_tempo(BoardSize::Eight)),
            shipped
        );
    }
    assert!(weights::read(BoardSize::Eight, &bytes[..bytes.len() - 1]).is_err());
    assert!(weights::read(BoardSize::Six, &bytes).is_err());
}
