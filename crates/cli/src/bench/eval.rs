//! `ply bench eval`: how good the learnt evaluation and the midgame engine are outside the
//! solvable endgame, measured against known scores.
//!
//! 1. The static evaluation's mean absolute error and bias by number of empty squares: on
//!    8x8, the positions of OBF files with scores (`--obf`, by default the test set
//!    `testdata/eval8-testset.obf` that `ply train testset` makes: game-like positions, exact
//!    to 24 empties, depth-18 searches above), each position's score the best of its scored
//!    moves; on 6x6, positions of seeded games solved here. The value measured is the fitted
//!    function's, without the side to move's handicap (which corrects searches of odd and
//!    even depth: [`eval::shipped_tempo`]); `--weights FILE` measures another weight file.
//! 2. 8x8: `analyze` with the solver switched off, `--ms` on one thread: by default on FFO
//!    #40-#59 (the move chosen, whether it is optimal, and the error of its score; target:
//!    optimal on 18 of 20, mean error at most 2 discs). With `--obf`, every position of the
//!    files (or the first `--judge`) analysed as `ply othello analyze POS --no-book
//!    --no-solver` analyses it, to `--depth D` or within `--ms`, on `--threads` (one by
//!    default), every move valued: the table the published engines print for Edax's problem
//!    files (`ply_train::measure::table`): best move, top 2 and 3 moves, the estimate within
//!    3, 6 and 9 discs of the position's score, its mean absolute error, the mean loss of the
//!    chosen move, nodes and time.
//! 3. 6x6: the start position (whose value, -4 for black, is checked by solving it) and
//!    every position along a perfect line, analysed the same way: the sign of every estimate
//!    must be the sign of the true value.
//!
//! `--json` prints one JSON object a row instead of the tables.

use std::{
    io,
    path::PathBuf,
    time::{Duration, Instant},
};

use anyhow::Context;
use ply_othello::{obf, BoardSize};
use ply_train::measure::{
    self,
    report::{self, ReportError},
};

use crate::{
    error::bad,
    othello::common::{
        analysis_options, data_dir, raw_weights, read_scored, scored_file, FFO_FILE,
    },
};

/// Arguments of `ply bench eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size: 8 or 6.
    #[arg(long, default_value = "8")]
    pub size: BoardSize,
    /// Thinking time per analysed position, in milliseconds [default: 1000].
    #[arg(long, value_name = "MS", conflicts_with = "depth")]
    pub ms: Option<u64>,
    /// With --obf: analyse each position to this depth instead of within --ms.
    #[arg(long, value_name = "D", requires = "obf")]
    pub depth: Option<u32>,
    /// With --obf: threads of each analysis.
    #[arg(long, default_value_t = 1, value_name = "N", requires = "obf")]
    pub threads: usize,
    /// 6x6: positions of seeded games to solve per bucket of empty squares.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub solved: usize,
    /// 8x8: OBF files of positions with scores to measure (repeat for several) [default:
    /// eval8-testset.obf in the data directory].
    #[arg(long, value_name = "FILE")]
    pub obf: Vec<PathBuf>,
    /// With --obf: analyse only the files' first N positions [default: all of them].
    #[arg(long, value_name = "N", requires = "obf")]
    pub judge: Option<usize>,
    /// Directory holding the test set and the fforum files (default: $PLY_DATA, else the
    /// repository's testdata/).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Measure the static error of these weights (a weight file, e.g. `ply train fit
    /// --out`'s) instead of the shipped ones; the analysis still uses the shipped ones.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// One JSON object a row.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let size = a.size;
    if size == BoardSize::Four {
        return Err(bad("--size 4: 4x4 has no evaluation; use 6 or 8"));
    }
    let ms = a.ms.unwrap_or(1000);
    if ms == 0 || ms > 600_000 {
        return Err(bad(format!("--ms {ms}: expected 1 to 600000")));
    }
    if size == BoardSize::Six && !a.obf.is_empty() {
        return Err(bad(
            "--obf: the scored files are 8x8 positions; leave --size at 8",
        ));
    }
    if a.judge == Some(0) {
        return Err(bad("--judge 0: expected at least 1 position"));
    }
    // The analysis of `ply othello analyze POS --no-book --no-solver`, every move valued,
    // checked where that command checks it.
    let request = measure::table::request(a.depth, ms, a.threads);
    let opts = analysis_options(&request, BoardSize::Eight)?;
    // The static error is the fitted function's: without the side to move's handicap, which
    // corrects searches of odd and even depth and is no part of the fit.
    let e = raw_weights(a.weights.as_deref(), size)?;
    let mut out = io::stdout().lock();

    // 1. Static error by empties.
    let started = Instant::now();
    let (scored, line, what) = if size == BoardSize::Eight {
        let files = if a.obf.is_empty() {
            vec![data_dir(a.data.as_deref())?.join("eval8-testset.obf")]
        } else {
            a.obf.clone()
        };
        let mut scored = Vec::new();
        for f in &files {
            scored.extend(scored_file(f)?);
        }
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        (scored, Vec::new(), names.join(", "))
    } else {
        let line = measure::perfect_six_line().map_err(anyhow::Error::msg)?;
        let mut scored = line.clone();
        scored.extend(measure::solved_game_positions(size, a.solved));
        (scored, line, "seeded games solved here".to_string())
    };
    if !a.json {
        let weights = a.weights.as_ref().map(|w| w.display().to_string());
        report::write_static_heading(
            &mut out,
            size.n(),
            scored.len(),
            &what,
            started.elapsed(),
            weights.as_deref(),
        )?;
    }
    report::write_static(&mut out, &measure::static_error(&e, &scored), a.json)?;

    let budget = Duration::from_millis(ms);
    if size == BoardSize::Six {
        Ok(report::write_six_line(&mut out, &line, budget, a.json)?)
    } else if a.obf.is_empty() {
        let path = data_dir(a.data.as_deref())?.join(FFO_FILE);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let entries =
            obf::parse_file(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
        report::write_ffo_choices(&mut out, &entries, budget, a.json).map_err(|e| match e {
            ReportError::Io(e) => e.into(),
            ReportError::NoScores { .. } => bad(format!("{} {e}", path.display())),
            ReportError::Judge { .. } | ReportError::Search(_) => anyhow::Error::msg(e.to_string()),
        })
    } else {
        let mut entries = Vec::new();
        for f in &a.obf {
            let name = f.file_name().unwrap_or_default().to_string_lossy();
            entries.extend(
                read_scored(f)?
                    .into_iter()
                    .map(|e| (format!("{name}:{}", e.line), e)),
            );
        }
        entries.truncate(a.judge.unwrap_or(usize::MAX));
        let limit = match a.depth {
            Some(d) => format!("depth {d}"),
            None => format!("{ms} ms"),
        };
        Ok(report::write_obf_choices(
            &mut out, &entries, &opts, &limit, a.json,
        )?)
    }
}
