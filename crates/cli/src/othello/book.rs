//! `ply othello book`: build an opening book level by level with the batch machinery, and
//! say what a book file holds.
//!
//! **An exact book** (a weak solution of the opening, 6x6): `grow` prints the next level to
//! solve as an OBF file: the roots when no results are given, else every position one step
//! past the solved ones (ply's best move, then any reply) that is not solved yet and has at
//! least `--min-empties` empty squares, one per symmetry class, in a fixed order.
//! `ply othello solve --obf LEVEL --out RESULTS` solves it (sharded with `--shard`, on Slurm
//! or on one machine, resumable) and `merge` joins the shards. `build` checks that the solved
//! positions close (no successor missing) and writes the book file. `scripts/build-book6`
//! runs the loop.
//!
//! **A searched book** (8x8): `deviate` prints the next level: where `--lines` self-play lines
//! from the start leave the positions searched so far. Each line plays a move within
//! `--width` discs of the best, chosen by a hash of the line and the position (line 0 always
//! the best), as long as its losses add up to no more than `--loss` discs. `search` scores
//! every move of a level's positions with the midgame engine at `--depth` (sharded and
//! resumable like `solve`), and `build` negamaxes the scores through the book
//! ([`book::negamax`]) and writes it. Rerun with more lines, a wider window or a smaller
//! `--min-empties` and the book grows from the levels it has. `scripts/build-book8` runs the
//! loop.
//!
//! `add` grows a searched 8x8 book from played games instead, as Edax's `book add` does: the
//! positions of the first `--plies` moves of every game of WTHOR databases that the book
//! lacks (one per symmetry class) are searched as `search` does, added, and the whole book
//! negamaxed again; a book position keeps its scores unless a move now leads to a new one.
//!
//! The growth itself (the next level, the deviating lines, the negamax) is the library's
//! (`ply_othello::book`); this file reads and writes the results files and the book.

use std::{
    collections::HashMap,
    io::{self, Write},
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Instant,
};

use clap::{Args, Subcommand};
use ply_core::Shard;
use ply_othello::{
    book::{self, Book, ScoredMove},
    obf,
    results::{self as batch, BookEntry},
    wthor, BoardSize, Position, Square,
};

use ply_cli_support::files::{read_bytes, refuse_inputs, write_whole};

use crate::{
    error::bad,
    othello::{
        common::{check_threads, read_book, StatusLine},
        databases::wthor_error,
        results::{self, check_done, Row, ShardInput},
    },
};

/// `ply othello book` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the next level to solve (an OBF file): the positions one step past the solved
    /// ones, or the roots when no results are given.
    Grow(GrowArgs),
    /// Write the book file from the solved levels (checking that they close) or from the
    /// searched ones (negamaxed).
    Build(BuildArgs),
    /// Print the next level of a searched book (an OBF file): where self-play lines from
    /// the start, deviating within a window, leave the positions searched so far.
    Deviate(DeviateArgs),
    /// Score every move of a level's positions with the midgame engine at a fixed depth,
    /// into a resumable results file (sharded like `solve`).
    Search(SearchArgs),
    /// What a book file holds (ply's or Edax's), and whether it is closed.
    Info(InfoArgs),
    /// Read an Edax book (`.dat`, Edax 4.4 and later) into a ply book file: a partial
    /// searched book, each position with its links and its leaf.
    Import(ImportArgs),
    /// Write a searched 8x8 book (ply's, or one imported) as an Edax book (`.dat`) that
    /// Edax opens with `book load`.
    Export(ExportArgs),
    /// Add the opening positions of WTHOR games to a searched 8x8 book (as Edax's `book
    /// add`): each new position's moves scored by the midgame engine, then the whole book
    /// negamaxed.
    Add(AddArgs),
}

/// `ply othello book add`.
#[derive(Args, Debug)]
pub struct AddArgs {
    /// The book to add to: a searched 8x8 book (ply's, or an Edax one); it is not changed.
    #[arg(value_name = "BOOK")]
    pub book: PathBuf,
    /// WTHOR game databases (`.wtb`).
    #[arg(required = true, value_name = "GAMES.wtb")]
    pub games: Vec<PathBuf>,
    /// The book file to write (replaced whole, never half-written).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The positions of each game's first N moves are added.
    #[arg(long, default_value_t = 20, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub plies: u32,
    /// Plies of the midgame search of every move of a new position (as `book search`).
    #[arg(long, default_value_t = 14, value_name = "D",
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Positions searched at once (each on one thread: the scores do not depend on it).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
}

/// `ply othello book import`.
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The Edax book.
    #[arg(value_name = "FILE.dat")]
    pub edax: PathBuf,
    /// The ply book file to write (replaced whole, never half-written).
    #[arg(long, value_name = "BOOK")]
    pub out: PathBuf,
}

/// `ply othello book export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The book: a ply book file (or an Edax one).
    #[arg(value_name = "BOOK")]
    pub book: PathBuf,
    /// The Edax book to write (replaced whole, never half-written).
    #[arg(long, value_name = "FILE.dat")]
    pub out: PathBuf,
}

/// `ply othello book grow`.
#[derive(Args, Debug)]
pub struct GrowArgs {
    /// Board size: 4, 6 or 8.
    #[arg(long)]
    pub size: BoardSize,
    /// Leave out positions with fewer empty squares (the solver's part at play time).
    #[arg(long, value_name = "E")]
    pub min_empties: u32,
    /// Results of the levels solved so far (`ply othello solve --out`, merged).
    #[arg(value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
}

/// `ply othello book deviate`.
#[derive(Args, Debug)]
pub struct DeviateArgs {
    /// Board size: 4, 6 or 8.
    #[arg(long)]
    pub size: BoardSize,
    /// A line ends where fewer empty squares are left.
    #[arg(long, value_name = "E")]
    pub min_empties: u32,
    /// Self-play lines from the start: line 0 plays the best move everywhere.
    #[arg(long, value_name = "N")]
    pub lines: u32,
    /// A line may play a move scored at most this many discs below the best.
    #[arg(long, default_value_t = 2, value_name = "DISCS")]
    pub width: i32,
    /// The most discs a line's deviations may give away in all.
    #[arg(long, default_value_t = 6, value_name = "DISCS")]
    pub loss: i32,
    /// Seed of the lines' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Results of the levels searched so far (`ply othello book search --out`, merged).
    #[arg(value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
}

/// `ply othello book search`.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// The level to search (`deviate`'s output).
    #[arg(long, value_name = "FILE")]
    pub obf: PathBuf,
    /// Results file, appended to as each position is searched; a rerun goes on from it.
    #[arg(long, value_name = "RESULTS")]
    pub out: PathBuf,
    /// Plies of the midgame search of every move.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Search only this shard of the positions: I of N (from 0), for parallel or Slurm runs.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

/// `ply othello book build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Board size: 4, 6 or 8.
    #[arg(long)]
    pub size: BoardSize,
    /// The depth an exact book's levels were grown to (`grow --min-empties`); a searched
    /// book's depth is its deepest position.
    #[arg(long, value_name = "E")]
    pub min_empties: Option<u32>,
    /// The book file to write (replaced whole, never half-written).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Results of every level.
    #[arg(required = true, value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
}

/// `ply othello book info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// A book file.
    pub book: PathBuf,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::Grow(a) => grow(&a),
        Command::Build(a) => build(&a),
        Command::Deviate(a) => deviate(&a),
        Command::Search(a) => search(&a),
        Command::Info(a) => info(&a),
        Command::Import(a) => import(&a),
        Command::Export(a) => export(&a),
        Command::Add(a) => add(&a),
    }
}

/// Every result of the files, in order, each checked ([`Row::book_entry`]): a position of
/// `size` with a legal best move. Errors name the file and line. A torn last line is
/// dropped, as [`results`] reads every file: its position counts as not solved.
fn read_results(paths: &[PathBuf], size: BoardSize) -> anyhow::Result<Vec<BookEntry>> {
    let mut out = Vec::new();
    for path in paths {
        for e in results::read(path)? {
            let at = format!("{} line {}", path.display(), e.at);
            out.push(
                e.row
                    .book_entry(size)
                    .map_err(|e| bad(format!("{at}: {e}")))?,
            );
        }
    }
    Ok(out)
}

fn grow(a: &GrowArgs) -> anyhow::Result<()> {
    let solved: Vec<(Position, Square)> = read_results(&a.results, a.size)?
        .iter()
        .map(|s| (s.position, s.best))
        .collect();
    let first = a.results.is_empty();
    let next = book::next_exact_level(a.size, a.min_empties, (!first).then_some(&solved[..]));
    print_level(&next)
}

/// A level as an OBF file on stdout ([`obf::positions_file`]).
fn print_level(level: &[Position]) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(obf::positions_file(level).as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The paths of `paths`, as [`write_book`]'s inputs.
fn as_paths(paths: &[PathBuf]) -> Vec<&Path> {
    paths.iter().map(PathBuf::as_path).collect()
}

fn build(a: &BuildArgs) -> anyhow::Result<()> {
    refuse_inputs(&a.out, &as_paths(&a.results))?;
    let solved = read_results(&a.results, a.size)?;
    let book = batch::build_book(a.size, a.min_empties, solved).map_err(bad)?;
    write_book(&a.out, &as_paths(&a.results), &book)
}

/// Writes `book` whole to `path` (never one of `inputs`) and says what it holds.
fn write_book(path: &Path, inputs: &[&Path], book: &Book) -> anyhow::Result<()> {
    write_whole(path, inputs, &book.write())?;
    eprintln!("{}: {}", path.display(), book.summary());
    Ok(())
}

/// The searched results of `paths` by key, each with its moves (best first).
fn searched_by_key(
    paths: &[PathBuf],
    size: BoardSize,
) -> anyhow::Result<HashMap<(u64, u64), Vec<ScoredMove>>> {
    let mut out = HashMap::new();
    for path in paths {
        for e in results::read(path)? {
            let at = format!("{} line {}", path.display(), e.at);
            let entry = e
                .row
                .book_entry(size)
                .map_err(|e| bad(format!("{at}: {e}")))?;
            let (key, moves) = entry
                .into_searched()
                .map_err(|e| bad(format!("{at}: {e}")))?;
            out.insert(key, moves);
        }
    }
    Ok(out)
}

fn deviate(a: &DeviateArgs) -> anyhow::Result<()> {
    if a.width < 0 || a.loss < 0 {
        return Err(bad("--width and --loss are discs given away: 0 or more"));
    }
    let searched = searched_by_key(&a.results, a.size)?;
    let how = book::Deviation {
        size: a.size,
        min_empties: a.min_empties,
        lines: a.lines,
        width: a.width,
        loss: a.loss,
        seed: a.seed,
    };
    print_level(&book::deviate(&how, &searched))
}

fn search(a: &SearchArgs) -> anyhow::Result<()> {
    let ShardInput {
        name,
        scope,
        positions,
    } = ShardInput::read(&a.obf, a.shard)?;
    if let Some((line, _)) = positions.iter().find(|(_, p)| !p.can_move()) {
        return Err(bad(format!(
            "{name} line {line}: the side to move has no move: a book position has one"
        )));
    }
    let (mut writer, entries) = results::Writer::open(&a.out, &[&a.obf])?;
    let done = check_done(&a.out, &scope, &positions, &entries)?;
    let mut stdout = io::stdout().lock();
    for (line, pos) in positions {
        if done.contains(&line) {
            continue;
        }
        let started = Instant::now();
        let (scored, found) = book::search_moves(&pos, a.depth);
        let row = Row::searched(&pos, line, a.depth, &scored, &found.line);
        writer.append(&row)?;
        let seconds = started.elapsed().as_secs_f64();
        writeln!(stdout, "{}", row.search_line(found.nodes, seconds))?;
        stdout.flush()?;
    }
    Ok(())
}

fn import(a: &ImportArgs) -> anyhow::Result<()> {
    let bytes = read_bytes(&a.edax)?;
    let book = Book::read_edax(&bytes).map_err(|e| bad(format!("{}: {e}", a.edax.display())))?;
    write_book(&a.out, &[&a.edax], &book)
}

fn export(a: &ExportArgs) -> anyhow::Result<()> {
    let book = read_book(&a.book)?;
    let bytes = book
        .write_edax()
        .map_err(|e| bad(format!("{}: {e}", a.book.display())))?;
    write_whole(&a.out, &[&a.book], &bytes)?;
    eprintln!("{}: {}", a.out.display(), book::edax_note(&book, &bytes));
    Ok(())
}

fn info(a: &InfoArgs) -> anyhow::Result<()> {
    let bytes = read_bytes(&a.book)?;
    let book = Book::read_any(&bytes).map_err(|e| bad(format!("{}: {e}", a.book.display())))?;
    if a.json {
        println!("{}", book.info_json(bytes.len()));
    } else {
        print!("{}", book.info_text(bytes.len()));
    }
    Ok(())
}

/// `ply othello book add`: the positions of the games' first moves that the book lacks, one
/// per symmetry class, each searched ([`book::search_moves`]), added and negamaxed through the
/// book ([`book::add_searched`]).
fn add(a: &AddArgs) -> anyhow::Result<()> {
    check_threads(a.threads)?;
    // Refused before the searches, which may take long.
    let mut inputs = as_paths(&a.games);
    inputs.push(&a.book);
    refuse_inputs(&a.out, &inputs)?;
    let old = read_book(&a.book)?;
    let name = a.book.display();
    old.takes_games().map_err(|e| bad(format!("{name}: {e}")))?;
    let plies = usize::try_from(a.plies).expect("at most 60");
    let mut gathered = book::Gathered::default();
    for path in &a.games {
        let bytes = read_bytes(path)?;
        let (_, records) = wthor::games(&bytes).map_err(|e| wthor_error(path, &e))?;
        for g in records {
            let g = g.map_err(|e| wthor_error(path, &e))?;
            gathered.add_game(&old, &g.game, plies);
        }
    }
    let gathered_games = gathered.games();
    let (todo, present) = gathered.finish();
    let scored = search_all(&todo, a.depth, a.threads);
    let book = book::add_searched(&old, todo.into_iter().zip(scored).collect())
        .map_err(|e| bad(format!("{name}: {e}")))?;
    write_book(&a.out, &inputs, &book)?;
    let added = book.len() - old.len();
    let files = a.games.len();
    let note = book::added_note(gathered_games, files, plies, added, present, a.depth);
    println!("{note}");
    Ok(())
}

/// [`book::search_all`] of the new positions, with a status line of how many are done.
fn search_all(positions: &[Position], depth: u32, threads: usize) -> Vec<Vec<ScoredMove>> {
    let total = positions.len();
    let done = Arc::new(AtomicUsize::new(0));
    let line = StatusLine::start({
        let done = done.clone();
        move |elapsed| {
            format!(
                "searching the new positions: {} of {total}, {:.0} s",
                done.load(Ordering::Relaxed),
                elapsed.as_secs_f64()
            )
        }
    });
    let scored = book::search_all(positions, depth, threads, &|| {
        done.fetch_add(1, Ordering::Relaxed);
    });
    drop(line);
    scored
}
