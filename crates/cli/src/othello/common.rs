//! What several `ply othello` commands (and `nboard`, `gtp`, `bench`, `train`) read the same
//! way: a board size, a position or transcript, `--threads` and `--hash-mb`, an input file or
//! stdin, the directory of the test vectors, a file of scored positions;
//! and how hard the two engine protocols think at a given strength.
//!
//! These live here, apart from every command, so that no command module imports another:
//! each imports this module and the libraries only.

use std::{
    fs,
    io::{self, IsTerminal, Read},
    path::{Path, PathBuf},
    sync::mpsc,
    thread::JoinHandle,
    time::{Duration, Instant},
};

use anyhow::Context;
use ply_othello::{
    analyze::{Options, Request},
    book::Book,
    input,
    obf::{self, ObfEntry},
    solve::{SolveOptions, Solver},
    BoardSize, GameRecord,
};
use ply_train::measure;

use crate::error::bad;

/// Reads a position (cells and side to move, or a whole OBF line), or a transcript played
/// from the start, with the library's reader ([`input::parse_with_size`], which the server
/// uses too); with `--size`, on that size only.
///
/// # Errors
/// Bad input naming `what` (the argument) and the reason.
pub fn read_position_or_transcript(
    text: &str,
    size: Option<BoardSize>,
    what: &str,
) -> anyhow::Result<GameRecord> {
    // The reader refuses a position without its centre discs itself.
    input::parse_with_size(text, size).map_err(|e| bad(format!("{what}: {e}")))
}

/// `--threads` and `--hash-mb` as solver options, or a usage error naming the one out of
/// range.
fn options(threads: usize, hash_mb: usize) -> anyhow::Result<SolveOptions> {
    SolveOptions { threads, hash_mb }
        .checked()
        .map_err(|e| bad(format!("--{e}")))
}

/// The engine's options of an analysis request (`analyze`, `review`, `explore`), checked
/// by the library's one check ([`Request::options`]) for a position of `size`: a usage
/// error naming the option (`--threads 0: expected 1 to 256`) otherwise.
pub fn analysis_options(req: &Request, size: BoardSize) -> anyhow::Result<Options> {
    req.options(size).map_err(|e| bad(format!("--{e}")))
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

/// How long a move may take at strength `depth` (NBoard's `set depth N`, `ply gtp --depth
/// N`): half a second a ply, so half a second at depth 1 and half a minute at depth 60.
pub fn move_time(depth: u32) -> Duration {
    ply_othello::play::Settings::at_depth(depth).move_time
}

/// The evaluation of a weight file of `size` (`ply train fit --out`'s, `ply train pack`'s),
/// raw: no side-to-move handicap; with `None`, the shipped weights without theirs. A file
/// that cannot be read or is not such weights is bad input, named.
pub fn raw_weights(
    path: Option<&Path>,
    size: ply_othello::BoardSize,
) -> anyhow::Result<ply_othello::eval::Eval> {
    let Some(path) = path else {
        return Ok(ply_othello::eval::builtin(size)
            .context("4x4 has no evaluation")?
            .clone()
            .with_tempo(0));
    };
    let named = |e: &dyn std::fmt::Display| crate::error::bad(format!("{}: {e}", path.display()));
    let bytes = fs::read(path).map_err(|e| named(&e))?;
    ply_othello::eval::weights::read(size, &bytes).map_err(|e| named(&e))
}

/// The FFO positions #40-#59, whose presence marks the directory of the test vectors.
pub const FFO_FILE: &str = "fforum-40-59.obf";

/// The directory of the test vectors (`bench ffo`, `bench eval`, the XOT openings of
/// `train`): `--data DIR`, else `$PLY_DATA`, else the repository's `testdata/`, found as the
/// first ancestor of the `ply` binary or of the current directory that holds [`FFO_FILE`]
/// (so `<repo>/target/release/ply` finds `<repo>/testdata`).
///
/// # Errors
/// Bad input when none is found.
pub fn data_dir(option: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(dir) = option {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("PLY_DATA") {
        return Ok(PathBuf::from(dir));
    }
    let mut starts = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        starts.push(exe);
    }
    if let Ok(cwd) = std::env::current_dir() {
        starts.push(cwd);
    }
    for start in starts {
        for dir in start.ancestors() {
            let candidate = dir.join("testdata");
            if candidate.join(FFO_FILE).is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(bad(format!(
        "cannot find {FFO_FILE}: pass --data DIR or set PLY_DATA"
    )))
}

/// The entries of an OBF file of scored 8x8 positions (`bench eval --obf`, `train export
/// --apart-from`): every position must have a score ([`measure::check_scored`]); errors
/// name the file and line, and a missing file or a folder is bad input ([`read_input`]).
pub fn read_scored(path: &Path) -> anyhow::Result<Vec<ObfEntry>> {
    let text = read_input(path)?;
    let entries = obf::parse_file(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    measure::check_scored(&entries).map_err(|e| bad(format!("{} {e}", path.display())))?;
    Ok(entries)
}

/// Each position of an OBF file of scored positions with its score ([`measure::scored`]).
pub fn scored_file(path: &Path) -> anyhow::Result<measure::Scored> {
    Ok(measure::scored(read_scored(path)?))
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
        Err(e) if e.kind() == io::ErrorKind::IsADirectory => {
            Err(bad(format!("{name}: a folder, not a file")))
        }
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            Err(bad(format!("{name}: not UTF-8 text")))
        }
        r => r.with_context(|| format!("reading {name}")),
    }
}

/// Reads a book file, ply's own or Edax's (`Book::read_any`): a missing or broken one is
/// bad input, named.
pub fn read_book(path: &Path) -> anyhow::Result<Book> {
    let bytes = crate::files::read_bytes(path)?;
    Book::read_any(&bytes).map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// The name of an input in messages.
pub fn input_name(path: &Path) -> String {
    if is_dash(path) {
        String::from("stdin")
    } else {
        path.display().to_string()
    }
}

/// A line on stderr that a long command redraws four times a second, from the first second
/// on, while stderr is a terminal; erased when it is dropped. `render` gets the time since
/// the start and says what the line shows.
///
/// The line is drawn by a thread of its own that waits on a channel, not in a sleep: dropping
/// the line wakes it at once, so a command that finishes in a millisecond is not held back to
/// the next redraw.
pub struct StatusLine {
    /// Dropping the sender is the signal to stop: the thread's `recv_timeout` returns at once.
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl StatusLine {
    /// How often the line is redrawn.
    pub const INTERVAL: Duration = Duration::from_millis(250);
    /// How long a command runs before the line first appears.
    pub const FIRST_AFTER: Duration = Duration::from_secs(1);

    /// Starts the line (nothing is drawn when stderr is not a terminal).
    pub fn start(render: impl Fn(Duration) -> String + Send + 'static) -> StatusLine {
        StatusLine::start_with(
            io::stderr().is_terminal(),
            StatusLine::INTERVAL,
            StatusLine::FIRST_AFTER,
            render,
        )
    }

    /// [`StatusLine::start`] with the terminal test and the timings given: the tests draw
    /// with an interval of an hour to show that stopping never waits for it.
    fn start_with(
        terminal: bool,
        interval: Duration,
        first_after: Duration,
        render: impl Fn(Duration) -> String + Send + 'static,
    ) -> StatusLine {
        if !terminal {
            return StatusLine {
                stop: None,
                thread: None,
            };
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let started = Instant::now();
        let thread = std::thread::spawn(move || {
            let mut drawn = false;
            // Anything but a timeout (the sender dropped) means the command is done.
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(interval) {
                let elapsed = started.elapsed();
                if elapsed >= first_after {
                    eprint!("\r\x1b[K{}", render(elapsed));
                    drawn = true;
                }
            }
            if drawn {
                eprint!("\r\x1b[K");
            }
        });
        StatusLine {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for StatusLine {
    fn drop(&mut self) {
        drop(self.stop.take());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Stopping the line wakes its thread at once: with a redraw interval of an hour, a line
    /// on a terminal is dropped well within the watchdog's minute (a thread that slept out its
    /// interval, as the line once did, would hold the command for the whole hour).
    #[test]
    fn dropping_the_line_never_waits_for_the_next_redraw() {
        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            let hour = Duration::from_secs(3600);
            let line = StatusLine::start_with(true, hour, Duration::ZERO, |_| String::new());
            assert!(
                line.thread.is_some(),
                "a terminal's line has a drawing thread"
            );
            drop(line);
            done.send(()).expect("the test is waiting");
        });
        finished
            .recv_timeout(Duration::from_secs(60))
            .expect("dropping the status line waited for its redraw interval");
    }

    #[test]
    fn no_thread_when_stderr_is_not_a_terminal() {
        let line = StatusLine::start_with(false, StatusLine::INTERVAL, Duration::ZERO, |_| {
            unreachable!("nothing is drawn off a terminal")
        });
        assert!(line.thread.is_none());
    }

    #[test]
    fn a_move_takes_half_a_second_a_ply() {
        assert_eq!(move_time(1), Duration::from_millis(500));
        assert_eq!(move_time(20), Duration::from_secs(10));
        assert_eq!(move_time(60), Duration::from_secs(30));
    }
}
