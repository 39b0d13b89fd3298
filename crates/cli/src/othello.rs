//! `ply othello`: show a position, replay a game, perft, solve, analyze, merge, book, games,
//! explore, review.
//!
//! Glue only: the text formats, the rules and perft live in `ply-othello`; this module reads
//! arguments, calls them, and prints text or one JSON object per result.

use std::{
    io::{self, Write},
    path::PathBuf,
    time::{Duration, Instant},
};

use anyhow::Context;
use clap::{ArgGroup, Args, Subcommand};
use ply_cli_support::status::Bar;
use ply_othello::{
    analyze::{analyze, Options},
    input, opening, picture,
    summary::{self, PerftReport},
    BoardSize, GameRecord, Position,
};

use crate::error::bad;

pub mod analyze;
pub mod book;
pub mod common;
pub mod databases;
pub mod explore;
pub mod games;
pub mod merge;
pub mod results;
pub mod review;
pub mod solve;

use common::{is_dash, read_position_or_transcript};

/// `ply othello` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Draw a position (given as cells and side to move, or as a transcript from the start)
    /// with its legal moves marked.
    Show(ShowArgs),
    /// Replay a game from its transcript (or GGF record), checking every move; print the
    /// final position and score.
    Play(PlayArgs),
    /// Count the leaves of the game tree to DEPTH plies (a pass is a ply; a finished game is
    /// one leaf at every depth past its end).
    Perft(PerftArgs),
    /// Exact solve of a position, a start position or an OBF file.
    Solve(crate::othello::solve::Args),
    /// Every legal move with its score: exact where the solver finishes in time, estimated
    /// by the midgame engine elsewhere.
    Analyze(crate::othello::analyze::Args),
    /// Merge the results files of a sharded batch solve (`solve --obf … --shard I/N --out …`)
    /// into one, in input order: the bytes one machine would have written.
    Merge(crate::othello::merge::Args),
    /// Build an opening book level by level (exact with the batch solve, or searched and
    /// negamaxed), and say what a book file holds.
    #[command(subcommand)]
    Book(crate::othello::book::Command),
    /// WTHOR game databases: list their games (names, results, transcripts; filters; JSON
    /// or GGF), make one from ply's games, index them for the explorer.
    Games(crate::othello::games::Args),
    /// Every move of a position with how often the games of WTHOR databases played it, how
    /// it scored for black, and the engine's value.
    Explore(crate::othello::explore::Args),
    /// Every move of a game (or of every game of a WTHOR file) valued: the best move, what
    /// the move played lost, mistakes marked ?! ? ??, each side's sums; as text, JSON or GGF
    /// with comments.
    Review(crate::othello::review::Args),
}

/// `ply othello show`.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("picture").args(["svg", "png"]).multiple(true)))]
pub struct ShowArgs {
    /// Cells and side to move (`---…OX…--- X`, 16/36/64 cells), an OBF line, a transcript
    /// (`f5d6c3`), or a GGF game (`(;GM[Othello]…;)`).
    #[arg(value_name = "POS", allow_hyphen_values = true)]
    pub position: String,
    /// Board size for a transcript (by default the size its moves are legal on; a position's
    /// size follows from its cells).
    #[arg(long)]
    pub size: Option<BoardSize>,
    /// One JSON object instead of the picture.
    #[arg(long)]
    pub json: bool,
    /// Also draw the position as SVG into FILE (`-` for stdout, instead of the text):
    /// coordinates, discs, the last move and the legal moves marked.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Also draw the position as PNG into FILE (`-` for stdout): the SVG's board, without
    /// its status line.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Write every legal move's value on the picture, from an analysis of `--time` seconds
    /// (exact where the book or the solver knows it, `≈` an estimate).
    #[arg(long, requires = "picture")]
    pub values: bool,
    /// Seconds the analysis for `--values` may take.
    #[arg(long, value_name = "S", default_value_t = 1.0, requires = "values")]
    pub time: f64,
}

/// `ply othello play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Moves from the start position (`f5d6c3d3…`, passes implicit or `pass`/`PA`), or a GGF
    /// record `(;GM[Othello]…;)`.
    #[arg(allow_hyphen_values = true)]
    pub transcript: String,
    /// Board size: 4, 6 or 8.
    #[arg(long)]
    pub size: Option<BoardSize>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `ply othello perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies to count.
    pub depth: u32,
    /// Board size: 4, 6 or 8 (the start position of that size).
    #[arg(long)]
    pub size: Option<BoardSize>,
    /// Count from this position (cells and side to move) or transcript instead of the start.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Also give the count under each move.
    #[arg(long)]
    pub divide: bool,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::Show(a) => show(&a),
        Command::Play(a) => play(&a),
        Command::Perft(a) => run_perft(&a),
        Command::Solve(a) => crate::othello::solve::run(a),
        Command::Analyze(a) => crate::othello::analyze::run(&a),
        Command::Merge(a) => crate::othello::merge::run(&a),
        Command::Book(c) => crate::othello::book::run(c),
        Command::Games(a) => crate::othello::games::run(a),
        Command::Explore(a) => crate::othello::explore::run(&a),
        Command::Review(a) => crate::othello::review::run(&a),
    }
}

fn show(a: &ShowArgs) -> anyhow::Result<()> {
    let game = read_position_or_transcript(&a.position, a.size, "POS")?;
    let pos = game.position();
    let mut out = io::stdout().lock();
    if a.svg.is_some() || a.png.is_some() {
        if a.svg.as_deref().is_some_and(is_dash) && a.png.as_deref().is_some_and(is_dash) {
            return Err(bad(
                "--svg - and --png -: only one picture can go to stdout".to_owned(),
            ));
        }
        let opts = picture_options(a, &game)?;
        let mut on_stdout = false;
        for (path, bytes) in [
            (
                &a.svg,
                a.svg
                    .as_ref()
                    .map(|_| picture::svg(&pos, &opts).into_bytes()),
            ),
            (&a.png, a.png.as_ref().map(|_| picture::png(&pos, &opts))),
        ] {
            let (Some(path), Some(bytes)) = (path, bytes) else {
                continue;
            };
            if is_dash(path) {
                out.write_all(&bytes)?;
                on_stdout = true;
            } else {
                ply_cli_support::files::write_whole(path, &[], &bytes)?;
            }
        }
        if on_stdout {
            out.flush()?;
            return Ok(());
        }
    }
    let name = opening::name_of_game(&game);
    if a.json {
        writeln!(out, "{}", summary::show_json(&game, name))?;
    } else {
        write!(out, "{}", summary::show_text(&game, name))?;
    }
    out.flush()?;
    Ok(())
}

/// What the picture of `show --svg` draws: the last move of the game, the legal moves, and
/// with `--values` every legal move's value from the one analysis entry point.
fn picture_options(a: &ShowArgs, game: &GameRecord) -> anyhow::Result<picture::Options> {
    let mut opts = picture::Options::of_game(game);
    if a.values {
        if !(a.time.is_finite() && (0.001..=3600.0).contains(&a.time)) {
            return Err(bad(format!(
                "--time {}: the analysis takes from 0.001 to 3600 seconds",
                a.time
            )));
        }
        let found = analyze(
            &game.position(),
            &Options::budget(Duration::from_secs_f64(a.time)),
        );
        opts.values = found.picture_values();
    }
    Ok(opts)
}

fn play(a: &PlayArgs) -> anyhow::Result<()> {
    let game =
        input::parse_game(&a.transcript, a.size).map_err(|e| bad(format!("TRANSCRIPT: {e}")))?;
    let mut out = io::stdout().lock();
    if a.json {
        writeln!(out, "{}", summary::play_json(&game))?;
    } else {
        write!(out, "{}", summary::play_text(&game))?;
    }
    out.flush()?;
    Ok(())
}

fn run_perft(a: &PerftArgs) -> anyhow::Result<()> {
    let pos = match &a.position {
        Some(p) => read_position_or_transcript(p, a.size, "--position")?.position(),
        None => Position::start(a.size.unwrap_or(BoardSize::Eight)),
    };
    if a.depth > 64 {
        return Err(bad(format!(
            "DEPTH {} is beyond any game (at most 60 moves and their passes); use 64 or less",
            a.depth
        )));
    }
    let started = Instant::now();
    let mut bar = Bar::new();
    let draw = |p| move |secs| summary::perft_bar(a.depth, p, secs);
    let report = PerftReport::count(
        &pos,
        a.depth,
        a.divide,
        &mut |p| bar.update(draw(p)),
        &|| started.elapsed().as_secs_f64(),
    );
    bar.finish();
    let mut out = io::stdout().lock();
    if a.json {
        writeln!(out, "{}", report.to_json())?;
    } else {
        write!(out, "{}", report.text())?;
    }
    out.flush().context("writing the result")?;
    Ok(())
}
