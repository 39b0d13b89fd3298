//! perft against `testdata/perft.txt`: every count up to 10^9 leaves in total per size.
//! Small counts run in every `cargo test`; the rest are heavy (release test profile).

use std::collections::HashMap;

use ply_othello::{perft, BoardSize, Position};

const TABLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/perft.txt");

/// `(size, depth, leaves)` rows of the shared table.
fn table() -> Vec<(BoardSize, u32, u64)> {
    let text = std::fs::read_to_string(TABLE).expect("testdata/perft.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<u64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            let size = BoardSize::from_n(u8::try_from(f[0]).unwrap()).unwrap();
            (size, u32::try_from(f[1]).unwrap(), f[2])
        })
        .collect()
}

/// The rows, by size and depth, whose running total of leaves per size stays within `budget`.
fn rows_within(budget: u64) -> Vec<(BoardSize, u32, u64)> {
    let mut rows = table();
    rows.sort_by_key(|r| (r.0, r.1));
    let mut total = HashMap::new();
    rows.into_iter()
        .filter(|&(size, _, leaves)| {
            let t = total.entry(size).or_insert(0u64);
            *t += leaves;
            *t <= budget
        })
        .collect()
}

fn check(rows: &[(BoardSize, u32, u64)]) {
    for &(size, depth, want) in rows {
        let pos = Position::start(size);
        assert_eq!(perft::perft(&pos, depth), want, "{size:?} depth {depth}");
        assert_eq!(
            perft::known_count(size, depth),
            Some(want),
            "{size:?} depth {depth}"
        );
    }
}

#[test]
fn small_perft_counts_match_the_table() {
    let rows: Vec<_> = rows_within(1_000_000_000)
        .into_iter()
        .filter(|r| r.2 <= 3_000_000)
        .collect();
    assert!(rows.len() >= 16 + 8 + 8, "{}", rows.len());
    check(&rows);
}

#[test]
#[ignore = "heavy: run in the release test profile"]
fn every_perft_count_up_to_a_billion_leaves_per_size() {
    let rows = rows_within(1_000_000_000);
    // 8x8 to depth 11, 6x6 to depth 12, 4x4 to its end.
    assert!(rows.contains(&(BoardSize::Eight, 11, 212_258_800)));
    assert!(rows.contains(&(BoardSize::Six, 12, 811_201_176)));
    assert!(rows.contains(&(BoardSize::Four, 16, 60_060)));
    check(&rows);
}

#[test]
fn the_slow_perft_agrees_where_it_is_affordable() {
    for (size, depth) in [
        (BoardSize::Four, 16),
        (BoardSize::Six, 6),
        (BoardSize::Eight, 5),
    ] {
        let pos = Position::start(size);
        assert_eq!(perft::perft_slow(&pos, depth), perft::perft(&pos, depth));
    }
}
