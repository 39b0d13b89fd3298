//! `ply othello`: show a position, replay a game, perft, solve, analyze, merge, book, games,
//! explore, review.
//!
//! Glue only: the text formats, the rules and perft live in `ply-othello`; this module reads
//! arguments, calls them, and prints text or one JSON object per result.

use std::{
    io::{self, IsTerminal, Write},
    path::PathBuf,
    time::{Duration, Instant},
};

use anyhow::Context;
use clap::{ArgGroup, Args, Subcommand};
use ply_othello::{
    analyze::{analyze, Options},
    ggf::GgfGame,
    opening, perft, picture, text, transcript, BoardSize, Color, GameRecord, Move, Position,
};
use serde_json::json;

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

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn squares(b: ply_othello::Bitboard) -> Vec<String> {
    b.map(|sq| sq.to_string()).collect()
}

fn moves_text(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// What `show` and `play` say about a position, as JSON.
fn position_json(pos: &Position) -> serde_json::Value {
    let over = pos.is_game_over();
    let black_score = pos.final_score_for(Color::Black);
    json!({
        "position": text::format_position(pos),
        "size": pos.size().n(),
        "to_move": color_name(pos.turn()),
        "discs": {
            "black": pos.disc_count(Color::Black),
            "white": pos.disc_count(Color::White),
        },
        "empties": pos.empties().count(),
        "legal_moves": squares(pos.legal_moves()),
        "must_pass": !over && !pos.can_move(),
        "game_over": over,
        "score_black": if over { Some(black_score) } else { None },
    })
}

/// The picture and a few lines about whose turn it is and what they can do.
fn position_text(pos: &Position) -> String {
    let mut s = text::picture(pos, pos.legal_moves());
    let (b, w) = (pos.disc_count(Color::Black), pos.disc_count(Color::White));
    s.push_str(&format!("discs: black (X) {b}, white (O) {w}\n"));
    if pos.is_game_over() {
        let black = pos.final_score_for(Color::Black);
        let verdict = match black.signum() {
            1 => "black wins",
            -1 => "white wins",
            _ => "draw",
        };
        s.push_str(&format!(
            "game over: {verdict}, {black:+} for black (empties to the winner)\n"
        ));
    } else if !pos.can_move() {
        s.push_str(&format!(
            "{} ({}) to move, has no legal move and must pass\n",
            color_name(pos.turn()),
            pos.turn().symbol()
        ));
    } else {
        s.push_str(&format!(
            "{} ({}) to move; legal moves (.): {}\n",
            color_name(pos.turn()),
            pos.turn().symbol(),
            squares(pos.legal_moves()).join(" ")
        ));
    }
    s.push_str(&format!("position: {}\n", text::format_position(pos)));
    s
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
                crate::files::write_whole(path, &[], &bytes)?;
            }
        }
        if on_stdout {
            out.flush()?;
            return Ok(());
        }
    }
    let name = opening::name_of_game(&game);
    if a.json {
        let mut v = position_json(&pos);
        if !game.moves().is_empty() {
            v["moves"] = json!(moves_text(game.moves()));
        }
        v["opening"] = json!(name);
        writeln!(out, "{v}")?;
    } else {
        write!(out, "{}", position_text(&pos))?;
        if let Some(name) = name {
            writeln!(out, "opening  {name}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// What the picture of `show --svg` draws: the last move of the game, the legal moves, and
/// with `--values` every legal move's value from the one analysis entry point.
fn picture_options(a: &ShowArgs, game: &GameRecord) -> anyhow::Result<picture::Options> {
    let mut opts = picture::Options {
        last_move: match game.moves().last() {
            Some(Move::Play(sq)) => Some(*sq),
            _ => None,
        },
        legal_moves: true,
        values: Vec::new(),
    };
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
        opts.values = found
            .moves
            .iter()
            .map(|m| picture::Value {
                square: m.square,
                discs: m.score.discs(),
                exact: m.exact,
            })
            .collect();
    }
    Ok(opts)
}

fn play(a: &PlayArgs) -> anyhow::Result<()> {
    let game = if a.transcript.trim_start().starts_with("(;") {
        let rec =
            GgfGame::parse(&a.transcript).map_err(|e| bad(format!("TRANSCRIPT: GGF: {e}")))?;
        if let Some(size) = a.size {
            if size != rec.game.start().size() {
                return Err(bad(format!(
                    "TRANSCRIPT: the GGF board is {n}x{n} but --size says {m}x{m}",
                    n = rec.game.start().size().n(),
                    m = size.n()
                )));
            }
        }
        rec.game
    } else {
        let start = Position::start(a.size.unwrap_or(BoardSize::Eight));
        transcript::parse(&a.transcript, start).map_err(|e| bad(format!("TRANSCRIPT: {e}")))?
    };
    let pos = game.position();
    let mut out = io::stdout().lock();
    if a.json {
        let mut v = position_json(&pos);
        v["moves"] = json!(moves_text(game.moves()));
        v["plies"] = json!(game.moves().len());
        v["transcript"] = json!(transcript::format(&game));
        writeln!(out, "{v}")?;
    } else {
        let passes = game.moves().iter().filter(|m| **m == Move::Pass).count();
        writeln!(
            out,
            "{} plies ({passes} passes): {}",
            game.moves().len(),
            transcript::format_with_passes(&game)
        )?;
        write!(out, "{}", position_text(&pos))?;
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
    let mut bar = ProgressBar::new(a.depth);
    let (leaves, divided) = if a.divide {
        let d = perft::divide_with_progress(&pos, a.depth, &mut |p| bar.update(p));
        let total = if d.is_empty() {
            perft::perft(&pos, a.depth)
        } else {
            d.iter().map(|x| x.1).sum()
        };
        (total, Some(d))
    } else {
        let n = perft::perft_with_progress(&pos, a.depth, &mut |p| bar.update(p));
        (n, None)
    };
    bar.finish();
    let seconds = started.elapsed().as_secs_f64();
    let rate = leaves as f64 / seconds.max(1e-9);
    let mut out = io::stdout().lock();
    if a.json {
        let mut v = json!({
            "size": pos.size().n(),
            "depth": a.depth,
            "position": text::format_position(&pos),
            "leaves": leaves,
            "seconds": seconds,
            "leaves_per_second": rate,
        });
        if let Some(d) = &divided {
            v["divide"] = d
                .iter()
                .map(|(m, n)| json!({"move": m.to_string(), "leaves": n}))
                .collect();
        }
        writeln!(out, "{v}")?;
    } else {
        if let Some(d) = &divided {
            for (m, n) in d {
                writeln!(out, "{m} {n}")?;
            }
        }
        writeln!(out, "perft({}) = {leaves}", a.depth)?;
        writeln!(out, "{seconds:.3} s, {:.1} M leaves/s", rate / 1e6)?;
    }
    out.flush().context("writing the result")?;
    Ok(())
}

/// A one-line progress display on stderr, drawn only when stderr is a terminal and the run
/// has lasted long enough to need one.
struct ProgressBar {
    enabled: bool,
    started: Instant,
    drawn: bool,
    depth: u32,
}

impl ProgressBar {
    fn new(depth: u32) -> ProgressBar {
        ProgressBar {
            enabled: io::stderr().is_terminal(),
            started: Instant::now(),
            drawn: false,
            depth,
        }
    }

    fn update(&mut self, p: perft::Progress) {
        let elapsed = self.started.elapsed();
        if !self.enabled || elapsed < Duration::from_millis(300) {
            return;
        }
        let width = 30;
        let filled = p.done * width / p.total.max(1);
        eprint!(
            "\rperft({}) [{}{}] {:>3}%, {} leaves, {:.1} s ",
            self.depth,
            "#".repeat(filled),
            "-".repeat(width - filled),
            p.done * 100 / p.total.max(1),
            p.leaves,
            elapsed.as_secs_f64()
        );
        self.drawn = true;
    }

    fn finish(&mut self) {
        if self.drawn {
            eprint!("\r{}\r", " ".repeat(100));
        }
    }
}
