//! The Edax reader and writer against the shipped 8x8 book and books made to break them.

use super::{leaf_depth, level_for, read::child_key, HEADER_BYTES, NO_MOVE, PASS, POSITION_HEAD};
use crate::{
    book::{after, After, Book, ScoredMove},
    rules::symmetry,
    spine::units::WholeDiscs,
    BoardSize, Position, Square,
};

fn shipped() -> &'static Book {
    Book::builtin(BoardSize::Eight).expect("8x8 ships a book")
}

/// The shipped book written as Edax's, and its positions' offsets in the file.
fn file() -> (Vec<u8>, Vec<usize>) {
    let bytes = shipped().write_edax().unwrap();
    let mut at = HEADER_BYTES;
    let mut starts = Vec::new();
    while at < bytes.len() {
        starts.push(at);
        at += POSITION_HEAD + 2 * usize::from(bytes[at + 38]) + 2;
    }
    (bytes, starts)
}

fn why(bytes: &[u8]) -> String {
    Book::read_edax(bytes).unwrap_err().to_string()
}

#[test]
fn levels_and_depths_undo_each_other() {
    for empties in 1..=60 {
        for level in 0..=60u8 {
            let depth = leaf_depth(level, empties);
            assert_eq!(leaf_depth(level_for(depth, empties), empties), depth);
        }
    }
    // Edax's table: level 21 searches 21 plies with 31 empties, solves 30.
    assert_eq!(leaf_depth(21, 31), 21);
    assert_eq!(leaf_depth(21, 30), 30);
    assert_eq!(leaf_depth(10, 20), 20);
    assert_eq!(leaf_depth(10, 21), 10);
    assert_eq!(leaf_depth(40, 49), 49);
    assert_eq!(leaf_depth(40, 50), 40);
}

#[test]
fn a_book_written_as_edax_reads_back_the_same() {
    let (bytes, starts) = file();
    assert_eq!(&bytes[..8], b"XADEKOOB");
    assert_eq!(bytes[8], 4);
    let n = i32::from_le_bytes(bytes[38..42].try_into().unwrap());
    assert_eq!(n as usize, starts.len());
    let partial = Book::read_edax(&bytes).unwrap();
    assert!(partial.is_partial() && !partial.is_exact());
    assert_eq!(partial.len(), shipped().len());
    // The same book: read back, written again, read again.
    let again = partial.write_edax().unwrap();
    assert_eq!(again, bytes);
    assert_eq!(Book::read_edax(&again).unwrap(), partial);
    assert_eq!(Book::read_any(&again).unwrap(), partial);
    // And through ply's own file (version 3).
    let own = partial.write();
    assert_eq!(&own[8..12], &super::super::PARTIAL_VERSION.to_le_bytes());
    assert_eq!(Book::read(&own).unwrap(), partial);
    assert_eq!(Book::read_any(&own).unwrap(), partial);
}

#[test]
fn an_edax_book_keeps_the_links_and_the_best_other_move_with_their_scores_and_depths() {
    let book = shipped();
    let partial = Book::read_edax(&file().0).unwrap();
    let mut dropped = 0;
    for (pos, best) in book.iter() {
        let all = book.moves(&pos).unwrap();
        let kept = partial.moves(&pos).unwrap();
        // The best value is the book's (among moves of equal score, the one Edax's order
        // puts first).
        let top = partial.lookup(&pos).unwrap();
        assert_eq!(top.score, best.score);
        let through = |sq| match after(&pos.play(sq).unwrap()) {
            After::Next(next, _) => partial.lookup(&next),
            After::Over(_) => None,
        };
        let best_other = all.iter().find(|m| through(m.square).is_none());
        for m in &all {
            let keep = through(m.square).is_some() || Some(m) == best_other;
            let Some(k) = kept.iter().find(|k| k.square == m.square) else {
                assert!(!keep, "{pos:?} {m:?}");
                dropped += 1;
                continue;
            };
            assert!(keep, "{pos:?} {m:?}");
            assert_eq!(k.score, m.score, "{pos:?} {m:?}");
            // A leaf keeps its search's depth; a link's is one more than where it leads
            // (the original's too, but it may have chosen another move of the same score
            // there).
            match through(m.square) {
                None => assert_eq!(k.depth, m.depth, "{pos:?} {m:?}"),
                Some(next) => assert_eq!(k.depth, next.depth + 1, "{pos:?} {m:?}"),
            }
        }
    }
    assert!(dropped > 0, "Edax keeps only one move outside the book");
}

#[test]
fn a_bad_header_is_refused_naming_the_field_and_byte() {
    let (bytes, _) = file();
    assert!(why(b"plybook\n").contains("not an Edax book"));
    assert!(why(&bytes[..5]).contains("the magic number (byte 0)"));
    let e = why(&bytes[..20]);
    assert!(
        e.contains("header: the level (byte 18)") && e.contains("truncated"),
        "{e}"
    );
    let mut v = bytes.clone();
    v[8] = 3;
    assert!(why(&v).contains("the version (byte 8) is 3"), "{}", why(&v));
    let mut month = bytes.clone();
    month[12] = 13;
    assert!(
        why(&month).contains("the date (byte 10)"),
        "{}",
        why(&month)
    );
    let mut level = bytes.clone();
    level[18..22].copy_from_slice(&61i32.to_le_bytes());
    assert!(why(&level).contains("the level (byte 18) is 61"));
    let mut depth = bytes.clone();
    depth[22..26].copy_from_slice(&(-1i32).to_le_bytes());
    assert!(why(&depth).contains("the depth (byte 22) is -1"));
    let mut count = bytes.clone();
    let n = i32::from_le_bytes(bytes[38..42].try_into().unwrap());
    count[38..42].copy_from_slice(&(n + 1).to_le_bytes());
    let e = why(&count);
    assert!(
        e.contains(&format!("the number of positions (byte 38) is {}", n + 1))
            && e.contains(&format!("hold {n}")),
        "{e}"
    );
    let mut negative = bytes;
    negative[38..42].copy_from_slice(&(-5i32).to_le_bytes());
    assert!(why(&negative).contains("the number of positions (byte 38) is -5"));
}

#[test]
fn a_torn_or_bad_position_is_refused_naming_the_position_field_and_byte() {
    let (bytes, starts) = file();
    let k = 3;
    let at = starts[k];
    let e = why(&bytes[..at + 20]);
    assert!(
        e.contains(&format!(
            "position {k} (byte {at}): the wins (byte {at_wins})",
            at_wins = at + 16
        )) || e.contains(&format!("position {k} (byte {at}): the draws")),
        "{e}"
    );
    assert!(e.contains("truncated"), "{e}");
    let e = why(&bytes[..bytes.len() - 1]);
    assert!(e.contains("the leaf") && e.contains("truncated"), "{e}");
    // Two sides on one square.
    let mut overlap = bytes.clone();
    let player = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    overlap[at + 8..at + 16].copy_from_slice(
        &(u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap()) | player).to_le_bytes(),
    );
    let e = why(&overlap);
    assert!(
        e.contains(&format!("position {k} (byte {at}): the discs: both sides")),
        "{e}"
    );
    // An empty centre: no game reaches it.
    let mut centre = bytes.clone();
    let cleared = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap()) & !(1 << 27);
    let (p, o) = (
        cleared(&bytes[at..at + 8]),
        cleared(&bytes[at + 8..at + 16]),
    );
    centre[at..at + 8].copy_from_slice(&p.to_le_bytes());
    centre[at + 8..at + 16].copy_from_slice(&o.to_le_bytes());
    assert!(
        why(&centre).contains("the centre square d4 is empty"),
        "{}",
        why(&centre)
    );
    // Not the least image: the discs mirrored.
    let mut image = bytes.clone();
    let (p, o) = (
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()),
        u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap()),
    );
    let s = (1..symmetry::COUNT)
        .find(|&s| (symmetry::apply(p, s, 8), symmetry::apply(o, s, 8)) != (p, o))
        .unwrap();
    image[at..at + 8].copy_from_slice(&symmetry::apply(p, s, 8).to_le_bytes());
    image[at + 8..at + 16].copy_from_slice(&symmetry::apply(o, s, 8).to_le_bytes());
    assert!(why(&image).contains("not the least"), "{}", why(&image));
    // A value out of Edax's range.
    let mut value = bytes.clone();
    value[at + 32..at + 34].copy_from_slice(&300i16.to_le_bytes());
    let e = why(&value);
    assert!(
        e.contains(&format!("the value (byte {}) is 300", at + 32)),
        "{e}"
    );
    // -32768 in each of the value and the bounds: an i16 with no absolute value, refused
    // (the check once wrapped in release builds and overflowed in debug ones).
    for (j, what) in ["the value", "the lower bound", "the upper bound"]
        .into_iter()
        .enumerate()
    {
        let mut least = bytes.clone();
        let off = at + 32 + 2 * j;
        least[off..off + 2].copy_from_slice(&i16::MIN.to_le_bytes());
        let e = why(&least);
        assert!(
            e.contains(&format!("{what} (byte {off}) is -32768, not -127 to 127")),
            "{e}"
        );
    }
    // A level past 60.
    let mut level = bytes.clone();
    level[at + 39] = 61;
    assert!(why(&level).contains(&format!("the level (byte {}) is 61", at + 39)));
}

#[test]
fn bad_links_and_leaves_are_refused_naming_the_move_and_byte() {
    let (bytes, starts) = file();
    // A position with a link and a leaf.
    let k = starts
        .iter()
        .position(|&at| {
            bytes[at + 38] > 0 && bytes[at + 40 + 2 * usize::from(bytes[at + 38]) + 1] < 64
        })
        .unwrap();
    let at = starts[k];
    let links = usize::from(bytes[at + 38]);
    let leaf_at = at + POSITION_HEAD + 2 * links;
    let mut illegal = bytes.clone();
    illegal[at + 41] = 0; // a1
    let e = why(&illegal);
    assert!(
        e.contains(&format!(
            "position {k} (byte {at}): link 0 (byte {}): a1 is not a legal move",
            at + 40
        )),
        "{e}"
    );
    let mut beyond = bytes.clone();
    beyond[at + 41] = 70;
    assert!(why(&beyond).contains("move byte 70 is not a legal move"));
    let mut pass = bytes.clone();
    pass[at + 41] = PASS;
    assert!(why(&pass).contains("pass is not a legal move"));
    let mut score = bytes.clone();
    score[at + 40] = 100;
    assert!(
        why(&score).contains("is scored 100, not -64 to 64"),
        "{}",
        why(&score)
    );
    let mut twice = bytes.clone();
    twice[leaf_at + 1] = bytes[at + 41];
    let e = why(&twice);
    assert!(
        e.contains(&format!("the leaf (byte {leaf_at})")) && e.contains("is a link too"),
        "{e}"
    );
    let mut leaf = bytes.clone();
    leaf[leaf_at + 1] = 0;
    assert!(why(&leaf).contains(&format!(
        "the leaf (byte {leaf_at}): a1 is not a legal move"
    )));
    let mut none = bytes.clone();
    none[leaf_at + 1] = NO_MOVE;
    assert!(why(&none).contains("none, but only"), "{}", why(&none));
    // A link to a position the book does not hold: the position dropped, the count told.
    let target = child_key(
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()),
        u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap()),
        bytes[at + 41],
    );
    let j = starts
        .iter()
        .position(|&s| {
            (
                u64::from_le_bytes(bytes[s..s + 8].try_into().unwrap()),
                u64::from_le_bytes(bytes[s + 8..s + 16].try_into().unwrap()),
            ) == target
        })
        .unwrap();
    let end = starts.get(j + 1).copied().unwrap_or(bytes.len());
    let mut cut = [&bytes[..starts[j]], &bytes[end..]].concat();
    let n = i32::from_le_bytes(bytes[38..42].try_into().unwrap()) - 1;
    cut[38..42].copy_from_slice(&n.to_le_bytes());
    let e = why(&cut);
    assert!(
        e.contains("leads to a position the book does not hold"),
        "{e}"
    );
    // A position given twice.
    let record = &bytes[at..starts.get(k + 1).copied().unwrap_or(bytes.len())];
    let mut doubled = [&bytes[..], record].concat();
    doubled[38..42].copy_from_slice(&(n + 2).to_le_bytes());
    let e = why(&doubled);
    assert!(
        e.contains(&format!("the same position as position {k}")),
        "{e}"
    );
}

/// A position of a random 8x8 game with a move after which `wanted` holds of the
/// position it leads to, and that move.
fn find(seed: u64, wanted: impl Fn(&Position) -> bool) -> (Position, Square) {
    let mut rng = ply_core::SplitMix64::new(seed);
    loop {
        let mut pos = Position::start(BoardSize::Eight);
        while !pos.is_game_over() {
            if !pos.can_move() {
                pos = pos.passed();
                continue;
            }
            if let Some(sq) = pos
                .legal_moves()
                .find(|&sq| wanted(&pos.play_unchecked(sq)))
            {
                if pos.legal_moves().count() > 1 {
                    return (pos, sq);
                }
            }
            let n = pos.legal_moves().count() as usize;
            pos = pos.play_unchecked(pos.legal_moves().nth(rng.below(n)).unwrap());
        }
    }
}

/// `pos` with `sq` scored `score` at `depth` and another move below it, solved, as a
/// partial book's row.
fn row(pos: Position, sq: Square, score: i32, depth: u32) -> (Position, Vec<ScoredMove>) {
    let other = ScoredMove {
        square: pos.legal_moves().find(|&m| m != sq).unwrap(),
        score: WholeDiscs(score - 10),
        depth: pos.empties().count(),
    };
    (
        pos,
        vec![
            ScoredMove {
                square: sq,
                score: WholeDiscs(score),
                depth,
            },
            other,
        ],
    )
}

#[test]
fn passes_and_ends_of_the_game_are_written_as_edax_positions_and_read_back() {
    let must_pass = |c: &Position| !c.is_game_over() && !c.can_move();
    // A move after which the opponent must pass, to a position the book does not hold:
    // a pass position with the search after the pass as its leaf.
    let (pos, sq) = find(1, must_pass);
    let empties = pos.empties().count();
    let book = Book::from_partial(BoardSize::Eight, [row(pos, sq, 12, empties)]).unwrap();
    let bytes = book.write_edax().unwrap();
    assert_eq!(i32::from_le_bytes(bytes[38..42].try_into().unwrap()), 2);
    assert_eq!(Book::read_edax(&bytes).unwrap(), book);
    // ... to one it holds: a pass position with a pass link.
    let next = pos.play_unchecked(sq).passed();
    let best = next.legal_moves().next().unwrap();
    let mut rows = vec![row(pos, sq, 12, empties)];
    rows.push(row(next, best, 12, empties - 1));
    let book = Book::from_partial(BoardSize::Eight, rows).unwrap();
    let bytes = book.write_edax().unwrap();
    // The pass position links by a pass, scored for the side that passes.
    assert!(bytes
        .windows(2)
        .any(|w| w[1] == PASS && w[0] == (-12i8).to_le_bytes()[0]));
    assert!(i32::from_le_bytes(bytes[38..42].try_into().unwrap()) >= 3);
    assert_eq!(Book::read_edax(&bytes).unwrap(), book);
    // A move that ends the game, scored its final score: a finished position.
    let (pos, sq) = find(2, Position::is_game_over);
    let score = -pos.play_unchecked(sq).final_score();
    let book = Book::from_partial(BoardSize::Eight, [row(pos, sq, score, 1)]).unwrap();
    let bytes = book.write_edax().unwrap();
    assert!(i32::from_le_bytes(bytes[38..42].try_into().unwrap()) >= 2);
    assert_eq!(Book::read_edax(&bytes).unwrap(), book);
}

#[test]
fn only_searched_8x8_books_are_written_as_edax() {
    let six = Book::builtin(BoardSize::Six).unwrap();
    assert!(six.write_edax().unwrap_err().to_string().contains("8x8"));
}
