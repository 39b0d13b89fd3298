//! What several `ply othello` commands (and `nboard`, `bench`) read the same way: a board
//! size, a position or transcript, `--threads` and `--hash-mb`, an input file or stdin.
//!
//! These live here, apart from every command, so that no command module imports another:
//! each imports this module and the libraries only.

use std::{
    fs,
    io::{self, IsTerminal, Read},
    path::Path,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    thread::JoinHandle,
    time::{Duration, Instant},
};

use anyhow::Context;
use ply_othello::{
    input,
    solve::{SolveOptions, Solver},
    BoardSize, GameRecord,
};

use crate::error::bad;

/// `4`, `6` or `8` (also `8x8`).
pub fn parse_size(s: &str) -> Result<BoardSize, String> {
    let n = s
        .split_once('x')
        .map_or(s, |(a, b)| if a == b { a } else { "" });
    n.parse::<u8>()
        .ok()
        .and_then(BoardSize::from_n)
        .ok_or_else(|| format!("`{s}` is not a board size: use 4, 6 or 8"))
}

/// Reads a position (cells and side to move, or a whole OBF line), or a transcript played
/// from the start, with the library's reader ([`input::parse_position_or_transcript`], which
/// the server uses too), and checks it against `--size`.
///
/// # Errors
/// Bad input naming `what` (the argument) and the reason.
pub fn read_position_or_transcript(
    text: &str,
    size: Option<BoardSize>,
    what: &str,
) -> anyhow::Result<GameRecord> {
    let game = input::parse_position_or_transcript(text, size.unwrap_or(BoardSize::Eight))
        .map_err(|e| bad(format!("{what}: {e}")))?;
    let pos = game.position();
    pos.check_centre()
        .map_err(|e| bad(format!("{what}: {e}")))?;
    if let Some(size) = size {
        if size != pos.size() {
            return Err(bad(format!(
                "{what}: the position is {n}x{n} but --size says {m}x{m}",
                n = pos.size().n(),
                m = size.n()
            )));
        }
    }
    Ok(game)
}

/// `--threads` and `--hash-mb` as solver options, or a usage error naming the one out of
/// range.
fn options(threads: usize, hash_mb: usize) -> anyhow::Result<SolveOptions> {
    SolveOptions { threads, hash_mb }
        .checked()
        .map_err(|e| bad(format!("--{e}")))
}

/// `--threads` of a command that makes its solver with the default table (analysis, NBoard),
/// or a usage error when it is out of range.
pub fn check_threads(threads: usize) -> anyhow::Result<()> {
    options(threads, SolveOptions::default().hash_mb).map(drop)
}

/// A solver with `--threads` and `--hash-mb`, or a usage error naming the option out of
/// range or the table the machine cannot give.
pub fn solver(threads: usize, hash_mb: usize) -> anyhow::Result<Solver> {
    let options = options(threads, hash_mb)?;
    Solver::try_new(options).map_err(|e| bad(format!("--hash-mb {hash_mb}: {e}")))
}

/// `-` as a file name: stdin or stdout.
pub fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads an input file, or stdin for `-`. A missing file is bad input (a retry cannot make
/// it appear); any other failure to read is not.
pub fn read_input(path: &Path) -> anyhow::Result<String> {
    let name = input_name(path);
    let read = if is_dash(path) {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text).map(|_| text)
    } else {
        fs::read_to_string(path)
    };
    match read {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(bad(format!("{name}: no such file"))),
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            Err(bad(format!("{name}: not UTF-8 text")))
        }
        r => r.with_context(|| format!("reading {name}")),
    }
}

/// Writes `bytes` to a temporary file beside `path` and renames it over `path`, so that a
/// reader never sees half a file.
pub fn write_whole(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("renaming onto {}", path.display()))
}

/// The name of an input in messages.
pub fn input_name(path: &Path) -> String {
    if is_dash(path) {
        String::from("stdin")
    } else {
        path.display().to_string()
    }
}

/// `count` and the noun, singular for one: `1 position`, `5 positions`.
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// A line on stderr that a long command redraws four times a second, from the first second
/// on, while stderr is a terminal; erased when it is dropped. `render` gets the time since
/// the start and says what the line shows.
pub struct StatusLine {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl StatusLine {
    /// Starts the line (nothing is drawn when stderr is not a terminal).
    pub fn start(render: impl Fn(Duration) -> String + Send + 'static) -> StatusLine {
        let done = Arc::new(AtomicBool::new(false));
        let thread = io::stderr().is_terminal().then(|| {
            let done = done.clone();
            let started = Instant::now();
            std::thread::spawn(move || {
                let mut drawn = false;
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(250));
                    let elapsed = started.elapsed();
                    if elapsed >= Duration::from_secs(1) && !done.load(Ordering::Relaxed) {
                        eprint!("\r\x1b[K{}", render(elapsed));
                        drawn = true;
                    }
                }
                if drawn {
                    eprint!("\r\x1b[K");
                }
            })
        });
        StatusLine { done, thread }
    }
}

impl Drop for StatusLine {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl std::fmt::Debug for StatusLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StatusLine")
            .field("drawing", &self.thread.is_some())
            .finish()
    }
}
