//! Measures how well a shallow search predicts a deeper one, for Multi-ProbCut, and prints
//! the fitted spread model.
//!
//! ```text
//! cargo run --release -p ply-train --example calibrate-mpc -- --size 8|6 [--games N] [--deepest D] [--endgame]
//! ```
//! Positions come from seeded games (the training's game generator, seeds apart from the
//! training set's). Without `--endgame` (the midgame engine, `ply_othello::midgame::mpc`) each
//! is searched at every depth from `MIDGAME_MIN_DEPTH` to `--deepest` (by default 9 on 8x8,
//! 10 on 6x6), with the shipped evaluation (or `PLY_EVAL8`'s), and `deep - shallow` is collected per depth and number of empty squares.
//! With `--endgame` (the exact solver's selective passes) positions with 12 to 21 empty
//! squares are solved exactly and `exact - shallow` is collected for the probe depths 2, 4
//! and 6. The spread `sigma = a + b * depth + c * empties` (discs) is fitted to the measured
//! standard deviations by least squares, each weighted by its number of positions.

use ply_othello::{
    eval::{self, Eval},
    midgame::mpc,
    solve::{SolveOptions, Solver},
    BoardSize, Color, Position,
};
use ply_train::fit;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut size = BoardSize::Eight;
    let mut games = 300;
    let mut endgame = false;
    let mut deepest = None;
    while let Some(flag) = args.next() {
        if flag == "--endgame" {
            endgame = true;
            continue;
        }
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--size" => {
                size = fit::evaluated_size(&value).unwrap_or_else(|e| {
                    eprintln!("--size: {e}");
                    std::process::exit(2)
                })
            }
            "--games" => games = value.parse().expect("--games N"),
            "--deepest" => deepest = Some(value.parse().expect("--deepest D")),
            _ => panic!("unknown option {flag}"),
        }
    }
    let deepest = deepest.unwrap_or(if size == BoardSize::Eight { 9 } else { 10 });
    let e = eval::builtin(size).expect("an evaluated size");
    let mut cfg = fit::Config::shipped(size);
    cfg.games = games;
    cfg.exact_games = 0;
    cfg.mid_games = 0;
    cfg.seed = 99_000_000;
    let samples = fit::draw_samples(&cfg);
    let picked: Vec<Position> = samples
        .iter()
        .map(|s| Position::from_raw(s.p, s.o, Color::Black, size))
        .filter(|pos| {
            let n = pos.empties().count();
            pos.legal_moves().next().is_some()
                && if endgame {
                    (12..=21).contains(&n)
                } else {
                    n > deepest + 2
                }
        })
        .collect();
    // (depth, empties) -> differences in discs
    let mut diffs: std::collections::BTreeMap<(u32, u32), Vec<f64>> = Default::default();
    let results: Vec<Vec<(u32, u32, f64)>> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..2)
            .map(|k| {
                let picked = &picked;
                sc.spawn(move || {
                    let mut solver = endgame.then(|| {
                        Solver::new(SolveOptions {
                            threads: 1,
                            hash_mb: 32,
                        })
                    });
                    let mut out = Vec::new();
                    for pos in picked.iter().skip(k).step_by(2) {
                        match solver.as_mut() {
                            Some(solver) => endgame_diffs(e, solver, pos, &mut out),
                            None => midgame_diffs(e, pos, deepest, &mut out),
                        }
                    }
                    out
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (d, em, x) in results.into_iter().flatten() {
        diffs.entry((d, em / 4 * 4)).or_default().push(x);
    }
    // Weighted least squares on (1, d, e) -> sigma.
    let mut ata = [[0f64; 3]; 3];
    let mut atb = [0f64; 3];
    println!("depth empties  count   mean  sigma");
    for (&(d, em), xs) in &diffs {
        if xs.len() < 10 {
            continue;
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
        println!("{d:>5} {:>7} {:>6} {mean:>6.2} {sd:>6.2}", em + 2, xs.len());
        let row = [1.0, f64::from(d), f64::from(em + 2)];
        for i in 0..3 {
            for j in 0..3 {
                ata[i][j] += n * row[i] * row[j];
            }
            atb[i] += n * row[i] * sd;
        }
    }
    let x = solve3(ata, atb);
    println!(
        "sigma = {:.3} + {:.4} * depth + {:.4} * empties ({}, size {})",
        x[0],
        x[1],
        x[2],
        if endgame { "endgame" } else { "midgame" },
        size.n()
    );
}

/// `deep - shallow` for every depth the midgame engine probes at.
fn midgame_diffs(e: &Eval, pos: &Position, deepest: u32, out: &mut Vec<(u32, u32, f64)>) {
    let empties = pos.empties().count();
    let v: Vec<ply_othello::analyze::Discs64> = (0..=deepest)
        .map(|d| fit::search_value(e, pos, d))
        .collect();
    for d in mpc::MIDGAME_MIN_DEPTH..=deepest {
        let sh = mpc::midgame_depth(d) as usize;
        let diff = v[d as usize].discs() - v[sh].discs();
        out.push((d, empties, diff));
    }
}

/// `exact - shallow` for the probe depths of the solver's selective passes.
fn endgame_diffs(e: &Eval, solver: &mut Solver, pos: &Position, out: &mut Vec<(u32, u32, f64)>) {
    let empties = pos.empties().count();
    let exact = f64::from(solver.solve(pos).score.0);
    for d in [2, 4, 6] {
        let v = fit::search_value(e, pos, d).discs();
        out.push((d, empties, exact - v));
    }
}

/// Solves a 3x3 linear system by Gaussian elimination with partial pivoting.
#[allow(clippy::needless_range_loop)] // row operations read best as indices
fn solve3(mut a: [[f64; 3]; 3], mut b: [f64; 3]) -> [f64; 3] {
    for c in 0..3 {
        let p = (c..3)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap();
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..3 {
            let f = a[r][c] / a[c][c];
            for k in c..3 {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; 3];
    for r in (0..3).rev() {
        x[r] = (b[r] - (r + 1..3).map(|k| a[r][k] * x[k]).sum::<f64>()) / a[r][r];
    }
    x
}
