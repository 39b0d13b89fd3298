//! Exact solves of the easier FFO forum positions (#1-#9): one thread, then two threads
//! sharing the table. Every score is checked against the file before anything is timed.
//! The big FFO positions (#40-#59) are benchmarked by `ply bench ffo`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use ply_othello::{
    obf,
    solve::{SolveOptions, Solver},
    Position,
};

fn positions() -> Vec<(Position, i32)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/fforum-1-19.obf"
    );
    let text = std::fs::read_to_string(path).expect("the test vectors in testdata/");
    obf::parse_file(&text)
        .expect("a valid OBF file")
        .into_iter()
        .take(9)
        .map(|e| (e.obf.position, e.obf.best_score().expect("scores listed")))
        .collect()
}

fn solve_all(set: &[(Position, i32)], threads: usize) -> u64 {
    let mut solver = Solver::new(SolveOptions {
        threads,
        hash_mb: 16,
    });
    let mut nodes = 0;
    for (pos, want) in set {
        let r = solver.solve(pos);
        assert_eq!(r.score.0, *want);
        nodes += r.nodes;
    }
    nodes
}

fn bench(c: &mut Criterion) {
    let set = positions();
    let mut group = c.benchmark_group("solve fforum 1-9");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for threads in [1, 2] {
        solve_all(&set, threads);
        group.bench_function(format!("{threads} thread(s)"), |b| {
            b.iter(|| solve_all(&set, threads));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
