//! Move generation, flips and perft: the vector and the portable builds side by side. Every
//! benchmark checks its answer once before it is timed.

use std::{hint::black_box, time::Duration};

use criterion::{criterion_group, criterion_main, Criterion};
use ply_othello::{moves, perft, reference, BoardSize, Position};

mod common;

/// Positions met in pseudo-random 8x8 games, with the moves of each.
fn positions() -> Vec<(u64, u64, u64)> {
    common::random_game_moves(0x9e37_79b9_7f4a_7c15, 4096)
        .into_iter()
        .map(|(pos, _)| (pos.player().0, pos.opponent().0, pos.legal_moves().0))
        .collect()
}

fn bench(c: &mut Criterion) {
    let set = positions();
    for &(p, o, m) in &set {
        let slow = reference::legal_moves_slow(p, o, BoardSize::Eight);
        assert_eq!(m, slow);
        assert_eq!(moves::legal_moves(p, o, !(p | o)), slow);
        assert_eq!(moves::legal_moves_portable(p, o, !(p | o)), slow);
    }
    let flips_sum = |f: fn(u64, u64, u8) -> u64| {
        let mut acc = 0u64;
        for &(p, o, m) in &set {
            let mut rest = m;
            while rest != 0 {
                let sq = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                acc = acc.wrapping_add(f(black_box(p), o, sq));
            }
        }
        acc
    };
    let want = flips_sum(|p, o, sq| reference::flips_slow(p, o, sq, BoardSize::Eight));
    assert_eq!(flips_sum(moves::flips), want);
    assert_eq!(flips_sum(moves::flips_portable), want);

    let mut g = c.benchmark_group("movegen");
    g.bench_function("legal_moves (4096 positions)", |b| {
        b.iter(|| {
            set.iter().fold(0u64, |a, &(p, o, _)| {
                a ^ moves::legal_moves(black_box(p), o, !(p | o))
            })
        })
    });
    g.bench_function("legal_moves_portable (4096 positions)", |b| {
        b.iter(|| {
            set.iter().fold(0u64, |a, &(p, o, _)| {
                a ^ moves::legal_moves_portable(black_box(p), o, !(p | o))
            })
        })
    });
    g.bench_function("flips (every move of 4096 positions)", |b| {
        b.iter(|| flips_sum(moves::flips))
    });
    g.bench_function("flips_portable (every move of 4096 positions)", |b| {
        b.iter(|| flips_sum(moves::flips_portable))
    });
    g.finish();

    let start = Position::start(BoardSize::Eight);
    assert_eq!(perft::perft(&start, 9), 3_005_288);
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("8x8 perft(9)", |b| {
        b.iter(|| perft::perft(black_box(&start), 9))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
