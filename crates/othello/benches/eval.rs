//! The learnt evaluation: a move made and unmade on the incremental state, an evaluation
//! from the state, a fresh state from the board, and the square-by-square reference. Every
//! benchmark checks once that the fast way gives the reference's value.

use std::{hint::black_box, time::Duration};

use criterion::{criterion_group, criterion_main, Criterion};
use ply_othello::{eval, BoardSize};

mod common;

/// Positions of pseudo-random 8x8 games, each with a legal move and its flips.
fn positions() -> Vec<(u64, u64, u8, u64)> {
    common::random_game_moves(0x2545_f491_4f6c_dd1d, 2048)
        .into_iter()
        .map(|(pos, sq)| {
            (
                pos.player().0,
                pos.opponent().0,
                sq.index(),
                pos.flips(sq).0,
            )
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let e = eval::builtin(BoardSize::Eight).expect("shipped weights");
    let set = positions();
    let states: Vec<_> = set.iter().map(|&(p, o, _, _)| e.state(p, o)).collect();
    for (&(p, o, sq, f), st) in set.iter().zip(&states) {
        assert_eq!(e.evaluate(st, p, o), e.evaluate_reference(p, o));
        let mut child = *st;
        child.play(sq, f);
        let (np, no) = (o ^ f, p | f | 1 << sq);
        assert_eq!(e.evaluate(&child, np, no), e.evaluate_reference(np, no));
    }
    let mut g = c.benchmark_group("eval");
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("play + evaluate + undo (2048 positions)", |b| {
        let mut states = states.clone();
        b.iter(|| {
            let mut acc = 0i32;
            for (&(p, o, sq, f), st) in set.iter().zip(states.iter_mut()) {
                st.play(sq, f);
                acc = acc.wrapping_add(e.evaluate(st, o ^ f, p | f | 1 << sq));
                st.undo(sq, f);
            }
            black_box(acc)
        });
    });
    g.bench_function("fresh state + evaluate (2048 positions)", |b| {
        b.iter(|| {
            let mut acc = 0i32;
            for &(p, o, _, _) in &set {
                acc = acc.wrapping_add(e.evaluate(&e.state(p, o), p, o));
            }
            black_box(acc)
        });
    });
    g.bench_function("reference (2048 positions)", |b| {
        b.iter(|| {
            let mut acc = 0i32;
            for &(p, o, _, _) in &set {
                acc = acc.wrapping_add(e.evaluate_reference(p, o));
            }
            black_box(acc)
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
