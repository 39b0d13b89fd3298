//! Edax books (`.dat`) through the binary: the shipped 8x8 book exported, imported and
//! exported again to the same bytes; `analyze --book` and `nboard --book` answering from a
//! chosen book, ply's or Edax's; broken files refused with the file, the position, the field
//! and the byte named, exit 2 and nothing written.

mod common;

use std::path::{Path, PathBuf};

use common::{ply, ply_with_input, s, scratch, stderr, stdout};
use ply_othello::{
    book::{Book, ScoredMove},
    BoardSize, Position, Square,
};
use serde_json::Value;

const SHIPPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../othello/data/book8.bin");

/// The 8x8 start as cells.
const START: &str = "---------------------------OX------XO--------------------------- X";

/// A book that knows one thing no engine would say: at the start, f5 is worth +7 (depth 9).
/// Written as ply's file and as Edax's.
fn custom(dir: &Path) -> (PathBuf, PathBuf) {
    let start = Position::start(BoardSize::Eight);
    let f5 = ScoredMove {
        square: Square::parse("f5").unwrap(),
        score: ply_othello::analyze::WholeDiscs(7),
        depth: 9,
    };
    let book = Book::from_partial(BoardSize::Eight, [(start, vec![f5])]).unwrap();
    let (own, edax) = (dir.join("custom.bin"), dir.join("custom.dat"));
    std::fs::write(&own, book.write()).unwrap();
    std::fs::write(&edax, book.write_edax().unwrap()).unwrap();
    (own, edax)
}

fn json(o: &std::process::Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_str(stdout(o).trim()).unwrap()
}

#[test]
fn the_shipped_book_exports_imports_and_exports_again_to_the_same_bytes() {
    let dir = scratch("edax-roundtrip");
    let (dat, bin, again) = (dir.join("b.dat"), dir.join("b.bin"), dir.join("again.dat"));
    let o = ply(&["othello", "book", "export", SHIPPED, "--out", s(&dat)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("an Edax book of"), "{}", stderr(&o));
    let o = ply(&["othello", "book", "import", s(&dat), "--out", s(&bin)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ply(&["othello", "book", "export", s(&bin), "--out", s(&again)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dat_bytes = std::fs::read(&dat).unwrap();
    assert_eq!(dat_bytes, std::fs::read(&again).unwrap());
    let imported = Book::read(&std::fs::read(&bin).unwrap()).unwrap();
    assert_eq!(Book::read_edax(&dat_bytes).unwrap(), imported);
    assert!(imported.is_partial());
    // `book info` reads either kind.
    for file in [&dat, &bin] {
        let v = json(&ply(&["othello", "book", "info", s(file), "--json"]));
        assert_eq!(v["kind"], "partial");
        assert_eq!(v["positions"], imported.len());
    }
}

#[test]
fn analyze_and_nboard_answer_from_the_chosen_book() {
    let dir = scratch("edax-chosen");
    let (own, edax) = custom(&dir);
    for file in [&own, &edax] {
        let v = json(&ply(&[
            "othello",
            "analyze",
            START,
            "--depth",
            "2",
            "--json",
            "--book",
            s(file),
        ]));
        let f5 = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == "f5")
            .unwrap();
        assert_eq!(
            (f5["score"].as_f64(), f5["book"].as_bool()),
            (Some(7.0), Some(true))
        );
        assert_eq!(
            (f5["depth"].as_u64(), v["best"].as_str()),
            (Some(9), Some("f5"))
        );
        // The book scores f5 only: the engine estimates the rest.
        assert_eq!(v["engine"], "mixed");
        assert!(v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["move"] != "f5")
            .all(|m| m["book"] == false));
        // NBoard: a hint names the book's move with its book line and value.
        let session = "nboard 2\nset depth 2\nset game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)\nhint 1\n";
        let o = ply_with_input(&["nboard", "--book", s(file)], session.as_bytes());
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).lines().any(|l| l == "book F5 7.00 0 9"),
            "{}",
            stdout(&o)
        );
    }
    // Without it, the shipped book: its value of the start (the four moves are one by
    // symmetry), not the chosen book's 7.
    let shipped = ply_othello::book::Book::builtin(ply_othello::BoardSize::Eight)
        .unwrap()
        .lookup(&ply_othello::Position::start(ply_othello::BoardSize::Eight))
        .unwrap()
        .score
        .0;
    assert_ne!(shipped, 7);
    let v = json(&ply(&[
        "othello", "analyze", START, "--depth", "2", "--json",
    ]));
    assert_eq!(v["engine"], "book");
    assert!(v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["score"].as_f64() == Some(f64::from(shipped))));
}

#[test]
fn broken_edax_books_are_refused_naming_the_file_position_field_and_byte() {
    let dir = scratch("edax-broken");
    let dat = dir.join("b.dat");
    assert!(
        ply(&["othello", "book", "export", SHIPPED, "--out", s(&dat)])
            .status
            .success()
    );
    let bytes = std::fs::read(&dat).unwrap();
    // Torn in the second position (the first is 42 + 40 + 2k + 2 bytes on).
    let second = 42 + 40 + 2 * usize::from(bytes[42 + 38]) + 2;
    let torn = dir.join("torn.dat");
    std::fs::write(&torn, &bytes[..second + 10]).unwrap();
    let out = dir.join("never.bin");
    let o = ply(&["othello", "book", "import", s(&torn), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains(&s(&torn).to_string())
            && e.contains(&format!(
                "position 1 (byte {second}): the discs (byte {})",
                second + 8
            ))
            && e.contains("truncated"),
        "{e}"
    );
    assert!(
        !out.exists() && !out.with_extension("tmp").exists(),
        "nothing written"
    );
    // A header that lies about the count.
    let mut lies = bytes.clone();
    lies[38] = lies[38].wrapping_add(1);
    let liar = dir.join("liar.dat");
    std::fs::write(&liar, &lies).unwrap();
    let o = ply(&["othello", "analyze", START, "--book", s(&liar)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the number of positions (byte 38)"),
        "{}",
        stderr(&o)
    );
    // Not a book at all; a missing one; a 6x6 book cannot be Edax's.
    let o = ply(&["othello", "book", "import", SHIPPED, "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not an Edax book"), "{}", stderr(&o));
    let o = ply(&["nboard", "--book", s(&dir.join("missing.dat"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing.dat: no such file"),
        "{}",
        stderr(&o)
    );
    let six = concat!(env!("CARGO_MANIFEST_DIR"), "/../othello/data/book6.bin");
    let o = ply(&["othello", "analyze", START, "--book", six]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a 6x6 book, the position is 8x8"),
        "{}",
        stderr(&o)
    );
    let o = ply(&["othello", "book", "export", six, "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("8x8"), "{}", stderr(&o));
    assert!(!out.exists());
}
