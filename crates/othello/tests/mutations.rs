//! Every binary format ply reads, damaged at random (issue 52): bits flipped, bytes set,
//! inserted, deleted, repeated, the file cut short. Each loader must return a clean error
//! or a value, never panic (these run with overflow checks, as every debug test does), and
//! a damaged file that loads must pass the loader's own checks: it writes back to the same
//! bytes, or reads back to the same value. The checksummed formats are also damaged under
//! their body and sealed again, so that the checks behind the checksum are reached.
//!
//! The number of cases is fixed (the seeds change from run to run); together these take
//! about 15 s in a debug build.

#[allow(dead_code)]
mod common;

use std::sync::OnceLock;

use ply_core::SplitMix64;
use ply_othello::{
    book::Book,
    eval::weights,
    explore::{self, GamesIndex},
    wthor::{self, Database, Date, Header, NameKind, Names, WthorGame},
    BoardSize, GameRecord, Move, Position,
};
use proptest::prelude::*;

/// One damage done to a file; positions are taken modulo its length, half of them within
/// its first 64 bytes, where the headers are.
#[derive(Clone, Debug)]
enum Op {
    Flip(usize, u8),
    Set(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Truncate(usize),
    Repeat(usize, usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<usize>(), 0..8u8).prop_map(|(a, b)| Op::Flip(a, b)),
        3 => (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Op::Set(a, b)),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Op::Insert(a, b)),
        1 => (any::<usize>(), 1..80usize).prop_map(|(a, n)| Op::Delete(a, n)),
        1 => any::<usize>().prop_map(Op::Truncate),
        1 => (any::<usize>(), 1..80usize).prop_map(|(a, n)| Op::Repeat(a, n)),
    ]
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(op(), 1..6)
}

/// Damages in place only (bits flipped, bytes set): what a body under a checksum gets.
fn in_place() -> impl Strategy<Value = Vec<(usize, u8, bool)>> {
    prop::collection::vec((any::<usize>(), any::<u8>(), any::<bool>()), 1..6)
}

/// A position in a file of `len` bytes (`len + 1` places for an insertion or a cut).
fn at(a: usize, len: usize) -> usize {
    if len == 0 {
        0
    } else if a.is_multiple_of(2) {
        (a / 2) % len.min(64)
    } else {
        (a / 2) % len
    }
}

fn mutate(bytes: &[u8], ops: &[Op]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for op in ops {
        let len = b.len();
        match *op {
            Op::Flip(a, bit) if len > 0 => b[at(a, len)] ^= 1 << bit,
            Op::Set(a, v) if len > 0 => b[at(a, len)] = v,
            Op::Insert(a, v) => b.insert(at(a, len + 1), v),
            Op::Delete(a, n) if len > 0 => {
                let i = at(a, len);
                b.drain(i..(i + n).min(len));
            }
            Op::Truncate(a) => b.truncate(at(a, len + 1)),
            Op::Repeat(a, n) if len > 0 => {
                let i = at(a, len);
                let piece = b[i..(i + n).min(len)].to_vec();
                b.splice(i..i, piece);
            }
            _ => {}
        }
    }
    b
}

/// `bytes` with the damage of `ops` done from byte `from` on, the length kept.
fn mutate_from(bytes: &[u8], from: usize, ops: &[(usize, u8, bool)]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let span = b.len() - from;
    for &(a, v, flip) in ops {
        let i = from + a % span;
        if flip {
            b[i] ^= 1 << (v % 8);
        } else {
            b[i] = v;
        }
    }
    b
}

/// FNV-1a 64, continued from `h`: the checksum of ply's own files.
fn fnv1a_from(h: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(h, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

const FNV: u64 = 0xcbf2_9ce4_8422_2325;

/// Where the checksum of a book or weight file sits: the 8 bytes that hold FNV-1a 64 of
/// everything after them.
fn checksum_at(bytes: &[u8]) -> usize {
    (8..256)
        .find(|&o| bytes[o..o + 8] == fnv1a_from(FNV, &bytes[o + 8..]).to_le_bytes())
        .expect("a checksum in the header")
}

/// `bytes` with the checksum at `o` made right again.
fn reseal(mut bytes: Vec<u8>, o: usize) -> Vec<u8> {
    let sum = fnv1a_from(FNV, &bytes[o + 8..]);
    bytes[o..o + 8].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// Random games to their end: a small WTHOR database.
fn wthor_bytes() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| {
        let mut rng = SplitMix64::new(52);
        let games = (0..6)
            .map(|k| {
                let mut game = GameRecord::new(Position::start(BoardSize::Eight));
                // Two of them stop early, as resigned games do.
                let stop = if k < 2 { 20 } else { usize::MAX };
                while !game.position().is_game_over() && game.moves().len() < stop {
                    let pos = game.position();
                    let m = if pos.can_move() {
                        Move::Play(common::random_move(&pos, &mut rng))
                    } else {
                        Move::Pass
                    };
                    game.play(m).unwrap();
                }
                let discs = WthorGame::final_black_discs(&game.position());
                WthorGame {
                    tournament: k as u16,
                    black: 1,
                    white: 2,
                    black_discs: discs,
                    theoretical: discs,
                    game,
                }
            })
            .collect();
        let date = Date {
            year: 2025,
            month: 11,
            day: 27,
        };
        Database {
            header: Header::games(2024, date, 22),
            games,
        }
        .to_bytes()
        .unwrap()
    })
}

fn names_bytes(kind: NameKind) -> Vec<u8> {
    Names {
        header: Header::names(Date {
            year: 2025,
            month: 11,
            day: 27,
        }),
        kind,
        names: vec!["Alice".into(), "Bob Müller".into(), String::new()],
    }
    .to_bytes()
    .unwrap()
}

fn index_bytes() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| {
        GamesIndex::build(&[wthor_bytes()])
            .unwrap()
            .as_bytes()
            .to_vec()
    })
}

const BOOK8: &[u8] = include_bytes!("../data/book8.bin");
const BOOK6: &[u8] = include_bytes!("../data/book6.bin");
const EVAL6: &[u8] = include_bytes!("../data/eval6.bin");

fn edax_bytes() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| Book::read(BOOK8).unwrap().write_edax().unwrap())
}

/// A game file that loads writes back to its bytes; its games replay the same.
fn check_wthor(bytes: &[u8]) {
    if let Ok(db) = Database::read(bytes) {
        assert_eq!(db.to_bytes().unwrap(), bytes);
        assert_eq!(db.header.games as usize, db.games.len());
    }
    if let Ok((_, games)) = wthor::games(bytes) {
        // The iterator alone (as `book add` and the index walk it) never panics either.
        games.for_each(drop);
    }
}

/// A names file that loads writes back to its bytes.
fn check_names(bytes: &[u8], kind: NameKind) {
    if let Ok(n) = Names::read(bytes, kind) {
        assert_eq!(n.header.games, 0);
        assert_eq!(n.to_bytes().unwrap(), bytes);
    }
}

/// An index that loads is its bytes, reads back the same, and answers look-ups.
fn check_index(bytes: &[u8]) {
    if let Ok(idx) = GamesIndex::read(bytes.to_vec()) {
        assert_eq!(idx.as_bytes(), bytes);
        assert_eq!(GamesIndex::read(bytes.to_vec()).unwrap(), idx);
        let db = Database::read(wthor_bytes()).unwrap();
        for g in &db.games {
            for (pos, _) in g.game.plies().take(12) {
                let _ = idx.lookup(&pos);
                let _ = explore::explore(&pos, &idx, None);
            }
        }
    }
}

/// A book (ply's or Edax's) that loads reads back the same from its own bytes; a searched
/// 8x8 one is written as Edax's, which reads back. (Not always to the same book: Edax keeps
/// one move of a position besides its links, and a damaged book's links may disagree with
/// the positions they lead to, which makes them other moves.)
fn check_book(bytes: &[u8]) {
    if let Ok(book) = Book::read_any(bytes) {
        assert_eq!(Book::read(&book.write()).unwrap(), book);
        if book.size() == BoardSize::Eight && !book.is_exact() {
            let edax = book.write_edax().unwrap();
            let back = Book::read_edax(&edax).unwrap();
            assert_eq!(back.len(), book.len());
        }
        let _ = book.lookup(&Position::start(book.size()));
        let _ = book.first_gap();
    }
}

/// Weights that load write back to their bytes and evaluate positions, the incremental
/// evaluation agreeing with the reference.
fn check_weights(bytes: &[u8], size: BoardSize) {
    if let Ok(eval) = weights::read(size, bytes) {
        assert_eq!(weights::write(&eval), bytes);
        let mut rng = SplitMix64::new(7);
        let mut pos = Position::start(size);
        while !pos.is_game_over() {
            let (p, o) = (pos.player().0, pos.opponent().0);
            let state = eval.state(p, o);
            assert_eq!(eval.evaluate(&state, p, o), eval.evaluate_reference(p, o));
            pos = if pos.can_move() {
                pos.play(common::random_move(&pos, &mut rng)).unwrap()
            } else {
                pos.passed()
            };
        }
    }
}

#[test]
fn the_untouched_files_load() {
    // What the properties below start from: each file whole is read.
    assert!(Database::read(wthor_bytes()).is_ok());
    for kind in [NameKind::Players, NameKind::Tournaments] {
        assert!(Names::read(&names_bytes(kind), kind).is_ok());
    }
    assert!(GamesIndex::read(index_bytes().to_vec()).is_ok());
    for b in [BOOK8, BOOK6, edax_bytes()] {
        assert!(Book::read_any(b).is_ok());
    }
    assert!(weights::read(BoardSize::Six, EVAL6).is_ok());
    // The checksums the sealed properties redo are where they are looked for.
    for b in [BOOK8, BOOK6, EVAL6] {
        assert_eq!(reseal(b.to_vec(), checksum_at(b)), b);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(256)
    })]

    #[test]
    fn damaged_wthor_databases_never_panic(ops in ops()) {
        check_wthor(&mutate(wthor_bytes(), &ops));
    }

    #[test]
    fn damaged_names_files_never_panic(ops in ops(), players in any::<bool>()) {
        let kind = if players { NameKind::Players } else { NameKind::Tournaments };
        check_names(&mutate(&names_bytes(kind), &ops), kind);
    }

    #[test]
    fn damaged_edax_books_never_panic(ops in ops()) {
        check_book(&mutate(edax_bytes(), &ops));
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(64)
    })]

    #[test]
    fn damaged_indexes_never_panic(ops in ops(), sealed in in_place()) {
        check_index(&mutate(index_bytes(), &ops));
        // Under the checksum: the header's fields after the magic and the body.
        let mut b = mutate_from(index_bytes(), 8, &sealed);
        let sum = fnv1a_from(fnv1a_from(FNV, &b[8..32]), &b[40..]);
        b[32..40].copy_from_slice(&sum.to_le_bytes());
        check_index(&b);
    }

    #[test]
    fn damaged_ply_books_never_panic(ops in ops(), sealed in in_place(), six in any::<bool>()) {
        let file = if six { BOOK6 } else { BOOK8 };
        check_book(&mutate(file, &ops));
        let o = checksum_at(file);
        check_book(&reseal(mutate_from(file, o + 8, &sealed), o));
        // The header too, sealed again.
        check_book(&reseal(mutate_from(&file[..o + 8], 8, &sealed).into_iter().chain(file[o + 8..].iter().copied()).collect(), o));
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(24)
    })]

    #[test]
    fn damaged_weight_files_never_panic(ops in ops(), sealed in in_place()) {
        check_weights(&mutate(EVAL6, &ops), BoardSize::Six);
        let o = checksum_at(EVAL6);
        check_weights(&reseal(mutate_from(EVAL6, o + 8, &sealed), o), BoardSize::Six);
    }
}
