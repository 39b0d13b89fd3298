//! `ply ttt`: analyse, check and count a tic-tac-toe board; the state-space figures.
//!
//! Glue only: every answer comes from ply-tictactoe (the solved tables for boards, the generic
//! ply-core algorithms for the figures). Human output draws the board; `--json` prints one
//! object per line, with the fields listed on each command.

use std::io::{self, Write};

use clap::{Subcommand, ValueEnum};
use ply_core::Value;
use ply_tictactoe::{check, stats, Board, Counts, Mark, Position};
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

/// The board with coordinates, cells named a1..c3.
fn draw(b: Board) -> String {
    let mut s = String::from("    a   b   c\n");
    for (r, row) in b.rows().iter().enumerate() {
        if r > 0 {
            s.push_str("   ---+---+---\n");
        }
        s.push_str(&format!(
            "{}   {} | {} | {}\n",
            r + 1,
            row[0],
            row[1],
            row[2]
        ));
    }
    s
}

fn analyze(a: &BoardArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pos = read_position(a)?;
    let value = pos.value();
    let mut moves = pos.analyze();
    moves.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    if a.json {
        let report = AnalyzeJson {
            board: pos.board().to_string(),
            first: pos.first().as_char(),
            to_move: pos.to_move().as_char(),
            value: value.outcome.as_str(),
            remoteness: value.remoteness,
            moves: moves
                .iter()
                .map(|(cell, v)| MoveJson {
                    r#move: cell.to_string(),
                    cell: cell.index(),
                    value: v.outcome.as_str(),
                    remoteness: v.remoteness,
                })
                .collect(),
        };
        return print_json(out, &report);
    }
    write!(out, "{}", draw(pos.board()))?;
    if pos.is_over() {
        writeln!(out, "game over: {}", result_text(&pos))?;
        return Ok(());
    }
    writeln!(out, "{} to move: {}", pos.to_move(), describe(value))?;
    for (cell, v) in moves {
        writeln!(out, "  {cell}  {}", describe(v))?;
    }
    Ok(())
}

fn describe(v: Value) -> String {
    let plural = if v.remoteness == 1 { "move" } else { "moves" };
    format!("{} in {} {plural}", v.outcome.as_str(), v.remoteness)
}

fn result_text(pos: &Position) -> String {
    match pos.winner() {
        Some(w) => format!("{w} wins"),
        None => "draw".to_string(),
    }
}

fn check_board(a: &BoardArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let board = read_board(a)?;
    let first = a.first.mark();
    let verdict = check(board, first)
        .map(|()| Position::new(board, first).expect("check passed, so the position can occur"));
    if a.json {
        let report = match &verdict {
            Ok(pos) => CheckJson {
                board: board.to_string(),
                first: first.as_char(),
                reachable: true,
                reason: None,
                to_move: Some(pos.to_move().as_char()),
                r#final: Some(pos.is_over()),
                winner: pos.is_over().then(|| {
                    pos.winner()
                        .map_or("draw", |w| if w == Mark::X { "X" } else { "O" })
                }),
            },
            Err(reason) => CheckJson {
                board: board.to_string(),
                first: first.as_char(),
                reachable: false,
                reason: Some(reason.to_string()),
                to_move: None,
                r#final: None,
                winner: None,
            },
        };
        return print_json(out, &report);
    }
    write!(out, "{}", draw(board))?;
    match verdict {
        Ok(pos) if pos.is_over() => {
            writeln!(out, "reachable: yes ({first} moved first)")?;
            writeln!(out, "final: yes, {}", result_text(&pos))?;
        }
        Ok(pos) => {
            writeln!(out, "reachable: yes ({first} moved first)")?;
            writeln!(out, "final: no, {} to move", pos.to_move())?;
        }
        Err(reason) => writeln!(out, "reachable: no ({first} moving first): {reason}")?,
    }
    Ok(())
}

fn count(a: &BoardArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pos = read_position(a)?;
    let c = pos.count_finals();
    if a.json {
        let report = CountJson {
            board: pos.board().to_string(),
            first: pos.first().as_char(),
            total: c.total(),
            x_wins: c.x,
            o_wins: c.o,
            draws: c.draw,
        };
        return print_json(out, &report);
    }
    write!(out, "{}", draw(pos.board()))?;
    writeln!(
        out,
        "distinct final boards reachable: {} (X wins {}, O wins {}, draws {})",
        c.total(),
        c.x,
        c.o,
        c.draw
    )?;
    Ok(())
}

fn print_stats(as_json: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let s = stats(Mark::X);
    if as_json {
        let report = StatsJson {
            reachable: s.reachable,
            reachable_up_to_symmetry: s.reachable_up_to_symmetry,
            finals: s.finals.into(),
            games: s.games.into(),
            games_up_to_symmetry: s.games_up_to_symmetry.into(),
        };
        return print_json(out, &report);
    }
    let split = |c: Counts| format!("X {}, O {}, draw {}", c.x, c.o, c.draw);
    writeln!(out, "tic-tac-toe, X moving first")?;
    writeln!(
        out,
        "reachable positions   {:>7} ({} up to symmetry)",
        s.reachable, s.reachable_up_to_symmetry
    )?;
    writeln!(
        out,
        "final positions       {:>7} ({})",
        s.finals.total(),
        split(s.finals)
    )?;
    writeln!(
        out,
        "games                 {:>7} ({})",
        s.games.total(),
        split(s.games)
    )?;
    writeln!(
        out,
        "games up to symmetry  {:>7} ({})",
        s.games_up_to_symmetry.total(),
        split(s.games_up_to_symmetry)
    )?;
    Ok(())
}

/// One JSON object on one line.
fn print_json(out: &mut dyn Write, value: &impl Serialize) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}

/// `ply ttt analyze --json`.
#[derive(Serialize)]
struct AnalyzeJson {
    /// The board as `XO./.X./..O`.
    board: String,
    /// `X` or `O`: who moved first.
    first: char,
    /// `X` or `O`: who moves next (also on a finished board).
    to_move: char,
    /// `win`, `draw` or `loss` for the side to move.
    value: &'static str,
    /// Moves to the end under perfect play.
    remoteness: u32,
    /// Every legal move, best first (none on a finished board).
    moves: Vec<MoveJson>,
}

/// One move of [`AnalyzeJson`], valued for the side making it.
#[derive(Serialize)]
struct MoveJson {
    /// The cell's name, `a1`..`c3` (column, row from the top).
    r#move: String,
    /// The cell's row-major index, 0..8.
    cell: u8,
    /// `win`, `draw` or `loss` for the side making the move.
    value: &'static str,
    /// Moves to the end after this one, counting it.
    remoteness: u32,
}

/// `ply ttt check --json`.
#[derive(Serialize)]
struct CheckJson {
    board: String,
    first: char,
    reachable: bool,
    /// Why the board cannot occur (null when it can).
    reason: Option<String>,
    /// Null when the board cannot occur.
    to_move: Option<char>,
    /// Whether the game is over; null when the board cannot occur.
    r#final: Option<bool>,
    /// `X`, `O` or `draw` on a finished board, else null.
    winner: Option<&'static str>,
}

/// `ply ttt count --json`.
#[derive(Serialize)]
struct CountJson {
    board: String,
    first: char,
    total: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
}

/// `ply ttt stats --json`.
#[derive(Serialize)]
struct StatsJson {
    reachable: u64,
    reachable_up_to_symmetry: u64,
    finals: CountsJson,
    games: CountsJson,
    games_up_to_symmetry: CountsJson,
}

/// Counts by result.
#[derive(Serialize)]
struct CountsJson {
    total: u64,
    x: u64,
    o: u64,
    draw: u64,
}

impl From<Counts> for CountsJson {
    fn from(c: Counts) -> CountsJson {
        CountsJson {
            total: c.total(),
            x: c.x,
            o: c.o,
            draw: c.draw,
        }
    }
}
