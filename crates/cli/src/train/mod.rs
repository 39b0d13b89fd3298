//! `ply train`: training data for the evaluation. Glue only: the games, the file format, the
//! resumption and the merge live in `ply-train`; this module reads arguments, reports
//! progress on stderr and prints summaries.

use std::{
    ops::ControlFlow,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use clap::{Args, Subcommand};
use ply_othello::BoardSize;
use ply_train::{
    datagen,
    error::DataError,
    games::{Header, Shard},
    learn,
    recipe::{parse_random_moves, Params},
    summary,
};

use ply_cli_support::files::{write_whole, write_with};

use crate::error::bad;

mod arrays;
mod net;

pub use arrays::{ExportArgs, LabelArgs, PackArgs};

/// The paths of `files`, as the inputs an output must not be.
pub(super) fn paths(files: &[PathBuf]) -> Vec<&Path> {
    files.iter().map(PathBuf::as_path).collect()
}

/// `ply train` subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play seeded self-play games into a game file (random opening, the midgame engine at a
    /// fixed depth, perfect play from E empties on), or resume the file where it stopped.
    Gen(GenArgs),
    /// Merge the files of every shard of a set into one, in game order: the bytes one
    /// process playing every game would have written.
    Merge(MergeArgs),
    /// The parameters of a game file and its games and positions, every record checked.
    Info(InfoArgs),
    /// Fit the evaluation's weights to the positions of game files (each labelled with its
    /// game's final score), and report the held-out error per phase beside the weights this
    /// build ships.
    Fit(FitArgs),
    /// Grow the 8x8 evaluation's test set: games from XOT openings played by the midgame
    /// engine and perfectly from 24 empties, their positions of 14-40 empties with exact
    /// scores (from 24 empties) or deep searches (above), one OBF line each. Resumable.
    Testset(TestsetArgs),
    /// Write the positions of game files (and of a test set) as plain arrays of weight
    /// indices, labels and flags, for a training script outside Rust (`scripts/train-eval8`).
    Export(ExportArgs),
    /// Make a weight file from a table of fitted values (little-endian f32, phase after
    /// phase, in discs, indexed as `export` numbers the weights).
    Pack(PackArgs),
    /// Label the exported positions by searches over given weights (the mean of two depths
    /// one ply apart): writes DIR/train.search, f32 discs a position, the exported label
    /// kept where it is exact or the position has at most --above empties.
    Label(LabelArgs),
    /// Two weight files against each other at a fixed depth from XOT openings, each opening
    /// twice with colours swapped: which evaluation plays better, nothing else different.
    Duel(DuelArgs),
    /// Train the network evaluation (NNUE over the pattern features) on game files' positions
    /// by Adam, one thread, the same bytes from the same files and settings; report its
    /// held-out error beside the tables' and write its weight file (`--weights` reads it).
    Net(net::NetArgs),
}

/// `ply train duel`.
#[derive(Args, Debug)]
pub struct DuelArgs {
    /// The weights whose points are counted (raw: no side-to-move handicap).
    #[arg(value_name = "FIRST")]
    pub first: PathBuf,
    /// The weights they play against; `shipped` for the weights this build ships.
    #[arg(value_name = "SECOND")]
    pub second: String,
    /// Plies each side searches a move.
    #[arg(long, value_name = "D", default_value_t = 4)]
    pub depth: u32,
    /// XOT openings to play (lines 1 to N), each twice.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub openings: usize,
    /// Directory holding xot-openings.txt (default: $PLY_DATA, else the repository's
    /// testdata/).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Worker threads (the result does not depend on it).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
}

/// `ply train testset`.
#[derive(Args, Debug)]
pub struct TestsetArgs {
    /// The OBF file: created, or grown after the last whole game it holds.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games the file is to hold when the run ends.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Line of xot-openings.txt that game 0 starts from (1-based).
    #[arg(long, value_name = "L", default_value_t = 5001)]
    pub first_opening: usize,
    /// Directory holding xot-openings.txt (default: $PLY_DATA, else the repository's
    /// testdata/).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Depth of the labelling search above the exact part (1 to 30).
    #[arg(long, value_name = "D", default_value_t = ply_train::testset::Recipe::default().label_depth)]
    pub label_depth: u32,
    /// Depth of the midgame engine that plays the games (1 to 30).
    #[arg(long, value_name = "D", default_value_t = ply_train::testset::Recipe::default().play_depth)]
    pub play_depth: u32,
    /// Perfect play, and exact scores, from this many empties on (kept down to 14; 14 to
    /// 30).
    #[arg(long, value_name = "E", default_value_t = ply_train::testset::Recipe::default().exact_empties)]
    pub exact_empties: u32,
}

/// `ply train fit`.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// Game files (`gen` shards or merged sets) of one board size.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Where to write the weights (under a temporary name, renamed when whole); without it
    /// only the report is printed.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Keep one game in N aside, only measured.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub holdout: u64,
    /// Ridge penalty on every weight.
    #[arg(long, value_name = "R", default_value_t = learn::Settings::default().ridge)]
    pub ridge: f64,
    /// Conjugate-gradient iterations per phase.
    #[arg(long, value_name = "K", default_value_t = learn::Settings::default().iterations)]
    pub iterations: usize,
    /// Fit each phase also on positions up to this many empty squares outside it.
    #[arg(long, value_name = "E", default_value_t = learn::Settings::default().window)]
    pub window: u32,
    /// Compare with these weights instead of the ones this build ships.
    #[arg(long, value_name = "FILE")]
    pub compare: Option<PathBuf>,
    /// Leave out every game that passes through an opening of this test set (`ply train
    /// testset`'s file, e.g. testdata/eval8-testset.obf; its XOT list is read from the same
    /// folder).
    #[arg(long, value_name = "TESTSET")]
    pub apart_from: Option<PathBuf>,
}

/// `ply train gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// The game file: created, or resumed when it holds the first games already.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games in the whole set (all shards together).
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Seed of the set: game k plays from a seed made of this and k alone.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only shard I of N (I from 0): the games k with k mod N = I.
    #[arg(long, value_name = "I/N", default_value = "0/1")]
    pub shard: Shard,
    /// Board size: 8 or 6.
    #[arg(long, default_value = "8")]
    pub size: BoardSize,
    /// Depth of the midgame engine [default: 6].
    #[arg(long, value_name = "D")]
    pub depth: Option<u8>,
    /// Random opening moves, A-B (each game draws its number) or one number [default: 6-20
    /// on 8x8, 4-10 on 6x6].
    #[arg(long, value_name = "A-B", value_parser = parse_random_moves)]
    pub random_moves: Option<(u8, u8)>,
    /// Perfect play (the exact solver) from this many empty squares on [default: 20 on 8x8,
    /// 14 on 6x6].
    #[arg(long, value_name = "E")]
    pub exact_empties: Option<u8>,
    /// Seconds between progress lines on stderr.
    #[arg(long, value_name = "S", default_value_t = 60)]
    pub progress_secs: u64,
}

/// `ply train merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The files of every shard of one set (`gen --shard I/N`), in any order.
    #[arg(required = true, value_name = "SHARDS")]
    pub shards: Vec<PathBuf>,
    /// The merged file (written under a temporary name, renamed when whole).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Merge unfinished shards as far as every shard holds its games.
    #[arg(long)]
    pub partial: bool,
}

/// `ply train info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// A game file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::Gen(a) => gen(&a),
        Command::Merge(a) => merge(&a),
        Command::Info(a) => info(&a),
        Command::Fit(a) => fit(&a),
        Command::Testset(a) => testset(&a),
        Command::Export(a) => arrays::export(&a),
        Command::Pack(a) => arrays::pack(&a),
        Command::Label(a) => arrays::label(&a),
        Command::Duel(a) => duel(&a),
        Command::Net(a) => net::run(&a),
    }
}

/// A setting the library refuses, named by its option (`--holdout 1: expected …`; the
/// option is the setting's name).
fn flag_error(e: DataError) -> anyhow::Error {
    match e {
        DataError::Params { field, message } => bad(format!("--{field} {message}")),
        other => data_error(other),
    }
}

/// A library error as the CLI reports it: bad input (status 2) or not (status 1).
fn data_error(e: DataError) -> anyhow::Error {
    if e.is_bad_input() {
        bad(e.to_string())
    } else {
        anyhow::Error::new(e)
    }
}

fn gen(a: &GenArgs) -> anyhow::Result<()> {
    let d = Params::default_for(a.size);
    let (random_min, random_max) = a.random_moves.unwrap_or((d.random_min, d.random_max));
    let params = Params {
        size: a.size,
        seed: a.seed,
        games: a.games,
        depth: a.depth.unwrap_or(d.depth),
        random_min,
        random_max,
        exact_empties: a.exact_empties.unwrap_or(d.exact_empties),
    };
    params.check().map_err(|e| match e {
        DataError::Params { field, message } => bad(format!("{}: {message}", option_of(field))),
        other => data_error(other),
    })?;
    let header = Header::new(params, a.shard);
    let name = a.out.display().to_string();
    let every = Duration::from_secs(a.progress_secs.max(1));
    let mut notes = summary::ProgressNotes::new(&name, every);
    let report = datagen::generate(&a.out, &header, &mut |p| {
        for line in notes.lines(p) {
            eprintln!("{line}");
        }
        ControlFlow::Continue(())
    })
    .map_err(data_error)?;
    eprintln!(
        "{}",
        summary::generated(&name, a.shard, header.shard_games(), &report)
    );
    Ok(())
}

/// The option of `ply train gen` that sets a parameter.
fn option_of(field: &str) -> &str {
    match field {
        "board size" => "--size",
        "depth" => "--depth",
        "random moves" => "--random-moves",
        "exact empties" => "--exact-empties",
        "games" => "--games",
        other => other,
    }
}

fn testset(a: &TestsetArgs) -> anyhow::Result<()> {
    use ply_train::testset::{self, GrowError, Recipe};
    let recipe = Recipe {
        play_depth: a.play_depth,
        exact_empties: a.exact_empties,
        label_depth: a.label_depth,
        ..Recipe::default()
    };
    for (flag, value) in [
        ("--label-depth", a.label_depth),
        ("--play-depth", a.play_depth),
    ] {
        if !(1..=30).contains(&value) {
            return Err(bad(format!("{flag} {value}: expected 1 to 30")));
        }
    }
    // Exact positions are kept from `exact_empties` down to `fewest_empties`: fewer would
    // keep none. More than 30 is refused as out of the solver's reach in a set of games.
    let fewest = recipe.fewest_empties;
    if !(fewest..=30).contains(&a.exact_empties) {
        return Err(bad(format!(
            "--exact-empties {}: expected {fewest} to 30 (exact positions are kept down to \
             {fewest} empties)",
            a.exact_empties
        )));
    }
    let xot = crate::othello::common::data_dir(a.data.as_deref())?.join("xot-openings.txt");
    let openings = std::fs::read_to_string(&xot)
        .map_err(|e| anyhow::anyhow!("reading {}: {e}", xot.display()))?;
    let xot_name = xot.display().to_string();
    testset::grow(
        &a.out,
        a.games,
        a.first_opening,
        (&xot_name, &openings),
        &recipe,
        &mut |note| eprintln!("{note}"),
    )
    .map_err(|e| match e {
        GrowError::BadInput(m) => bad(m),
        GrowError::Failed(m) => anyhow::Error::msg(m),
    })
}

fn merge(a: &MergeArgs) -> anyhow::Result<()> {
    let plan = datagen::merge(&a.shards, a.partial).map_err(data_error)?;
    let name = a.out.display().to_string();
    let m = write_with(&a.out, &paths(&a.shards), |w| {
        plan.write_to(w, &name).map_err(data_error)
    })?;
    println!("{}", summary::merged(&name, &m.counts, a.shards.len()));
    if m.left_out > 0 {
        eprintln!(
            "{}: {} later games of the set left out (unfinished shards)",
            a.out.display(),
            m.left_out
        );
    }
    Ok(())
}

fn info(a: &InfoArgs) -> anyhow::Result<()> {
    let (h, c) = datagen::info(&a.file).map_err(data_error)?;
    let file = a.file.display().to_string();
    if a.json {
        println!("{}", summary::info_json(&file, &h, &c));
    } else {
        print!("{}", summary::info_text(&file, &h, &c));
    }
    Ok(())
}

/// The positions of game files, one game in `holdout` kept aside, leaving out the games that
/// share an opening with the test set `apart_from` when given; how many is said on stderr.
pub(super) fn read_data(
    files: &[PathBuf],
    holdout: u64,
    apart_from: Option<&std::path::Path>,
) -> anyhow::Result<learn::Data> {
    // Its message only: the file and what the system said, once.
    let readers = learn::Data::open_files(files).map_err(|e| anyhow::anyhow!("{e}"))?;
    let apart = match apart_from {
        Some(set) => {
            let read = |p: &std::path::Path| {
                std::fs::read_to_string(p)
                    .map_err(|e| bad(format!("--apart-from: {}: {e}", p.display())))
            };
            let xot = set.with_file_name("xot-openings.txt");
            ply_train::testset::openings(&read(set)?, &read(&xot)?)
                .map_err(|e| bad(format!("--apart-from {}: {e}", set.display())))?
        }
        None => Vec::new(),
    };
    let started = Instant::now();
    let data = learn::Data::read_apart(readers, holdout, &apart).map_err(data_error)?;
    eprintln!(
        "{}",
        summary::data_read(&data, apart_from.is_some(), started.elapsed())
    );
    Ok(data)
}

fn fit(a: &FitArgs) -> anyhow::Result<()> {
    let settings = learn::Settings {
        ridge: a.ridge,
        iterations: a.iterations,
        window: a.window,
    };
    learn::check_holdout(a.holdout)
        .and_then(|()| settings.check())
        .map_err(flag_error)?;
    let started = Instant::now();
    let data = read_data(&a.files, a.holdout, a.apart_from.as_deref())?;
    let size = data.size;
    if size == BoardSize::Four {
        return Err(bad("4x4 has no evaluation to fit (it is solved at once)"));
    }
    // The raw weights: the fit knows nothing of the side to move's handicap.
    let compare = crate::othello::common::raw_weights(a.compare.as_deref(), size)?;
    let eval = learn::fit(&data, &settings, |line| {
        eprintln!("{line} ({:.0} s)", started.elapsed().as_secs_f64());
    });
    let new = learn::held_out_errors(&eval, &data);
    let old = learn::held_out_errors(&compare, &data);
    print!(
        "{}",
        summary::held_out_table(&new, &old, a.compare.is_some())
    );
    if let Some(out) = &a.out {
        let mut inputs = paths(&a.files);
        inputs.extend(a.compare.as_deref());
        inputs.extend(a.apart_from.as_deref());
        write_whole(out, &inputs, &ply_othello::eval::weights::write(&eval))?;
        eprintln!(
            "{}: {n}x{n} weights, {} bytes ({:.0} s in all)",
            out.display(),
            std::fs::metadata(out).map(|m| m.len()).unwrap_or(0),
            started.elapsed().as_secs_f64(),
            n = size.n()
        );
    }
    Ok(())
}

fn duel(a: &DuelArgs) -> anyhow::Result<()> {
    if !(1..=10).contains(&a.depth) {
        return Err(bad(format!("--depth {}: expected 1 to 10", a.depth)));
    }
    crate::othello::common::check_threads(a.threads)?;
    let weights = |name: &std::path::Path| {
        let shipped = name.as_os_str() == "shipped";
        crate::othello::common::raw_weights((!shipped).then_some(name), BoardSize::Eight)
    };
    let first = weights(&a.first)?;
    let second = weights(std::path::Path::new(&a.second))?;
    let xot = crate::othello::common::data_dir(a.data.as_deref())?.join("xot-openings.txt");
    let text = std::fs::read_to_string(&xot).map_err(|e| bad(format!("{}: {e}", xot.display())))?;
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    if a.openings == 0 || a.openings > lines {
        return Err(bad(format!(
            "--openings {}: expected 1 to {lines} (the lines of {})",
            a.openings,
            xot.display()
        )));
    }
    let openings = ply_train::duel::openings(&text, a.openings)
        .map_err(|e| bad(format!("{} {e}", xot.display())))?;
    let started = Instant::now();
    let games = ply_train::duel::play(&first, &second, &openings, a.depth, a.threads);
    println!(
        "{}",
        summary::duel_line(
            &a.first.display().to_string(),
            &a.second,
            &games,
            a.depth,
            started.elapsed()
        )
    );
    Ok(())
}
