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
    io::{self, Write},
    path::PathBuf,
    time::{Duration, Instant},
};

use anyhow::Context;
use ply_othello::{
    analyze::{Options, Request},
    obf::{self, ObfEntry},
    BoardSize, Color,
};
use ply_train::measure::{self, table::MARGINS, Scored, Summary};
use serde_json::json;

use crate::{
    error::bad,
    othello::common::{analysis_options, data_dir, raw_weights, read_scored, scored_file},
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
    let request = Request {
        time: a.depth.is_none().then(|| ms as f64 / 1000.0),
        depth: a.depth,
        threads: a.threads,
        book: false,
        book_file: None,
        solver: false,
        all_moves: true,
    };
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
    for measure::BucketError {
        lo,
        hi,
        count,
        mae,
        bias,
    } in measure::static_error(&e, &scored)
    {
        if a.json {
            let row = json!({"kind": "static", "empties": format!("{lo}-{hi}"),
                "count": count, "mae": round2(mae), "bias": round2(bias)});
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "{:>8} {:>6} {mae:>8.2} {bias:>+8.2}",
                format!("{lo}-{hi}"),
                count,
            )?;
        }
    }
    out.flush()?;

    let budget = Duration::from_millis(ms);
    if size == BoardSize::Six {
        six_line(&mut out, &line, budget, a.json)
    } else if a.obf.is_empty() {
        ffo_choices(&mut out, a.data.clone(), budget, a.json)
    } else {
        let mut entries = Vec::new();
        for f in &a.obf {
            entries.extend(read_scored(f)?.into_iter().map(|e| (f.clone(), e)));
        }
        entries.truncate(a.judge.unwrap_or(usize::MAX));
        let limit = match a.depth {
            Some(d) => format!("depth {d}"),
            None => format!("{ms} ms"),
        };
        obf_choices(&mut out, &entries, &opts, &limit, a.json)
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Positions of OBF files analysed with `opts` (book and solver off, to a depth or within a
/// time, `limit` in words): each row the estimate against the position's score and the move
/// chosen against the scored moves, then the table of the whole set.
fn obf_choices(
    out: &mut impl Write,
    entries: &[(PathBuf, ObfEntry)],
    opts: &Options,
    limit: &str,
    json: bool,
) -> anyhow::Result<()> {
    let threads = match opts.threads {
        1 => "one thread".to_string(),
        n => format!("{n} threads"),
    };
    if !json {
        writeln!(
            out,
            "\nanalyze with the book and the solver off, every move valued, {limit}, {threads}, \
             on {} positions",
            entries.len()
        )?;
        writeln!(
            out,
            "{:>24} {:>7} {:>5} {:>8} {:>11} {:>6} {:>5} {:>4} {:>4} {:>8} {:>5} {:>5}",
            "position",
            "empties",
            "depth",
            "time(s)",
            "nodes",
            "best",
            "score",
            "chose",
            "its",
            "estimate",
            "error",
            "loss"
        )?;
    }
    let mut rows = Vec::with_capacity(entries.len());
    for (file, entry) in entries {
        let pos = entry.obf.position;
        let j = measure::judge(&entry.obf, opts).expect("read_scored keeps scored lines");
        let place = format!(
            "{}:{}",
            file.file_name().unwrap_or_default().to_string_lossy(),
            entry.line
        );
        if json {
            let row = json!({"kind": "judgement", "position": place,
                "empties": pos.empties().count(), "best": j.best, "score": j.score,
                "chose": j.chose, "chose_best": j.chose_best, "its": j.its, "rank": j.rank,
                "loss": j.loss(), "estimate": round2(j.estimate), "error": round2(j.error),
                "depth": j.depth, "nodes": j.nodes,
                "seconds": round4(j.time.as_secs_f64())});
            writeln!(out, "{row}")?;
        } else {
            let or_dash = |x: Option<i32>| x.map_or_else(|| "-".to_string(), |v| format!("{v:+}"));
            writeln!(
                out,
                "{place:>24} {:>7} {:>5} {:>8.3} {:>11} {:>6} {:>+5} {:>4} {:>4} {:>+8.1} {:>5.1} \
                 {:>5}",
                pos.empties().count(),
                j.depth,
                j.time.as_secs_f64(),
                j.nodes,
                j.best.join(","),
                j.score,
                j.chose,
                or_dash(j.its),
                j.estimate,
                j.error,
                j.loss().map_or_else(|| "-".to_string(), |l| l.to_string()),
            )?;
        }
        out.flush()?;
        rows.push(j);
    }
    let s = Summary::of(&rows);
    if json {
        let row = json!({"kind": "judgement summary", "limit": limit, "threads": opts.threads,
            "positions": s.positions, "chose_best": s.best, "top2": s.top2, "top3": s.top3,
            "within3": s.within[0], "within6": s.within[1], "within9": s.within[2],
            "mae": round2(s.mae), "mean_error": round2(s.mae),
            "scored_choices": s.scored_choices, "mean_loss": round2(s.mean_loss),
            "nodes": s.nodes, "seconds": round4(s.time.as_secs_f64()),
            "nps": s.nps().round()});
        writeln!(out, "{row}")?;
        return Ok(());
    }
    let share = |count: usize| format!("{:5.1}% ({count}/{})", s.percent(count), s.positions);
    writeln!(out, "\n{} positions, {limit}, {threads}", s.positions)?;
    writeln!(out, "  best move   {}", share(s.best))?;
    writeln!(out, "  top 2 move  {}", share(s.top2))?;
    writeln!(out, "  top 3 move  {}", share(s.top3))?;
    for (m, &count) in MARGINS.iter().zip(&s.within) {
        writeln!(out, "  score ±{m}    {}", share(count))?;
    }
    writeln!(out, "  MAE         {:.2} discs", s.mae)?;
    writeln!(
        out,
        "  mean loss   {:.2} discs (over the {} chosen moves the files score)",
        s.mean_loss, s.scored_choices
    )?;
    writeln!(out, "  nodes       {}", s.nodes)?;
    writeln!(out, "  time        {:.3} s", s.time.as_secs_f64())?;
    writeln!(out, "  NPS         {:.0}", s.nps())?;
    Ok(())
}

/// FFO #40-#59 analysed within `budget`, solver off: the move chosen against the file.
fn ffo_choices(
    out: &mut impl Write,
    data: Option<PathBuf>,
    budget: Duration,
    json: bool,
) -> anyhow::Result<()> {
    let path = data_dir(data.as_deref())?.join("fforum-40-59.obf");
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
        let j = measure::judge_ffo(&entry.obf, best, budget)
            .map_err(|e| anyhow::anyhow!("ffo #{}: {e}", k + 40))?;
        optimal += usize::from(j.optimal);
        err_sum += j.error;
        if json {
            let row = json!({"kind": "ffo", "number": k + 40, "empties": pos.empties().count(),
                "best": j.best, "exact": j.exact, "chose": j.chose.to_string(), "its": j.its,
                "estimate": round2(j.estimate), "error": round2(j.error), "depth": j.depth});
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "{:>3} {:>7} {:>5} {:>+6} {:>6} {:>+8} {:>+8.1} {:>6.1} {:>5}",
                k + 40,
                pos.empties().count(),
                j.best.join(","),
                j.exact,
                j.chose.to_string(),
                j.its,
                j.estimate,
                j.error,
                j.depth
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
        let j = measure::judge_six(&pos, truth, budget);
        let (est, ok, shown, shipped_ok) =
            (j.estimate, j.right_sign, j.shipped, j.shipped_right_sign);
        right += usize::from(ok);
        shipped_right += usize::from(shipped_ok);
        total += 1;
        if json {
            let row = json!({"kind": "six line", "empties": empties, "truth": truth,
                "estimate": round2(est), "right_sign": ok, "shipped": round2(shown),
                "shipped_proven": j.shipped_proven, "shipped_right_sign": shipped_ok});
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
                if j.shipped_proven { "=" } else { "~" },
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
