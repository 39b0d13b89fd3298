//! The game review: on endgames the solver finishes, every move's loss is the best score
//! less the played move's, both checked against the solver itself; marks follow the losses;
//! passes are listed and never valued; each side's sums add up.

use ply_core::SplitMix64;
use ply_othello::{
    analyze::Options,
    review::{self, Mark},
    solve::{SolveOptions, Solver},
    transcript, BoardSize, Color, GameRecord, Move, Position,
};

/// The first game of `testdata/ply-games.txt` to 12 empties, then played to the end by the
/// solver: the worst move on every third ply, the best elsewhere.
fn endgame(solver: &mut Solver) -> GameRecord {
    let text = include_str!("../../../testdata/ply-games.txt");
    let first = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let full = transcript::parse(first, Position::start(BoardSize::Eight)).unwrap();
    let mut pos = full.start();
    for (_, m) in full.plies() {
        if pos.empties().count() == 12 {
            break;
        }
        pos = pos.play_move(m).unwrap();
    }
    assert_eq!(pos.empties().count(), 12);
    let mut game = GameRecord::new(pos);
    let mut k = 0;
    while !game.position().is_game_over() {
        let now = game.position();
        if !now.can_move() {
            game.play(Move::Pass).unwrap();
            continue;
        }
        let all = solver.solve_all_moves(&now);
        let pick = if k % 3 == 2 {
            all.iter().min_by_key(|(_, v)| *v)
        } else {
            all.iter().max_by_key(|(_, v)| *v)
        };
        game.play(Move::Play(pick.unwrap().0)).unwrap();
        k += 1;
    }
    game
}

#[test]
fn an_exact_endgame_loses_best_less_played_on_every_move() {
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 16,
    });
    let game = endgame(&mut solver);
    let mut calls = Vec::new();
    let r = review::review(&game, &Options::depth(60), &mut |done, all| {
        calls.push((done, all));
    });
    assert_eq!(r.moves.len(), game.moves().len());
    assert_eq!(
        calls.last(),
        Some(&(game.moves().len(), game.moves().len()))
    );
    let mut marked = 0;
    for ((before, m), rm) in game.plies().zip(&r.moves) {
        assert_eq!(rm.played, m);
        assert_eq!(rm.turn, before.turn());
        let Move::Play(sq) = m else {
            assert_eq!((rm.loss, rm.mark, rm.best), (None, None, None));
            continue;
        };
        // The solver's own values: the position's, and the move's (the child's, negated).
        let value = solver.solve(&before).score.0;
        let played = -solver.solve(&before.play_unchecked(sq)).score.0;
        let (best, score, loss) = (rm.best_score.unwrap(), rm.score.unwrap(), rm.loss.unwrap());
        assert!(
            rm.exact && best.exact && score.exact && loss.exact,
            "{rm:?}"
        );
        assert_eq!(best.discs, f64::from(value), "{rm:?}");
        assert_eq!(score.discs, f64::from(played), "{rm:?}");
        assert_eq!(loss.discs, f64::from(value - played), "{rm:?}");
        let best_sq = rm.best.unwrap();
        assert_eq!(
            -solver.solve(&before.play_unchecked(best_sq)).score.0,
            value
        );
        let want = match value - played {
            0 => None,
            l if l >= 10 => Some(Mark::Blunder),
            _ => Some(Mark::Mistake),
        };
        assert_eq!(rm.mark, want, "{rm:?}");
        marked += usize::from(want.is_some());
        match want {
            None => assert_eq!(rm.comment(), format!("best {best}")),
            Some(mark) => assert!(rm.comment().starts_with(mark.symbol()), "{rm:?}"),
        }
    }
    assert!(marked > 0, "the worst moves cost something");
    // The sums.
    for (side, color) in [
        (&r.black_summary, Color::Black),
        (&r.white_summary, Color::White),
    ] {
        let mine: Vec<_> = r
            .moves
            .iter()
            .filter(|m| m.turn == color && m.played != Move::Pass)
            .collect();
        assert_eq!(side.moves as usize, mine.len());
        let total: f64 = mine.iter().map(|m| m.loss.unwrap().discs).sum();
        assert_eq!(side.total_loss.discs, total);
        assert!(side.total_loss.exact);
        let count = |mark| mine.iter().filter(|m| m.mark == Some(mark)).count() as u32;
        assert_eq!(
            (side.inaccuracies, side.mistakes, side.blunders),
            (
                count(Mark::Inaccuracy),
                count(Mark::Mistake),
                count(Mark::Blunder)
            )
        );
        assert_eq!(side.inaccuracies, 0, "an exact loss is never an inaccuracy");
    }
    let end = game.position();
    let black = if end.turn() == Color::Black {
        end.final_score()
    } else {
        -end.final_score()
    };
    assert_eq!(r.result, Some(black));
}

#[test]
fn passes_are_listed_and_never_valued() {
    // 4x4 games are solved in a blink and pass often: the first random one with a pass.
    let mut rng = SplitMix64::new(7);
    let game = (0..200)
        .map(|_| {
            let mut g = GameRecord::new(Position::start(BoardSize::Four));
            while !g.position().is_game_over() {
                let pos = g.position();
                let moves: Vec<_> = pos.legal_moves().collect();
                let m = if pos.can_move() {
                    Move::Play(moves[rng.below(moves.len())])
                } else {
                    Move::Pass
                };
                g.play(m).unwrap();
            }
            g
        })
        .find(|g| g.moves().contains(&Move::Pass))
        .expect("a 4x4 game with a pass");
    let r = review::review(&game, &Options::depth(16), &mut |_, _| {});
    let passes = r.moves.iter().filter(|m| m.played == Move::Pass).count();
    assert!(passes > 0);
    for m in &r.moves {
        if m.played == Move::Pass {
            assert_eq!((m.best, m.score, m.loss, m.mark), (None, None, None, None));
            assert!(m.comment().is_empty());
        } else {
            let l = m.loss.unwrap();
            assert_eq!(
                l.discs,
                m.best_score.unwrap().discs - m.score.unwrap().discs
            );
        }
    }
    let played = r.black_summary.moves + r.white_summary.moves;
    assert_eq!(played as usize + passes, r.moves.len());
    assert_eq!(r.opening, None, "no names on 4x4");
}

#[test]
fn estimated_losses_are_marked_by_the_thresholds() {
    // The page's thresholds, and the inaccuracy below them for estimates only.
    let cases = [
        (0.0, false, None),
        (1.9, false, None),
        (2.0, false, Some(Mark::Inaccuracy)),
        (3.9, false, Some(Mark::Inaccuracy)),
        (4.0, false, Some(Mark::Mistake)),
        (9.9, false, Some(Mark::Mistake)),
        (10.0, false, Some(Mark::Blunder)),
        (2.0, true, Some(Mark::Mistake)),
        (8.0, true, Some(Mark::Mistake)),
        (10.0, true, Some(Mark::Blunder)),
        (0.0, true, None),
    ];
    for (loss, exact, want) in cases {
        assert_eq!(Mark::of(loss, exact), want, "{loss} {exact}");
    }
}
