//! `ply othello explore`: every move of a position with how often the games of WTHOR
//! databases played it and how it scored for Black, beside the engine's value. The counts
//! come from the library's index (`ply_othello::explore`), read from beside the databases or
//! built there once; the values from the one analysis entry point.

use std::{
    io::{self, Write},
    path::PathBuf,
};

use ply_othello::{
    analyze::Request,
    explore::{self, Report},
    opening,
    wthor::NameKind,
    BoardSize,
};

use crate::{
    error::bad,
    othello::{
        common::{analysis_options, read_position_or_transcript},
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
        let req = Request {
            time: a.time,
            ..Request::default()
        };
        Some(analysis_options(&req, pos.size())?)
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
        write!(out, "{}", report.text())?;
    }
    out.flush()?;
    Ok(())
}
