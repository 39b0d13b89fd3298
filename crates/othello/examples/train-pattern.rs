//! Makes the pattern weights of `ply_othello::pattern` (`crates/othello/data/pattern8.bin`
//! and `pattern6.bin`).
//!
//! 1. Plays games from the start, each move a random one with probability 1/4 and
//!    otherwise the one leaving the opponent fewest moves (ties at random), to a random number
//!    of empty squares; solves the position exactly. Every position comes from its own seed,
//!    so the set does not depend on the thread count.
//! 2. Fits the weights to the exact scores by stochastic gradient descent (squared error),
//!    keeping one position in twenty aside to report the error on positions never seen.
//!
//! ```text
//! cargo run --release -p ply-othello --example train-pattern -- \
//!     [SIZE [POSITIONS [MIN_EMPTIES MAX_EMPTIES [OUT]]]]
//! ```
//! Defaults (those of the shipped files): size 8, 100000 positions with 12..=18 empties
//! numbered from 1000000, written to crates/othello/data/pattern8.bin (about 50 CPU-minutes);
//! size 6, 60000 positions with 12..=18 empties numbered from 0, written to
//! crates/othello/data/pattern6.bin (about 6 CPU-minutes).
//! `PLY_TRAIN_CACHE=FILE` keeps the solved positions in FILE (and reads them back from it next
//! time); `PLY_TRAIN_START=N` numbers the positions from N (another set of seeds).

use std::time::Instant;

use ply_othello::{
    pattern::{self, PatternEval, UNIT},
    solve::{SolveOptions, Solver},
    BoardSize, Position,
};

/// Out of eight moves, how many are random.
const RANDOM_IN_8: u64 = 2;

/// SplitMix64: a small, good, seedable generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A position with `empties` empty squares from a semi-random game, or `None` when the game
/// ended or the side to move must pass there.
fn sample(size: BoardSize, seed: u64, empties: u32) -> Option<Position> {
    let mut rng = Rng(seed);
    let mut pos = Position::start(size);
    while pos.empties().count() > empties {
        let moves: Vec<_> = pos.legal_moves().collect();
        if moves.is_empty() {
            if pos.is_game_over() {
                return None;
            }
            pos = pos.passed();
            continue;
        }
        let mv = if rng.below(8) < RANDOM_IN_8 {
            moves[rng.below(moves.len() as u64) as usize]
        } else {
            let replies = |sq| pos.play_unchecked(sq).legal_moves().count();
            let fewest = moves.iter().map(|&sq| replies(sq)).min()?;
            let best: Vec<_> = moves
                .into_iter()
                .filter(|&sq| replies(sq) == fewest)
                .collect();
            best[rng.below(best.len() as u64) as usize]
        };
        pos = pos.play_unchecked(mv);
    }
    pos.can_move().then_some(pos)
}

/// `count` positions with `lo..=hi` empties and their exact scores, on `threads` threads.
fn generate(
    size: BoardSize,
    (start, count): (usize, usize),
    (lo, hi): (u32, u32),
    threads: usize,
) -> Vec<(u64, u64, i32)> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                s.spawn(move || {
                    let mut solver = Solver::new(SolveOptions {
                        threads: 1,
                        hash_mb: 16,
                    });
                    let mut out = Vec::new();
                    for i in (start + k..start + count).step_by(threads) {
                        let mut seed = i as u64 * 0x1_0000;
                        let empties = lo + (i as u32 % (hi - lo + 1));
                        let pos = loop {
                            if let Some(p) = sample(size, seed, empties) {
                                break p;
                            }
                            seed += 1;
                        };
                        let r = solver.solve(&pos);
                        out.push((i, pos.player().0, pos.opponent().0, r.score));
                    }
                    out
                })
            })
            .collect();
        let mut all: Vec<_> = handles
            .into_iter()
            .flat_map(|h| h.join().expect("a solver thread"))
            .collect();
        all.sort_unstable_by_key(|x| x.0);
        all.into_iter().map(|(_, p, o, s)| (p, o, s)).collect()
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: u64| args.get(i).map_or(d, |a| a.parse().expect("a number"));
    let size = BoardSize::from_n(arg(0, 8) as u8).expect("a board size of 4, 6 or 8");
    // The shipped weights: 8x8 from positions 1,000,000.., 6x6 from positions 0...
    let (default_count, default_start) = match size {
        BoardSize::Eight => (100_000, 1_000_000),
        _ => (60_000, 0),
    };
    let count = arg(1, default_count) as usize;
    let (lo, hi) = (arg(2, 12) as u32, arg(3, 18) as u32);
    let out = args.get(4).cloned().unwrap_or_else(|| {
        format!(
            "{}/data/pattern{}.bin",
            env!("CARGO_MANIFEST_DIR"),
            size.n()
        )
    });
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    let t = Instant::now();
    let cache = std::env::var_os("PLY_TRAIN_CACHE");
    let cached = cache.as_ref().and_then(|c| std::fs::read_to_string(c).ok());
    let data: Vec<(u64, u64, i32)> = if let Some(text) = cached {
        text.lines()
            .map(|l| {
                let v: Vec<&str> = l.split(' ').collect();
                let disc = |i: usize| v[i].parse::<u64>().expect("a cached board");
                (disc(0), disc(1), v[2].parse().expect("a cached score"))
            })
            .collect()
    } else {
        let start = std::env::var("PLY_TRAIN_START")
            .map_or(default_start, |s| s.parse().expect("a number"));
        generate(size, (start, count), (lo, hi), threads)
    };
    if let Some(c) = &cache {
        let text: String = data
            .iter()
            .map(|(p, o, s)| format!("{p} {o} {s}\n"))
            .collect();
        std::fs::write(c, text).expect("the cache is written");
    }
    eprintln!(
        "{} positions with {lo}..={hi} empties solved in {:.1} s",
        data.len(),
        t.elapsed().as_secs_f64()
    );

    // Features once; every twentieth position is held out.
    let weights = PatternEval::weight_count(size).expect("patterns for this size");
    let shape = PatternEval::from_weights(size, vec![0; weights]).expect("the right length");
    let mask = size.mask().0;
    let feats: Vec<(Vec<u32>, i32)> = data
        .iter()
        .map(|&(p, o, _)| {
            let mut f = Vec::new();
            shape.features(p, o, |i| f.push(i as u32));
            (f, pattern::mobility(p, o, mask))
        })
        .collect();
    let is_test = |i: usize| i % 20 == 19;
    let mut w = vec![0f32; weights];
    let predict = |w: &[f32], i: usize| {
        let (f, m) = &feats[i];
        f.iter().map(|&x| w[x as usize]).sum::<f32>() + w[weights - 1] * *m as f32
    };
    let spread = {
        let held: Vec<f64> = (0..data.len())
            .filter(|&i| is_test(i))
            .map(|i| f64::from(data[i].2))
            .collect();
        let mean = held.iter().sum::<f64>() / held.len() as f64;
        (held.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / held.len() as f64).sqrt()
    };
    eprintln!("held-out scores spread (RMS about their mean): {spread:.2} discs");
    let mut order: Vec<usize> = (0..data.len()).filter(|&i| !is_test(i)).collect();
    let mut rng = Rng(7);
    let epochs = 40;
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let lr = 0.002 * (1.0 - epoch as f32 / epochs as f32) + 0.0002;
        for &i in &order {
            let err = predict(&w, i) - data[i].2 as f32;
            let (f, m) = &feats[i];
            for &x in f {
                let x = x as usize;
                w[x] -= lr * (err + 0.01 * w[x]);
            }
            w[weights - 1] -= 0.01 * lr * err * *m as f32;
        }
        if epoch % 10 == 9 || epoch == epochs - 1 {
            let (mut se, mut n) = (0.0f64, 0);
            for i in (0..data.len()).filter(|&i| is_test(i)) {
                let e = f64::from(predict(&w, i) - data[i].2 as f32);
                se += e * e;
                n += 1;
            }
            eprintln!(
                "epoch {}: held-out RMS error {:.2} discs",
                epoch + 1,
                (se / f64::from(n)).sqrt()
            );
        }
    }
    let quantised: Vec<i16> = w
        .iter()
        .map(|&x| (x * UNIT as f32).round().clamp(-32000.0, 32000.0) as i16)
        .collect();
    let eval = PatternEval::from_weights(size, quantised).expect("the right length");
    std::fs::write(&out, eval.to_bytes()).expect("the weight file is written");
    eprintln!("wrote {out}");
}
