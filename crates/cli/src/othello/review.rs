//! `ply othello review`: every move of a game, or of every game of a WTHOR file, valued by
//! the library's review (`ply_othello::review`: the analysis of each position, the loss of
//! the move played, the marks, each side's sums), printed as a table, as one JSON object a
//! game, or as GGF records with a comment on each move.

use std::{
    io::{self, Write},
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
};

use ply_othello::{
    analyze::Request,
    review::{self, Game},
    wthor::{self, NameKind, NamesOf},
    BoardSize,
};

use ply_cli_support::files::{read_bytes, refuse_inputs, write_whole};

use crate::{
    error::bad,
    othello::{
        common::{analysis_options, input_name, is_dash, StatusLine},
        databases::{read_names, wthor_error},
    },
};

/// The files the review reads: the game's, when it names one, and the players'.
fn review_inputs(a: &Args) -> Vec<&Path> {
    let game = Path::new(&a.game);
    game.is_file()
        .then_some(game)
        .into_iter()
        .chain(a.players.as_deref())
        .collect()
}

/// Arguments of `ply othello review`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: a transcript (`f5d6c3…`), a GGF record, a file of GGF records, or a WTHOR
    /// game file (`.wtb`: every game in it, or `--game N`).
    #[arg(allow_hyphen_values = true, value_name = "GAME|FILE.wtb")]
    pub game: String,
    /// Seconds the analysis of each position may take (default 1; the book and the solver
    /// answer at once where they know the position).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Search the midgame engine this many plies deep instead, without a clock (the exact
    /// solver takes over where the depth reaches the end of the game).
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Threads for each analysis.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Only the N-th game of the file (from 1).
    #[arg(long = "game", value_name = "N")]
    pub game_number: Option<usize>,
    /// The players' names of a WTHOR file (`WTHOR.JOU`); without it, players are shown by
    /// number.
    #[arg(long, value_name = "WTHOR.JOU")]
    pub players: Option<PathBuf>,
    /// Board size of a transcript (by default the size its moves are legal on).
    #[arg(long)]
    pub size: Option<BoardSize>,
    /// One JSON object a game instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write the games as GGF records, one a line, with a comment on every move
    /// (`-`: to stdout, instead of the table).
    #[arg(long, value_name = "OUT")]
    pub ggf: Option<PathBuf>,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    // A GGF output that is one of the inputs is refused before the review, not after it.
    if let Some(path) = a.ggf.as_deref().filter(|p| !is_dash(p)) {
        refuse_inputs(path, &review_inputs(a))?;
    }
    let req = Request {
        time: a.time,
        depth: a.depth,
        threads: a.threads,
        ..Request::default()
    };
    // No book file: any size will do for the check.
    let opts = analysis_options(&req, BoardSize::Eight)?;
    let games = review::to_review(read_games(a)?, a.game_number, &a.game).map_err(bad)?;

    let total = games.len();
    let at_game = Arc::new(AtomicUsize::new(0));
    let at_ply = Arc::new(AtomicUsize::new(0));
    let plies = Arc::new(AtomicUsize::new(0));
    let _line = {
        let (g, p, n) = (at_game.clone(), at_ply.clone(), plies.clone());
        StatusLine::start(move |elapsed| {
            format!(
                "reviewing game {} of {total}, ply {} of {}, {:.0} s",
                g.load(Ordering::Relaxed) + 1,
                p.load(Ordering::Relaxed) + 1,
                n.load(Ordering::Relaxed),
                elapsed.as_secs_f64()
            )
        })
    };
    let ggf_to_stdout = a.ggf.as_deref().is_some_and(is_dash);
    let mut records = Vec::new();
    let mut out = io::stdout().lock();
    for (k, g) in games.into_iter().enumerate() {
        at_game.store(k, Ordering::Relaxed);
        let mut r = review::review(&g.record, &opts, &mut |done, all| {
            at_ply.store(done, Ordering::Relaxed);
            plies.store(all, Ordering::Relaxed);
        });
        let record = g.record.clone();
        g.label(&mut r);
        if a.ggf.is_some() {
            let rec = r.to_ggf(record);
            if ggf_to_stdout {
                writeln!(out, "{rec}")?;
            } else {
                records.push(rec.to_string());
            }
        }
        if ggf_to_stdout {
            continue;
        }
        if a.json {
            writeln!(out, "{}", serde_json::to_string(&r)?)?;
        } else {
            if k > 0 {
                writeln!(out)?;
            }
            write!(out, "{}", r.text())?;
        }
        out.flush()?;
    }
    if let Some(path) = a.ggf.as_deref().filter(|p| !is_dash(p)) {
        let mut text = records.join("\n");
        text.push('\n');
        write_whole(path, &review_inputs(a), text.as_bytes())?;
    }
    out.flush()?;
    Ok(())
}

/// The games GAME names: a WTHOR file's, a GGF file's, or the one game the text is.
fn read_games(a: &Args) -> anyhow::Result<Vec<Game>> {
    let path = Path::new(&a.game);
    let is_wthor = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    if is_wthor {
        return read_wthor(path, a.players.as_deref());
    }
    if a.players.is_some() {
        return Err(bad(
            "--players: only a WTHOR file (.wtb) names its players by number",
        ));
    }
    if path.is_file() {
        let bytes = read_bytes(path)?;
        let name = input_name(path);
        let text = String::from_utf8(bytes).map_err(|_| bad(format!("{name}: not UTF-8 text")))?;
        return review::games_of_file(&text, &name, a.size)
            .map_err(|e| bad(format!("{name}: {e}")));
    }
    Game::parse(&a.game, a.size)
        .map(|g| vec![g])
        .map_err(|e| bad(format!("GAME: {e}")))
}

/// Every game of a WTHOR file, with its players' names when `players` is given and its year.
fn read_wthor(path: &Path, players: Option<&Path>) -> anyhow::Result<Vec<Game>> {
    let names = players
        .map(|p| read_names(p, NameKind::Players))
        .transpose()?;
    let file = players.map(|p| p.display().to_string());
    let bytes = read_bytes(path)?;
    let (header, games) = wthor::games(&bytes).map_err(|e| wthor_error(path, &e))?;
    let mut out = Vec::new();
    for (k, g) in games.enumerate() {
        let g = g.map_err(|e| wthor_error(path, &e))?;
        let number = k + 1;
        let names = names.as_deref().zip(file.as_deref());
        let names = names.map(|(names, file)| NamesOf { names, file });
        let named = |e: String| bad(format!("{}: {e}", path.display()));
        let black = wthor::name_of(names, g.black, number, "black player").map_err(named)?;
        let white = wthor::name_of(names, g.white, number, "white player").map_err(named)?;
        out.push(Game {
            black: Some(black),
            white: Some(white),
            year: Some(header.game_year),
            source: Some(format!("{} game {number}", path.display())),
            ..Game::bare(g.game)
        });
    }
    Ok(out)
}
