//! The shipped 6x6 book: a weak solution of the opening for both colours (closed, exact),
//! and `analyze` answering from it.

use std::time::Duration;

use ply_othello::{
    analyze::{analyze, Engine, Options, WholeDiscs},
    book::{successors, Book},
    solve::{SolveOptions, Solver},
    BoardSize, Position,
};

fn book() -> &'static Book {
    Book::builtin(BoardSize::Six).expect("6x6 ships a book")
}

#[test]
fn the_6x6_book_is_a_weak_solution_to_its_depth() {
    let b = book();
    assert!(b.len() > 100, "{} positions", b.len());
    assert_eq!(b.first_gap(), None);
    let start = Position::start(BoardSize::Six);
    assert_eq!(b.lookup(&start).unwrap().score, WholeDiscs(-4));
    // A book move never gives away value: the book positions after it are worth no less.
    for (pos, m) in b.iter() {
        for next in successors(&pos, m.best) {
            if let Some(n) = b.lookup(&next) {
                assert!(n.score >= m.score, "{pos:?}: {m:?}, then {next:?} {n:?}");
            }
        }
    }
    assert!(b.is_exact());
}

#[test]
fn analyze_answers_the_6x6_start_from_the_book() {
    let start = Position::start(BoardSize::Six);
    let a = analyze(&start, &Options::budget(Duration::from_secs(1)));
    assert_eq!(a.engine, Engine::Book);
    assert!(a.proven && a.all_exact);
    assert_eq!(a.score, WholeDiscs(-4).in_64ths());
    assert_eq!(a.moves.len(), 4);
    assert!(a
        .moves
        .iter()
        .all(|m| m.exact && m.score == WholeDiscs(-4).in_64ths()));
    // Play mode too, and the line replays.
    let play = analyze(
        &start,
        &Options {
            all_moves: false,
            ..Options::budget(Duration::from_secs(1))
        },
    );
    assert_eq!(
        (play.score, play.engine),
        (WholeDiscs(-4).in_64ths(), Engine::Book)
    );
    let mut pos = start;
    for m in &a.line {
        pos = pos.play_move(*m).unwrap();
    }
    // Without the book the same call estimates.
    let off = analyze(
        &start,
        &Options {
            book: false,
            ..Options::depth(4)
        },
    );
    assert_ne!(off.engine, Engine::Book);
    assert!(!off.proven && !off.all_exact);
}

#[test]
#[ignore = "heavy: run with `cargo test --profile test-release -- --ignored`"]
fn book_values_and_moves_agree_with_the_solver() {
    let b = book();
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 64,
    });
    // Every 97th position of the deepest two layers, and the shallow ones with 26+ empties
    // would take minutes: the roots are covered by the start's value above.
    let deep: Vec<_> = b
        .iter()
        .filter(|(p, _)| p.empties().count() <= b.min_empties() + 1)
        .step_by(97)
        .collect();
    assert!(deep.len() >= 10, "{}", deep.len());
    for (pos, m) in deep {
        solver.clear();
        assert_eq!(solver.solve(&pos).score, m.score, "{pos:?}");
        let after = pos.play(m.best).unwrap();
        assert_eq!(-solver.solve(&after).score, m.score, "{pos:?} {m:?}");
    }
}
