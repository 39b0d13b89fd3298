//! `ply train net`: the network evaluation trained on game files (`ply_train::net`), its
//! held-out error beside the tables', and its weight file.

use std::{path::PathBuf, time::Instant};

use clap::Args;
use ply_othello::{eval::network, BoardSize};
use ply_train::{learn, net};

use super::{paths, read_data};
use ply_cli_support::files::write_whole;

use crate::error::bad;

/// `ply train net`.
#[derive(Args, Debug)]
pub struct NetArgs {
    /// Game files (`ply train gen`'s), one board size.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Where to write the network (under a temporary name, renamed when whole).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Keep one game in N aside: measured after each epoch, the best epoch kept.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub holdout: u64,
    /// Accumulator width.
    #[arg(long, value_name = "N", default_value_t = net::Settings::default().width)]
    pub width: usize,
    /// Hidden values.
    #[arg(long, value_name = "N", default_value_t = net::Settings::default().hidden)]
    pub hidden: usize,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = net::Settings::default().epochs)]
    pub epochs: usize,
    /// Positions per Adam step.
    #[arg(long, value_name = "N", default_value_t = net::Settings::default().batch)]
    pub batch: usize,
    /// Adam's step size in the first epoch.
    #[arg(long, value_name = "X", default_value_t = net::Settings::default().lr)]
    pub lr: f32,
    /// Each epoch's step size is the one before times this.
    #[arg(long, value_name = "X", default_value_t = net::Settings::default().decay)]
    pub decay: f32,
    /// Seeds the starting weights and the order of the positions.
    #[arg(long, value_name = "S", default_value_t = net::Settings::default().seed)]
    pub seed: u64,
    /// Leave out every game that passes through an opening of this test set (as `fit`).
    #[arg(long, value_name = "TESTSET")]
    pub apart_from: Option<PathBuf>,
    /// Compare the held-out error with these weights instead of the ones this build ships.
    #[arg(long, value_name = "FILE")]
    pub compare: Option<PathBuf>,
    /// Train the positions with at least E empty squares (and no exact label) towards
    /// searches of them, not their games' results (held-out positions keep their results).
    #[arg(long, value_name = "E")]
    pub search_from: Option<u8>,
    /// The searches' depth: each label is the mean of this depth and the next.
    #[arg(long, value_name = "D", default_value_t = 4)]
    pub search_depth: u32,
    /// The weights searched for the labels (default: the ones this build evaluates with).
    #[arg(long, value_name = "FILE")]
    pub search_weights: Option<PathBuf>,
    /// How much of each searched label is the search's value, above 0 and at most 1; the
    /// rest is the game's result.
    #[arg(long, value_name = "X", default_value_t = 1.0)]
    pub search_share: f32,
    /// Threads for the searches (the labels do not depend on it).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
}

pub(super) fn run(a: &NetArgs) -> anyhow::Result<()> {
    if a.holdout < 2 {
        return Err(bad(format!(
            "--holdout {}: expected 2 or more (one game in N is kept aside)",
            a.holdout
        )));
    }
    let ranges = [
        ("--width", a.width, network::MAX_WIDTH),
        ("--hidden", a.hidden, network::MAX_HIDDEN),
        ("--epochs", a.epochs, 1000),
        ("--batch", a.batch, 1 << 20),
    ];
    for (flag, v, max) in ranges {
        if !(1..=max).contains(&v) {
            return Err(bad(format!("{flag} {v}: expected 1 to {max}")));
        }
    }
    for (flag, v) in [
        ("--lr", a.lr),
        ("--decay", a.decay),
        ("--search-share", a.search_share),
    ] {
        if !(v.is_finite() && v > 0.0 && v <= 1.0) {
            return Err(bad(format!(
                "{flag} {v}: expected a number above 0, at most 1"
            )));
        }
    }
    if !(1..=12).contains(&a.search_depth) {
        return Err(bad(format!(
            "--search-depth {}: expected 1 to 12",
            a.search_depth
        )));
    }
    crate::othello::common::check_threads(a.threads)?;
    let started = Instant::now();
    let data = read_data(&a.files, a.holdout, a.apart_from.as_deref())?;
    if data.size == BoardSize::Four {
        return Err(bad("4x4 has no evaluation to train (it is solved at once)"));
    }
    let compare = crate::othello::common::raw_weights(a.compare.as_deref(), data.size)?;
    let settings = net::Settings {
        width: a.width,
        hidden: a.hidden,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        decay: a.decay,
        seed: a.seed,
    };
    let searched = match a.search_from {
        Some(from) if u32::from(from) > data.size.squares() => {
            return Err(bad(format!(
                "--search-from {from}: a {n}x{n} board has {} squares",
                data.size.squares(),
                n = data.size.n()
            )));
        }
        Some(from) => Some(crate::othello::common::raw_weights(
            a.search_weights.as_deref(),
            data.size,
        )?)
        .map(|eval| (from, eval)),
        None => None,
    };
    let search = searched.as_ref().map(|(from, eval)| net::SearchLabels {
        eval,
        from_empties: *from,
        depth: a.search_depth,
        threads: a.threads,
        share: a.search_share,
    });
    let targets = net::targets(&data, search.as_ref(), |k| {
        if k % 1_000_000 == 0 {
            eprintln!(
                "{k} positions searched ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
    });
    if search.is_some() {
        eprintln!("labels searched ({:.0} s)", started.elapsed().as_secs_f64());
    }
    let (float, _) = net::train(&data, &targets, &settings, |e| {
        eprintln!(
            "epoch {}: train MSE {:.2}, held-out MAE {:.3} (exact labels {:.3}) ({:.0} s)",
            e.number,
            e.train_mse,
            e.held_out_mae,
            e.held_out_exact_mae,
            started.elapsed().as_secs_f64()
        );
    });
    let quantized = network::Network::quantize(&float);
    let eval = ply_othello::eval::Eval::from_network(quantized.clone());
    let new = learn::held_out_errors(&eval, &data);
    let old = learn::held_out_errors(&compare, &data);
    println!("held-out MAE in discs, network / tables (exact: labels that are exact values)");
    println!(
        "{:>7} {:>8} {:>15} {:>7} {:>15}",
        "empties", "held", "MAE", "exact", "exact MAE"
    );
    for (n, o) in new.iter().zip(&old) {
        println!(
            "{:>7} {:>8} {:>15} {:>7} {:>15}",
            format!("{}-{}", n.empties.0, n.empties.1),
            n.all.count,
            format!("{:.2} / {:.2}", n.all.mae, o.all.mae),
            n.exact.count,
            if n.exact.count > 0 {
                format!("{:.2} / {:.2}", n.exact.mae, o.exact.mae)
            } else {
                "-".into()
            },
        );
    }
    let mut inputs = paths(&a.files);
    inputs.extend(a.compare.as_deref());
    inputs.extend(a.apart_from.as_deref());
    inputs.extend(a.search_weights.as_deref());
    write_whole(&a.out, &inputs, &network::file::write(&quantized))?;
    eprintln!(
        "{}: a {n}x{n} network, width {} and {} hidden, {} bytes ({:.0} s in all)",
        a.out.display(),
        a.width,
        a.hidden,
        std::fs::metadata(&a.out).map(|m| m.len()).unwrap_or(0),
        started.elapsed().as_secs_f64(),
        n = data.size.n()
    );
    Ok(())
}
