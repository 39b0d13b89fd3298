//! WTHOR databases and the opening explorer: round trips, every reader against malformed
//! files (each header field, a torn record, a bad move, a wrong count, names that are not
//! text), and the index's counts against the slow scan, transpositions included.

mod common;

use ply_core::SplitMix64;
use ply_othello::{
    explore::{self, Counts, GamesIndex, Source},
    transcript,
    wthor::{self, Database, Date, Header, NameKind, Names, WthorGame},
    BoardSize, GameRecord, Move, Position, Square,
};

const DATE: Date = Date {
    year: 2025,
    month: 11,
    day: 26,
};

fn start() -> Position {
    Position::start(BoardSize::Eight)
}

fn wgame(moves: &str, black_discs: u8) -> WthorGame {
    WthorGame {
        tournament: 0,
        black: 0,
        white: 1,
        black_discs,
        theoretical: black_discs,
        game: transcript::parse(moves, start()).unwrap(),
    }
}

/// A random game to its end, with its real final result.
fn random_game(rng: &mut SplitMix64) -> WthorGame {
    let game = common::random_game(rng);
    let discs = WthorGame::final_black_discs(&game.position());
    WthorGame {
        tournament: rng.below(3) as u16,
        black: rng.below(5) as u16,
        white: rng.below(5) as u16,
        black_discs: discs,
        theoretical: rng.below(65) as u8,
        game,
    }
}

fn database(games: Vec<WthorGame>) -> Database {
    Database {
        header: Header::games(2024, DATE, 22),
        games,
    }
}

fn small() -> Vec<u8> {
    database(vec![wgame("f5d6c3d3c4", 40), wgame("f5f6e6f4", 20)])
        .to_bytes()
        .unwrap()
}

#[test]
fn random_games_round_trip_with_their_passes() {
    let mut rng = SplitMix64::new(35);
    let games: Vec<WthorGame> = (0..200).map(|_| random_game(&mut rng)).collect();
    assert!(
        games.iter().any(|g| g.game.moves().contains(&Move::Pass)),
        "some random game passes, so the implied passes are tested"
    );
    let db = database(games);
    let bytes = db.to_bytes().unwrap();
    assert_eq!(bytes.len(), 16 + 200 * 68);
    let back = Database::read(&bytes).unwrap();
    assert_eq!(back.games, db.games);
    assert_eq!(back.header.games, 200);
    assert_eq!(back.to_bytes().unwrap(), bytes);
    // The streaming reader gives the same games.
    let (h, it) = wthor::games(&bytes).unwrap();
    assert_eq!(h.games, 200);
    assert_eq!(it.map(Result::unwrap).collect::<Vec<_>>(), db.games);
}

#[test]
fn the_layout_is_wthor_s() {
    let bytes = small();
    assert_eq!(&bytes[..4], &[20, 25, 11, 26]);
    assert_eq!(&bytes[4..8], &2u32.to_le_bytes());
    assert_eq!(&bytes[8..10], &[0, 0]);
    assert_eq!(&bytes[10..12], &2024u16.to_le_bytes());
    assert_eq!(&bytes[12..16], &[8, 0, 22, 0]);
    let g = &bytes[16..16 + 68];
    assert_eq!(&g[..8], &[0, 0, 0, 0, 1, 0, 40, 40]);
    // f5 d6 c3 d3 c4: 10 * row + column.
    assert_eq!(&g[8..14], &[56, 64, 33, 34, 43, 0]);
    assert!(g[13..].iter().all(|&b| b == 0));
    assert_eq!(wthor::decode_square(18), Square::parse("h1").ok());
    assert_eq!(wthor::encode_square(Square::parse("a8").unwrap()), 81);
}

fn err(bytes: &[u8]) -> wthor::WthorError {
    Database::read(bytes).unwrap_err()
}

#[test]
fn a_bad_header_names_its_field() {
    let good = small();
    assert!(err(&good[..15])
        .to_string()
        .contains("shorter than the 16-byte header"));
    let cases: [(usize, u8, &str, usize); 8] = [
        (1, 100, "year", 1),
        (2, 13, "month", 2),
        (2, 0, "month", 2),
        (3, 32, "day", 3),
        (12, 10, "board size (P1)", 12),
        (12, 6, "board size (P1)", 12),
        (13, 1, "game type (P2)", 13),
        (14, 61, "depth (P3)", 14),
    ];
    for (at, value, field, offset) in cases {
        let mut b = good.clone();
        b[at] = value;
        let e = err(&b);
        assert_eq!((e.field, e.offset, e.record), (field, offset, None), "{e}");
    }
    let mut b = good.clone();
    b[8] = 3;
    assert_eq!(err(&b).field, "names (N2)");
    // A board size of 0 means 8x8 too.
    let mut b = good.clone();
    b[12] = 0;
    assert!(Database::read(&b).is_ok());
}

#[test]
fn a_count_that_lies_and_a_torn_record_are_found() {
    let good = small();
    let mut b = good.clone();
    b[4] = 3;
    let e = err(&b);
    assert_eq!((e.field, e.offset), ("games (N1)", 4));
    assert!(
        e.to_string()
            .contains("says 3 records but the file holds 2"),
        "{e}"
    );
    let e = err(&good[..good.len() - 10]);
    assert_eq!(
        (e.record, e.field, e.offset),
        (Some(2), "record", 16 + 68),
        "{e}"
    );
    assert!(e.to_string().contains("torn record"), "{e}");
    // A whole record cut off: the count disagrees.
    let e = err(&good[..good.len() - 68]);
    assert_eq!(e.field, "games (N1)");
}

#[test]
fn a_bad_move_names_the_game_and_the_move() {
    let good = small();
    let second = 16 + 68;
    // Not a square.
    let mut b = good.clone();
    b[second + 8 + 2] = 59;
    let e = err(&b);
    assert_eq!(
        (e.record, e.field, e.offset),
        (Some(2), "moves", second + 10),
        "{e}"
    );
    assert!(
        e.to_string().contains("move 3: byte 59 is not a square"),
        "{e}"
    );
    // A square, but not a legal move: f5 f6 a1.
    let mut b = good.clone();
    b[second + 8 + 2] = 11;
    let e = err(&b);
    assert_eq!((e.record, e.offset), (Some(2), second + 10));
    assert!(
        e.to_string()
            .contains("move 3 (a1 by black) breaks the rules"),
        "{e}"
    );
    // A move after the end marker.
    let mut b = good.clone();
    b[second + 8 + 10] = 56;
    let e = err(&b);
    assert!(
        e.to_string()
            .contains("move 11 is 56 after the game's end (a 0 at move 5)"),
        "{e}"
    );
    // Disc counts over 64.
    for (off, field) in [(6, "black's discs"), (7, "theoretical score")] {
        let mut b = good.clone();
        b[16 + off] = 65;
        let e = err(&b);
        assert_eq!(
            (e.record, e.field, e.offset),
            (Some(1), field, 16 + off),
            "{e}"
        );
    }
}

#[test]
fn a_finished_game_s_disc_count_must_be_its_end() {
    let mut rng = SplitMix64::new(52);
    for _ in 0..20 {
        let g = random_game(&mut rng);
        let end = g.game.position();
        let on_board = end.disc_count(ply_othello::Color::Black) as u8;
        let with_empties = WthorGame::final_black_discs(&end);
        // Either count is a writer's convention: both are read back.
        for discs in [with_empties, on_board] {
            let db = database(vec![WthorGame {
                black_discs: discs,
                ..g.clone()
            }]);
            let back = Database::read(&db.to_bytes().unwrap()).unwrap();
            assert_eq!(back.games[0].black_discs, discs);
        }
        // Any other is refused, by the reader and by the writer.
        let wrong = (0..=64u8)
            .find(|&d| d != on_board && d != with_empties)
            .unwrap();
        let mut bytes = database(vec![g.clone()]).to_bytes().unwrap();
        bytes[16 + 6] = wrong;
        let e = err(&bytes);
        assert_eq!(
            (e.record, e.field, e.offset),
            (Some(1), "black's discs", 16 + 6),
            "{e}"
        );
        assert!(e.to_string().contains("the game replayed ends"), "{e}");
        let e = database(vec![WthorGame {
            black_discs: wrong,
            ..g
        }])
        .to_bytes()
        .unwrap_err();
        assert_eq!(e.field, "black's discs");
    }
    // A game that stops before its end keeps the count recorded (a resignation).
    let db = database(vec![wgame("f5d6c3", 64)]).to_bytes().unwrap();
    assert_eq!(Database::read(&db).unwrap().games[0].black_discs, 64);
}

#[test]
fn a_game_that_cannot_be_written_is_refused() {
    let mut g = wgame("f5", 40);
    g.black_discs = 70;
    assert_eq!(
        database(vec![g]).to_bytes().unwrap_err().field,
        "black's discs"
    );
    let six = WthorGame {
        game: GameRecord::new(Position::start(BoardSize::Six)),
        ..wgame("f5", 40)
    };
    assert_eq!(database(vec![six]).to_bytes().unwrap_err().field, "moves");
}

#[test]
fn names_round_trip_and_bad_names_are_found() {
    for kind in [NameKind::Players, NameKind::Tournaments] {
        let names = Names {
            header: Header::names(DATE),
            kind,
            names: vec![
                "Tamenori Hideshi".into(),
                "Müller, Zoé".into(),
                String::new(),
            ],
        };
        let bytes = names.to_bytes().unwrap();
        assert_eq!(bytes.len(), 16 + 3 * kind.width());
        assert_eq!(&bytes[8..10], &3u16.to_le_bytes());
        let back = Names::read(&bytes, kind).unwrap();
        assert_eq!(back.names, names.names);
        assert_eq!(back.header.names, 3);

        let e = Names::read(&bytes[..bytes.len() - 1], kind).unwrap_err();
        assert_eq!((e.record, e.field), (Some(3), "record"), "{e}");
        let mut b = bytes.clone();
        b[8] = 4;
        assert_eq!(Names::read(&b, kind).unwrap_err().field, "names (N2)");
        // N1, the games count of a game file, must be 0 in a names file.
        let mut b = bytes.clone();
        b[4] = 7;
        let e = Names::read(&b, kind).unwrap_err();
        assert_eq!(
            (e.record, e.field, e.offset),
            (None, "games (N1)", 4),
            "{e}"
        );
        let mut b = bytes.clone();
        b[16 + 2] = 0x07;
        let e = Names::read(&b, kind).unwrap_err();
        assert_eq!((e.record, e.field, e.offset), (Some(1), "name", 18), "{e}");
        assert!(e.to_string().contains("control character"), "{e}");
        let mut b = bytes.clone();
        b[16 + kind.width() - 1] = b'x';
        let e = Names::read(&b, kind).unwrap_err();
        assert!(e.to_string().contains("after the zero byte"), "{e}");
        assert_eq!(e.offset, 16 + kind.width() - 1);

        let long = Names {
            names: vec!["x".repeat(kind.width())],
            ..names.clone()
        };
        assert!(long
            .to_bytes()
            .unwrap_err()
            .to_string()
            .contains("longer than"));
        let wide = Names {
            names: vec!["李".into()],
            ..names
        };
        assert!(wide.to_bytes().unwrap_err().to_string().contains("Latin-1"));
    }
}

/// The index's counts of a position equal the scan's, with moves that `pos`'s own symmetries
/// exchange put together (the two may credit different ones of them).
fn by_class(pos: &Position, counts: Vec<Counts>) -> Vec<(Move, u64, u64, i64)> {
    let class = |m: Move| match m {
        Move::Pass => Move::Pass,
        Move::Play(sq) => {
            let mut best = sq;
            for s in 0..8u8 {
                let im = image(pos, s);
                if im == (pos.player().0, pos.opponent().0) {
                    let t = Square::from_index(common::map_square(sq.index(), s)).unwrap();
                    best = best.min(t);
                }
            }
            Move::Play(best)
        }
    };
    let mut out: Vec<(Move, u64, u64, i64)> = Vec::new();
    for c in counts {
        let m = class(c.mv);
        match out.iter_mut().find(|x| x.0 == m) {
            Some(x) => {
                x.1 += c.games;
                x.2 += c.points;
                x.3 += c.discs;
            }
            None => out.push((m, c.games, c.points, c.discs)),
        }
    }
    out.sort_by_key(|x| format!("{}", x.0));
    out
}

fn image(pos: &Position, s: u8) -> (u64, u64) {
    let map = |b: u64| common::map_board(b, s);
    (map(pos.player().0), map(pos.opponent().0))
}

#[test]
fn the_index_counts_what_the_scan_counts() {
    let mut rng = SplitMix64::new(7);
    // Short random openings make many shared positions and transpositions.
    let games: Vec<WthorGame> = (0..200).map(|_| random_game(&mut rng)).collect();
    let db = database(games.clone()).to_bytes().unwrap();
    let index = GamesIndex::build(&[&db[..]]).unwrap();
    assert_eq!(index.games(), 200);
    let mut checked = 0;
    for g in games.iter().take(30) {
        for (k, (before, _)) in g.game.plies().enumerate() {
            if k > 12 && k % 7 != 0 {
                continue;
            }
            let fast = index.lookup(&before);
            assert!(!fast.is_empty());
            let slow = explore::explore_scan(&before, &games);
            assert_eq!(by_class(&before, fast), by_class(&before, slow), "ply {k}");
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked}");
    // The start: every game, by its real first move (the start is one position, not an image).
    let first = index.lookup(&start());
    assert_eq!(first, explore::explore_scan(&start(), &games));
    assert_eq!(first.iter().map(|c| c.games).sum::<u64>(), 200);
    // A position no game reached (another seed's), and a 6x6 one: nothing.
    let mut other = SplitMix64::new(8);
    for size in [BoardSize::Eight, BoardSize::Six] {
        let pos = common::random_position(size, 20, &mut other);
        assert!(explore::explore_scan(&pos, &games).is_empty());
        assert!(index.lookup(&pos).is_empty());
        let found = explore::explore(&pos, &index, None);
        assert_eq!(found.games, 0);
        assert_eq!(found.moves.len(), pos.legal_moves().count() as usize);
    }
}

#[test]
fn transpositions_and_mirror_images_count_together() {
    // Black's c3 and c4 in either order (white's d3 between) reach one position.
    let a = "f5d6c3d3c4f4";
    let b = "f5d6c4d3c3f4";
    let pa = transcript::parse(&a[..10], start()).unwrap().position();
    let pb = transcript::parse(&b[..10], start()).unwrap().position();
    assert_eq!(pa, pb, "the two orders transpose");
    // d3c3 is f5f6 mirrored in the a8-h1 diagonal, which maps the start onto itself.
    let games = vec![
        wgame(a, 40),
        wgame(b, 30),
        wgame("f5f6", 20),
        wgame("d3c3", 33),
        wgame("f5d6c3d3c4f4f6", 64),
    ];
    let db = database(games.clone()).to_bytes().unwrap();
    let index = GamesIndex::build(&[&db[..]]).unwrap();
    let found = explore::explore(&pa, &index, None);
    assert_eq!(found.games, 3);
    let f4 = found
        .moves
        .iter()
        .find(|m| m.mv == Move::Play(Square::parse("f4").unwrap()))
        .unwrap();
    // Black's results: +16, -4, +64.
    assert_eq!(
        (f4.games, f4.black_points, f4.black_discs),
        (3, 4, 76),
        "{f4:?}"
    );
    assert_eq!(f4.black_score_rate(), Some(2.0 / 3.0));
    assert!(found.moves[1..].iter().all(|m| m.games == 0));
    assert_eq!(
        found.moves.len(),
        pa.legal_moves().count() as usize,
        "every legal move is listed"
    );
    // After f5, white to move: the counts are kept for the mover and given for black.
    let after_f5 = transcript::parse("f5", start()).unwrap().position();
    let found = explore::explore(&after_f5, &index, None);
    assert_eq!(found.games, 5);
    let f6 = found
        .moves
        .iter()
        .find(|m| m.mv == Move::Play(Square::parse("f6").unwrap()))
        .unwrap();
    // f5f6 (20 discs: -24) and d3c3, its mirror image (33 discs: +2): one win, one loss.
    assert_eq!((f6.games, f6.black_points, f6.black_discs), (2, 2, -22));
    assert_eq!(f6.black_mean_discs(), Some(-11.0));
}

#[test]
fn the_index_file_round_trips_and_knows_its_databases() {
    let db = small();
    let index = GamesIndex::build(&[&db[..]]).unwrap();
    let again = GamesIndex::read(index.as_bytes().to_vec()).unwrap();
    assert_eq!(again, index);
    // Built from games already read: the same index.
    let read = Database::read(&db).unwrap();
    assert_eq!(
        GamesIndex::from_games(vec![Source::of(&db)], &read.games).unwrap(),
        index
    );
    assert!(again.is_for(&[Source::of(&db)]));
    let other = database(vec![wgame("f5d6", 40)]).to_bytes().unwrap();
    assert!(!again.is_for(&[Source::of(&other)]));
    assert!(!again.is_for(&[Source::of(&db), Source::of(&other)]));

    let bytes = index.as_bytes();
    let e = GamesIndex::read(bytes[..bytes.len() - 1].to_vec()).unwrap_err();
    assert!(e.to_string().contains("truncated"), "{e}");
    let mut b = bytes.to_vec();
    let last = b.len() - 1;
    b[last] ^= 1;
    assert!(GamesIndex::read(b)
        .unwrap_err()
        .to_string()
        .contains("checksum"));
    let mut b = bytes.to_vec();
    b[0] = b'x';
    assert!(GamesIndex::read(b)
        .unwrap_err()
        .to_string()
        .contains("magic"));
    // A move byte that is no square, or entries out of order, under a good checksum.
    let entries_at = 40 + 16;
    let reseal = |mut b: Vec<u8>| {
        // FNV-1a 64 of the header's fields after the magic, then of all after the checksum.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &x in b[8..32].iter().chain(&b[40..]) {
            h = (h ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        b[32..40].copy_from_slice(&h.to_le_bytes());
        b
    };
    let mut b = bytes.to_vec();
    b[entries_at + 16] = 200;
    let e = GamesIndex::read(reseal(b)).unwrap_err();
    assert!(e.to_string().contains("entry 1: move byte 200"), "{e}");
    let mut b = bytes.to_vec();
    let (first, second) = b[entries_at..entries_at + 58].split_at_mut(29);
    first.swap_with_slice(second);
    let e = GamesIndex::read(reseal(b)).unwrap_err();
    assert!(e.to_string().contains("out of order"), "{e}");
    assert!(GamesIndex::read(reseal(bytes.to_vec())).is_ok());
    // Counts no games can score, under a good checksum (found by the mutation tests: the
    // explorer subtracted a move's points from twice its games and overflowed).
    for (at, value) in [(17, 0u32), (21, 1000), (25, 1000), (17, 1000)] {
        let mut b = bytes.to_vec();
        b[entries_at + at..entries_at + at + 4].copy_from_slice(&value.to_le_bytes());
        let e = GamesIndex::read(reseal(b)).unwrap_err();
        assert!(e.to_string().contains("entry 1: "), "{e}");
        assert!(e.to_string().contains("which no games"), "{e}");
    }

    let mut b = bytes.to_vec();
    b[8] = 9;
    assert!(GamesIndex::read(b)
        .unwrap_err()
        .to_string()
        .contains("version 9"));

    // Every bit of the header after the magic is covered: a flipped bit of the games
    // count (bytes 16-23), which no other check sees, is refused as well as the others.
    for byte in 8..40 {
        for bit in 0..8 {
            let mut b = bytes.to_vec();
            b[byte] ^= 1 << bit;
            assert!(GamesIndex::read(b).is_err(), "byte {byte} bit {bit}");
        }
    }
    let mut b = bytes.to_vec();
    b[16] ^= 1;
    let e = GamesIndex::read(b).unwrap_err();
    assert!(e.to_string().contains("checksum"), "{e}");
    // A file of version 1 (whose checksum left out the header) is not read: it is built again.
    let mut b = bytes.to_vec();
    b[8..12].copy_from_slice(&1u32.to_le_bytes());
    let e = GamesIndex::read(reseal(b)).unwrap_err();
    assert!(e.to_string().contains("format version 1"), "{e}");

    // A database that breaks the rules is named, with its game.
    let mut bad = db.clone();
    bad[16 + 68 + 8 + 2] = 11;
    let e = GamesIndex::build(&[&db[..], &bad[..]]).unwrap_err();
    assert!(e.to_string().starts_with("database 2: record 2"), "{e}");
}

/// The theoretical score of a finished game: the position with `depth` empties solved (its
/// score for the side to move turned into black's discs), unless the game was played
/// perfectly from `depth` empties or more, or never had that many left.
#[test]
fn theoretical_discs_solve_the_position_at_the_depth_unless_played_perfectly() {
    let mut rng = SplitMix64::new(29);
    let mut checked = 0;
    while checked < 10 {
        let game = common::random_game(&mut rng);
        let own = WthorGame::final_black_discs(&game.position());
        let Some(at) = game
            .plies()
            .map(|(p, _)| p)
            .find(|p| p.empties().count() == 10)
        else {
            continue;
        };
        checked += 1;
        let mut seen = None;
        let (discs, solved) = WthorGame::theoretical_discs(&game, 10, None, |p| {
            seen = Some(*p);
            6
        });
        assert_eq!(seen, Some(at));
        let black = if at.turn() == ply_othello::Color::Black {
            6
        } else {
            -6
        };
        assert_eq!((discs, solved), (((64 + black) / 2) as u8, true));
        let (discs, solved) = WthorGame::theoretical_discs(&game, 10, Some(8), |_| 6);
        assert_eq!((discs, solved), (((64 + black) / 2) as u8, true));
        let never = |_: &Position| -> i32 { panic!("no solve where the game was perfect") };
        assert_eq!(
            WthorGame::theoretical_discs(&game, 10, Some(10), never),
            (own, false)
        );
        assert_eq!(
            WthorGame::theoretical_discs(&game, 10, Some(14), never),
            (own, false)
        );
    }
    // A depth the game never reaches (it starts with 60 empties): its own result.
    let game = common::random_game(&mut rng);
    let own = WthorGame::final_black_discs(&game.position());
    let never = |_: &Position| -> i32 { panic!("no position with 61 empties") };
    assert_eq!(
        WthorGame::theoretical_discs(&game, 61, None, never),
        (own, false)
    );
}
