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

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
    time::Instant,
};

use anyhow::Context;
use clap::{Args, Subcommand};
use ply_core::{Shard, SplitMix64};
use ply_othello::{
    analyze::{self, Options},
    book::{self, Book, ScoredMove},
    text, BoardSize, Position, Square,
};

use crate::{
    error::bad,
    othello::{
        common::{parse_size, plural, write_whole},
        results::{self, MoveScore, Row},
        solve::{check_done, ShardInput},
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

/// `ply othello book deviate`.
#[derive(Args, Debug)]
pub struct DeviateArgs {
    /// Board size: 4, 6 or 8.
    #[arg(long, value_parser = parse_size)]
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
    #[arg(long, value_parser = parse_size)]
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
    }
}

/// A solved (or searched) position read from a results file.
struct Solved {
    position: Position,
    best: Square,
    score: i32,
    /// For a searched result: the search depth and every move's score, best first.
    searched: Option<(u32, Vec<ScoredMove>)>,
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
    let searched = match row.depth {
        None => None,
        Some(depth) => {
            let moves = row
                .moves
                .as_ref()
                .ok_or("a searched result without the scores of its moves")?;
            let mut scored = Vec::with_capacity(moves.len());
            for m in moves {
                let square = Square::parse(&m.square).map_err(|e| e.to_string())?;
                if !position.is_legal(square) {
                    return Err(format!("move {square} is not legal"));
                }
                scored.push(ScoredMove {
                    square,
                    score: m.score,
                    depth,
                });
            }
            if scored.len() != position.legal_moves().count() as usize {
                return Err(format!(
                    "{} moves scored, the position has {}",
                    scored.len(),
                    position.legal_moves().count()
                ));
            }
            Some((depth, scored))
        }
    };
    Ok(Solved {
        position,
        best,
        score: row.score,
        searched,
    })
}

use book::key;

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
    let searched = solved.iter().filter(|s| s.searched.is_some()).count();
    if searched > 0 && searched < solved.len() {
        return Err(bad(
            "the results mix exact solves (`ply othello solve`) and searches \
             (`ply othello book search`): a book is one or the other",
        ));
    }
    if searched > 0 {
        return build_searched(a, solved);
    }
    let min_empties = a.min_empties.ok_or_else(|| {
        bad("--min-empties: an exact book needs the depth its levels were grown to")
    })?;
    let book = Book::from_entries(
        a.size,
        min_empties,
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
    write_book(&a.out, &book)
}

/// Writes `book` whole to `path` and says what it holds.
fn write_book(path: &Path, book: &Book) -> anyhow::Result<()> {
    write_whole(path, &book.write())?;
    eprintln!(
        "{}: {}, {}x{} down to {} empty squares{}",
        path.display(),
        plural(book.len(), "position"),
        book.size().n(),
        book.size().n(),
        book.min_empties(),
        if book.is_exact() { "" } else { " (searched)" }
    );
    Ok(())
}

/// A searched book: the results negamaxed and written. One result per position (the levels
/// hold each position once; a repeated one is bad input).
fn build_searched(a: &BuildArgs, solved: Vec<Solved>) -> anyhow::Result<()> {
    let mut seen = HashSet::new();
    let mut entries = Vec::with_capacity(solved.len());
    for s in solved {
        if !seen.insert(key(&s.position)) {
            return Err(bad(format!(
                "{} is searched twice (in two levels?)",
                text::format_position(&s.position)
            )));
        }
        let (_, moves) = s.searched.expect("checked: every result is searched");
        entries.push((s.position, moves));
    }
    let book =
        Book::from_searched(a.size, book::negamax(entries)).map_err(|e| bad(e.to_string()))?;
    write_book(&a.out, &book)
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
            let s = check_row(&e.row, size).map_err(|e| bad(format!("{at}: {e}")))?;
            let Some((_, mut moves)) = s.searched else {
                return Err(bad(format!(
                    "{at}: an exact solve, not a search: `deviate` grows from the results of \
                     `ply othello book search`"
                )));
            };
            if book::canonical_image(&s.position) != s.position {
                return Err(bad(format!(
                    "{at}: not the least image of its position (the levels `deviate` prints \
                     hold only those)"
                )));
            }
            moves.sort_by_key(|m| std::cmp::Reverse(m.score));
            out.insert(key(&s.position), moves);
        }
    }
    Ok(out)
}

/// A 64-bit mix of the seed, the line and the position: which deviation a line takes.
fn choice(seed: u64, line: u32, key: (u64, u64)) -> u64 {
    let mut rng = SplitMix64::new(
        seed ^ u64::from(line).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ key.0.rotate_left(17)
            ^ key.1.rotate_left(41),
    );
    rng.next_u64()
}

/// Where line `line` leaves the searched positions: the first position it reaches that is
/// not searched, with at least `min_empties` empty squares; `None` when it ends (the game
/// over, or too few empties) inside them.
fn line_end(
    a: &DeviateArgs,
    searched: &HashMap<(u64, u64), Vec<ScoredMove>>,
    line: u32,
) -> Option<Position> {
    let mut pos = Position::start(a.size);
    let mut lost = 0;
    loop {
        while !pos.is_game_over() && !pos.can_move() {
            pos = pos.passed();
        }
        if pos.is_game_over() || pos.empties().count() < a.min_empties {
            return None;
        }
        // The least image: its discs are the key, and the results' moves are its moves.
        let here = book::canonical_image(&pos);
        let pos_key = (here.player().0, here.opponent().0);
        let Some(moves) = searched.get(&pos_key) else {
            return Some(here);
        };
        let best = moves[0].score;
        let within: Vec<&ScoredMove> = moves
            .iter()
            .filter(|m| best - m.score <= a.width && lost + best - m.score <= a.loss)
            .collect();
        let m = if line == 0 {
            moves[0]
        } else {
            *within[(choice(a.seed, line, pos_key) % within.len() as u64) as usize]
        };
        lost += best - m.score;
        // The moves are those of the least image: play on it.
        pos = here.play_unchecked(m.square);
    }
}

fn deviate(a: &DeviateArgs) -> anyhow::Result<()> {
    if a.width < 0 || a.loss < 0 {
        return Err(bad("--width and --loss are discs given away: 0 or more"));
    }
    let searched = searched_by_key(&a.results, a.size)?;
    let mut next: BTreeMap<(u64, u64), Position> = BTreeMap::new();
    for line in 0..a.lines {
        if let Some(p) = line_end(a, &searched, line) {
            next.entry(key(&p)).or_insert(p);
        }
    }
    let mut out = io::stdout().lock();
    for p in next.values() {
        writeln!(out, "{};", text::format_position(p))?;
    }
    out.flush()?;
    Ok(())
}

/// A midgame score in whole discs, as a searched book holds it.
fn whole_discs(score: i32, size: BoardSize) -> i32 {
    let squares = i32::try_from(size.squares()).expect("at most 64");
    (analyze::Analysis::discs(score).round() as i32).clamp(-squares, squares)
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
    let (mut writer, entries) = results::Writer::open(&a.out)?;
    let done = check_done(&a.out, &scope, &positions, &entries)?;
    let mut stdout = io::stdout().lock();
    for (line, pos) in positions {
        if done.contains(&line) {
            continue;
        }
        let started = Instant::now();
        // A fresh analysis (new tables, one thread, no clock) per position: a resumed run
        // writes what an uninterrupted one would have.
        let found = analyze::analyze(
            &pos,
            &Options {
                solver: false,
                book: false,
                ..Options::depth(a.depth)
            },
        );
        let mut moves: Vec<MoveScore> = found
            .moves
            .iter()
            .map(|m| MoveScore {
                square: m.square.to_string(),
                score: whole_discs(m.score, pos.size()),
            })
            .collect();
        // Best first after rounding too (a stable sort keeps the engine's order of ties).
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        let row = Row {
            best_move: Some(moves[0].square.clone()),
            depth: Some(a.depth),
            line,
            position: text::format_position(&pos),
            pv: found.line.iter().map(ToString::to_string).collect(),
            score: moves[0].score,
            moves: Some(moves),
        };
        writer.append(&row)?;
        writeln!(
            stdout,
            "line {line:>4}  best {:>3} {:+3}  depth {}  nodes {:>11}  {:>7.1} s",
            row.best_move.as_deref().unwrap_or("-"),
            row.score,
            a.depth,
            found.nodes,
            started.elapsed().as_secs_f64()
        )?;
        stdout.flush()?;
    }
    Ok(())
}

fn info(a: &InfoArgs) -> anyhow::Result<()> {
    let bytes = fs::read(&a.book).with_context(|| format!("reading {}", a.book.display()))?;
    let book = Book::read(&bytes).map_err(|e| bad(format!("{}: {e}", a.book.display())))?;
    let gap = book.first_gap().map(|p| text::format_position(&p));
    let mut by_empties: BTreeMap<u32, usize> = BTreeMap::new();
    for (p, _) in book.iter() {
        *by_empties.entry(p.empties().count()).or_default() += 1;
    }
    let start = book.lookup(&Position::start(book.size()));
    let kind = if book.is_exact() { "exact" } else { "searched" };
    if a.json {
        let v = serde_json::json!({
            "size": book.size().n(),
            "kind": kind,
            "positions": book.len(),
            "bytes": bytes.len(),
            "min_empties": book.min_empties(),
            "start_score": start.map(|m| m.score),
            "start_best": start.map(|m| m.best.to_string()),
            "start_depth": start.map(|m| m.depth),
            "closed": book.is_exact().then_some(gap.is_none()),
            "first_gap": gap,
            "by_empties": by_empties.iter().map(|(e, n)| serde_json::json!({"empties": e, "positions": n})).collect::<Vec<_>>(),
        });
        println!("{v}");
    } else {
        println!("board       {0}x{0}", book.size().n());
        println!(
            "kind        {kind}{}",
            if book.is_exact() {
                ": exact values"
            } else {
                ": every move scored by a deep search, negamaxed through the book"
            }
        );
        println!("positions   {}", book.len());
        println!("bytes       {}", bytes.len());
        println!("depth       down to {} empty squares", book.min_empties());
        match start {
            Some(m) if m.exact => {
                println!("start       {:+} for black (exact), {}", m.score, m.best)
            }
            Some(m) => println!(
                "start       {:+} for black, {} (a search of depth {} through the book)",
                m.score, m.best, m.depth
            ),
            None => println!("start       not in the book"),
        }
        if book.is_exact() {
            match &gap {
                None => println!("closed      yes: a weak solution for both colours to its depth"),
                Some(g) => println!("closed      no: {g} is missing"),
            }
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
