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
//!    optimal on 18 of 20, mean error at most 2 discs); with `--obf`, on the first `--judge`
//!    positions of the files (the estimate's error against the position's score, and whether
//!    the move chosen is one scored best).
//! 3. 6x6: the start position (whose value, -4 for black, is checked by solving it) and
//!    every position along a perfect line, analysed the same way: the sign of every estimate
//!    must be the sign of the true value.
//!
//! `--json` prints one JSON object a row instead of the tables.

use std::{
    io::{self, Write},
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use anyhow::Context;
use ply_othello::{
    analyze::{self, Analysis, Discs64, Options, Shown},
    obf::{self, ObfEntry},
    solve::{SolveOptions, Solver},
    BoardSize, Color, Move, Position,
};
use serde_json::json;

use crate::error::bad;

/// Arguments of `ply bench eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size: 8 or 6.
    #[arg(long, default_value = "8")]
    pub size: BoardSize,
    /// Thinking time per analysed position, in milliseconds.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub ms: u64,
    /// 6x6: positions of seeded games to solve per bucket of empty squares.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub solved: usize,
    /// 8x8: OBF files of positions with scores to measure (repeat for several) [default:
    /// eval8-testset.obf in the data directory].
    #[arg(long, value_name = "FILE")]
    pub obf: Vec<PathBuf>,
    /// With --obf: how many of the files' first positions to analyse within --ms.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub judge: usize,
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

/// Buckets of empty squares the error is reported by.
const BUCKETS: [(u32, u32); 4] = [(14, 20), (21, 26), (27, 32), (33, 40)];

/// (position, exact score for its side to move) pairs, and where they came from.
type Scored = Vec<(Position, i32)>;

pub fn run(a: Args) -> anyhow::Result<()> {
    let size = a.size;
    if size == BoardSize::Four {
        return Err(bad("--size 4: 4x4 has no evaluation; use 6 or 8"));
    }
    if a.ms == 0 || a.ms > 600_000 {
        return Err(bad(format!("--ms {}: expected 1 to 600000", a.ms)));
    }
    if size == BoardSize::Six && !a.obf.is_empty() {
        return Err(bad(
            "--obf: the scored files are 8x8 positions; leave --size at 8",
        ));
    }
    // The static error is the fitted function's: without the side to move's handicap, which
    // corrects searches of odd and even depth and is no part of the fit.
    let e = crate::othello::common::raw_weights(a.weights.as_deref(), size)?;
    let mut out = io::stdout().lock();

    // 1. Static error by empties.
    let started = Instant::now();
    let (scored, line, what) = if size == BoardSize::Eight {
        let files = if a.obf.is_empty() {
            vec![super::ffo::data_dir(a.data.as_deref())?.join("eval8-testset.obf")]
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
        let line = perfect_six_line()?;
        let mut scored = line.clone();
        scored.extend(solved_game_positions(size, a.solved));
        (scored, line, "seeded games solved here".to_string())
    };
    if !a.json {
        writeln!(
            out,
            "{0}x{0} static evaluation{3} against known scores ({1} positions of {what}, {2:.0} \
             s to gather)",
            size.n(),
            scored.len(),
            started.elapsed().as_secs_f64(),
            a.weights
                .as_ref()
                .map(|w| format!(" of {}", w.display()))
                .unwrap_or_default()
        )?;
        writeln!(
            out,
            "{:>8} {:>6} {:>8} {:>8}",
            "empties", "count", "MAE", "bias"
        )?;
    }
    for (lo, hi) in BUCKETS {
        let errs: Vec<f64> = scored
            .iter()
            .filter(|(p, _)| (lo..=hi).contains(&p.empties().count()))
            .map(|(p, exact)| {
                let v = e.evaluate_reference(p.player().0, p.opponent().0);
                Discs64(v).discs() - f64::from(*exact)
            })
            .collect();
        if errs.is_empty() {
            continue;
        }
        let n = errs.len() as f64;
        let mae = errs.iter().map(|x| x.abs()).sum::<f64>() / n;
        let bias = errs.iter().sum::<f64>() / n;
        if a.json {
            let row = json!({"kind": "static", "empties": format!("{lo}-{hi}"),
                "count": errs.len(), "mae": round2(mae), "bias": round2(bias)});
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "{:>8} {:>6} {mae:>8.2} {bias:>+8.2}",
                format!("{lo}-{hi}"),
                errs.len(),
            )?;
        }
    }
    out.flush()?;

    let budget = Duration::from_millis(a.ms);
    if size == BoardSize::Six {
        six_line(&mut out, &line, budget, a.json)
    } else if a.obf.is_empty() {
        ffo_choices(&mut out, a.data.clone(), budget, a.json)
    } else {
        let mut entries = Vec::new();
        for f in &a.obf {
            entries.extend(read_scored(f)?.into_iter().map(|e| (f.clone(), e)));
        }
        entries.truncate(a.judge);
        obf_choices(&mut out, &entries, budget, a.json)
    }
}

/// The scored moves of `line` whose score is `score`, by name.
fn moves_scoring(line: &obf::ObfLine, score: i32) -> Vec<String> {
    line.moves
        .iter()
        .filter(|m| m.score == score)
        .map(|m| m.mv.to_string())
        .collect()
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The entries of an OBF file of scored positions: every position must have a score.
fn read_scored(path: &Path) -> anyhow::Result<Vec<ObfEntry>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let entries = obf::parse_file(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    if let Some(e) = entries.iter().find(|e| e.obf.moves.is_empty()) {
        return Err(bad(format!(
            "{} line {}: the position has no score (a scored move such as `F5:+2;`)",
            path.display(),
            e.line
        )));
    }
    if let Some(e) = entries
        .iter()
        .find(|e| e.obf.position.size() != BoardSize::Eight)
    {
        return Err(bad(format!(
            "{} line {}: not an 8x8 position",
            path.display(),
            e.line
        )));
    }
    Ok(entries)
}

/// Each position of an OBF file with its score: the best of its scored moves.
pub(crate) fn scored_file(path: &Path) -> anyhow::Result<Scored> {
    Ok(read_scored(path)?
        .into_iter()
        .filter_map(|e| Some((e.obf.position, e.obf.best_score()?)))
        .collect())
}

/// Positions of OBF files analysed within `budget`, solver off: the estimate against the
/// position's score, and the move chosen against the scored moves.
fn obf_choices(
    out: &mut impl Write,
    entries: &[(PathBuf, ObfEntry)],
    budget: Duration,
    json: bool,
) -> anyhow::Result<()> {
    if !json {
        writeln!(
            out,
            "\nanalyze with the solver off, {} ms, one thread, on the first {} positions",
            budget.as_millis(),
            entries.len()
        )?;
        writeln!(
            out,
            "{:>28} {:>7} {:>6} {:>6} {:>6} {:>8} {:>6} {:>5}",
            "position", "empties", "best", "score", "chose", "estimate", "error", "depth"
        )?;
    }
    let (mut best_chosen, mut err_sum) = (0, 0.0);
    for (file, entry) in entries {
        let pos = entry.obf.position;
        let score = entry
            .obf
            .best_score()
            .expect("read_scored keeps scored lines");
        let a = estimate(&pos, budget);
        let est = a.score.discs();
        let err = (est - f64::from(score)).abs();
        let best = moves_scoring(&entry.obf, score);
        let chosen = a
            .best
            .map_or_else(|| "pass".to_string(), |sq| sq.to_string());
        let is_best = best.contains(&chosen);
        best_chosen += usize::from(is_best);
        err_sum += err;
        let place = format!(
            "{}:{}",
            file.file_name().unwrap_or_default().to_string_lossy(),
            entry.line
        );
        if json {
            let row = json!({"kind": "judgement", "position": place,
                "empties": pos.empties().count(), "best": best, "score": score,
                "chose": chosen, "chose_best": is_best, "estimate": round2(est),
                "error": round2(err), "depth": a.depth});
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "{place:>28} {:>7} {:>6} {score:>+6} {chosen:>6} {est:>+8.1} {err:>6.1} {:>5}",
                pos.empties().count(),
                best.join(","),
                a.depth
            )?;
        }
        out.flush()?;
    }
    let n = entries.len().max(1) as f64;
    if json {
        let row = json!({"kind": "judgement summary", "positions": entries.len(),
            "chose_best": best_chosen, "mean_error": round2(err_sum / n)});
        writeln!(out, "{row}")?;
    } else {
        writeln!(
            out,
            "chose a move scored best on {best_chosen} of {}, mean absolute error {:.2} discs",
            entries.len(),
            err_sum / n
        )?;
    }
    Ok(())
}

/// The positions along a perfect line of 6x6 from the start, each with its exact value for
/// the side to move (black's -4 all along, seen from whoever is to move), the start's value
/// checked by solving it. Positions where the side to move must pass are left out.
fn perfect_six_line() -> anyhow::Result<Scored> {
    let start = Position::start(BoardSize::Six);
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 256,
    });
    let solved = solver.solve(&start);
    if solved.score.0 != -4 {
        anyhow::bail!("6x6 start solved to {:+}, not -4", solved.score);
    }
    let mut pos = start;
    let mut out = Vec::new();
    for m in std::iter::once(None).chain(solved.pv.iter().map(Some)) {
        if let Some(m) = m {
            pos = pos.play_move(*m).context("the perfect line is legal")?;
        }
        if !pos.is_game_over() && pos.can_move() {
            out.push((pos, if pos.turn() == Color::Black { -4 } else { 4 }));
        }
    }
    Ok(out)
}

/// The analysis with the solver and the book off, one thread: the evaluation's own judgement.
fn estimate(pos: &Position, budget: Duration) -> Analysis {
    let opts = Options {
        solver: false,
        book: false,
        ..Options::budget(budget)
    };
    analyze::analyze(pos, &opts)
}

/// `per_bucket` positions of seeded 6x6 games in each bucket of empties up to 26, solved
/// exactly. The seeds are apart from the training set's.
fn solved_game_positions(size: BoardSize, per_bucket: usize) -> Scored {
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 64,
    });
    let mut out = Vec::new();
    for &(lo, hi) in &BUCKETS[..2] {
        let mut found = 0;
        let mut seed = 777_000_000u64;
        while found < per_bucket {
            seed += 1;
            let positions = ply_train::fit::game_positions(size, seed);
            if let Some(pos) = positions
                .into_iter()
                .find(|p| (lo..=hi).contains(&p.empties().count()))
            {
                let r = solver.solve(&pos);
                out.push((pos, r.score.0));
                found += 1;
            }
        }
    }
    out
}

/// FFO #40-#59 analysed within `budget`, solver off: the move chosen against the file.
fn ffo_choices(
    out: &mut impl Write,
    data: Option<PathBuf>,
    budget: Duration,
    json: bool,
) -> anyhow::Result<()> {
    let path = super::ffo::data_dir(data.as_deref())?.join("fforum-40-59.obf");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let entries = obf::parse_file(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    if !json {
        writeln!(
            out,
            "\nFFO #40-#59, analyze with the solver off, {} ms, one thread",
            budget.as_millis()
        )?;
        writeln!(
            out,
            "{:>3} {:>7} {:>5} {:>6} {:>6} {:>8} {:>8} {:>6} {:>5}",
            "#", "empties", "best", "exact", "chose", "its", "estimate", "error", "depth"
        )?;
    }
    let (mut optimal, mut err_sum) = (0, 0.0);
    for (k, entry) in entries.iter().enumerate() {
        let pos = entry.obf.position;
        let best = entry
            .obf
            .best_score()
            .ok_or_else(|| bad(format!("{} line {}: no scores", path.display(), entry.line)))?;
        let a = estimate(&pos, budget);
        let chosen = a.best.ok_or_else(|| anyhow::anyhow!("no move chosen"))?;
        let its = entry
            .obf
            .moves
            .iter()
            .find(|m| m.mv == Move::Play(chosen))
            .map(|m| m.score)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "ffo #{}: the chosen {chosen} has no score in the file",
                    k + 40
                )
            })?;
        let est = a.score.discs();
        let err = (est - f64::from(its)).abs();
        optimal += usize::from(its == best);
        err_sum += err;
        let best_moves = moves_scoring(&entry.obf, best);
        if json {
            let row = json!({"kind": "ffo", "number": k + 40, "empties": pos.empties().count(),
                "best": best_moves, "exact": best, "chose": chosen.to_string(), "its": its,
                "estimate": round2(est), "error": round2(err), "depth": a.depth});
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "{:>3} {:>7} {:>5} {:>+6} {:>6} {:>+8} {:>+8.1} {:>6.1} {:>5}",
                k + 40,
                pos.empties().count(),
                best_moves.join(","),
                best,
                chosen.to_string(),
                its,
                est,
                err,
                a.depth
            )?;
        }
        out.flush()?;
    }
    let n = entries.len();
    if json {
        let row = json!({"kind": "ffo summary", "positions": n, "optimal": optimal,
            "mean_error": round2(err_sum / n as f64)});
        writeln!(out, "{row}")?;
    } else {
        writeln!(
            out,
            "optimal {optimal} of {n}, mean absolute error {:.2} discs (target: 18 of 20, at \
             most 2)",
            err_sum / n as f64
        )?;
    }
    Ok(())
}

/// 6x6: the start and every position along a perfect line (with 8 empties or more),
/// estimated within `budget`: the sign of each estimate against the sign of the truth; and
/// beside it the analysis as shipped (the opening book, then the solver, then estimates).
fn six_line(
    out: &mut impl Write,
    line: &Scored,
    budget: Duration,
    json: bool,
) -> anyhow::Result<()> {
    if !json {
        writeln!(
            out,
            "\n6x6 perfect line (-4 for black), {} ms: analyze with the book and the solver off \
             (the evaluation's judgement), and analyze as shipped",
            budget.as_millis()
        )?;
        writeln!(
            out,
            "{:>4} {:>7} {:>6} {:>5} {:>8} {:>6} {:>9} {:>6}",
            "ply", "empties", "turn", "truth", "estimate", "sign", "shipped", "sign"
        )?;
    }
    let (mut right, mut shipped_right, mut total) = (0, 0, 0);
    for &(pos, truth) in line.iter().filter(|(p, _)| p.empties().count() >= 8) {
        let empties = pos.empties().count();
        let est = estimate(&pos, budget).score.discs();
        let ok = est.signum() == f64::from(truth).signum();
        let shipped = analyze::analyze(&pos, &Options::budget(budget));
        let shown = Shown::new(shipped.score, shipped.proven).discs;
        let shipped_ok = shown.signum() == f64::from(truth).signum();
        right += usize::from(ok);
        shipped_right += usize::from(shipped_ok);
        total += 1;
        if json {
            let row = json!({"kind": "six line", "empties": empties, "truth": truth,
                "estimate": round2(est), "right_sign": ok, "shipped": round2(shown),
                "shipped_proven": shipped.proven, "shipped_right_sign": shipped_ok});
            writeln!(out, "{row}")?;
        } else {
            let word = |ok: bool| if ok { "right" } else { "WRONG" };
            writeln!(
                out,
                "{:>4} {empties:>7} {:>6} {truth:>+5} {est:>+8.1} {:>6} {:>+8.1}{} {:>6}",
                32 - empties,
                if pos.turn() == Color::Black {
                    "black"
                } else {
                    "white"
                },
                word(ok),
                shown,
                if shipped.proven { "=" } else { "~" },
                word(shipped_ok)
            )?;
        }
        out.flush()?;
    }
    if json {
        let row = json!({"kind": "six line summary", "positions": total, "right_sign": right,
            "shipped_right_sign": shipped_right});
        writeln!(out, "{row}")?;
    } else {
        writeln!(
            out,
            "right sign: evaluation alone {right} of {total}; as shipped {shipped_right} of \
             {total} (= exact, ~ estimate)"
        )?;
    }
    Ok(())
}
