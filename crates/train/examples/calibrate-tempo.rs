//! Measures how a search's value depends on the parity of its depth, and prints the side to
//! move's handicap (`eval::Eval::with_tempo`) that makes even and odd depths agree.
//!
//! ```text
//! cargo run --release -p ply-train --example calibrate-tempo -- --size 8|6 [--positions N] [--tempo T]
//! ```
//! Positions come from seeded games (the training's game generator, seeds apart from the
//! training set's and from `calibrate-mpc`'s), those with 14 to 24 empty squares on 8x8 and
//! 10 to 24 on 6x6. Each is solved exactly and searched at every depth from 1 to 8 (8x8) or
//! 10 (6x6) by the plain fixed-depth search of the training (`fit::search_value`), with
//! the shipped weights and a handicap of `T` units (default: the shipped one). The table
//! gives the mean error (`search - exact`, in discs) and the mean absolute error at each
//! depth. A handicap moves every even depth's value down by itself and every odd depth's up
//! (when no game ends within the search), so `T + (even - odd) / 2` centres both.

use ply_othello::{
    eval,
    solve::{SolveOptions, Solver},
    BoardSize,
};
use ply_train::fit;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut size = BoardSize::Eight;
    let mut positions = 300;
    let mut tempo = None;
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--size" => {
                size = fit::evaluated_size(&value).unwrap_or_else(|e| {
                    eprintln!("--size: {e}");
                    std::process::exit(2)
                })
            }
            "--positions" => positions = value.parse().expect("--positions N"),
            "--tempo" => tempo = Some(value.parse().expect("--tempo T (units)")),
            _ => panic!("unknown option {flag}"),
        }
    }
    let tempo = tempo.unwrap_or(eval::shipped_tempo(size));
    let (empties, deepest) = if size == BoardSize::Eight {
        (14..=24, 8)
    } else {
        (10..=24, 10)
    };
    let e = eval::builtin(size)
        .expect("an evaluated size")
        .clone()
        .with_tempo(tempo);
    let mut picked = Vec::new();
    let mut seed = 97_000_000;
    while picked.len() < positions {
        picked.extend(
            fit::game_positions(size, seed)
                .into_iter()
                .filter(|pos| empties.contains(&pos.empties().count()) && pos.can_move()),
        );
        seed += 1;
    }
    picked.truncate(positions);
    // Per position: the exact score, then the search's value at depths 1..=deepest (discs).
    let rows: Vec<(f64, Vec<f64>)> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..2)
            .map(|k| {
                let (picked, e) = (&picked, &e);
                sc.spawn(move || {
                    let mut solver = Solver::new(SolveOptions {
                        threads: 1,
                        hash_mb: 32,
                    });
                    picked
                        .iter()
                        .skip(k)
                        .step_by(2)
                        .map(|pos| {
                            let exact = f64::from(solver.solve(pos).score.0);
                            let v = (1..=deepest)
                                .map(|d| fit::search_value(e, pos, d).discs())
                                .collect();
                            (exact, v)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let n = rows.len() as f64;
    println!(
        "{} positions of {}x{}, handicap {tempo} units",
        rows.len(),
        size.n(),
        size.n()
    );
    println!("depth   bias    MAE");
    let mut parity = [(0.0, 0.0); 2];
    for d in 1..=deepest {
        let err = |(x, v): &(f64, Vec<f64>)| v[d as usize - 1] - x;
        let bias = rows.iter().map(err).sum::<f64>() / n;
        let mae = rows.iter().map(|r| err(r).abs()).sum::<f64>() / n;
        println!("{d:>5} {bias:>+6.2} {mae:>6.2}");
        let slot = &mut parity[(d % 2) as usize];
        *slot = (slot.0 + bias, slot.1 + 1.0);
    }
    let [even, odd] = parity.map(|(s, k)| s / k);
    println!("mean bias: even depths {even:+.2}, odd depths {odd:+.2} discs");
    let centred = f64::from(tempo) + (even - odd) / 2.0 * f64::from(eval::UNIT);
    println!("handicap that centres both: {:.0} units", centred);
}
