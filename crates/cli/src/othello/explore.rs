//! `ply othello explore`: every move of a position with how often the games of WTHOR
//! databases played it and how it scored for Black, beside the engine's value. The counts
//! come from the library's index (`ply_othello::explore`), read from beside the databases or
//! built there once; the values from the one analysis entry point.

use std::{
    io::{self, Write},
    path::PathBuf,
    time::Duration,
};

use ply_othello::{
    analyze::Options,
    explore::{self, Report},
    opening,
    wthor::NameKind,
    BoardSize,
};

use crate::{
    error::bad,
    othello::{
        common::{plural, read_position_or_transcript},
        databases::{
            default_index_path, load_index, read_databases, read_names, replay_databases,
            report_loaded,
        },
    },
};

/// Arguments of `ply othello explore`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position: cells and side to move, an OBF line, or a transcript from the start.
    #[arg(allow_hyphen_values = true, value_name = "POS")]
    pub position: String,
    /// WTHOR game files (`.wtb`) to count the games of.
    #[arg(long, value_name = "FILE.wtb", num_args = 1.., required = true)]
    pub games: Vec<PathBuf>,
    /// Where the index of the databases is kept (default: beside the first, with
    /// `.plyidx` added); built there when missing or stale.
    #[arg(long, value_name = "PATH")]
    pub index: Option<PathBuf>,
    /// Seconds the engine may think about the moves (default 1; the book answers at once
    /// where it knows the position).
    #[arg(long, value_name = "S", conflicts_with = "no_engine")]
    pub time: Option<f64>,
    /// Counts only, no engine values.
    #[arg(long)]
    pub no_engine: bool,
    /// List the games that reached the position (players, year, result), a page of
    /// `--limit` from the `--offset`-th on.
    #[arg(long)]
    pub list: bool,
    /// Games of the list to skip.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "list")]
    pub offset: usize,
    /// Games in a page of the list (1 to 1000).
    #[arg(long, value_name = "N", default_value_t = 20, requires = "list",
          value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub limit: u16,
    /// The players' names (`WTHOR.JOU`) for the list.
    #[arg(long, value_name = "FILE.JOU", requires = "list")]
    pub players: Option<PathBuf>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    let game = read_position_or_transcript(&a.position, None, "POS")?;
    let pos = game.position();
    if pos.size() != BoardSize::Eight {
        return Err(bad(
            "POS: WTHOR games are 8x8; the position is not (give 64 cells or an 8x8 transcript)",
        ));
    }
    let engine = if a.no_engine {
        None
    } else {
        let t = a.time.unwrap_or(1.0);
        if !(t > 0.0 && t <= 86_400.0) {
            return Err(bad(format!(
                "--time {t}: expected more than 0 and at most 86400 seconds"
            )));
        }
        Some(Options::budget(Duration::from_secs_f64(t)))
    };
    let databases = read_databases(&a.games)?;
    let path = a
        .index
        .clone()
        .unwrap_or_else(|| default_index_path(&a.games));
    let (index, loaded) = load_index(&a.games, &databases, &path)?;
    report_loaded(&path, &index, &loaded);
    let found = explore::explore(&pos, &index, engine.as_ref());
    let mut report = Report::new(&found, index.games());
    if a.list {
        let players = a
            .players
            .as_deref()
            .map(|p| read_names(p, NameKind::Players))
            .transpose()?;
        let replayed = replay_databases(&a.games, &databases)?;
        let page = explore::games_reaching(
            &pos,
            &replayed,
            players.as_deref(),
            a.offset,
            usize::from(a.limit),
        );
        report = report.with_games(page);
    }
    report.opening = opening::name_of_game(&game);
    let mut out = io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        print_text(&mut out, &report)?;
    }
    out.flush()?;
    Ok(())
}

fn print_text(out: &mut impl Write, r: &Report) -> io::Result<()> {
    writeln!(out, "position   {}", r.position)?;
    let ended = match r.ended_black_mean_discs {
        Some(d) => format!(
            ", {} ended here (black {} on average)",
            r.ended,
            signed(d, 1)
        ),
        None => String::new(),
    };
    if let Some(name) = r.opening {
        writeln!(out, "opening    {name}")?;
    }
    writeln!(
        out,
        "games      {} of {} reached it ({} to move): {} played on{ended}; results for black",
        r.games + r.ended,
        r.indexed_games,
        if r.turn == 'X' { "black" } else { "white" },
        r.games,
    )?;
    if !r.moves.is_empty() {
        writeln!(out, "move   games   score   discs   engine (for black)")?;
    }
    for m in &r.moves {
        let rate = m
            .black_score_rate
            .map_or("-".to_string(), |r| format!("{:.1}%", 100.0 * r));
        let discs = m.black_mean_discs.map_or("-".to_string(), |d| signed(d, 1));
        let engine = match m.engine {
            Some(v) if v.kind == "exact" => format!("{} (exact)", signed(v.black_discs, 0)),
            Some(v) => format!(
                "{} ({}, depth {})",
                signed(v.black_discs, 1),
                v.kind,
                v.depth
            ),
            None => "-".to_string(),
        };
        writeln!(
            out,
            "{:<5}{:>7}{:>8}{:>8}   {engine}",
            m.mv, m.games, rate, discs
        )?;
    }
    if let Some(page) = &r.reached {
        let shown = page.games.len();
        let range = if shown == 0 {
            "none".to_string()
        } else {
            format!("{}-{}", page.offset + 1, page.offset + shown)
        };
        writeln!(
            out,
            "reached by {} ({range} below)",
            plural(page.total, "game")
        )?;
        if shown > 0 {
            writeln!(
                out,
                "db  game  year  black                 white                 result"
            )?;
        }
        for g in &page.games {
            writeln!(
                out,
                "{:<4}{:>4}  {:>4}  {:<20}  {:<20}  {}-{} ({})",
                g.database,
                g.game,
                g.year,
                g.black,
                g.white,
                g.black_discs,
                64 - u32::from(g.black_discs),
                signed(f64::from(g.black_score), 0)
            )?;
        }
    }
    Ok(())
}

/// `d` with its sign and `digits` decimals, rounded first so that a value that rounds to
/// zero prints as `+0`, never `-0.0`.
fn signed(d: f64, digits: i32) -> String {
    let scale = 10f64.powi(digits);
    let rounded = (d * scale).round() / scale + 0.0;
    format!("{rounded:+.*}", digits as usize)
}

#[cfg(test)]
mod tests {
    use super::signed;

    #[test]
    fn values_that_round_to_zero_have_no_minus_sign() {
        assert_eq!(signed(-0.04, 1), "+0.0");
        assert_eq!(signed(-0.0, 0), "+0");
        assert_eq!(signed(-0.05, 1), "-0.1");
        assert_eq!(signed(7.0, 0), "+7");
    }
}
