//! The exact solver against plain negamax on random positions, and against the published
//! scores of the FFO forum positions (every listed move).

use std::sync::atomic::AtomicBool;

use ply_othello::{
    obf,
    reference::minimax,
    solve::{Pass, Progress, SolveControl, SolveOptions, Solver, Stopped},
    BoardSize, Color, Move, Position, Square,
};

/// ply's seeded generator: the same positions on every run.
type Rng = ply_core::SplitMix64;

/// A position reached by random play from the start until `empties` squares are left (or the
/// game ends first).
fn random_position(size: BoardSize, empties: u32, rng: &mut Rng) -> Position {
    let mut pos = Position::start(size);
    while pos.empties().count() > empties {
        let moves: Vec<Square> = pos.legal_moves().collect();
        if moves.is_empty() {
            if pos.passed().legal_moves().is_empty() {
                break;
            }
            pos = pos.passed();
            continue;
        }
        pos = pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    pos
}

/// Checks a solve of `pos` in every way it can be checked against `minimax`.
fn check(solver: &mut Solver, pos: &Position) {
    let children: Vec<(Square, i32)> = pos
        .legal_moves()
        .map(|sq| (sq, -minimax(&pos.play_unchecked(sq))))
        .collect();
    let want = children
        .iter()
        .map(|&(_, v)| v)
        .max()
        .unwrap_or_else(|| minimax(pos));
    let r = solver.solve(pos);
    assert_eq!(r.score.0, want, "score of {pos:?}");
    // The principal variation is a legal line that ends with that score.
    let mut end = *pos;
    for ply in &r.pv {
        end = match ply {
            Move::Pass => end.pass().expect("a pass in the pv is legal"),
            Move::Play(sq) => end.play(*sq).expect("a move in the pv is legal"),
        };
    }
    assert!(end.is_game_over(), "the pv of {pos:?} stops early");
    let sign = if end.turn() == pos.turn() { 1 } else { -1 };
    assert_eq!(sign * end.final_score(), want, "pv of {pos:?}");
    match r.best_move {
        Some(sq) => {
            assert_eq!(r.pv[0], Move::Play(sq));
            assert!(children.contains(&(sq, want)));
        }
        None => assert!(pos.legal_moves().is_empty()),
    }
    let all = solver.solve_all_moves(pos);
    assert_eq!(all.len() as u32, pos.legal_moves().count());
    for (sq, v) in all {
        assert!(children.contains(&(sq, v.0)), "move {sq} of {pos:?}");
    }
}

#[test]
fn four_by_four_start_is_a_white_win_by_ten() {
    let mut solver = Solver::new(SolveOptions::default());
    let pos = Position::start(BoardSize::Four);
    let r = solver.solve(&pos);
    assert_eq!(r.score.0, -10);
    assert_eq!(minimax(&pos), -10);
    check(&mut solver, &pos);
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn six_by_six_start_is_a_white_win_20_to_16() {
    let mut solver = Solver::new(SolveOptions {
        threads: 2,
        hash_mb: 512,
    });
    let start = Position::start(BoardSize::Six);
    let r = solver.solve(&start);
    assert_eq!(r.score.0, -4, "Feinstein (1993): white wins 20-16");
    // The perfect line is legal and ends 16-20.
    let mut end = start;
    for ply in &r.pv {
        end = match ply {
            Move::Pass => end.pass().expect("a pass in the pv is legal"),
            Move::Play(sq) => end.play(*sq).expect("a move in the pv is legal"),
        };
    }
    assert!(end.is_game_over(), "the pv stops early");
    assert_eq!(
        (end.disc_count(Color::Black), end.disc_count(Color::White)),
        (16, 20)
    );
}

/// Solves `count` positions of random games of `size` with `threads` threads over a table of
/// `hash_mb` megabytes, position `i` with `empties(i)` empty squares, each checked by [`check`].
fn agrees_with_minimax(
    size: BoardSize,
    seed: u64,
    (threads, hash_mb): (usize, usize),
    count: u32,
    empties: impl Fn(u32) -> u32,
) {
    let mut rng = Rng::new(seed);
    let mut solver = Solver::new(SolveOptions { threads, hash_mb });
    for i in 0..count {
        let pos = random_position(size, empties(i), &mut rng);
        check(&mut solver, &pos);
    }
}

#[test]
fn agrees_with_minimax_on_random_4x4_positions() {
    // A tiny table, so replacement and bucket collisions happen all the time.
    agrees_with_minimax(BoardSize::Four, 0x9e37_79b9_7f4a_7c15, (1, 1), 1500, |i| {
        1 + i % 10
    });
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn agrees_with_minimax_on_thousands_of_4x4_positions_up_to_twelve_empties() {
    agrees_with_minimax(BoardSize::Four, 0x0123_4567_89ab_cdef, (1, 1), 5000, |i| {
        1 + i % 12
    });
}

#[test]
fn agrees_with_minimax_on_random_8x8_positions() {
    agrees_with_minimax(BoardSize::Eight, 0x2545_f491_4f6c_dd1d, (1, 1), 400, |i| {
        1 + i % 8
    });
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn agrees_with_minimax_on_thousands_of_8x8_positions_up_to_ten_empties() {
    agrees_with_minimax(BoardSize::Eight, 0x1234_5678_9abc_def0, (1, 4), 3000, |i| {
        1 + i % 10
    });
}

#[test]
fn two_threads_agree_with_minimax() {
    agrees_with_minimax(BoardSize::Eight, 0x0dd_ba11_cafe_f00d, (2, 1), 200, |i| {
        6 + i % 4
    });
}

#[test]
fn a_raised_stop_flag_stops_the_search() {
    let stop = AtomicBool::new(true);
    let mut solver = Solver::new(SolveOptions::default());
    let pos = Position::start(BoardSize::Six);
    let r = solver.solve_with(
        &pos,
        SolveControl {
            stop: Some(&stop),
            ..SolveControl::default()
        },
    );
    assert_eq!(r, Err(Stopped));
    // The table is still sound afterwards.
    let pos = random_position(BoardSize::Eight, 9, &mut Rng::new(7));
    check(&mut solver, &pos);
}

fn obf_file(name: &str) -> Vec<(Position, Vec<(Move, i32)>)> {
    let path = format!("{}/../../testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    obf::parse_file(&text)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into_iter()
        .map(|e| {
            let moves = e.obf.moves.iter().map(|m| (m.mv, m.score)).collect();
            (e.obf.position, moves)
        })
        .collect()
}

/// Move scores the shared files get wrong under this project's rule (empty squares to the
/// winner), with the right score. fforum-20-39 line 12 (FFO #31) lists G1:-30, but after g1
/// white scores +32 (Edax 4.6 agrees: `lEdax -solve` on that child gives +32, along a line
/// that fills the board). The file's -30 presumably comes from a solver that left empty
/// squares uncounted.
fn known_misprint(name: &str, line: usize, mv: Move) -> Option<i32> {
    let g1 = Move::Play(Square::parse("g1").expect("a square"));
    (name == "fforum-20-39.obf" && line == 12 && mv == g1).then_some(-32)
}

/// Solves every position of an OBF file: the best score, and with `all_moves` the score of
/// every listed move.
fn check_obf(name: &str, range: std::ops::Range<usize>, all_moves: bool, threads: usize) {
    let mut solver = Solver::new(SolveOptions {
        threads,
        hash_mb: 64,
    });
    for (i, (pos, listed)) in obf_file(name).into_iter().enumerate() {
        if !range.contains(&i) {
            continue;
        }
        let best = listed.iter().map(|&(_, v)| v).max().expect("scores listed");
        let r = solver.solve(&pos);
        assert_eq!(r.score.0, best, "{name} line {}", i + 1);
        if all_moves {
            let all = solver.solve_all_moves(&pos);
            for (sq, v) in &listed {
                let got = all
                    .iter()
                    .find(|&&(s, _)| Move::Play(s) == *sq)
                    .map(|&(_, v)| v.0);
                let want = known_misprint(name, i + 1, *sq).unwrap_or(*v);
                assert_eq!(got, Some(want), "{name} line {}: move {sq}", i + 1);
            }
        }
    }
}

#[test]
fn fforum_1_to_9_best_scores_and_every_move() {
    check_obf("fforum-1-19.obf", 0..9, true, 2);
}

/// Lines in the shape of Edax's problem files, unused slots `--:-127` and all: every move of
/// each is scored, and the solver agrees with each score.
#[test]
fn edax_shaped_lines_read_and_every_move_agrees() {
    let lines = obf_file("edax-shape.obf");
    assert_eq!(lines.len(), 6);
    for (pos, listed) in &lines {
        let legal = usize::try_from(pos.legal_moves().count()).expect("small");
        assert_eq!(listed.len(), legal, "every move scored, no filler");
    }
    check_obf("edax-shape.obf", 0..6, true, 1);
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn fforum_1_to_19_every_move() {
    check_obf("fforum-1-19.obf", 0..19, true, 1);
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn fforum_20_to_39_every_move() {
    check_obf("fforum-20-39.obf", 0..20, true, 2);
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn ffo_40_to_44_best_scores() {
    check_obf("ffo40-49.obf", 0..5, false, 2);
}

#[test]
fn progress_names_each_pass_from_its_start() {
    // From 18 empties on, the selective passes go first, then the exact search; each search
    // of the root reports its start (no move done) before its moves.
    let pos = random_position(BoardSize::Six, 18, &mut Rng::new(3));
    assert_eq!(pos.empties().count(), 18);
    let mut seen: Vec<(Pass, usize)> = Vec::new();
    let mut solver = Solver::new(SolveOptions::default());
    let mut progress = |p: &Progress| seen.push((p.pass, p.done));
    solver
        .solve_with(
            &pos,
            SolveControl {
                progress: Some(&mut progress),
                ..SolveControl::default()
            },
        )
        .unwrap();
    let passes: Vec<Pass> = seen.iter().map(|&(p, _)| p).collect();
    let mut order = passes.clone();
    order.dedup();
    assert_eq!(
        order,
        [
            Pass::Selective { index: 0, of: 2 },
            Pass::Selective { index: 1, of: 2 },
            Pass::Exact
        ]
    );
    assert_eq!(seen[0].1, 0, "the first report is the start of a search");
    assert!(seen.iter().any(|&(_, done)| done > 0));
    assert!(Pass::Selective { index: 0, of: 2 }
        .sigma()
        .is_some_and(|s| s > 0.0));
}

#[test]
fn each_selective_pass_reports_its_settled_move_and_score_once() {
    // The reports an analysis replaces its estimate with: one per selective pass, after the
    // pass's last window, with a legal move; none for the exact search, whose result is the
    // answer itself.
    let pos = random_position(BoardSize::Six, 18, &mut Rng::new(5));
    let mut settled: Vec<(Pass, Square, i32, usize, usize)> = Vec::new();
    let mut solver = Solver::new(SolveOptions::default());
    let mut progress = |p: &Progress| {
        if p.settled {
            let (sq, v) = p.best.expect("a settled pass names its move");
            settled.push((p.pass, sq, v.0, p.done, p.total));
        }
    };
    let r = solver
        .solve_with(
            &pos,
            SolveControl {
                progress: Some(&mut progress),
                ..SolveControl::default()
            },
        )
        .unwrap();
    let passes: Vec<Pass> = settled.iter().map(|s| s.0).collect();
    assert_eq!(
        passes,
        [
            Pass::Selective { index: 0, of: 2 },
            Pass::Selective { index: 1, of: 2 }
        ]
    );
    for &(_, sq, v, done, total) in &settled {
        assert!(pos.is_legal(sq), "{sq}");
        assert_eq!(done, total);
        assert!(v.abs() <= 36 && v % 2 == 0, "{v}");
    }
    // The surer pass is usually right; here both agree with the exact score.
    assert_eq!(settled[1].2, r.score.0, "{settled:?} against {}", r.score);
}
