//! `ply othello games`: list the games of WTHOR databases (with names, filters, JSON or
//! GGF), make a database from ply's own games (`games make`), and build the explorer's index
//! (`games index`). The format and the replay live in `ply_othello::wthor`.

use std::{
    io::{self, Write},
    path::{Path, PathBuf},
    time::{Instant, SystemTime, UNIX_EPOCH},
};

use clap::{Args as ClapArgs, Subcommand};
use ply_othello::{
    explore,
    solve::{SolveOptions, Solver},
    wthor::{
        self, Database, Date, Header, ListFormat, ListOptions, ListedFile, NameKind, Names,
        NamesOf, Played,
    },
    BoardSize,
};

use ply_cli_support::files::{read_bytes, refuse_inputs, write_whole};

use crate::{
    error::bad,
    othello::{
        common::{read_input, read_position_or_transcript},
        databases::{
            default_index_path, load_index, read_databases, read_names, wthor_error, Loaded,
        },
    },
};

/// `ply othello games`.
#[derive(ClapArgs, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub list: ListArgs,
}

/// `ply othello games make|index`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Write a WTHOR game file (and, optionally, its names files) from ply's games: a
    /// self-play file of `ply train gen`, or a text file of transcripts or GGF records,
    /// one game a line, each played to its end.
    Make(MakeArgs),
    /// Build the explorer's index of these databases (or say it is up to date), and print
    /// its size and how long it took.
    Index(IndexArgs),
}

/// Listing the games.
#[derive(ClapArgs, Debug)]
pub struct ListArgs {
    /// WTHOR game files (`.wtb`); with several, a line `# FILE` comes before each one's
    /// games (numbered from 1 in each file).
    #[arg(value_name = "FILE.wtb", required = true)]
    pub files: Vec<PathBuf>,
    /// The players' names (`WTHOR.JOU`); without it, players are shown by number.
    #[arg(long, value_name = "WTHOR.JOU")]
    pub players: Option<PathBuf>,
    /// The tournaments' names (`WTHOR.TRN`).
    #[arg(long, value_name = "WTHOR.TRN")]
    pub tournaments: Option<PathBuf>,
    /// Only games this player played, either colour (a part of the name, any case; needs
    /// --players).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Only games of this year (the header's game year).
    #[arg(long, value_name = "Y")]
    pub year: Option<u16>,
    /// Only games that reach this position (or one of its mirror images), given as cells
    /// and side to move or as a transcript from the start.
    #[arg(long, value_name = "POS", allow_hyphen_values = true)]
    pub reached: Option<String>,
    /// One JSON object a game.
    #[arg(long, conflicts_with = "ggf")]
    pub json: bool,
    /// One GGF record a game.
    #[arg(long)]
    pub ggf: bool,
}

/// `ply othello games make`.
#[derive(ClapArgs, Debug)]
pub struct MakeArgs {
    /// The game file to write (under a temporary name, renamed when whole).
    #[arg(value_name = "OUT.wtb")]
    pub out: PathBuf,
    /// The games: a `ply train gen` file, or text with a transcript or GGF record a line
    /// (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The year the games are filed under (default: this year).
    #[arg(long, value_name = "Y")]
    pub year: Option<u16>,
    /// Theoretical scores by perfect play from this many empties (the exact solver); by
    /// default the self-play file's perfect-play depth, or 14 for text.
    #[arg(long, value_name = "E")]
    pub depth: Option<u8>,
    /// The tournament's name, in the names file.
    #[arg(long, value_name = "NAME", default_value = "ply")]
    pub tournament: String,
    /// Also write the players' names (GGF's PB and PW, `ply` otherwise).
    #[arg(long, value_name = "OUT.JOU")]
    pub players: Option<PathBuf>,
    /// Also write the tournament's name.
    #[arg(long, value_name = "OUT.TRN")]
    pub tournaments: Option<PathBuf>,
}

/// `ply othello games index`.
#[derive(ClapArgs, Debug)]
pub struct IndexArgs {
    /// WTHOR game files (`.wtb`).
    #[arg(value_name = "FILE.wtb", required = true)]
    pub files: Vec<PathBuf>,
    /// Where the index is kept (default: beside the first file, `FILE.wtb.plyidx`).
    #[arg(long, value_name = "PATH")]
    pub index: Option<PathBuf>,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    match a.command {
        Some(Command::Make(m)) => make(&m),
        Some(Command::Index(i)) => index(&i),
        None => list(&a.list),
    }
}

fn list(a: &ListArgs) -> anyhow::Result<()> {
    let players = a
        .players
        .as_deref()
        .map(|p| read_names(p, NameKind::Players))
        .transpose()?;
    let tournaments = a
        .tournaments
        .as_deref()
        .map(|p| read_names(p, NameKind::Tournaments))
        .transpose()?;
    if a.player.is_some() && players.is_none() {
        return Err(bad("--player needs the names: add --players WTHOR.JOU"));
    }
    let reached = a
        .reached
        .as_deref()
        .map(|r| {
            let pos = read_position_or_transcript(r, None, "--reached")?.position();
            if pos.size() != BoardSize::Eight {
                return Err(bad("--reached: WTHOR games are 8x8; the position is not"));
            }
            Ok(pos)
        })
        .transpose()?;
    // Every file is read and every game replayed before a line is printed, whatever the
    // filters: a damaged or missing file is refused with nothing half-written on stdout.
    let mut files = Vec::with_capacity(a.files.len());
    for path in &a.files {
        let bytes = read_bytes(path)?;
        let (header, games) = wthor::games(&bytes).map_err(|e| wthor_error(path, &e))?;
        let games = games
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| wthor_error(path, &e))?;
        files.push(ListedFile {
            name: path.display().to_string(),
            header,
            games,
        });
    }
    let players_file = a.players.as_ref().map(|p| p.display().to_string());
    let tournaments_file = a.tournaments.as_ref().map(|p| p.display().to_string());
    let reaches =
        |game: &ply_othello::GameRecord| reached.is_none_or(|pos| explore::reaches(game, &pos));
    let options = ListOptions {
        players: players
            .as_deref()
            .zip(players_file.as_deref())
            .map(|(names, file)| NamesOf { names, file }),
        tournaments: tournaments
            .as_deref()
            .zip(tournaments_file.as_deref())
            .map(|(names, file)| NamesOf { names, file }),
        year: a.year,
        player: a.player.as_deref(),
        keep: Some(&reaches),
        format: if a.json {
            ListFormat::Json
        } else if a.ggf {
            ListFormat::Ggf
        } else {
            ListFormat::Table
        },
    };
    // The listing is made whole before it is printed: a game whose player or tournament
    // the names files lack is refused with nothing on stdout.
    let listing = wthor::list(&files, &options).map_err(bad)?;
    let mut stdout = io::stdout().lock();
    stdout.write_all(listing.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// Today's date (UTC) from the system clock.
fn today() -> Date {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Date::from_days(secs / 86_400)
}

/// Reads `--from`: a `ply train gen` file, or text with a game a line
/// ([`wthor::parse_played`]).
fn read_sources(path: &Path) -> anyhow::Result<(Vec<Played>, Option<u8>)> {
    let shown = path.display().to_string();
    if !crate::othello::common::is_dash(path) {
        let bytes = read_bytes(path)?;
        if bytes.starts_with(&ply_train::games::MAGIC) {
            let mut reader = ply_train::games::GameReader::new(&bytes[..], shown.clone())
                .map_err(|e| bad(e.to_string()))?;
            let params = reader.header().params;
            if params.size != BoardSize::Eight {
                return Err(bad(format!(
                    "{shown}: its games are {n}x{n}; WTHOR files hold 8x8 games",
                    n = params.size.n()
                )));
            }
            let mut out = Vec::new();
            while let Some(g) = reader.next_game().map_err(|e| bad(e.to_string()))? {
                let game = g
                    .record(BoardSize::Eight)
                    .map_err(|e| bad(format!("{shown}: game {}: {e}", g.index)))?;
                out.push(Played {
                    game,
                    black: "ply".into(),
                    white: "ply".into(),
                });
            }
            return Ok((out, Some(params.exact_empties)));
        }
    }
    let text = read_input(path)?;
    let games = wthor::parse_played(&text).map_err(|e| bad(format!("{shown}: {e}")))?;
    Ok((games, None))
}

fn make(a: &MakeArgs) -> anyhow::Result<()> {
    // The files to write: none of them the input, nor two of them one file.
    let outputs: Vec<&Path> = [Some(&a.out), a.players.as_ref(), a.tournaments.as_ref()]
        .into_iter()
        .flatten()
        .map(PathBuf::as_path)
        .collect();
    for (k, out) in outputs.iter().enumerate() {
        refuse_inputs(out, &[&a.from])?;
        if outputs[..k].iter().any(|o| o == out) {
            return Err(bad(format!(
                "{}: given as two of the files to write",
                out.display()
            )));
        }
    }
    let (sources, perfect_from) = read_sources(&a.from)?;
    let depth = a.depth.or(perfect_from).unwrap_or(14);
    if depth == 0 || depth > 60 {
        return Err(bad(format!("--depth {depth}: expected 1 to 60 empties")));
    }
    let created = today();
    let year = a.year.unwrap_or(created.year);
    let mut solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 16,
    });
    let started = Instant::now();
    let made = Database::make(
        Header::games(year, created, depth),
        sources,
        perfect_from,
        &mut |pos| solver.solve(pos).score.0,
    )
    .map_err(bad)?;
    let bytes = made
        .database
        .to_bytes()
        .map_err(|e| bad(format!("{}: {e}", a.out.display())))?;
    write_whole(&a.out, &[&a.from], &bytes)?;
    for (path, kind, names) in [
        (&a.players, NameKind::Players, made.players.clone()),
        (
            &a.tournaments,
            NameKind::Tournaments,
            vec![a.tournament.clone()],
        ),
    ] {
        if let Some(path) = path {
            let file = Names {
                header: Header::names(created),
                kind,
                names,
            };
            let b = file
                .to_bytes()
                .map_err(|e| bad(format!("{}: {e}", path.display())))?;
            write_whole(path, &[&a.from, &a.out], &b)?;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let out = a.out.display().to_string();
    eprintln!("ply: {}", made.note(&out, bytes.len(), seconds));
    Ok(())
}

fn index(a: &IndexArgs) -> anyhow::Result<()> {
    let databases = read_databases(&a.files)?;
    let path = a
        .index
        .clone()
        .unwrap_or_else(|| default_index_path(&a.files));
    let (idx, loaded) = load_index(&a.files, &databases, &path)?;
    if let Loaded::Built {
        written: Some(e), ..
    } = &loaded
    {
        return Err(anyhow::anyhow!(
            "could not write the index to {}: {e:#}",
            path.display()
        ));
    }
    let seconds = match &loaded {
        Loaded::Read => None,
        Loaded::Built { took, .. } => Some(took.as_secs_f64()),
    };
    let shown = path.display().to_string();
    let mut out = io::stdout().lock();
    if a.json {
        writeln!(out, "{}", idx.summary_json(&shown, a.files.len(), seconds))?;
    } else {
        writeln!(out, "{}", idx.summary(&shown, a.files.len(), seconds))?;
    }
    out.flush()?;
    Ok(())
}
