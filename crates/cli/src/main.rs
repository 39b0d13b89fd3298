//! `ply`: the command-line front end. Glue only: parse arguments, call the libraries, print.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod bench;
mod error;
mod gtp;
mod judge;
mod nboard;
mod othello;
mod serve;
mod train;
mod ttt;

/// Solve and play tic-tac-toe and Othello perfectly.
#[derive(Parser, Debug)]
#[command(name = "ply", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Tic-tac-toe: analyse, check, count, state-space figures.
    #[command(subcommand)]
    Ttt(ttt::Command),
    /// Othello: show, play, perft, solve, analyze, merge, book, games, explore, review.
    #[command(subcommand)]
    Othello(othello::Command),
    /// Classic judge problems, byte-exact, plus an input generator and a stress tester.
    Judge(judge::Args),
    /// Benchmarks that check their own answers.
    #[command(subcommand)]
    Bench(bench::Command),
    /// Engine for Othello GUIs: the NBoard protocol on stdin and stdout.
    Nboard(nboard::Args),
    /// Engine for GTP clients (Quarry): the Go Text Protocol, as Othello engines
    /// speak it, on stdin and stdout.
    Gtp(gtp::Args),
    /// Serve the web page and the JSON API.
    Serve(serve::Args),
    /// Training data for the evaluation: self-play games, sharded and resumable.
    #[command(subcommand)]
    Train(train::Command),
}

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let json = error::wants_json(std::env::args_os().skip(1));
    // `PLY_CPU` asks for a lower level of the fast paths (tests, comparisons): a value that
    // names no level, or one this processor lacks, is refused before anything runs.
    if let Err(message) = ply_othello::cpu::requested() {
        return error::report(&error::bad(message), json);
    }
    // `PLY_EVAL8`/`PLY_EVAL6` name weights to try in place of the shipped ones: a file that
    // does not load is refused here, not met in the middle of a search.
    for size in [ply_othello::BoardSize::Eight, ply_othello::BoardSize::Six] {
        if let Err(message) = ply_othello::eval::requested(size) {
            return error::report(&error::bad(message), json);
        }
    }
    let cli = match parse() {
        Ok(cli) => cli,
        Err(e) => return error::report_usage(&e, json),
    };
    let result = match cli.command {
        Command::Ttt(c) => ttt::run(c).map(|()| ExitCode::SUCCESS),
        Command::Othello(c) => othello::run(c).map(|()| ExitCode::SUCCESS),
        // `ply judge check` answers with its verdict's exit status.
        Command::Judge(a) => judge::run(a),
        Command::Bench(c) => bench::run(c).map(|()| ExitCode::SUCCESS),
        Command::Nboard(a) => nboard::run(&a).map(|()| ExitCode::SUCCESS),
        Command::Gtp(a) => gtp::run(&a).map(|()| ExitCode::SUCCESS),
        Command::Serve(a) => serve::run(a).map(|()| ExitCode::SUCCESS),
        Command::Train(c) => train::run(c).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(e) => error::report(&e, json),
    }
}

/// The command line, with the version naming the fast paths chosen for this processor:
/// `ply 0.1.0 (x86-64-v3 paths)`.
fn parse() -> Result<Cli, clap::Error> {
    let level = ply_othello::cpu::level().describe();
    // Made once per process; clap keeps `&'static str` without its `string` feature.
    let version: &'static str =
        Box::leak(format!("{} ({level} paths)", env!("CARGO_PKG_VERSION")).into_boxed_str());
    let matches = Cli::command().version(version).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// `println!` panics when stdout is closed early (`ply … | head`); that panic ends the
/// program quietly with status 0 instead, as a closed pipe ends it everywhere else
/// ([`ply_cli_support::error::is_broken_pipe`]). Every other panic is reported as before.
fn quiet_on_closed_stdout() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        report(info);
    }));
}
