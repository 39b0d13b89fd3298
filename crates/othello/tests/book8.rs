//! The shipped 8x8 book (`data/book8.bin`, `scripts/build-book8`): searched, negamaxed
//! through itself, and the analysis answering from it with every move marked `book`.

use ply_othello::{
    analyze::{analyze, Discs64, Engine, Options, WholeDiscs},
    book::Book,
    BoardSize, Position,
};

/// The shipped book, with this test process evaluating 8x8 by the shipped tables: the book
/// was built and scored with them (`scripts/build-book8`, before the network was shipped),
/// so a fresh search reproduces its leaves only with them. Every test here starts from this,
/// so the variable is set before anything evaluates.
fn book() -> &'static Book {
    static TABLES: std::sync::Once = std::sync::Once::new();
    TABLES.call_once(|| {
        let tables = format!("{}/data/eval8.bin", env!("CARGO_MANIFEST_DIR"));
        std::env::set_var("PLY_EVAL8", tables);
    });
    Book::builtin(BoardSize::Eight).expect("8x8 ships a book")
}

/// The depth of the book's searches: the least depth of a move (one scored by its own
/// search, not through the book).
fn search_depth(b: &Book) -> u32 {
    b.iter()
        .flat_map(|(p, _)| b.moves(&p).unwrap())
        .map(|m| m.depth)
        .min()
        .unwrap()
}

/// The value of the position after `pos` plays `sq`, for the side that played it, as the
/// book knows it (across a pass too), with its depth.
fn through_book(b: &Book, pos: &Position, sq: ply_othello::Square) -> Option<(WholeDiscs, u32)> {
    let child = pos.play(sq).unwrap();
    if child.is_game_over() {
        return None;
    }
    if child.can_move() {
        b.lookup(&child).map(|m| (-m.score, m.depth + 1))
    } else {
        b.lookup(&child.passed()).map(|m| (m.score, m.depth + 1))
    }
}

#[test]
fn the_8x8_book_is_searched_and_negamaxed_through_itself() {
    let b = book();
    assert!(!b.is_exact());
    assert!(b.len() >= 100, "{} positions", b.len());
    let start = Position::start(BoardSize::Eight);
    assert!(b.lookup(&start).is_some(), "the start is in the book");
    let depth = search_depth(b);
    assert!(depth >= 10, "searched to depth {depth}");
    let mut through = 0;
    for (pos, best) in b.iter() {
        let moves = b.moves(&pos).unwrap();
        assert_eq!(moves.len() as u32, pos.legal_moves().count());
        assert_eq!((moves[0].square, moves[0].score), (best.best, best.score));
        for m in &moves {
            match through_book(b, &pos, m.square) {
                // A move that stays in the book carries the book's value of where it leads.
                Some(v) => {
                    through += 1;
                    assert_eq!((m.score, m.depth), v, "{pos:?} {m:?}");
                }
                // One that leaves it, its own search's.
                None => assert_eq!(m.depth, depth, "{pos:?} {m:?}"),
            }
        }
    }
    assert!(through >= b.len() / 2, "{through} moves through the book");
}

#[test]
fn analyze_answers_the_8x8_start_from_the_book_marking_every_move() {
    let b = book();
    let start = Position::start(BoardSize::Eight);
    let known = b.lookup(&start).unwrap();
    let a = analyze(&start, &Options::depth(30));
    assert_eq!(a.engine, Engine::Book);
    assert!(!a.proven && !a.all_exact);
    assert_eq!(
        (a.best, a.score),
        (Some(known.best), Discs64::from(known.score))
    );
    assert_eq!(a.depth, known.depth);
    assert_eq!(a.nodes, 0);
    assert_eq!(a.moves.len(), 4);
    assert!(a.moves.iter().all(|m| m.book && !m.exact));
    // The line follows the book's best moves for both sides while it knows the position.
    assert!(a.line.len() >= 2, "{:?}", a.line);
    // Play mode answers at once too; without the book the engine searches.
    let play = analyze(
        &start,
        &Options {
            all_moves: false,
            ..Options::depth(30)
        },
    );
    assert_eq!((play.engine, play.best), (Engine::Book, Some(known.best)));
    let off = analyze(
        &start,
        &Options {
            book: false,
            ..Options::depth(4)
        },
    );
    assert_eq!(off.engine, Engine::Midgame);
    assert!(off.moves.iter().all(|m| !m.book));
}

#[test]
fn every_book_position_is_answered_from_the_book() {
    let b = book();
    for (pos, best) in b.iter().step_by(7) {
        let a = analyze(&pos, &Options::depth(2));
        assert_eq!(a.engine, Engine::Book, "{pos:?}");
        assert_eq!(
            (a.best, a.score),
            (Some(best.best), Discs64::from(best.score))
        );
        assert!(a.moves.iter().all(|m| m.book));
    }
}

#[test]
#[ignore = "heavy: run with `cargo test --profile test-release -- --ignored`"]
fn sampled_book_values_agree_with_a_fresh_search() {
    let b = book();
    let depth = search_depth(b);
    let search = |p: &Position| {
        analyze(
            p,
            &Options {
                solver: false,
                book: false,
                ..Options::depth(depth)
            },
        )
    };
    let entries: Vec<_> = b.iter().collect();
    // Leaves (no move through the book): the book holds that search's scores, reproduced
    // exactly by a fresh one.
    let leaves: Vec<&Position> = entries
        .iter()
        .filter(|(p, _)| p.legal_moves().all(|sq| through_book(b, p, sq).is_none()))
        .map(|(p, _)| p)
        .step_by(53)
        .take(3)
        .collect();
    assert!(!leaves.is_empty());
    for pos in leaves {
        let fresh = search(pos);
        for m in b.moves(pos).unwrap() {
            let f = fresh.moves.iter().find(|f| f.square == m.square).unwrap();
            assert_eq!(m.score, f.score.nearest(), "{pos:?} {m:?}");
        }
    }
    // Inner positions: the negamaxed value rests on deeper searches; a fresh search of the
    // book's depth agrees with it within that search's error (a few discs).
    let inner: Vec<&Position> = entries
        .iter()
        .filter(|(p, _)| p.legal_moves().any(|sq| through_book(b, p, sq).is_some()))
        .map(|(p, _)| p)
        .step_by(29)
        .take(4)
        .collect();
    let mut error = 0;
    for pos in &inner {
        let fresh = search(pos);
        error += (fresh.score.nearest() - b.lookup(pos).unwrap().score)
            .0
            .abs();
    }
    let mean = f64::from(error) / inner.len() as f64;
    eprintln!(
        "{} inner positions: a fresh search differs by {mean} discs on average",
        inner.len()
    );
    assert!(
        mean <= 4.0,
        "mean difference {mean} discs over {}",
        inner.len()
    );
}

#[test]
fn a_chosen_partial_book_answers_play_with_its_best_move_and_analysis_beside_the_engine() {
    use ply_othello::book::ScoredMove;
    book();
    let start = Position::start(BoardSize::Eight);
    let f5 = ScoredMove {
        square: ply_othello::Square::parse("f5").unwrap(),
        score: WholeDiscs(7),
        depth: 9,
    };
    let custom =
        std::sync::Arc::new(Book::from_partial(BoardSize::Eight, [(start, vec![f5])]).unwrap());
    let opts = Options {
        book_file: Some(custom),
        solver: false,
        ..Options::depth(2)
    };
    // Play: the book's best move is its best of all.
    let play = analyze(
        &start,
        &Options {
            all_moves: false,
            ..opts.clone()
        },
    );
    assert_eq!(play.engine, Engine::Book);
    assert_eq!(
        (play.best, play.score),
        (Some(f5.square), WholeDiscs(7).in_64ths())
    );
    // Analysis: the book's move beside the engine's estimates of the others.
    let all = analyze(&start, &opts);
    assert_eq!(all.engine, Engine::Mixed);
    assert_eq!(all.moves.len(), 4);
    assert_eq!(
        (all.moves[0].square, all.moves[0].score, all.moves[0].book),
        (f5.square, WholeDiscs(7).in_64ths(), true)
    );
    assert!(all.moves[1..].iter().all(|m| !m.book));
    // An 8x8 book is no book of a 6x6 position: the request that carries it is refused, and
    // options built by hand answer without a book, never from the shipped 6x6 one in its
    // place.
    let request = ply_othello::analyze::Request {
        book_file: opts.book_file.clone(),
        ..ply_othello::analyze::Request::default()
    };
    let refused = request.options(BoardSize::Six).unwrap_err().to_string();
    assert!(refused.contains("an 8x8 book"), "{refused}");
    let six = analyze(&Position::start(BoardSize::Six), &opts);
    assert_eq!(six.engine, Engine::Midgame);
}
