//! `ply ttt`: analyse, check and count a tic-tac-toe board; the state-space figures.
//!
//! Glue only: every answer comes from ply-tictactoe (the solved tables for boards, the generic
//! ply-core algorithms for the figures), and so do its words (`ply_tictactoe::report`: the
//! text that draws the board, and the one JSON object per line, with the fields listed on
//! each command).

use std::io::{self, Write};

use clap::{Subcommand, ValueEnum};
use ply_tictactoe::{report, stats, Board, Mark, Position};
use serde::Serialize;

use crate::error::bad;

/// `ply ttt` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Value and remoteness of a board, and the value of every move.
    ///
    /// JSON: {"board","first","to_move","value","remoteness",
    /// "moves":[{"move","cell","value","remoteness"}]} (moves best first).
    Analyze(BoardArgs),
    /// Whether a board can occur in a game (and why not); whether the game is over.
    ///
    /// JSON: {"board","first","reachable","reason","to_move","final","winner"}.
    Check(BoardArgs),
    /// The distinct final boards reachable from a board: total, X wins, O wins, draws.
    ///
    /// JSON: {"board","first","total","x_wins","o_wins","draws"}.
    Count(BoardArgs),
    /// The state-space figures of tic-tac-toe, X moving first.
    ///
    /// JSON: {"reachable","reachable_up_to_symmetry","finals":{"total","x","o","draw"},
    /// "games":{…},"games_up_to_symmetry":{…}}.
    Stats(StatsArgs),
}

/// Who moves first.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum First {
    /// X moves first.
    X,
    /// O moves first.
    O,
}

impl First {
    fn mark(self) -> Mark {
        match self {
            First::X => Mark::X,
            First::O => Mark::O,
        }
    }
}

/// A board and how to read it.
#[derive(clap::Args, Debug)]
pub struct BoardArgs {
    /// Nine cells row-major: X x O o for marks, . - _ 0 for empty; rows may be separated by
    /// '/', spaces or newlines (several arguments are joined), e.g. `xo./.x./..o`.
    #[arg(value_name = "BOARD", required = true, num_args = 1..)]
    board: Vec<String>,
    /// Who moved first.
    #[arg(long, value_enum, default_value = "x")]
    first: First,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `ply ttt stats` arguments.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `ply ttt`.
///
/// # Errors
///
/// A bad board (exit 2) or a closed stdout.
pub fn run(c: Command) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match c {
        Command::Analyze(a) => analyze(&a, &mut out),
        Command::Check(a) => check_board(&a, &mut out),
        Command::Count(a) => count(&a, &mut out),
        Command::Stats(a) => print_stats(a.json, &mut out),
    }
}

fn read_board(a: &BoardArgs) -> anyhow::Result<Board> {
    let text = a.board.join(" ");
    text.parse()
        .map_err(|e| bad(format!("board {text:?}: {e}")))
}

fn read_position(a: &BoardArgs) -> anyhow::Result<Position> {
    let board = read_board(a)?;
    Position::new(board, a.first.mark()).map_err(|reason| {
        bad(format!(
            "board {board}: cannot occur with {} moving first: {reason}",
            a.first.mark()
        ))
    })
}

fn analyze(a: &BoardArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pos = read_position(a)?;
    if a.json {
        return print_json(out, &report::Analysis::new(&pos));
    }
    write!(out, "{}", report::analysis_text(&pos))?;
    Ok(())
}

fn check_board(a: &BoardArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let board = read_board(a)?;
    let first = a.first.mark();
    if a.json {
        return print_json(out, &report::Check::new(board, first));
    }
    write!(out, "{}", report::check_text(board, first))?;
    Ok(())
}

fn count(a: &BoardArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pos = read_position(a)?;
    let finals = report::Finals::new(&pos);
    if a.json {
        return print_json(out, &finals);
    }
    write!(out, "{}", finals.text(&pos))?;
    Ok(())
}

fn print_stats(as_json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let s = stats(Mark::X);
    if as_json {
        return print_json(out, &report::Figures::from(s));
    }
    write!(out, "{}", report::stats_text(&s))?;
    Ok(())
}

/// One JSON object on one line.
fn print_json(out: &mut dyn Write, value: &impl Serialize) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}
