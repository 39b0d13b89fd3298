//! Makes the evaluation weights of `ply_othello::eval` (`crates/othello/data/eval8.bin` and
//! `eval6.bin`) from nothing but the rules and a seed: see `ply_train::fit` for
//! what it does.
//!
//! ```text
//! cargo run --release -p ply-train --example train-eval -- --size 8|6 \
//!     [--games N] [--exact-games N] [--mid-games N] [--exact-empties E] [--mid-empties E]
//!     [--seed S] [--threads T] [--out FILE]
//!     [--exact-cache FILE] [--ridge R] [--iterations N] [--phases N]
//! ```
//! `--exact-cache FILE` keeps the exact scores solved in a file and takes those already there
//! (the weights are the same bytes with or without it; only the time differs).
//! Without options it makes the shipped file of that size, the same bytes on every machine
//! and for any thread count. It prints its progress, then the held-out mean absolute error
//! of every phase.

use std::process::ExitCode;

use ply_othello::{eval::weights, BoardSize};
use ply_train::fit;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train-eval: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut size = BoardSize::Eight;
    let mut overrides: Vec<(String, String)> = Vec::new();
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .ok_or_else(|| format!("`{flag}` needs a value"))?;
        if flag == "--size" {
            size = ply_train::fit::evaluated_size(&value).map_err(|e| format!("--size: {e}"))?;
        } else {
            overrides.push((flag, value));
        }
    }
    let mut cfg = fit::Config::shipped(size);
    let mut out = format!("crates/othello/data/eval{}.bin", size.n());
    let mut cache_path = None;
    for (flag, value) in overrides {
        let num = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag} needs a whole number, not `{value}`"))
        };
        match flag.as_str() {
            "--games" => cfg.games = num()? as usize,
            "--exact-games" => cfg.exact_games = num()? as usize,
            "--mid-games" => cfg.mid_games = num()? as usize,
            "--exact-empties" => cfg.exact_empties = num()? as u32,
            "--mid-empties" => cfg.mid_empties = num()? as u32,
            "--exact-cache" => cache_path = Some(value.clone()),
            "--seed" => cfg.seed = num()?,
            "--threads" => cfg.threads = num()?.max(1) as usize,
            "--iterations" => cfg.iterations = num()? as usize,
            "--phases" => cfg.phases = num()? as usize,
            "--ridge" => {
                cfg.ridge = value
                    .parse()
                    .map_err(|_| format!("--ridge needs a number, not `{value}`"))?;
            }
            "--out" => out = value.clone(),
            _ => return Err(format!("unknown option `{flag}`")),
        }
    }
    eprintln!("training {0}x{0}: {cfg:?}", size.n());
    let mut cache = match &cache_path {
        Some(path) => {
            let c = ply_train::cache::ExactCache::open(std::path::Path::new(path), size)?;
            eprintln!("{path}: {} exact scores known", c.len());
            Some(c)
        }
        None => None,
    };
    let (eval, reports) = fit::train(&cfg, cache.as_mut(), |line| eprintln!("  {line}"))?;
    println!("phase  empties  trained  held-out  exact  MAE trained  MAE held-out (discs)");
    for (i, r) in reports.iter().enumerate() {
        println!(
            "{i:>5}  {:>3}-{:<3}  {:>7}  {:>8}  {:>5}  {:>11.2}  {:.2}",
            r.empties.0,
            r.empties.1,
            r.trained,
            r.held_out,
            r.held_out_exact,
            r.trained_mae,
            r.held_out_mae
        );
    }
    std::fs::write(&out, weights::write(&eval)).map_err(|e| format!("{out}: {e}"))?;
    println!("wrote {out}");
    Ok(())
}
