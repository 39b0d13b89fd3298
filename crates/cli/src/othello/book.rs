//! `ply othello book`: build an opening book (a weak solution of the opening) with the batch
//! solve, level by level.
//!
//! `grow` prints the next level to solve as an OBF file: the roots when no results are
//! given, else every position one step past the solved ones (ply's best move, then any
//! reply) that is not solved yet and has at least `--min-empties` empty squares, one per
//! symmetry class, in a fixed order. `ply othello solve --obf LEVEL --out RESULTS` solves it
//! (sharded with `--shard`, on Slurm or on one machine, resumable) and `merge` joins the
//! shards. `build` checks that the solved positions close (no successor missing) and writes
//! the book file. `scripts/build-book6` runs the loop.

use std::{
    collections::{BTreeMap, HashSet},
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
};

use anyhow::Context;
use clap::{Args, Subcommand};
use ply_othello::{
    book::{self, Book},
    text, BoardSize, Position, Square,
};

use crate::{
    error::bad,
    othello::{
        common::{parse_size, plural},
        results::{self, Row},
    },
};

/// `ply othello book` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the next level to solve (an OBF file): the positions one step past the solved
    /// ones, or the roots when no results are given.
    Grow(GrowArgs),
    /// Write the book file from the solved levels, checking that they close.
    Build(BuildArgs),
    /// What a book file holds, and whether it is closed.
    Info(InfoArgs),
}

/// `ply othello book grow`.
#[derive(Args, Debug)]
pub struct GrowArgs {
    /// Board size: 4, 6 or 8.
    #[arg(long, value_parser = parse_size)]
    pub size: BoardSize,
    /// Leave out positions with fewer empty squares (the solver's part at play time).
    #[arg(long, value_name = "E")]
    pub min_empties: u32,
    /// Results of the levels solved so far (`ply othello solve --out`, merged).
    #[arg(value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
}

/// `ply othello book build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Board size: 4, 6 or 8.
    #[arg(long, value_parser = parse_size)]
    pub size: BoardSize,
    /// The depth the levels were grown to (`grow --min-empties`).
    #[arg(long, value_name = "E")]
    pub min_empties: u32,
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
        Command::Info(a) => info(&a),
    }
}

/// A solved position read from a results file.
struct Solved {
    position: Position,
    best: Square,
    score: i32,
}

/// Every result of the files, in order, each checked: a position of `size` with a legal
/// best move. Errors name the file and line. A torn last line is dropped, as [`results`]
/// reads every file: its position counts as not solved.
fn read_results(paths: &[PathBuf], size: BoardSize) -> anyhow::Result<Vec<Solved>> {
    let mut out = Vec::new();
    for path in paths {
        for e in results::read(path)? {
            let at = format!("{} line {}", path.display(), e.at);
            out.push(check_row(&e.row, size).map_err(|e| bad(format!("{at}: {e}")))?);
        }
    }
    Ok(out)
}

fn check_row(row: &Row, size: BoardSize) -> Result<Solved, String> {
    let position = text::parse_position(&row.position).map_err(|e| e.to_string())?;
    if position.size() != size {
        return Err(format!(
            "a {0}x{0} position, not {1}x{1}",
            position.size().n(),
            size.n()
        ));
    }
    let best = row
        .best_move
        .as_deref()
        .ok_or("no best move (a pass or a finished game has no place in a book)")?;
    let best = Square::parse(best).map_err(|e| e.to_string())?;
    if !position.is_legal(best) {
        return Err(format!("best move {best} is not legal"));
    }
    Ok(Solved {
        position,
        best,
        score: row.score,
    })
}

/// The least image of a position's discs (mover, other): one key per symmetry class.
fn key(p: &Position) -> (u64, u64) {
    let c = book::canonical_image(p);
    (c.player().0, c.opponent().0)
}

fn grow(a: &GrowArgs) -> anyhow::Result<()> {
    let solved = read_results(&a.results, a.size)?;
    let done: HashSet<(u64, u64)> = solved.iter().map(|s| key(&s.position)).collect();
    let candidates: Vec<Position> = if a.results.is_empty() {
        book::roots(a.size)
    } else {
        solved
            .iter()
            .flat_map(|s| book::successors(&s.position, s.best))
            .collect()
    };
    // Sorted by key: the same level whatever the order of the results.
    let mut next: BTreeMap<(u64, u64), Position> = BTreeMap::new();
    for p in candidates {
        if p.empties().count() >= a.min_empties && !done.contains(&key(&p)) {
            next.entry(key(&p))
                .or_insert_with(|| book::canonical_image(&p));
        }
    }
    let mut out = io::stdout().lock();
    for p in next.values() {
        writeln!(out, "{};", text::format_position(p))?;
    }
    out.flush()?;
    Ok(())
}

fn build(a: &BuildArgs) -> anyhow::Result<()> {
    let solved = read_results(&a.results, a.size)?;
    let book = Book::from_entries(
        a.size,
        a.min_empties,
        solved.iter().map(|s| (s.position, s.best, s.score)),
    )
    .map_err(|e| bad(e.to_string()))?;
    if let Some(gap) = book.first_gap() {
        return Err(bad(format!(
            "the results do not close: {} is missing (solve the level `ply othello book grow` \
             prints next)",
            text::format_position(&gap)
        )));
    }
    write_whole(&a.out, &book.write())?;
    eprintln!(
        "{}: {}, {}x{} down to {} empty squares",
        a.out.display(),
        plural(book.len(), "position"),
        a.size.n(),
        a.size.n(),
        book.min_empties()
    );
    Ok(())
}

/// Writes `bytes` to a temporary file beside `path` and renames it over `path`.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("renaming onto {}", path.display()))
}

fn info(a: &InfoArgs) -> anyhow::Result<()> {
    let bytes = fs::read(&a.book).with_context(|| format!("reading {}", a.book.display()))?;
    let book = Book::read(&bytes).map_err(|e| bad(format!("{}: {e}", a.book.display())))?;
    let gap = book.first_gap().map(|p| text::format_position(&p));
    let mut by_empties: BTreeMap<u32, usize> = BTreeMap::new();
    for (p, _) in book.iter() {
        *by_empties.entry(p.empties().count()).or_default() += 1;
    }
    let start = book.lookup(&Position::start(book.size())).map(|m| m.score);
    if a.json {
        let v = serde_json::json!({
            "size": book.size().n(),
            "positions": book.len(),
            "bytes": bytes.len(),
            "min_empties": book.min_empties(),
            "start_score": start,
            "closed": gap.is_none(),
            "first_gap": gap,
            "by_empties": by_empties.iter().map(|(e, n)| serde_json::json!({"empties": e, "positions": n})).collect::<Vec<_>>(),
        });
        println!("{v}");
    } else {
        println!("board       {0}x{0}", book.size().n());
        println!("positions   {}", book.len());
        println!("bytes       {}", bytes.len());
        println!("depth       down to {} empty squares", book.min_empties());
        match start {
            Some(s) => println!("start       {s:+} for black (exact)"),
            None => println!("start       not in the book"),
        }
        match &gap {
            None => println!("closed      yes: a weak solution for both colours to its depth"),
            Some(g) => println!("closed      no: {g} is missing"),
        }
        for (e, n) in &by_empties {
            println!(
                "  {e:>2} empties  {n:>7} position{}",
                if *n == 1 { "" } else { "s" }
            );
        }
    }
    Ok(())
}
