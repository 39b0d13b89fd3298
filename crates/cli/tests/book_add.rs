//! `ply othello book add`: the opening positions of WTHOR games searched into a searched 8x8
//! book (the shipped one here), negamaxed through it and written whole; broken inputs
//! refused naming the file.

mod common;

use std::{
    fs,
    path::{Path, PathBuf},
    process::Output,
};

use common::{ply, s, scratch, stderr, stdout};
use ply_othello::{
    book::{self, Book},
    text,
    wthor::Database,
    Position,
};

/// The shipped 8x8 book, the one the tests add to.
fn book8() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../othello/data/book8.bin")
}

/// A WTHOR database of ply's own games (`testdata/ply-games.txt`), made by `games make`.
fn database(dir: &Path) -> PathBuf {
    let games = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/ply-games.txt");
    let out = dir.join("games.wtb");
    let o = ply(&["othello", "games", "make", s(&out), "--from", s(&games)]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

/// `ply othello book add BOOK GAMES --out OUT --depth DEPTH` and the options `more`.
fn add(book: &Path, games: &Path, out: &Path, depth: &str, more: &[&str]) -> Output {
    let mut args = vec![
        "othello",
        "book",
        "add",
        s(book),
        s(games),
        "--out",
        s(out),
        "--depth",
        depth,
    ];
    args.extend_from_slice(more);
    ply(&args)
}

/// Where a move of `pos` leads a book: `None` at the end of the game, else the next
/// position that can move and the sign that turns its value into the mover's.
fn next(pos: &Position, square: ply_othello::Square) -> Option<(Position, i32)> {
    let child = pos.play(square).unwrap();
    if child.is_game_over() {
        None
    } else if child.can_move() {
        Some((child, -1))
    } else {
        Some((child.passed(), 1))
    }
}

#[test]
fn games_positions_are_searched_into_the_book_and_negamaxed() {
    let dir = scratch("book-add");
    let db = database(&dir);
    let out = dir.join("added.bin");
    let o = add(&book8(), &db, &out, "3", &["--plies", "20"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(report.starts_with("8 games in 1 file; "), "{report}");
    let old = Book::read(&fs::read(book8()).unwrap()).unwrap();
    let new = Book::read(&fs::read(&out).unwrap()).unwrap();
    let added = new.len() - old.len();
    assert!(added > 50, "{report}");
    // The start and the first moves are in the shipped book already.
    let present = format!("{added} added (searched at depth 3), ");
    assert!(report.contains(&present), "{report}");
    assert!(!report.contains(" 0 in the book already"), "{report}");

    // Every position of the games' first 20 moves is in the new book; the one after them
    // is not added.
    let games = Database::read(&fs::read(&db).unwrap()).unwrap().games;
    let mut only_games = None;
    for g in &games {
        for pos in book::game_positions(&g.game, 20) {
            assert!(
                new.lookup(&pos).is_some(),
                "{}",
                text::format_position(&pos)
            );
            if old.lookup(&pos).is_none() {
                only_games = Some(pos);
            }
        }
        let after: Vec<Position> = book::game_positions(&g.game, 21).collect();
        if let Some(p) = after.get(20) {
            assert_eq!(
                new.lookup(p).is_some(),
                old.lookup(p).is_some(),
                "{}",
                text::format_position(p)
            );
        }
    }

    // The book is negamaxed: a move that leads to a book position takes its value; the
    // others keep their search's score (the old book's, or depth 3 for a new position).
    let mut into_new = 0;
    let mut unchanged = 0;
    for (pos, _) in new.iter() {
        let was = old.moves(&pos);
        for m in new.moves(&pos).unwrap() {
            match next(&pos, m.square).and_then(|(q, sign)| new.lookup(&q).map(|b| (q, sign, b))) {
                Some((q, sign, b)) => {
                    assert_eq!((m.score, m.depth), (b.score * sign, b.depth + 1));
                    if was.is_some() && old.lookup(&q).is_none() {
                        into_new += 1;
                    }
                }
                None => match &was {
                    Some(was) => {
                        let w = was.iter().find(|w| w.square == m.square).unwrap();
                        assert_eq!((m.score, m.depth), (w.score, w.depth));
                    }
                    None => assert_eq!(m.depth, 3),
                },
            }
        }
        if was.is_some_and(|w| w == new.moves(&pos).unwrap()) {
            unchanged += 1;
        }
    }
    assert!(into_new > 0, "no old position leads to an added one");
    assert!(unchanged > old.len() / 2, "{unchanged} of {}", old.len());

    // It reads back with `book info`, and `analyze --book` answers from it on a position
    // only a game reached.
    let o = ply(&["othello", "book", "info", s(&out), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["positions"], new.len());
    assert_eq!(v["kind"], "searched");
    let pos = text::format_position(&only_games.expect("a position only the games reach"));
    let o = ply(&[
        "othello",
        "analyze",
        &pos,
        "--book",
        s(&out),
        "--depth",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("(book: "), "{}", stdout(&o));
    let o = ply(&["othello", "analyze", &pos, "--depth", "1"]);
    assert!(!stdout(&o).contains("(book: "), "{}", stdout(&o));

    // The same inputs give the same bytes, whatever the threads.
    let again = dir.join("again.bin");
    let o = add(&book8(), &db, &again, "3", &["--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(fs::read(&out).unwrap(), fs::read(&again).unwrap());

    // Adding the same games again adds nothing and changes nothing.
    let twice = dir.join("twice.bin");
    let o = add(&out, &db, &twice, "3", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(": 0 added"), "{}", stdout(&o));
    assert_eq!(fs::read(&out).unwrap(), fs::read(&twice).unwrap());
}

#[test]
fn an_edax_book_takes_the_games_and_stays_partial() {
    let dir = scratch("book-add-edax");
    let db = database(&dir);
    let dat = dir.join("book8.dat");
    let o = ply(&["othello", "book", "export", s(&book8()), "--out", s(&dat)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("added.bin");
    let o = add(&dat, &db, &out, "2", &["--plies", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let old = Book::read_edax(&fs::read(&dat).unwrap()).unwrap();
    let new = Book::read(&fs::read(&out).unwrap()).unwrap();
    assert!(new.is_partial() && new.len() > old.len());
    for g in Database::read(&fs::read(&db).unwrap()).unwrap().games {
        for pos in book::game_positions(&g.game, 8) {
            let moves = new.moves(&pos).unwrap();
            if old.lookup(&pos).is_none() {
                // A new position scores every move, as a searched book does.
                assert_eq!(moves.len() as u32, pos.legal_moves().count());
            }
        }
    }
}

#[test]
fn bad_inputs_are_refused_naming_the_file_and_nothing_is_written() {
    let dir = scratch("book-add-bad");
    let db = database(&dir);
    let bytes = fs::read(&db).unwrap();
    let torn = dir.join("torn.wtb");
    fs::write(&torn, &bytes[..bytes.len() - 10]).unwrap();
    // Game 1's first move on d4, a square taken at the start.
    let mut broken = bytes.clone();
    broken[16 + 8] = 44;
    let illegal = dir.join("illegal.wtb");
    fs::write(&illegal, &broken).unwrap();
    let six = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../othello/data/book6.bin");
    let missing = dir.join("missing.wtb");
    let out = dir.join("out.bin");
    let book = book8();
    let cases: [(&PathBuf, &PathBuf, &str); 5] = [
        (
            &book,
            &torn,
            "torn.wtb: record 8, field `record` (byte 492)",
        ),
        (&book, &illegal, "illegal.wtb: record 1, field `moves`"),
        (&six, &db, "book6.bin: a 6x6 book; WTHOR games are 8x8"),
        (&book, &missing, "missing.wtb: no such file"),
        (&missing, &db, "missing.wtb: no such file"),
    ];
    for (b, games, needle) in cases {
        let o = add(b, games, &out, "2", &[]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{needle}: {}", stderr(&o));
        assert!(!out.exists());
    }
}
