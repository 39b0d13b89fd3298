//! `ply bench`: benchmarks that check their own answers before they report a time.

use clap::Subcommand;

/// `ply bench` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// 8x8 perft from the start position: leaves per second, after checking the count.
    Perft(crate::bench_perft::Args),
    /// Exact solves of the FFO positions, every score checked against the file.
    Ffo(crate::bench_ffo::Args),
    /// Judge throughput: boards answered per second.
    Judge(crate::bench_judge::Args),
    /// The learnt evaluation and the midgame engine against exact scores.
    Eval(crate::bench_eval::Args),
    /// A match against another engine serving ply's JSON API, from fixed openings.
    Match(crate::bench_match::Args),
}

pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::Perft(a) => crate::bench_perft::run(a),
        Command::Ffo(a) => crate::bench_ffo::run(a),
        Command::Judge(a) => crate::bench_judge::run(a),
        Command::Eval(a) => crate::bench_eval::run(a),
        Command::Match(a) => crate::bench_match::run(a),
    }
}
