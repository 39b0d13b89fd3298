//! `ply train export`, `pack` and `label`: the arrays a fit reads (positions, features,
//! labels of each set) written from game files, a fitted table packed into a weight file,
//! and the exported positions labelled again by searches.

use std::{path::PathBuf, time::Instant};

use clap::Args;
use ply_othello::BoardSize;

use super::{flag_error, paths, read_data};
use ply_cli_support::files::{write_whole, Temp};

use crate::error::bad;

/// `ply train label`.
#[derive(Args, Debug)]
pub struct LabelArgs {
    /// A directory `ply train export` wrote.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The weights the searches evaluate with (raw: no side-to-move handicap).
    #[arg(long, value_name = "FILE")]
    pub weights: PathBuf,
    /// Depth of the shallower search (the other is one ply deeper).
    #[arg(long, value_name = "D", default_value_t = 4)]
    pub depth: u32,
    /// Positions with at most this many empties keep their exported label.
    #[arg(long, value_name = "E", default_value_t = 20)]
    pub above: u32,
    /// Worker threads (the result does not depend on it).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
}

/// `ply train export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Game files (`gen` shards or merged sets) of one board size.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Directory to write into (created; its files are replaced whole).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Keep one game in N aside (flagged, for measuring).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub holdout: u64,
    /// Leave out every game that passes through an opening of this test set, and export
    /// the set's scored positions as the `test` set.
    #[arg(long, value_name = "TESTSET")]
    pub apart_from: Option<PathBuf>,
}

/// `ply train pack`.
#[derive(Args, Debug)]
pub struct PackArgs {
    /// The table: phases × weights per phase little-endian f32 values, in discs.
    #[arg(value_name = "TABLE")]
    pub table: PathBuf,
    /// Board size: 8 or 6.
    #[arg(long, default_value = "8")]
    pub size: BoardSize,
    /// The weight file to write (under a temporary name, renamed when whole).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

pub(super) fn export(a: &ExportArgs) -> anyhow::Result<()> {
    use ply_train::tables::{layout_json, set_files, Row, SetWriter};
    ply_train::learn::check_holdout(a.holdout).map_err(flag_error)?;
    let data = read_data(&a.files, a.holdout, a.apart_from.as_deref())?;
    if data.size == BoardSize::Four {
        return Err(bad("4x4 has no evaluation to train (it is solved at once)"));
    }
    std::fs::create_dir_all(&a.out).map_err(|e| anyhow::anyhow!("{}: {e}", a.out.display()))?;
    let mut inputs = paths(&a.files);
    inputs.extend(a.apart_from.as_deref());
    // Each set's files are written under temporary names and renamed once all are whole.
    let write_set = |set: &str, rows: &[Row]| -> anyhow::Result<u64> {
        let names = set_files(set);
        let mut temps = Vec::with_capacity(names.len());
        for name in &names {
            temps.push(Temp::create(&a.out.join(name), &inputs)?);
        }
        let [feat, label, empties, flags, pos] = &mut temps[..] else {
            unreachable!("a set has five files")
        };
        let files = [feat, label, empties, flags, pos].map(|t| t.writer());
        let mut w = SetWriter::new(data.size, files);
        w.write(rows)?;
        let n = w.finish()?;
        for t in temps {
            t.commit()?;
        }
        Ok(n)
    };
    let train = write_set("train", &Row::of_data(&data))?;
    let mut sets = vec![("train", train)];
    if let Some(set) = &a.apart_from {
        let scored = crate::othello::common::scored_file(set)?;
        sets.push(("test", write_set("test", &Row::of_scored(&scored))?));
    }
    write_whole(
        &a.out.join("layout.json"),
        &inputs,
        layout_json(data.size, &sets).as_bytes(),
    )?;
    let test = sets.get(1).map(|&(_, n)| n);
    let name = a.out.display().to_string();
    eprintln!(
        "{}",
        ply_train::summary::exported(&name, train, &data, test)
    );
    Ok(())
}

pub(super) fn pack(a: &PackArgs) -> anyhow::Result<()> {
    if a.size == BoardSize::Four {
        return Err(bad("--size 4: 4x4 has no evaluation"));
    }
    let bytes = std::fs::read(&a.table).map_err(|e| bad(format!("{}: {e}", a.table.display())))?;
    let eval = ply_train::tables::pack(a.size, &bytes)
        .map_err(|e| bad(format!("{}: {e}", a.table.display())))?;
    let out = ply_othello::eval::weights::write(&eval);
    write_whole(&a.out, &[&a.table], &out)?;
    eprintln!("{}: {} bytes", a.out.display(), out.len());
    Ok(())
}

pub(super) fn label(a: &LabelArgs) -> anyhow::Result<()> {
    if !(1..=12).contains(&a.depth) {
        return Err(bad(format!("--depth {}: expected 1 to 12", a.depth)));
    }
    crate::othello::common::check_threads(a.threads)?;
    let read = |name: &str| {
        let path = a.dir.join(name);
        std::fs::read(&path).map_err(|e| bad(format!("{}: {e}", path.display())))
    };
    let layout = a.dir.join("layout.json");
    let size = ply_train::tables::layout_size(&read("layout.json")?)
        .map_err(|e| bad(format!("{}: {e}", layout.display())))?;
    let eval = crate::othello::common::raw_weights(Some(&a.weights), size)?;
    let rows = ply_train::tables::read_rows(
        "train",
        &read("train.pos")?,
        &read("train.label")?,
        &read("train.empties")?,
        &read("train.flags")?,
    )
    .map_err(|e| bad(format!("{}: {e}", a.dir.display())))?;
    let n = rows.len();
    let todo = ply_train::tables::to_search(&rows, a.above);
    let started = Instant::now();
    eprintln!(
        "{} of {n} positions to search at depths {} and {}",
        todo.len(),
        a.depth,
        a.depth + 1
    );
    let progress = |k| eprintln!("{k} searched ({:.0} s)", started.elapsed().as_secs_f64());
    let bytes = ply_train::tables::relabel(&rows, &todo, &eval, size, a.depth, a.threads, progress);
    write_whole(&a.dir.join("train.search"), &[&a.weights], &bytes)?;
    eprintln!(
        "{}: {} labels searched in {:.0} s",
        a.dir.join("train.search").display(),
        todo.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
