//! Writing game files: generating a shard (resumable), merging shards, reading a file's
//! counts.
//!
//! [`generate`] appends one whole record per game and flushes it, so a killed run leaves at
//! most one torn record at the end. Run again with the same arguments, it checks that the
//! file's header is the one asked for (field by field), cuts a torn last record, and goes on
//! with the next game: the file ends byte for byte as an uninterrupted run's. [`merge`] puts
//! the shards' games back in game order under the header of a one-shard run, so the merged
//! file is byte for byte what one process playing every game would have written.
//!
//! ```
//! use std::ops::ControlFlow;
//! use ply_othello::BoardSize;
//! use ply_train::{datagen, games::{Header, Shard}, recipe::Params};
//!
//! let dir = std::env::temp_dir().join(format!("ply-datagen-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let params = Params { games: 3, ..Params::default_for(BoardSize::Six) };
//! let file = dir.join("games.bin");
//! let r = datagen::generate(&file, &Header::new(params, Shard::WHOLE), &mut |_| {
//!     ControlFlow::Continue(())
//! })
//! .unwrap();
//! assert!(r.complete && r.counts.games == 3);
//! let (header, counts) = datagen::info(&file).unwrap();
//! assert_eq!((header.params, counts), (params, r.counts));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::{
    fs::{File, OpenOptions},
    io::{BufReader, Read, Seek, SeekFrom, Write},
    ops::ControlFlow,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use crate::{
    error::{DataError, Place},
    games::{Counts, GameReader, Header, Shard, HEADER_LEN},
    selfplay,
};

/// How far a [`generate`] run has come, after each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The shard being played.
    pub shard: Shard,
    /// Games, positions and bytes in the file now.
    pub counts: Counts,
    /// Games of the shard in all.
    pub shard_games: u64,
    /// Games played by this run (the others were in the file already).
    pub this_run: u64,
    /// Positions of the games played by this run.
    pub this_run_positions: u64,
    /// Time since this run began.
    pub elapsed: Duration,
    /// Games found in the file when this run began.
    pub resumed: u64,
    /// Bytes of a torn last record cut off when this run began.
    pub cut: Option<u64>,
}

/// What a [`generate`] run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// Games, positions and bytes in the file at the end.
    pub counts: Counts,
    /// Games found in the file at the start.
    pub resumed: u64,
    /// Bytes of a torn last record cut off at the start.
    pub cut: Option<u64>,
    /// Whether the file holds every game of its shard.
    pub complete: bool,
}

/// Plays the games of `header`'s shard into the file at `path`, creating it, or resuming it
/// when it holds the first games already. `progress` is called after each game; it stops the
/// run (the file stays whole) by returning `Break`.
///
/// # Errors
/// When the file cannot be read or written; when it is not a game file, or its header
/// differs from `header` ([`DataError::Mismatch`] names the field), or a record before the
/// last is corrupt; when the parameters are bad; when the engine fails.
pub fn generate(
    path: &Path,
    header: &Header,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> Result<Report, DataError> {
    let params = header.params;
    params.check()?;
    let name = path.display().to_string();
    let io = |e| DataError::io(&name, e);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    let mut existing = Vec::new();
    (&file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut existing)
        .map_err(io)?;
    let ours = header.to_bytes();
    let mut counts = Counts::empty_file();
    let mut cut = None;
    if existing.len() < HEADER_LEN && ours.starts_with(&existing) {
        // A new file, or one killed while its header was written.
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&ours)
            .and_then(|()| file.flush())
            .map_err(io)?;
    } else {
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut reader = GameReader::new(BufReader::new(&file), name.clone())?;
        if let Some((field, found, wanted)) = reader.header().difference(header) {
            return Err(DataError::Mismatch {
                file: name,
                field,
                found,
                wanted,
            });
        }
        loop {
            match reader.next_game() {
                Ok(Some(g)) => counts.add(&g, &params),
                Ok(None) => break,
                Err(DataError::Truncated {
                    at: Place::Record { offset, .. },
                    ..
                }) => {
                    cut = Some(len - offset);
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        drop(reader);
        if cut.is_some() {
            file.set_len(counts.bytes).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
    }
    let resumed = counts.games;
    let shard_games = header.shard_games();
    let started = Instant::now();
    let (mut this_run, mut this_run_positions) = (0, 0);
    let mut record = Vec::with_capacity(128);
    while counts.games < shard_games {
        let game = selfplay::play(&params, header.shard.nth(counts.games))?;
        record.clear();
        game.encode(&mut record);
        // One write of the whole record, then a flush: a kill tears at most this record.
        file.write_all(&record)
            .and_then(|()| file.flush())
            .map_err(io)?;
        counts.add(&game, &params);
        this_run += 1;
        this_run_positions += game.moves.len() as u64;
        let p = Progress {
            shard: header.shard,
            counts,
            shard_games,
            this_run,
            this_run_positions,
            elapsed: started.elapsed(),
            resumed,
            cut,
        };
        if progress(&p).is_break() {
            break;
        }
    }
    file.sync_data().map_err(io)?;
    Ok(Report {
        counts,
        resumed,
        cut,
        complete: counts.games == shard_games,
    })
}

/// Opens a game file for reading.
///
/// # Errors
/// When the file cannot be opened or read, or its header is wrong.
pub fn open(path: &Path) -> Result<GameReader<BufReader<File>>, DataError> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| DataError::io(&name, e))?;
    GameReader::new(BufReader::new(file), name)
}

/// The header of a game file and its games, positions and bytes, every record checked.
///
/// # Errors
/// As [`GameReader::next_game`]: a truncated, foreign or corrupt file is refused.
pub fn info(path: &Path) -> Result<(Header, Counts), DataError> {
    let reader = open(path)?;
    let header = *reader.header();
    Ok((header, reader.count_all()?))
}

/// What [`merge`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The merged file's header (one shard; `games`: the games merged).
    pub header: Header,
    /// Its games, positions and bytes.
    pub counts: Counts,
    /// Games of the set left out because a shard does not hold them yet (`partial` only).
    pub left_out: u64,
}

/// A merge of the files of every shard of one set, checked and ready to write
/// ([`Merge::write_to`]).
#[derive(Debug)]
pub struct Merge<'a> {
    header: Header,
    /// The shards' files, in shard order.
    shards: Vec<&'a PathBuf>,
    /// Games every shard holds (all of them unless `partial`).
    held: u64,
    /// Games of the set left out.
    left_out: u64,
}

/// Checks the files of every shard of one set, to be merged in game order under the header
/// of a one-shard run: the same bytes as one process playing those games. With `partial`,
/// shards not yet finished are merged as far as every shard holds its games (the merged
/// set's `games` is then that number); without, an unfinished shard is an error. Nothing is
/// written: the caller gives [`Merge::write_to`] the file (the CLI writes it under a
/// temporary name, renamed when whole).
///
/// # Errors
/// When a file cannot be read or is bad; when the files are not the shards of one set
/// (another parameter, a shard missing or given twice); when a shard is unfinished and not
/// `partial`, or no game is held by all.
pub fn merge(inputs: &[PathBuf], partial: bool) -> Result<Merge<'_>, DataError> {
    // First pass: every file read and checked whole, before anything is written.
    let mut shards: Vec<(Header, Counts, &PathBuf)> = Vec::with_capacity(inputs.len());
    for path in inputs {
        let (header, counts) = info(path)?;
        shards.push((header, counts, path));
    }
    let Some(&(first, _, first_path)) = shards.first() else {
        return Err(DataError::Params {
            field: "shard",
            message: "no file to merge".into(),
        });
    };
    let n = first.shard.count;
    for &(h, _, path) in &shards {
        let wanted = Header {
            shard: Shard {
                index: h.shard.index,
                count: n,
            },
            ..first
        };
        if let Some((field, found, wanted)) = h.difference(&wanted) {
            return Err(DataError::Mismatch {
                file: path.display().to_string(),
                field,
                found,
                wanted: format!("{wanted} as in {}", first_path.display()),
            });
        }
    }
    shards.sort_by_key(|s| s.0.shard.index);
    for w in shards.windows(2) {
        if w[0].0.shard == w[1].0.shard {
            return Err(DataError::Params {
                field: "shard",
                message: format!(
                    "{} and {} both hold shard {}",
                    w[0].2.display(),
                    w[1].2.display(),
                    w[0].0.shard
                ),
            });
        }
    }
    if let Some(missing) =
        (0..n).find(|&i| shards.get(i as usize).is_none_or(|s| s.0.shard.index != i))
    {
        return Err(DataError::Params {
            field: "shard",
            message: format!("no file given holds shard {missing}/{n}"),
        });
    }
    let games = first.params.games;
    // The first game some shard lacks: every game before it is held.
    let held = shards
        .iter()
        .map(|(h, c, _)| h.shard.nth(c.games).min(games))
        .min()
        .unwrap_or(games);
    if held < games && !partial {
        let (h, c, path) = shards
            .iter()
            .find(|(h, c, _)| h.shard.nth(c.games) == held)
            .expect("the shard that lacks the first missing game");
        return Err(DataError::Params {
            field: "games",
            message: format!(
                "{} (shard {}) holds {} of its {} games: it is unfinished (resume it, or merge \
                 --partial for the first {held} games, which every shard holds)",
                path.display(),
                h.shard,
                c.games,
                h.shard_games()
            ),
        });
    }
    if held == 0 {
        return Err(DataError::Params {
            field: "games",
            message: format!(
                "shard {} holds no game yet: there is nothing to merge",
                shards[0].0.shard
            ),
        });
    }
    let header = Header {
        params: crate::recipe::Params {
            games: held,
            ..first.params
        },
        shard: Shard::WHOLE,
        engine: first.engine,
    };
    Ok(Merge {
        header,
        shards: shards.iter().map(|s| s.2).collect(),
        held,
        left_out: games - held,
    })
}

impl Merge<'_> {
    /// Writes the merged file to `out` (named `name` in errors): the header, then the games
    /// in order, read again from the shards' files.
    ///
    /// # Errors
    /// When a shard's file cannot be read again or changed since [`merge`] read it; when `out`
    /// cannot be written.
    pub fn write_to(&self, out: &mut impl Write, name: &str) -> Result<Merged, DataError> {
        let out_io = |e| DataError::io(name, e);
        let n = self.shards.len() as u64;
        let mut readers = self
            .shards
            .iter()
            .map(|p| open(p))
            .collect::<Result<Vec<_>, _>>()?;
        let mut counts = Counts::empty_file();
        let mut record = Vec::with_capacity(128);
        out.write_all(&self.header.to_bytes()).map_err(out_io)?;
        for k in 0..self.held {
            let r = &mut readers[(k % n) as usize];
            let game = r.next_game()?.ok_or_else(|| DataError::Params {
                field: "games",
                message: format!("game {k} vanished from its shard's file while merging"),
            })?;
            record.clear();
            game.encode(&mut record);
            out.write_all(&record).map_err(out_io)?;
            counts.add(&game, &self.header.params);
        }
        out.flush().map_err(out_io)?;
        Ok(Merged {
            header: self.header,
            counts,
            left_out: self.left_out,
        })
    }
}
