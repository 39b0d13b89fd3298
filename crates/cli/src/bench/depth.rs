//! `ply bench depth`: how still the midgame engine's estimate holds as it searches deeper.
//!
//! For the start position and the first N XOT openings, the engine (solver and book off, one
//! thread) is first given `--ms` to see how deep it gets; then the position is searched to
//! every depth from `--from` to that one, each search from scratch, and the score of each
//! depth is compared with the one before. The figure is the mean absolute change between
//! successive depths over every position (target: at most 1.5 discs). A search that does
//! not reach its depth, or names no legal move, fails the bench. It also reports how much of
//! `--ms` the timed search used (the engine should spend nearly all of it).

use std::{io, path::PathBuf, time::Duration};

use ply_othello::{BoardSize, Position};
use ply_train::measure::report::{self, ReportError};

use crate::error::bad;

/// Arguments of `ply bench depth`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// XOT openings besides the start position (the first N of xot-openings.txt).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub openings: usize,
    /// The time that sets the deepest depth compared, in milliseconds.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub ms: u64,
    /// The shallowest depth compared.
    #[arg(long, default_value_t = 8, value_name = "D")]
    pub from: u32,
    /// Directory holding xot-openings.txt (default: $PLY_DATA, else the repository's
    /// testdata/).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.ms == 0 || a.ms > 600_000 {
        return Err(bad(format!("--ms {}: expected 1 to 600000", a.ms)));
    }
    if !(1..=40).contains(&a.from) {
        return Err(bad(format!("--from {}: expected 1 to 40", a.from)));
    }
    let mut positions = vec![("start".to_string(), Position::start(BoardSize::Eight))];
    positions.extend(
        super::xot_openings(a.data.as_deref(), a.openings)?
            .into_iter()
            .map(|o| (o.text, o.game.position())),
    );
    let mut out = io::stdout().lock();
    let budget = Duration::from_millis(a.ms);
    report::write_depth_changes(&mut out, &positions, budget, a.from).map_err(|e| match e {
        ReportError::Io(e) => e.into(),
        e => anyhow::Error::msg(e.to_string()),
    })
}
