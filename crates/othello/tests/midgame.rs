//! The midgame engine: exact where it reaches the end (against plain minimax), and strong
//! enough to beat a random and a greedy player in matches.

use std::time::Duration;

use ply_othello::{
    analyze::{Discs64, WholeDiscs},
    eval,
    midgame::{analyze, best_move, Limits},
    BoardSize, Move, Position, Square,
};

/// The engine's static value: the learnt evaluation read from scratch (clamped to the
/// possible scores), or the disc difference on 4x4.
fn evaluate(p: u64, o: u64, size: BoardSize) -> i32 {
    // The engine clamps estimates to the possible scores.
    let bound = WholeDiscs(size.squares() as i32).in_64ths().0;
    match eval::builtin(size) {
        Some(e) => e.evaluate_reference(p, o).clamp(-bound, bound),
        None => {
            WholeDiscs(p.count_ones() as i32 - o.count_ones() as i32)
                .in_64ths()
                .0
        }
    }
}

/// Plain minimax to the end of the game: the slow, obviously right score.
fn minimax(pos: &Position) -> i32 {
    if pos.is_game_over() {
        return pos.final_score();
    }
    if !pos.can_move() {
        return -minimax(&pos.passed());
    }
    pos.legal_moves()
        .map(|sq| -minimax(&pos.play_unchecked(sq)))
        .max()
        .expect("a legal move")
}

/// Plain fixed-depth negamax over the same evaluation, passes free, finished games scored
/// exactly: what the fast search must return at the same depth.
fn negamax(pos: &Position, depth: u32) -> i32 {
    if pos.is_game_over() {
        return WholeDiscs(pos.final_score()).in_64ths().0;
    }
    if !pos.can_move() {
        return -negamax(&pos.passed(), depth);
    }
    if depth == 0 {
        return evaluate(pos.player().0, pos.opponent().0, pos.size());
    }
    pos.legal_moves()
        .map(|sq| -negamax(&pos.play_unchecked(sq), depth - 1))
        .max()
        .expect("a legal move")
}

/// ply's seeded generator, so every run plays the same games.
type Rng = ply_core::SplitMix64;

mod common;
use common::{random_move, random_position};

/// The move that turns the most discs (ties broken at random).
fn greedy_move(pos: &Position, rng: &mut Rng) -> Square {
    let moves: Vec<Square> = pos.legal_moves().collect();
    let most = moves.iter().map(|&m| pos.flips(m).count()).max().unwrap();
    let best: Vec<Square> = moves
        .into_iter()
        .filter(|&m| pos.flips(m).count() == most)
        .collect();
    best[rng.below(best.len())]
}

#[test]
fn deep_enough_analyses_equal_minimax_for_every_move() {
    let mut rng = Rng::new(0x5eed_0001);
    for case in 0..40 {
        let size = if case % 2 == 0 {
            BoardSize::Four
        } else {
            BoardSize::Six
        };
        let plies = if size == BoardSize::Four {
            rng.below(8)
        } else {
            22 + rng.below(6)
        };
        let pos = random_position(size, plies, &mut rng);
        let a = analyze(&pos, &Limits::default());
        assert!(a.all_exact, "case {case}: not exact");
        assert_eq!(
            a.score,
            WholeDiscs(minimax(&pos)).into(),
            "case {case}: position score"
        );
        for m in &a.moves {
            let want = -minimax(&pos.play_unchecked(m.square));
            assert_eq!(
                m.score,
                WholeDiscs(want).into(),
                "case {case}: move {}",
                m.square
            );
        }
        assert_eq!(a.moves.len() as u32, pos.legal_moves().count());
        assert!(a.moves.windows(2).all(|w| w[0].score >= w[1].score));
    }
}

/// The four first moves of 8x8 are images of each other under the board's symmetries, and
/// one thread values them alike at depths 4 to 7 (the selective search, the shipped
/// evaluation). Two or three threads must too: when the root moves were shared out afresh
/// each iteration, a move searched on a thread whose table did not hold its last search
/// came back two discs apart from its images (c4 and f5 -0.7, d3 and e6 +1.4, at depth 6).
#[test]
fn symmetric_first_moves_get_one_score_whatever_the_threads() {
    let start = Position::start(BoardSize::Eight);
    for depth in 4..=7 {
        for threads in 1..=3 {
            let a = analyze(
                &start,
                &Limits {
                    threads,
                    ..Limits::depth(depth)
                },
            );
            assert_eq!(a.moves.len(), 4);
            let scores: Vec<String> = a
                .moves
                .iter()
                .map(|m| format!("{} {:?}", m.square, m.score))
                .collect();
            assert!(
                a.moves.iter().all(|m| m.score == a.moves[0].score),
                "depth {depth}, {threads} threads: {scores:?}"
            );
        }
    }
}

#[test]
fn fixed_depth_scores_equal_plain_negamax() {
    let mut rng = Rng::new(0x5eed_0002);
    for case in 0..24 {
        let size = if case % 2 == 0 {
            BoardSize::Six
        } else {
            BoardSize::Eight
        };
        let pos = random_position(size, 4 + rng.below(20), &mut rng);
        if !pos.can_move() {
            continue;
        }
        let depth = 1 + (case % 4) as u32;
        let exhaustive = Limits {
            selective: false,
            ..Limits::depth(depth)
        };
        let a = analyze(&pos, &exhaustive);
        // Play mode proves the same best score.
        let play = analyze(
            &pos,
            &Limits {
                all_moves: false,
                ..exhaustive.clone()
            },
        );
        assert_eq!(play.score, a.score, "case {case}: play mode");
        assert_eq!(play.moves.len(), 1);
        // Two threads sharing out the root moves give every move the same score.
        let two = analyze(
            &pos,
            &Limits {
                threads: 2,
                ..exhaustive.clone()
            },
        );
        let by_square = |a: &ply_othello::analyze::Analysis| {
            let mut v: Vec<(u8, Discs64)> = a
                .moves
                .iter()
                .map(|m| (m.square.index(), m.score))
                .collect();
            v.sort_unstable();
            v
        };
        assert_eq!(by_square(&two), by_square(&a), "case {case}: two threads");
        assert_eq!(two.line.first(), two.best.map(Move::Play).as_ref());
        for m in &a.moves {
            let want = -negamax(&pos.play_unchecked(m.square), depth - 1);
            assert_eq!(
                m.score,
                Discs64(want),
                "case {case}, depth {depth}, move {}",
                m.square
            );
        }
        assert_eq!(a.score, Discs64(negamax(&pos, depth)), "case {case}");
    }
}

#[test]
fn shallow_analyses_are_marked_as_estimates() {
    let pos = Position::start(BoardSize::Eight);
    let a = analyze(&pos, &Limits::depth(3));
    assert!(!a.all_exact);
    assert_eq!(a.depth, 3);
    assert!(a.moves.iter().all(|m| !m.exact));
    assert_eq!(a.moves.len(), 4);
    assert_eq!(a.line.len(), 3);
    // The line is playable from the position.
    let mut cur = pos;
    for m in &a.line {
        cur = match m {
            Move::Play(sq) => cur.play(*sq).unwrap(),
            Move::Pass => cur.pass().unwrap(),
        };
    }
}

#[test]
fn passes_and_finished_games_are_handled() {
    // Black to move with no move, white has one: a pass comes first in the line.
    let pass = Position::from_raw(0b0010, 0b0001, ply_othello::Color::Black, BoardSize::Four);
    let over = Position::from_raw(0b0001, 0, ply_othello::Color::Black, BoardSize::Four);
    assert!(over.is_game_over());
    let a = analyze(&over, &Limits::default());
    assert_eq!(
        (a.best, a.score, a.all_exact),
        (None, WholeDiscs(16).in_64ths(), true)
    );
    assert!(!pass.can_move() && pass.passed().can_move());
    let a = analyze(&pass, &Limits::default());
    assert_eq!(a.best, None);
    assert_eq!(a.line.first(), Some(&Move::Pass));
    assert_eq!(a.score, WholeDiscs(minimax(&pass)).into());
}

#[test]
fn a_spent_budget_still_gives_an_answer() {
    let pos = Position::start(BoardSize::Eight);
    let a = analyze(&pos, &Limits::budget(Duration::ZERO));
    assert!(a.depth >= 1);
    assert!(a.best.is_some());
}

/// Plays one game; `engine_black` says which colour the engine has. Returns the engine's
/// final disc difference (empties to the winner).
fn play_match(
    size: BoardSize,
    engine_black: bool,
    limits: &Limits,
    opponent: fn(&Position, &mut Rng) -> Square,
    rng: &mut Rng,
) -> i32 {
    let mut pos = Position::start(size);
    while !pos.is_game_over() {
        if !pos.can_move() {
            pos = pos.passed();
            continue;
        }
        let engine_to_move = (pos.turn() == ply_othello::Color::Black) == engine_black;
        let sq = if engine_to_move {
            best_move(&pos, limits).expect("a move")
        } else {
            opponent(&pos, rng)
        };
        pos = pos.play(sq).expect("a legal move");
    }
    let black = pos.final_score()
        * if pos.turn() == ply_othello::Color::Black {
            1
        } else {
            -1
        };
    if engine_black {
        black
    } else {
        -black
    }
}

fn wins(
    size: BoardSize,
    games: usize,
    limits: &Limits,
    opponent: fn(&Position, &mut Rng) -> Square,
    seed: u64,
) -> usize {
    let mut rng = Rng::new(seed);
    (0..games)
        .filter(|&g| play_match(size, g % 2 == 0, limits, opponent, &mut rng) > 0)
        .count()
}

#[test]
fn beats_a_random_player_on_6x6_nearly_always() {
    let won = wins(BoardSize::Six, 20, &Limits::depth(2), random_move, 11);
    assert!(won >= 18, "won {won} of 20");
}

#[test]
fn beats_a_greedy_player_on_6x6_clearly() {
    let won = wins(BoardSize::Six, 20, &Limits::depth(2), greedy_move, 12);
    assert!(won >= 15, "won {won} of 20");
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn beats_random_and_greedy_players_on_8x8() {
    let limits = Limits::depth(4);
    let won = wins(BoardSize::Eight, 40, &limits, random_move, 21);
    assert!(won >= 38, "against random: won {won} of 40");
    let won = wins(BoardSize::Eight, 40, &limits, greedy_move, 22);
    assert!(won >= 32, "against greedy: won {won} of 40");
}
