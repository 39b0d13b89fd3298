//! The solver's unit tests: passes and windows, stops, the clock, options.

use super::*;
use crate::eval::Eval;

#[test]
fn confidence_is_the_normal_chance_within_sigma() {
    for (sigma, want) in [
        (1.0, 0.682_689),
        (1.1, 0.728_668),
        (2.0, 0.954_500),
        (3.0, 0.997_300),
    ] {
        assert!(
            (normal_within(sigma) - want).abs() < 1e-5,
            "{sigma}: {}",
            normal_within(sigma)
        );
    }
}
use crate::BoardSize;

/// A position with 33 legal moves (more than a move list of 32 holds) is searched without
/// a panic; far from its end, the search stops at its deadline, read on a clock that
/// moves 20 ms a read (the search reads it every `POLL_EVERY` nodes): at the first look
/// past the deadline, not after the rating of the root's 33 children.
#[test]
fn thirty_three_moves_fit_the_move_lists() {
    use std::time::Duration;
    let pos = crate::text::parse_position(
        "---------O-O--OO-OXOO-XX-OXXXXO--X-OO----OO---O--OX-OXO---XO-XO- X",
    )
    .expect("a valid position");
    assert_eq!(pos.legal_moves().count(), 33);
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 1,
    });
    let step = Duration::from_millis(20);
    let clock = crate::spine::clock::SteppingClock::new(step);
    let budget = Duration::from_millis(60);
    let control = SolveControl {
        deadline: Some(clock.now() + budget),
        clock: &clock,
        ..SolveControl::default()
    };
    assert_eq!(solver.solve_with(&pos, control), Err(Stopped));
    // The read that made the deadline, then the one that found it passed.
    assert_eq!(clock.elapsed(), budget + step);
}

/// Every image of positions early in 4x4 games (where the table is keyed by symmetry)
/// solves to the plain negamax score with one table shared by all of them, and its best
/// move is the image of a best move.
#[test]
fn images_share_the_table_and_keep_their_scores() {
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 1,
    });
    // The start, and the positions two and three plies in.
    let mut positions = vec![Position::start(BoardSize::Four)];
    let mut ply = positions.clone();
    for depth in 1..=3 {
        ply = ply
            .iter()
            .flat_map(|p| p.legal_moves().map(|sq| p.play_unchecked(sq)))
            .collect();
        if depth >= 2 {
            positions.extend(&ply);
        }
    }
    for pos in &positions {
        let want = crate::reference::minimax(pos);
        let children: Vec<(u8, i32)> = pos
            .legal_moves()
            .map(|sq| {
                (
                    sq.index(),
                    -crate::reference::minimax(&pos.play_unchecked(sq)),
                )
            })
            .collect();
        // The score of the move of an image that is the image of `sq`.
        let score_of = |sq: Square, s: u8| {
            let original = symmetry::square(sq.index(), symmetry::inverse(s), 4);
            children.iter().find(|c| c.0 == original).map(|c| c.1)
        };
        for s in 0..symmetry::COUNT {
            let img = symmetry::image(pos, s);
            let r = solver.solve(&img);
            assert_eq!(r.score.0, want, "image {s} of {pos:?}");
            if let Some(sq) = r.best_move {
                assert_eq!(score_of(sq, s), Some(want));
            }
            let all = solver.solve_all_moves(&img);
            assert_eq!(all.len(), children.len());
            for (sq, v) in all {
                assert_eq!(
                    score_of(sq, s),
                    Some(v.0),
                    "move {sq} of image {s} of {pos:?}"
                );
            }
        }
    }
}

/// Plain minimax over the learnt evaluation, no pruning: the reference for `eval_search`.
fn eval_minimax(e: &Eval, p: u64, o: u64, empties: u64, depth: u32) -> i32 {
    if depth == 0 {
        return e.evaluate_reference(p, o);
    }
    let moves = crate::moves::legal_moves(p, o, empties);
    if moves == 0 {
        if crate::moves::legal_moves(o, p, empties) == 0 {
            let squares = (p | o | empties).count_ones();
            return crate::final_score(p, o, squares) * crate::eval::UNIT;
        }
        return -eval_minimax(e, o, p, empties, depth);
    }
    (0..64)
        .filter(|&sq| moves >> sq & 1 != 0)
        .map(|sq| {
            let f = crate::moves::flips(p, o, sq);
            let (np, no) = (o ^ f, p | f | 1 << sq);
            -eval_minimax(e, np, no, empties & !(1 << sq), depth - 1)
        })
        .max()
        .unwrap()
}

/// The evaluation searched with alpha-beta, its children ordered and null windows, gives
/// the minimax value inside its window and a true bound outside it, on 6x6 and 8x8
/// positions from random games, to the end of the game too.
#[test]
fn eval_search_is_minimax_over_the_evaluation() {
    let mut rng = ply_core::SplitMix64::new(0x2545_f491_4f6c_dd1d);
    for size in [BoardSize::Six, BoardSize::Eight] {
        let e = crate::eval::builtin(size).expect("shipped weights");
        let squares = size.squares() as usize;
        for game in 0..12 {
            let mut pos = Position::start(size);
            let plies = rng.below(squares - 4);
            for _ in 0..plies {
                let moves: Vec<_> = pos.legal_moves().collect();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play_unchecked(moves[rng.below(moves.len())]);
            }
            let (p, o) = (pos.player().0, pos.opponent().0);
            let empties = !(p | o) & size.mask().0;
            for depth in 0..=3 {
                let want = eval_minimax(e, p, o, empties, depth);
                let mut st = e.state(p, o);
                let (a, b) = (-EVAL_BOUND, EVAL_BOUND);
                let full = crate::spine::order::eval_search(
                    crate::cpu::Baseline,
                    e,
                    &mut st,
                    p,
                    o,
                    empties,
                    depth,
                    a,
                    b,
                    &mut 0,
                );
                assert_eq!(st, e.state(p, o), "the state is left as it was");
                assert_eq!(full, want, "{size:?} game {game} depth {depth}: {pos:?}");
                for (a, b) in [
                    (want - 100, want - 1),
                    (want + 1, want + 90),
                    (want - 5, want + 5),
                ] {
                    let v = crate::spine::order::eval_search(
                        crate::cpu::Baseline,
                        e,
                        &mut st,
                        p,
                        o,
                        empties,
                        depth,
                        a,
                        b,
                        &mut 0,
                    );
                    if v <= a {
                        assert!(want <= v, "fail-low {v} under {want}: {pos:?}");
                    } else if v >= b {
                        assert!(want >= v, "fail-high {v} over {want}: {pos:?}");
                    } else {
                        assert_eq!(v, want, "{pos:?}");
                    }
                }
            }
        }
    }
}

/// Along random games with passes, the states kept per number of empties (derived from
/// the parent, the same position, a pass, or afresh after a jump elsewhere) equal fresh
/// ones.
#[test]
fn kept_states_equal_fresh_ones() {
    let mut rng = ply_core::SplitMix64::new(0x9e37_79b9);
    for size in [BoardSize::Six, BoardSize::Eight] {
        let e = crate::eval::builtin(size).expect("shipped weights");
        let mut states = search::States::new(size.squares());
        for _ in 0..20 {
            let mut pos = Position::start(size);
            while !pos.is_game_over() {
                let (p, o) = (pos.player().0, pos.opponent().0);
                let n = pos.empties().count();
                // Now and then a node skips its state, as a node cut early does.
                if rng.below(4) != 0 {
                    assert_eq!(*states.get(e, p, o, n), e.state(p, o), "{pos:?}");
                }
                let moves: Vec<_> = pos.legal_moves().collect();
                pos = if moves.is_empty() {
                    pos.passed()
                } else {
                    pos.play_unchecked(moves[rng.below(moves.len())])
                };
            }
        }
    }
}

/// The nodes of a solve with fewer than `NEAR_END` empties go in the calling thread's own
/// table and those with more in the shared one: after solving an endgame of 17 empties
/// (fforum #1, +18), the positions of its principal variation are found in the table of
/// their depth and in no other; and solving it again from those tables gives the same answer.
#[test]
fn nodes_near_the_end_go_in_the_threads_own_table() {
    let pos = crate::text::parse_position(
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    )
    .expect("a valid position");
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 1,
    });
    let r = solver.solve(&pos);
    assert_eq!(r.score.0, 18);
    let geo = Geometry::of(pos.size());
    let (mut near_found, mut shared_found) = (0, 0);
    let mut at = pos;
    for mv in &r.pv {
        let n = at.empties().count();
        if n >= search::DEEP {
            let key = tt::key(geo, at.player().0, at.opponent().0, n);
            let (near, shared) = (solver.near[0].probe(key.hash), solver.tt.probe(key.hash));
            if n < search::NEAR_END {
                assert!(shared.is_none(), "{n} empties in the shared table");
                near_found += usize::from(near.is_some());
            } else {
                assert!(near.is_none(), "{n} empties in the own table");
                shared_found += usize::from(shared.is_some());
            }
        }
        at = at.play_move(*mv).expect("the principal variation is legal");
    }
    assert!(
        near_found >= 3 && shared_found >= 3,
        "{near_found} {shared_found}"
    );
    assert_eq!(solver.solve(&pos).score.0, 18);
}

/// `each_move`, which takes a symmetric image's score without a search, gives every move
/// the score that searching it gives (the slow reference: `minimax` on each child), on the
/// 4x4 start (whose four moves are images of one another) and positions after it; only the
/// first of a set of images is searched.
#[test]
fn each_move_scores_an_image_as_a_search_would() {
    let start = Position::start(BoardSize::Four);
    let mut positions = vec![start];
    for sq in start.legal_moves() {
        let after = start.play_unchecked(sq);
        positions.extend(after.legal_moves().map(|s| after.play_unchecked(s)));
    }
    for pos in positions.iter().filter(|p| p.can_move()) {
        let moves: Vec<Square> = pos.legal_moves().collect();
        let mut searched = 0;
        let mut found = Vec::new();
        let done: Result<(), std::convert::Infallible> = each_move(
            pos,
            &moves,
            |child| {
                searched += 1;
                Ok((WholeDiscs(crate::reference::minimax(child)), ()))
            },
            |i, sq, score, r| found.push((i, sq, score, r.is_some())),
        );
        assert!(done.is_ok());
        assert_eq!(found.len(), moves.len());
        for (k, &(i, sq, score, _)) in found.iter().enumerate() {
            assert_eq!((i, sq), (k, moves[k]));
            let child = pos.play_unchecked(sq);
            assert_eq!(
                score.0,
                -crate::reference::minimax(&child),
                "{sq} of {pos:?}"
            );
        }
        let images = found.iter().filter(|f| !f.3).count();
        assert_eq!(searched + images, moves.len());
        if *pos == start {
            assert_eq!(
                (searched, images),
                (1, 3),
                "the start's moves are one image"
            );
        }
    }
}
