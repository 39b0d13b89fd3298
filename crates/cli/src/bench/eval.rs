//! `ply bench eval`: how good the learnt evaluation and the midgame engine are outside the
//! solvable endgame, measured against exact scores.
//!
//! 1. The static evaluation's mean absolute error by number of empty squares: on 8x8, the
//!    positions after every scored move of the FFO/fforum files (their exact scores are in
//!    the files) and positions of seeded games solved here; on 6x6, positions of seeded games
//!    solved here.
//! 2. 8x8: `analyze` with the solver switched off, `--ms` on one thread, on FFO #40-#59: the
//!    move chosen, whether it is optimal, and the error of its score (target: optimal on 15
//!    of 20, mean error at most 3 discs).
//! 3. 6x6: the start position (whose value, -4 for black, is checked by solving it) and
//!    every position along a perfect line, analysed the same way: the sign of every estimate
//!    must be the sign of the true value.

use std::{
    io::{self, Write},
    path::PathBuf,
    time::{Duration, Instant},
};

use anyhow::Context;
use ply_othello::{
    analyze::{self, Analysis, Options, Shown},
    eval, obf,
    solve::{SolveOptions, Solver},
    BoardSize, Color, Move, Position,
};

use crate::error::bad;

/// Arguments of `ply bench eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size: 8 or 6.
    #[arg(long, default_value_t = 8)]
    pub size: u8,
    /// Thinking time per analysed position, in milliseconds.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub ms: u64,
    /// Positions of seeded games to solve per bucket of empty squares.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub solved: usize,
    /// Directory holding the fforum files (default: $PLY_DATA, else the
    /// repository's testdata/).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
}

/// Buckets of empty squares the error is reported by.
const BUCKETS: [(u32, u32); 3] = [(14, 20), (21, 26), (27, 32)];

/// (position, exact score for its side to move) pairs, and where they came from.
type Scored = Vec<(Position, i32)>;

pub fn run(a: Args) -> anyhow::Result<()> {
    let size = match a.size {
        8 => BoardSize::Eight,
        6 => BoardSize::Six,
        n => return Err(bad(format!("--size {n}: expected 6 or 8"))),
    };
    if a.ms == 0 || a.ms > 600_000 {
        return Err(bad(format!("--ms {}: expected 1 to 600000", a.ms)));
    }
    let e = eval::builtin(size).expect("6x6 and 8x8 have an evaluation");
    let mut out = io::stdout().lock();

    // 1. Static error by empties.
    let mut scored: Scored = Vec::new();
    let started = Instant::now();
    let line = if size == BoardSize::Eight {
        scored.extend(fforum_children(a.data.clone())?);
        Vec::new()
    } else {
        let line = perfect_six_line()?;
        scored.extend(line.iter().copied());
        line
    };
    scored.extend(solved_game_positions(size, a.solved));
    writeln!(
        out,
        "{0}x{0} static evaluation against exact scores ({1} positions, {2:.0} s to gather)",
        size.n(),
        scored.len(),
        started.elapsed().as_secs_f64()
    )?;
    writeln!(
        out,
        "{:>8} {:>6} {:>8} {:>8}",
        "empties", "count", "MAE", "bias"
    )?;
    for (lo, hi) in BUCKETS {
        let errs: Vec<f64> = scored
            .iter()
            .filter(|(p, _)| (lo..=hi).contains(&p.empties().count()))
            .map(|(p, exact)| {
                let v = e.evaluate_reference(p.player().0, p.opponent().0);
                f64::from(v) / f64::from(eval::UNIT) - f64::from(*exact)
            })
            .collect();
        let n = errs.len().max(1) as f64;
        writeln!(
            out,
            "{:>8} {:>6} {:>8.2} {:>+8.2}",
            format!("{lo}-{hi}"),
            errs.len(),
            errs.iter().map(|x| x.abs()).sum::<f64>() / n,
            errs.iter().sum::<f64>() / n
        )?;
    }
    out.flush()?;

    let budget = Duration::from_millis(a.ms);
    if size == BoardSize::Eight {
        ffo_choices(&mut out, a.data.clone(), budget)
    } else {
        six_line(&mut out, &line, budget)
    }
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
    if solved.score != -4 {
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

/// The positions after every scored move of the fforum files, with their exact scores.
fn fforum_children(data: Option<PathBuf>) -> anyhow::Result<Scored> {
    let dir = super::ffo::data_dir(data.as_deref())?;
    let mut out = Vec::new();
    for file in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ] {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let entries =
            obf::parse_file(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
        for entry in entries {
            let pos = entry.obf.position;
            for m in &entry.obf.moves {
                if let Move::Play(sq) = m.mv {
                    out.push((pos.play_unchecked(sq), -m.score));
                }
            }
        }
    }
    Ok(out)
}

/// `per_bucket` positions of seeded games in each bucket of empties, solved exactly. The
/// seeds are apart from the training set's.
fn solved_game_positions(size: BoardSize, per_bucket: usize) -> Scored {
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 64,
    });
    // Exact scores of 8x8 positions with more than 20 empties come from the files only.
    let buckets: &[(u32, u32)] = if size == BoardSize::Eight {
        &BUCKETS[..1]
    } else {
        &BUCKETS[..2]
    };
    let mut out = Vec::new();
    for &(lo, hi) in buckets {
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
                out.push((pos, r.score));
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
) -> anyhow::Result<()> {
    let path = super::ffo::data_dir(data.as_deref())?.join("fforum-40-59.obf");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let entries = obf::parse_file(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
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
        let est = Analysis::discs(a.score);
        let err = (est - f64::from(its)).abs();
        optimal += usize::from(its == best);
        err_sum += err;
        let best_moves: Vec<String> = entry
            .obf
            .moves
            .iter()
            .filter(|m| m.score == best)
            .map(|m| m.mv.to_string())
            .collect();
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
        out.flush()?;
    }
    let n = entries.len();
    writeln!(
        out,
        "optimal {optimal} of {n}, mean absolute error {:.2} discs (target: 15 of 20, at most 3)",
        err_sum / n as f64
    )?;
    Ok(())
}

/// 6x6: the start and every position along a perfect line (with 8 empties or more),
/// estimated within `budget`: the sign of each estimate against the sign of the truth; and
/// beside it the analysis as shipped (the opening book, then the solver, then estimates).
fn six_line(out: &mut impl Write, line: &Scored, budget: Duration) -> anyhow::Result<()> {
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
    let (mut right, mut shipped_right, mut total) = (0, 0, 0);
    for &(pos, truth) in line {
        if pos.empties().count() < 8 {
            continue;
        }
        let ply = 32 - pos.empties().count();
        let est = Analysis::discs(estimate(&pos, budget).score);
        let ok = est.signum() == f64::from(truth).signum();
        let shipped = analyze::analyze(&pos, &Options::budget(budget));
        let shown = Shown::new(shipped.score, shipped.proven).discs;
        let shipped_ok = shown.signum() == f64::from(truth).signum();
        right += usize::from(ok);
        shipped_right += usize::from(shipped_ok);
        total += 1;
        let word = |ok: bool| if ok { "right" } else { "WRONG" };
        writeln!(
            out,
            "{ply:>4} {:>7} {:>6} {truth:>+5} {est:>+8.1} {:>6} {:>+8.1}{} {:>6}",
            pos.empties().count(),
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
        out.flush()?;
    }
    writeln!(
        out,
        "right sign: evaluation alone {right} of {total}; as shipped {shipped_right} of {total} \
         (= exact, ~ estimate)"
    )?;
    Ok(())
}
