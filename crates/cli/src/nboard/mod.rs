//! `ply nboard`: ply as an engine for Othello GUIs that speak the NBoard protocol. The
//! protocol lives in [`ply_engines::nboard`] (its parser, its session, its answers and the
//! loop); this file reads the flags into the session and runs the loop on stdin and stdout,
//! what the engine ignores logged on stderr.

use std::{io, sync::Arc};

use clap::Args as ClapArgs;
use ply_engines::nboard;
use ply_othello::play::Settings;

/// `ply nboard`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Threads for the search.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Answer from this book file instead of the shipped 8x8 one: ply's own or an Edax book
    /// (`.dat`).
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// Do not think on the opponent's time.
    #[arg(long)]
    pub no_ponder: bool,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    crate::othello::common::check_threads(a.threads)?;
    let book = match &a.book {
        Some(path) => Some(Arc::new(crate::othello::common::read_book(path)?)),
        None => None,
    };
    let session = nboard::session::Session::new(Settings {
        threads: a.threads,
        book_file: book,
        ponder: !a.no_ponder,
        ..Settings::default()
    })
    .map_err(crate::error::bad)?;
    nboard::serve(
        session,
        Box::new(io::BufReader::new(io::stdin())),
        Box::new(io::stdout()),
        Arc::new(|message: &str| eprintln!("ply nboard: {message}")),
    )?;
    Ok(())
}
