//! Game files: deterministic, sharded and merged, resumed after a kill, refused when broken,
//! and labelled exactly where the games are played perfectly.

use std::{
    fs,
    ops::ControlFlow,
    path::{Path, PathBuf},
};

use ply_othello::{
    solve::{SolveOptions, Solver},
    BoardSize, Square,
};
use ply_train::{
    datagen::{self, Progress},
    error::DataError,
    games::{GameReader, Header, Shard, HEADER_LEN},
    recipe::Params,
    selfplay,
};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-train-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Small, quick 6x6 games.
fn small(games: u64) -> Params {
    Params {
        size: BoardSize::Six,
        seed: 42,
        games,
        depth: 2,
        random_min: 2,
        random_max: 8,
        exact_empties: 10,
    }
}

fn go_on(_: &Progress) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Generates shard `shard` of `params` into `path` to the end.
fn generate(path: &Path, params: Params, shard: Shard) -> datagen::Report {
    datagen::generate(path, &Header::new(params, shard), &mut go_on).unwrap()
}

fn read_err(bytes: &[u8]) -> DataError {
    match GameReader::new(bytes, "f.bin") {
        Err(e) => e,
        Ok(r) => r.count_all().unwrap_err(),
    }
}

#[test]
fn the_same_seed_writes_the_same_bytes_and_another_seed_other_games() {
    let dir = scratch("determinism");
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    let ra = generate(&a, small(6), Shard::WHOLE);
    generate(&b, small(6), Shard::WHOLE);
    generate(
        &c,
        Params {
            seed: 43,
            ..small(6)
        },
        Shard::WHOLE,
    );
    assert!(ra.complete && ra.resumed == 0 && ra.cut.is_none());
    assert_eq!(ra.counts.games, 6);
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());
    assert_ne!(
        fs::read(&a).unwrap()[HEADER_LEN..],
        fs::read(&c).unwrap()[HEADER_LEN..]
    );
    // The games vary: different openings, different games.
    let games: Vec<_> = datagen::open(&a).unwrap().map(Result::unwrap).collect();
    assert!(games.windows(2).all(|w| w[0].moves != w[1].moves));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_merged_are_the_bytes_of_one_run() {
    let dir = scratch("merge");
    let whole = dir.join("whole");
    generate(&whole, small(7), Shard::WHOLE);
    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("shard-{i}"))).collect();
    for (i, path) in shards.iter().enumerate() {
        let r = generate(path, small(7), Shard::new(i as u32, 3).unwrap());
        assert_eq!(r.counts.games, [3, 2, 2][i]);
    }
    // In any order.
    let order = vec![shards[2].clone(), shards[0].clone(), shards[1].clone()];
    let merged = |inputs: &[PathBuf], partial| -> Result<(datagen::Merged, Vec<u8>), _> {
        let mut out = Vec::new();
        let m = datagen::merge(inputs, partial)?.write_to(&mut out, "merged")?;
        Ok::<_, ply_train::error::DataError>((m, out))
    };
    let (m, bytes) = merged(&order, false).unwrap();
    assert_eq!((m.counts.games, m.left_out), (7, 0));
    assert_eq!(bytes, fs::read(&whole).unwrap());

    // A shard missing, or given twice, or from another set, is refused by name.
    let e = merged(&shards[..2], false).unwrap_err();
    assert!(
        e.to_string().contains("no file given holds shard 2/3"),
        "{e}"
    );
    let twice = vec![shards[0].clone(), shards[1].clone(), shards[1].clone()];
    let e = merged(&twice, false).unwrap_err();
    assert!(e.to_string().contains("both hold shard 1/3"), "{e}");
    let other = dir.join("other");
    generate(
        &other,
        Params {
            depth: 3,
            ..small(7)
        },
        Shard::new(2, 3).unwrap(),
    );
    let mixed = vec![shards[0].clone(), shards[1].clone(), other.clone()];
    let e = merged(&mixed, false).unwrap_err();
    assert!(
        e.to_string().contains("header field `depth` is 3, not 2"),
        "{e}"
    );

    // An unfinished shard: refused, or with `partial` the games every shard holds, which is
    // the bytes of a one-shard run of that many games.
    let unfinished = dir.join("unfinished");
    let mut bytes = fs::read(&shards[1]).unwrap();
    let first = datagen::open(&shards[1]).unwrap().next().unwrap().unwrap();
    bytes.truncate(HEADER_LEN + first.encoded_len());
    fs::write(&unfinished, &bytes).unwrap();
    let partial = vec![shards[0].clone(), unfinished, shards[2].clone()];
    let e = merged(&partial, false).unwrap_err();
    assert!(e.to_string().contains("holds 1 of its 2 games"), "{e}");
    let (m, bytes) = merged(&partial, true).unwrap();
    assert_eq!((m.counts.games, m.left_out), (4, 3));
    let four = dir.join("four");
    generate(&four, small(4), Shard::WHOLE);
    assert_eq!(bytes, fs::read(&four).unwrap());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_run_resumes_to_the_bytes_of_an_uninterrupted_one() {
    let dir = scratch("resume");
    let whole = dir.join("whole");
    let shard = Shard::new(1, 2).unwrap();
    generate(&whole, small(10), shard);
    let want = fs::read(&whole).unwrap();
    let sizes: Vec<usize> = datagen::open(&whole)
        .unwrap()
        .map(|g| g.unwrap().encoded_len())
        .collect();
    // Where each record ends.
    let ends: Vec<usize> = sizes
        .iter()
        .scan(HEADER_LEN, |end, s| {
            *end += s;
            Some(*end)
        })
        .collect();
    let second = ends[0];
    // Cut inside the header, at a record boundary, and inside each field of a record.
    let cuts = [
        0,
        5,
        HEADER_LEN - 1,
        HEADER_LEN,
        second,
        second + 3,
        second + 8,
        second + 9,
        second + 10,
        second + sizes[1] - 5,
        second + sizes[1] - 2,
        want.len() - 1,
    ];
    let path = dir.join("killed");
    for cut in cuts {
        fs::write(&path, &want[..cut]).unwrap();
        let r = generate(&path, small(10), shard);
        assert_eq!(fs::read(&path).unwrap(), want, "cut at byte {cut}");
        assert_eq!(
            r.resumed,
            ends.iter().filter(|&&end| end <= cut).count() as u64,
            "cut at byte {cut}"
        );
        let torn = cut > HEADER_LEN && !ends.contains(&cut);
        assert_eq!(r.cut.is_some(), torn, "cut at byte {cut}");
    }
    // Stopped cleanly after two games, then run again: the same bytes, and a finished file
    // run again is left as it is.
    fs::remove_file(&path).unwrap();
    let header = Header::new(small(10), shard);
    let r = datagen::generate(&path, &header, &mut |p| {
        if p.this_run == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!((r.counts.games, r.complete), (2, false));
    let r = generate(&path, small(10), shard);
    assert_eq!((r.resumed, r.counts.games, r.complete), (2, 5, true));
    assert_eq!(fs::read(&path).unwrap(), want);
    let r = generate(&path, small(10), shard);
    assert_eq!((r.resumed, r.counts.games), (5, 5));
    assert_eq!(fs::read(&path).unwrap(), want);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resuming_with_other_arguments_names_the_field() {
    let dir = scratch("mismatch");
    let path = dir.join("games");
    generate(&path, small(2), Shard::WHOLE);
    let cases = [
        (
            Params {
                seed: 7,
                ..small(2)
            },
            Shard::WHOLE,
            "`seed` is 42, not 7",
        ),
        (small(3), Shard::WHOLE, "`games` is 2, not 3"),
        (
            Params {
                random_min: 3,
                ..small(2)
            },
            Shard::WHOLE,
            "`random moves` is 2-8, not 3-8",
        ),
        (
            Params {
                exact_empties: 9,
                ..small(2)
            },
            Shard::WHOLE,
            "`exact empties` is 10, not 9",
        ),
        (
            small(2),
            Shard::new(0, 2).unwrap(),
            "`shard` is 0/1, not 0/2",
        ),
    ];
    for (params, shard, want) in cases {
        let e = datagen::generate(&path, &Header::new(params, shard), &mut go_on).unwrap_err();
        assert!(e.is_bad_input());
        assert!(e.to_string().contains(want), "{e}");
    }
    let mut other_engine = Header::new(small(2), Shard::WHOLE);
    other_engine.engine ^= 1;
    let e = datagen::generate(&path, &other_engine, &mut go_on).unwrap_err();
    assert!(e.to_string().contains("header field `engine`"), "{e}");
    // A file that is not a game file is never overwritten.
    fs::write(
        &path,
        b"hello, world: not games at all, and long enough for a header",
    )
    .unwrap();
    let e = generate_err(&path, small(2));
    assert!(e.contains("field `magic`: not a ply game file"), "{e}");
    fs::remove_dir_all(&dir).unwrap();
}

fn generate_err(path: &Path, params: Params) -> String {
    datagen::generate(path, &Header::new(params, Shard::WHOLE), &mut go_on)
        .unwrap_err()
        .to_string()
}

#[test]
fn the_reader_refuses_truncated_foreign_and_corrupt_files_naming_the_field() {
    let header = Header::new(small(3), Shard::WHOLE);
    let mut good = header.to_bytes().to_vec();
    for k in 0..3 {
        selfplay::play(&header.params, k).unwrap().encode(&mut good);
    }
    let counts = GameReader::new(&good[..], "f.bin")
        .unwrap()
        .count_all()
        .unwrap();
    assert_eq!((counts.games, counts.bytes), (3, good.len() as u64));
    let first_len = {
        let mut r = GameReader::new(&good[..], "f.bin").unwrap();
        r.next_game().unwrap().unwrap().encoded_len()
    };
    let rec2 = HEADER_LEN + first_len;
    let with = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        read_err(&b).to_string()
    };
    let cases: Vec<(String, &str)> = vec![
        (
            with(&|b| b.truncate(0)),
            "f.bin: header: the file ends inside field `magic`",
        ),
        (
            with(&|b| b.truncate(20)),
            "header: the file ends inside field `seed`",
        ),
        (
            with(&|b| b.truncate(46)),
            "the file ends inside field `header checksum`",
        ),
        (
            with(&|b| b[0] = b'X'),
            "header: field `magic`: not a ply game file (it starts `XLYGAMES`",
        ),
        (
            with(&|b| b[8] = 2),
            "header: field `format version`: version 2; this ply reads version 1",
        ),
        (
            with(&|b| b[24] ^= 1),
            "header: field `header checksum`: stored",
        ),
        (with(&|b| b.truncate(rec2 + 4)), "record 2 (byte "),
        (
            with(&|b| b.truncate(rec2 + 4)),
            "the file ends inside field `game index`: truncated",
        ),
        (
            with(&|b| b.truncate(rec2 + 12)),
            "ends inside field `moves`",
        ),
        (with(&|b| b.truncate(b.len() - 1)), "record 3 (byte "),
        (
            with(&|b| b.truncate(b.len() - 1)),
            "ends inside field `checksum`",
        ),
        (with(&|b| b[rec2 + 12] ^= 4), "record 2 (byte "),
        (with(&|b| b[rec2 + 12] ^= 4), "field `checksum`: stored 0x"),
        (
            with(&|b| b[rec2 + 9] = 200),
            "field `move count`: 200 moves; a 6x6 game has at most 32",
        ),
    ];
    for (got, want) in &cases {
        assert!(got.contains(want), "`{got}` lacks `{want}`");
    }
    // The byte offsets are right.
    assert!(with(&|b| b.truncate(rec2 + 4)).contains(&format!("record 2 (byte {rec2})")));
    // Each of these is the file's fault.
    assert!(read_err(&good[..30]).is_bad_input());
}

#[test]
fn records_that_are_well_formed_but_wrong_are_refused() {
    // Records with good checksums but the wrong game, an illegal move, the wrong score.
    let params = small(3);
    let header = Header::new(params, Shard::new(1, 2).unwrap());
    let game = selfplay::play(&params, 1).unwrap();
    let file = |g: &ply_train::games::Game| {
        let mut b = header.to_bytes().to_vec();
        g.encode(&mut b);
        read_err(&b).to_string()
    };
    let mut g = game.clone();
    g.index = 2;
    assert!(file(&g).contains("field `game index`: game 2 where shard 1/2's next game, 1, belongs"));
    let mut g = game.clone();
    g.moves.swap(0, 1);
    assert!(file(&g).contains("field `moves`: move 1"), "{}", file(&g));
    let mut g = game.clone();
    g.score += 2;
    assert!(
        file(&g).contains("field `score`: the final position scores"),
        "{}",
        file(&g)
    );
    let mut g = game.clone();
    g.moves.pop();
    assert!(
        file(&g).contains("field `moves`: the game is not over"),
        "{}",
        file(&g)
    );
    // Two games in a shard of one: a record past the shard's last game.
    let mut b = header.to_bytes().to_vec();
    game.encode(&mut b);
    game.encode(&mut b);
    let e = read_err(&b).to_string();
    assert!(
        e.contains("record 2") && e.contains("past the shard's last game"),
        "{e}"
    );
}

#[test]
fn labels_from_the_exact_empties_on_are_the_solver_values() {
    // 8x8, shallow, perfect from 12 empties: every exact label is checked by the solver.
    let params = Params {
        size: BoardSize::Eight,
        seed: 5,
        games: 4,
        depth: 1,
        random_min: 4,
        random_max: 8,
        exact_empties: 12,
    };
    let header = Header::new(params, Shard::WHOLE);
    let mut bytes = header.to_bytes().to_vec();
    for k in 0..params.games {
        let g = selfplay::play(&params, k).unwrap();
        assert!((4..=8).contains(&g.random_moves));
        g.encode(&mut bytes);
    }
    let positions: Vec<_> = GameReader::new(&bytes[..], "f.bin")
        .unwrap()
        .positions()
        .collect::<Result<_, _>>()
        .unwrap();
    // A few bytes a position.
    assert!(bytes.len() as f64 / (positions.len() as f64) < 2.0);
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 4,
    });
    let mut exact = 0;
    for p in &positions {
        assert!(p.position.can_move());
        assert_eq!(p.exact, p.empties() <= 12);
        if p.exact {
            exact += 1;
            assert_eq!(
                i32::from(p.label),
                solver.solve(&p.position).score.0,
                "{}",
                p.position
            );
        }
    }
    // Most games reach the exact part (a game can end sooner: a wipe-out at depth 1).
    assert!(exact >= 3 * 10, "{exact} exact positions");
}

#[test]
fn bad_parameters_are_refused_by_name() {
    let check = |p: Params| p.check().unwrap_err().to_string();
    assert!(check(Params {
        depth: 0,
        ..small(1)
    })
    .starts_with("depth:"));
    assert!(check(Params {
        random_max: 30,
        ..small(1)
    })
    .starts_with("exact empties: up to 30 random moves"));
    assert!(check(Params {
        random_min: 9,
        ..small(1)
    })
    .starts_with("random moves:"));
    assert!(check(small(0)).starts_with("games:"));
    assert!(check(Params {
        size: BoardSize::Four,
        ..small(1)
    })
    .starts_with("board size:"));
    let h = Header::new(small(5), Shard::new(2, 3).unwrap());
    assert_eq!(Header::parse(&h.to_bytes(), "f").unwrap(), h);
}

/// A stored game as a record: every move in order with the passes put back, ending at the
/// game's end with black's stored score; an illegal move is refused, named.
#[test]
fn a_game_becomes_a_record_with_its_passes_put_back() {
    for k in 0..4 {
        let game = selfplay::play(&small(4), k).unwrap();
        let record = game.record(BoardSize::Six).unwrap();
        let played: Vec<Square> = record
            .moves()
            .iter()
            .filter_map(|m| match m {
                ply_othello::Move::Play(sq) => Some(*sq),
                ply_othello::Move::Pass => None,
            })
            .collect();
        assert_eq!(played, game.moves);
        let end = record.position();
        assert!(end.is_game_over());
        let black = match end.turn() {
            ply_othello::Color::Black => end.final_score(),
            ply_othello::Color::White => -end.final_score(),
        };
        assert_eq!(black, i32::from(game.score));
    }
    // The game whose swapped first moves the file's reader refuses at move 1.
    let mut bad = selfplay::play(&small(3), 1).unwrap();
    bad.moves.swap(0, 1);
    assert!(bad.record(BoardSize::Six).is_err());
}
