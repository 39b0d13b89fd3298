//! The opening names: every line of the shipped list legal and ending in a position of its
//! own; names found by position, so mirror images and transpositions are named too; a
//! position off the lines unnamed.

use std::collections::HashMap;

use ply_othello::{opening, transcript, BoardSize, GameRecord, Move, Position, Square};

const LIST: &str = include_str!("../data/openings.txt");

fn start() -> Position {
    Position::start(BoardSize::Eight)
}

fn play(moves: &str) -> GameRecord {
    transcript::parse(moves, start()).unwrap()
}

/// The eight symmetries of the 8x8 board on one square, written out square by square.
fn image(sq: Square, s: u8) -> Square {
    let (c, r) = (sq.col(), sq.row());
    let (c, r) = if s & 4 != 0 { (r, c) } else { (c, r) };
    let c = if s & 1 != 0 { 7 - c } else { c };
    let r = if s & 2 != 0 { 7 - r } else { r };
    Square::new(c, r).unwrap()
}

/// A position's eight images, as (black discs, white discs) pairs, the least first.
fn least_image(pos: &Position) -> (u64, u64) {
    let discs =
        |b: ply_othello::Bitboard, s: u8| -> u64 { b.map(|sq| 1u64 << image(sq, s).index()).sum() };
    (0..8)
        .map(|s| (discs(pos.player(), s), discs(pos.opponent(), s)))
        .min()
        .unwrap()
}

#[test]
fn every_line_is_legal_and_ends_in_a_position_of_its_own() {
    let lines = opening::parse(LIST).expect("every line legal");
    assert!(lines.len() >= 70, "{} lines", lines.len());
    assert_eq!(opening::lines().len(), lines.len());
    let mut ends: HashMap<(u64, u64), &str> = HashMap::new();
    let mut names: HashMap<&str, usize> = HashMap::new();
    for (line, game) in &lines {
        assert!(!line.name.is_empty() && game.moves().len() >= 2, "{line:?}");
        assert!(
            game.moves().iter().all(|m| *m != Move::Pass),
            "no pass in an opening: {line:?}"
        );
        if let Some(other) = ends.insert(least_image(&game.position()), line.name) {
            panic!("{} and {other} end in the same position", line.name);
        }
        if let Some(row) = names.insert(line.name, line.row) {
            panic!("{} twice, rows {row} and {}", line.name, line.row);
        }
        // Each line's own end is named by it.
        assert_eq!(opening::name(&game.position()), Some(line.name), "{line:?}");
    }
}

#[test]
fn a_bad_row_is_refused_naming_it() {
    let e = opening::parse("# header\nf5d6 Perpendicular\nf5f5 Nonsense\n").unwrap_err();
    assert_eq!(e.line(), Some(3), "{e}");
    assert!(e.to_string().contains("f5f5"), "{e}");
    let e = opening::parse("f5d6c3\n").unwrap_err();
    assert!(
        e.to_string().starts_with("line 1: expected the moves"),
        "{e}"
    );
}

#[test]
fn the_tiger_is_named_from_f5_and_from_its_mirror_images() {
    let tiger = play("f5d6c3d3c4").moves().to_vec();
    let mut firsts = Vec::new();
    for s in 0..8 {
        let moves: Vec<String> = tiger
            .iter()
            .map(|m| match m {
                Move::Play(sq) => image(*sq, s).to_string(),
                Move::Pass => unreachable!(),
            })
            .collect();
        // The start position has four of the board's symmetries: the other four images of
        // the line are not games from it.
        let Ok(game) = transcript::parse(&moves.concat(), start()) else {
            continue;
        };
        assert_eq!(opening::name(&game.position()), Some("Tiger"), "{moves:?}");
        assert_eq!(opening::name_of_game(&game), Some("Tiger"), "{moves:?}");
        firsts.push(moves[0].clone());
    }
    firsts.sort();
    assert_eq!(firsts, ["c4", "d3", "e6", "f5"]);
}

#[test]
fn a_transposition_of_the_tiger_is_the_tiger() {
    // Black's f5 c3 c4 and white's d6 d3 in every order that is a game.
    let tiger = play("f5d6c3d3c4").position();
    let black = ["f5", "c3", "c4"];
    let white = ["d6", "d3"];
    let mut found = Vec::new();
    for b in permutations(&black) {
        for w in permutations(&white) {
            let moves = [b[0], w[0], b[1], w[1], b[2]].concat();
            if let Ok(game) = transcript::parse(&moves, start()) {
                if game.position() == tiger {
                    assert_eq!(opening::name(&game.position()), Some("Tiger"), "{moves}");
                    found.push(moves);
                }
            }
        }
    }
    assert!(
        found.iter().any(|m| m != "f5d6c3d3c4"),
        "no other order reaches the Tiger: {found:?}"
    );
}

fn permutations<'a>(items: &[&'a str]) -> Vec<Vec<&'a str>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for k in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(k);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

#[test]
fn positions_on_the_way_keep_the_last_name_and_others_have_none() {
    // Before the first named position of any line: none.
    assert_eq!(opening::name(&start()), None);
    assert_eq!(opening::name(&play("f5").position()), None);
    // Named lines of two moves.
    assert_eq!(
        opening::name(&play("f5d6").position()),
        Some("Perpendicular Opening")
    );
    assert_eq!(
        opening::name(&play("f5f6").position()),
        Some("Diagonal Opening")
    );
    // On the way from the Tiger to the Stephenson (f5d6c3d3c4f4f6): still the Tiger.
    assert_eq!(
        opening::name(&play("f5d6c3d3c4f4").position()),
        Some("Tiger")
    );
    assert_eq!(
        opening::name(&play("f5d6c3d3c4f4f6").position()),
        Some("Stephenson")
    );
    // Off the named lines: the position has no name, the game keeps the Tiger's (b3 would
    // be the Aubrey).
    assert_eq!(
        opening::name(&play("f5d6c3d3c4b3").position()),
        Some("Aubrey/Tanaka")
    );
    let tiger = play("f5d6c3d3c4");
    let off: Vec<GameRecord> = tiger
        .position()
        .legal_moves()
        .map(|sq| {
            let mut g = tiger.clone();
            g.play(Move::Play(sq)).unwrap();
            g
        })
        .filter(|g| opening::name(&g.position()).is_none())
        .collect();
    assert!(!off.is_empty());
    for g in off {
        assert_eq!(opening::name_of_game(&g), Some("Tiger"), "{g:?}");
    }
    // Another board size has no names.
    assert_eq!(opening::name(&Position::start(BoardSize::Six)), None);
    let six = transcript::parse("c4", Position::start(BoardSize::Six))
        .or_else(|_| transcript::parse("b3", Position::start(BoardSize::Six)))
        .unwrap();
    assert_eq!(opening::name_of_game(&six), None);
}
