//! The files users trust ply with (issue 52): no command writes over an input or leaves a
//! temporary file behind, and a damaged file (a WTHOR database or names file, the
//! explorer's index, an Edax book, a folder where a file belongs) is refused with exit 2,
//! whatever the filters.

mod common;

use std::{fs, path::Path};

use common::{ply, s, scratch, stderr, stdout};
use ply_othello::{
    wthor::{Database, Date, Header, NameKind, Names, WthorGame},
    Color,
};
use serde_json::Value;

const BOOK8: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../othello/data/book8.bin");

/// `n` random games to their end as a WTHOR database of `year`.
fn database(n: usize, seed: u64, year: u16) -> Vec<u8> {
    let games = common::random_games(n, seed)
        .into_iter()
        .enumerate()
        .map(|(k, game)| {
            let discs = WthorGame::final_black_discs(&game.position());
            WthorGame {
                tournament: 0,
                black: (k % 2) as u16,
                white: 1 - (k % 2) as u16,
                black_discs: discs,
                theoretical: discs,
                game,
            }
        })
        .collect();
    let date = Date {
        year: 2025,
        month: 1,
        day: 2,
    };
    Database {
        header: Header::games(year, date, 22),
        games,
    }
    .to_bytes()
    .unwrap()
}

/// Runs `ply ARGS`, expects exit 2 and stderr containing every needle.
fn refused(args: &[&str], needles: &[&str]) {
    let o = ply(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: `{n}` not in {err}");
    }
}

/// The names of the files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn an_output_that_is_an_input_or_not_an_index_is_refused_and_left_alone() {
    let dir = scratch("files-inputs");
    let db = dir.join("g.wtb");
    let bytes = database(6, 1, 2024);
    fs::write(&db, &bytes).unwrap();
    // The index given as the database itself.
    refused(
        &[
            "othello",
            "explore",
            "f5",
            "--games",
            s(&db),
            "--index",
            s(&db),
            "--no-engine",
        ],
        &["g.wtb", "also an input"],
    );
    refused(
        &["othello", "games", "index", s(&db), "--index", s(&db)],
        &["also an input"],
    );
    // The index given as another database: a file that is no index is not written over.
    let other = dir.join("h.wtb");
    fs::write(&other, &bytes).unwrap();
    refused(
        &["othello", "games", "index", s(&db), "--index", s(&other)],
        &["h.wtb", "not a ply games index"],
    );
    assert_eq!(fs::read(&db).unwrap(), bytes);
    assert_eq!(fs::read(&other).unwrap(), bytes);
    assert_eq!(listing(&dir), ["g.wtb", "h.wtb"]);

    // A book command's input named as the old helper's temporary file (OUT.tmp) is kept.
    let export = ply(&[
        "othello",
        "book",
        "export",
        BOOK8,
        "--out",
        s(&dir.join("e.dat")),
    ]);
    assert!(export.status.success(), "{}", stderr(&export));
    fs::rename(dir.join("e.dat"), dir.join("x.tmp")).unwrap();
    let edax = fs::read(dir.join("x.tmp")).unwrap();
    let o = ply(&[
        "othello",
        "book",
        "import",
        "--out",
        s(&dir.join("x.bin")),
        s(&dir.join("x.tmp")),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(fs::read(dir.join("x.tmp")).unwrap(), edax);
    refused(
        &[
            "othello",
            "book",
            "import",
            "--out",
            s(&dir.join("x.tmp")),
            s(&dir.join("x.tmp")),
        ],
        &["also an input"],
    );
    assert_eq!(fs::read(dir.join("x.tmp")).unwrap(), edax);
    fs::copy(BOOK8, dir.join("y.tmp")).unwrap();
    refused(
        &[
            "othello",
            "book",
            "add",
            s(&dir.join("y.tmp")),
            s(&db),
            "--out",
            s(&db),
        ],
        &["also an input"],
    );
    assert_eq!(fs::read(&db).unwrap(), bytes);
    let o = ply(&[
        "othello",
        "book",
        "add",
        s(&dir.join("y.tmp")),
        s(&db),
        "--out",
        s(&dir.join("y.bin")),
        "--depth",
        "1",
        "--plies",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        fs::read(dir.join("y.tmp")).unwrap(),
        fs::read(BOOK8).unwrap()
    );
    assert_eq!(
        listing(&dir),
        ["g.wtb", "h.wtb", "x.bin", "x.tmp", "y.bin", "y.tmp"]
    );
}

#[test]
fn an_index_that_cannot_be_kept_leaves_no_temporary_file() {
    let dir = scratch("files-folder-index");
    let db = dir.join("g.wtb");
    fs::write(&db, database(6, 2, 2024)).unwrap();
    fs::create_dir(dir.join("g.wtb.plyidx")).unwrap();
    for _ in 0..2 {
        let o = ply(&["othello", "explore", "f5", "--games", s(&db), "--no-engine"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("could not keep the index"),
            "{}",
            stderr(&o)
        );
    }
    assert_eq!(listing(&dir), ["g.wtb", "g.wtb.plyidx"]);
    assert!(listing(&dir.join("g.wtb.plyidx")).is_empty());
}

#[test]
fn a_flipped_bit_in_the_index_s_games_count_is_built_again() {
    let dir = scratch("files-index-games");
    let db = dir.join("g.wtb");
    fs::write(&db, database(12, 3, 2024)).unwrap();
    let index = dir.join("g.wtb.plyidx");
    let built = ply(&["othello", "games", "index", s(&db), "--json"]);
    assert!(built.status.success(), "{}", stderr(&built));
    for bit in [0, 5] {
        let mut b = fs::read(&index).unwrap();
        b[16] ^= 1 << bit; // the games count, bytes 16-23
        fs::write(&index, &b).unwrap();
        let o = ply(&["othello", "games", "index", s(&db), "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(
            (v["state"].as_str(), v["games"].as_u64()),
            (Some("built"), Some(12))
        );
        assert!(stderr(&o).is_empty() || stderr(&o).contains("damaged"));
        let mut b = fs::read(&index).unwrap();
        b[16] ^= 1 << bit;
        fs::write(&index, &b).unwrap();
        let o = ply(&[
            "othello",
            "explore",
            "f5",
            "--games",
            s(&db),
            "--no-engine",
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("damaged"), "{}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["games"], 12, "{v}");
    }
}

#[test]
fn damaged_wthor_files_are_refused_whatever_the_filters() {
    let dir = scratch("files-wthor");
    let good = database(4, 4, 2024);
    let path = dir.join("bad.wtb");
    let p = s(&path);
    // A move that breaks the rules: refused with --year of its own year and of another.
    let mut b = good.clone();
    b[16 + 68 + 8 + 4] = 11;
    fs::write(&path, &b).unwrap();
    for year in ["2024", "1999"] {
        refused(
            &["othello", "games", p, "--year", year],
            &[p, "record 2", "`moves`"],
        );
    }
    // A finished game whose disc count contradicts its end.
    let mut b = good.clone();
    let end = Database::read(&good).unwrap().games[0].game.position();
    let black = end.disc_count(Color::Black) as u8;
    b[16 + 6] = if black == 10 { 11 } else { 10 };
    fs::write(&path, &b).unwrap();
    for args in [
        vec!["othello", "games", p],
        vec!["othello", "games", p, "--year", "1999"],
        vec!["othello", "explore", "f5", "--games", p, "--no-engine"],
    ] {
        refused(
            &args,
            &[p, "record 1", "black's discs", "the game replayed ends"],
        );
    }
    // A names file whose N1 is not 0.
    fs::write(&path, &good).unwrap();
    let names = Names {
        header: Header::names(Date {
            year: 2025,
            month: 1,
            day: 2,
        }),
        kind: NameKind::Players,
        names: vec!["Alice".into(), "Bob".into()],
    };
    let mut jou = names.to_bytes().unwrap();
    jou[4] = 7;
    let jou_path = dir.join("bad.JOU");
    fs::write(&jou_path, &jou).unwrap();
    refused(
        &["othello", "games", p, "--players", s(&jou_path)],
        &["bad.JOU", "games (N1)", "7 in a names file"],
    );
}

#[test]
fn a_damaged_edax_book_or_a_folder_as_a_book_is_bad_input() {
    let dir = scratch("files-books");
    let dat = dir.join("e.dat");
    let o = ply(&["othello", "book", "export", BOOK8, "--out", s(&dat)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let good = fs::read(&dat).unwrap();
    let out = dir.join("o.bin");
    // The first position's value, lower and upper bound (its bytes 32-37; the header is 42).
    for j in 0..3 {
        let mut b = good.clone();
        let at = 42 + 32 + 2 * j;
        b[at..at + 2].copy_from_slice(&i16::MIN.to_le_bytes());
        let bad = dir.join(format!("bad{j}.dat"));
        fs::write(&bad, &b).unwrap();
        for args in [
            vec!["othello", "book", "info", s(&bad)],
            vec!["othello", "book", "import", s(&bad), "--out", s(&out)],
            vec![
                "othello",
                "analyze",
                "f5",
                "--book",
                s(&bad),
                "--depth",
                "1",
            ],
        ] {
            refused(&args, &[s(&bad), "-32768"]);
        }
    }
    assert!(!out.exists(), "nothing written");
    let folder = dir.join("folder");
    fs::create_dir(&folder).unwrap();
    let f = s(&folder);
    for args in [
        vec!["othello", "book", "info", f],
        vec![
            "othello",
            "book",
            "export",
            f,
            "--out",
            s(&dir.join("o.dat")),
        ],
        vec!["othello", "analyze", "f5", "--book", f, "--depth", "1"],
        vec!["nboard", "--book", f],
    ] {
        refused(&args, &[f, "a folder, not a file"]);
    }
}
