//! What `ply bench eval` prints of the measures: the static error's table, the judgement of
//! scored OBF positions, of the FFO positions and of the perfect 6x6 line, each as a text
//! table or as one JSON object a row (`json`), written to any writer as the rows are
//! measured; and the table of `ply bench depth` ([`write_depth_changes`]). The command reads the files and checks its flags; the rows and their words are
//! here, so that another front end prints the same.

use std::{
    fmt,
    io::{self, Write},
    time::{Duration, Instant},
};

use ply_othello::{analyze::Options, obf::ObfEntry, Color, Position};
use serde_json::json;

use super::{
    depth_changes, judge, judge_ffo, judge_six, table::MARGINS, timed_search, BucketError, Scored,
    Summary,
};

/// Why a report stopped: a write, a line of the file without scores, a position the measure
/// could not judge, or a search that broke its promise.
#[derive(Debug)]
pub enum ReportError {
    /// Writing the rows failed.
    Io(io::Error),
    /// The entry read from this line of the file scores no move (bad input).
    NoScores {
        /// The line of the file (1-based).
        line: usize,
    },
    /// FFO position `number` (40 and up) could not be judged.
    Judge {
        /// The position's FFO number.
        number: usize,
        /// What went wrong.
        message: String,
    },
    /// A search to a fixed depth reported another depth or named no legal move (a bug).
    Search(String),
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Io(e) => write!(f, "{e}"),
            ReportError::NoScores { line } => write!(f, "line {line}: no scores"),
            ReportError::Judge { number, message } => write!(f, "ffo #{number}: {message}"),
            ReportError::Search(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ReportError {}

impl From<io::Error> for ReportError {
    fn from(e: io::Error) -> ReportError {
        ReportError::Io(e)
    }
}

/// `x` to two decimals, as the JSON rows give discs.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `x` to four decimals, as the JSON rows give seconds.
fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The heading of the static error's table (text only): the board size, how many positions
/// of what (`what`), the seconds it took to gather them and, when another weight file than
/// the shipped one is measured, its name (`weights`).
///
/// # Errors
/// A failed write.
pub fn write_static_heading(
    out: &mut impl Write,
    n: u8,
    positions: usize,
    what: &str,
    gathered: Duration,
    weights: Option<&str>,
) -> io::Result<()> {
    writeln!(
        out,
        "{0}x{0} static evaluation{3} against known scores ({1} positions of {what}, {2:.0} s to \
         gather)",
        n,
        positions,
        gathered.as_secs_f64(),
        weights.map(|w| format!(" of {w}")).unwrap_or_default()
    )?;
    writeln!(
        out,
        "{:>8} {:>6} {:>8} {:>8}",
        "empties", "count", "MAE", "bias"
    )
}

/// The static error's rows ([`super::static_error`]), one a bucket of empty squares.
///
/// # Errors
/// A failed write.
pub fn write_static(out: &mut impl Write, rows: &[BucketError], json: bool) -> io::Result<()> {
    for &BucketError {
        lo,
        hi,
        count,
        mae,
        bias,
    } in rows
    {
        if json {
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
    out.flush()
}

/// Positions of OBF files, each named by its place (`file:line`), analysed with `opts` (book
/// and solver off, to a depth or within a time, `limit` in words): each row the estimate
/// against the position's score and the move chosen against the scored moves, then the
/// table of the whole set ([`Summary`]). Every entry must score its moves (as
/// `read_scored` keeps them).
///
/// # Errors
/// A failed write.
pub fn write_obf_choices(
    out: &mut impl Write,
    entries: &[(String, ObfEntry)],
    opts: &Options,
    limit: &str,
    json: bool,
) -> io::Result<()> {
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
    for (place, entry) in entries {
        let pos = entry.obf.position;
        let j = judge(&entry.obf, opts).expect("read_scored keeps scored lines");
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
    write_summary(
        out,
        &Summary::of(&rows),
        limit,
        opts.threads,
        &threads,
        json,
    )
}

/// The table of a set of judged positions: `limit` and `threads` in words as the rows'
/// heading gave them.
fn write_summary(
    out: &mut impl Write,
    s: &Summary,
    limit: &str,
    thread_count: usize,
    threads: &str,
    json: bool,
) -> io::Result<()> {
    if json {
        let row = json!({"kind": "judgement summary", "limit": limit, "threads": thread_count,
            "positions": s.positions, "chose_best": s.best, "top2": s.top2, "top3": s.top3,
            "within3": s.within[0], "within6": s.within[1], "within9": s.within[2],
            "mae": round2(s.mae), "mean_error": round2(s.mae),
            "scored_choices": s.scored_choices, "mean_loss": round2(s.mean_loss),
            "nodes": s.nodes, "seconds": round4(s.time.as_secs_f64()),
            "nps": s.nps().round()});
        return writeln!(out, "{row}");
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
    writeln!(out, "  NPS         {:.0}", s.nps())
}

/// FFO #40-#59 (`entries`, the file's lines in order) analysed within `budget`, solver off
/// ([`judge_ffo`]): the move chosen against the file, then how many were optimal and the
/// mean error.
///
/// # Errors
/// A failed write, an entry without scores, or a position the measure could not judge; the
/// rows before it are written.
pub fn write_ffo_choices(
    out: &mut impl Write,
    entries: &[ObfEntry],
    budget: Duration,
    json: bool,
) -> Result<(), ReportError> {
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
            .ok_or(ReportError::NoScores { line: entry.line })?;
        let j = judge_ffo(&entry.obf, best, budget).map_err(|message| ReportError::Judge {
            number: k + 40,
            message,
        })?;
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

/// 6x6: the start and every position along a perfect line (with 8 empties or more; `line`
/// from [`super::perfect_six_line`]), estimated within `budget`: the sign of each estimate
/// against the sign of the truth; and beside it the analysis as shipped (the opening book,
/// then the solver, then estimates) ([`judge_six`]).
///
/// # Errors
/// A failed write.
pub fn write_six_line(
    out: &mut impl Write,
    line: &Scored,
    budget: Duration,
    json: bool,
) -> io::Result<()> {
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
        let j = judge_six(&pos, truth, budget);
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

/// `ply bench depth`: for each of `positions` (named), the engine alone (solver and book
/// off, one thread) is first given `budget` to see how deep it gets ([`timed_search`]),
/// then searched to every depth from `from` to that one ([`depth_changes`]); a line a
/// position with its estimates, then the mean absolute change between successive depths
/// (target: at most 1.5 discs) and how much of the budget the timed searches used.
///
/// # Errors
/// A failed write, or a search that did not reach its depth or named no legal move.
pub fn write_depth_changes(
    out: &mut impl Write,
    positions: &[(String, Position)],
    budget: Duration,
    from: u32,
) -> Result<(), ReportError> {
    let ms_budget = budget.as_millis();
    writeln!(
        out,
        "estimates by depth, {from} to the depth reached in {ms_budget} ms (solver and book off, \
         one thread)"
    )?;
    let (mut sum, mut steps) = (0.0, 0usize);
    let mut used = Vec::new();
    for (name, pos) in positions {
        let started = Instant::now();
        let timed = timed_search(pos, budget);
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        used.push(ms);
        let deepest = timed.depth.max(from);
        let (values, changes) = depth_changes(pos, from, deepest).map_err(ReportError::Search)?;
        sum += changes.iter().sum::<f64>();
        steps += changes.len();
        let shown: Vec<String> = values.iter().map(|v| format!("{v:+.1}")).collect();
        writeln!(
            out,
            "{name:<16} {ms:>6.0} ms  depth {from:>2}-{deepest:<2} mean change {:>5.2}  {}",
            changes.iter().sum::<f64>() / changes.len().max(1) as f64,
            shown.join(" ")
        )?;
        out.flush()?;
    }
    writeln!(
        out,
        "mean absolute change between successive depths: {:.2} discs over {steps} steps, {} \
         positions (target: at most 1.5)",
        sum / steps.max(1) as f64,
        positions.len()
    )?;
    if used.is_empty() {
        return Ok(());
    }
    used.sort_by(f64::total_cmp);
    writeln!(
        out,
        "time used of {ms_budget} ms: least {:.0}, median {:.0}, most {:.0}",
        used[0],
        used[used.len() / 2],
        used[used.len() - 1]
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bucket(lo: u32, hi: u32, count: usize, mae: f64, bias: f64) -> BucketError {
        BucketError {
            lo,
            hi,
            count,
            mae,
            bias,
        }
    }

    #[test]
    fn the_static_table_prints_a_row_a_bucket_as_text_or_json() {
        let rows = [bucket(14, 20, 3, 2.345, -0.5), bucket(21, 26, 1, 10.0, 1.0)];
        let mut text = Vec::new();
        write_static(&mut text, &rows, false).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "   14-20      3     2.35    -0.50\n   21-26      1    10.00    +1.00\n"
        );
        let mut json = Vec::new();
        write_static(&mut json, &rows, true).unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(json)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["empties"], "14-20");
        assert_eq!(lines[0]["mae"], 2.35);
        assert_eq!(lines[1]["bias"], 1.0);
    }

    #[test]
    fn the_heading_names_other_weights_only_when_given() {
        let mut shipped = Vec::new();
        write_static_heading(&mut shipped, 8, 5, "a.obf", Duration::ZERO, None).unwrap();
        let shipped = String::from_utf8(shipped).unwrap();
        assert!(shipped.starts_with(
            "8x8 static evaluation against known scores (5 positions of a.obf, 0 s to gather)\n"
        ));
        let mut other = Vec::new();
        write_static_heading(&mut other, 6, 5, "b", Duration::ZERO, Some("w.bin")).unwrap();
        assert!(String::from_utf8(other)
            .unwrap()
            .starts_with("6x6 static evaluation of w.bin against"));
    }

    #[test]
    fn an_ffo_line_without_scores_stops_the_rows_naming_its_line() {
        let start = format!(
            "{}OX{}XO{} X;",
            "-".repeat(27),
            "-".repeat(6),
            "-".repeat(27)
        );
        let entries = ply_othello::obf::parse_file(&start).unwrap();
        let mut out = Vec::new();
        let e = write_ffo_choices(&mut out, &entries, Duration::from_millis(1), true).unwrap_err();
        assert!(matches!(e, ReportError::NoScores { line: 1 }), "{e}");
    }
}
