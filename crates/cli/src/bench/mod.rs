//! `ply bench`: benchmarks that check their own answers before they report a time.

use std::path::Path;

use anyhow::Context;
use clap::Subcommand;
use ply_engines::xot::{self, Opening};

use crate::{error::bad, othello::common::data_dir};

mod depth;
mod eval;
mod ffo;
mod judge;
mod perft;
mod play;
mod ponder;
mod versus;

/// `ply bench` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// 8x8 perft from the start position: leaves per second, after checking the count.
    Perft(perft::Args),
    /// Exact solves of the FFO positions, every score checked against the file.
    Ffo(ffo::Args),
    /// Judge throughput: boards answered per second.
    Judge(judge::Args),
    /// The learnt evaluation and the midgame engine against exact scores.
    Eval(eval::Args),
    /// How much the midgame engine's estimate changes from one depth to the next.
    Depth(depth::Args),
    /// Self-play at a fixed time a move: the empties from which its answers are proven.
    Play(play::Args),
    /// A match against another engine (ply's JSON API or a GTP engine), from fixed openings.
    Match(versus::Args),
    /// What pondering is worth: this build pondering against itself not, on a Fischer clock.
    Ponder(ponder::Args),
}

pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::Perft(a) => perft::run(a),
        Command::Ffo(a) => ffo::run(a),
        Command::Judge(a) => judge::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Depth(a) => depth::run(a),
        Command::Play(a) => play::run(a),
        Command::Match(a) => versus::run(a),
        Command::Ponder(a) => ponder::run(a),
    }
}

/// The first `n` openings of `xot-openings.txt` in the data directory (`--data`, else
/// `$PLY_DATA`, else the repository's `testdata/`), read by the one reader of opening
/// lists; a line that is not an opening is bad input, named by the file and its line.
pub(crate) fn xot_openings(data: Option<&Path>, n: usize) -> anyhow::Result<Vec<Opening>> {
    let path = data_dir(data)?.join("xot-openings.txt");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    xot::first(&text, n).map_err(|e| bad(format!("{} {e}", path.display())))
}
