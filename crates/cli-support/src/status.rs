//! The line a long command redraws on stderr while stderr is a terminal ([`StatusLine`],
//! on a thread of its own and a clock; [`Bar`], drawn by the command as it goes), erased
//! when the command is done, so that what is left on the terminal is the command's output.

use std::{
    io::{self, IsTerminal},
    sync::mpsc,
    thread::JoinHandle,
    time::{Duration, Instant},
};

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
    #[must_use]
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

/// A progress line on stderr that the command redraws itself as it goes (`perft`'s count):
/// drawn only while stderr is a terminal and once the command has run for
/// [`Bar::FIRST_AFTER`]; erased by [`Bar::finish`] when it was drawn.
#[derive(Debug)]
pub struct Bar {
    enabled: bool,
    started: Instant,
    first_after: Duration,
    drawn: bool,
}

impl Bar {
    /// How long a command runs before the line first appears.
    pub const FIRST_AFTER: Duration = Duration::from_millis(300);

    /// A line that draws on stderr when it is a terminal.
    #[must_use]
    pub fn new() -> Bar {
        Bar::with(io::stderr().is_terminal(), Bar::FIRST_AFTER)
    }

    /// [`Bar::new`] with the terminal test and the delay given.
    fn with(terminal: bool, first_after: Duration) -> Bar {
        Bar {
            enabled: terminal,
            started: Instant::now(),
            first_after,
            drawn: false,
        }
    }

    /// Draws the line `render` makes of the seconds since the start, when it is time to.
    pub fn update(&mut self, render: impl FnOnce(f64) -> String) {
        let elapsed = self.started.elapsed();
        if !self.enabled || elapsed < self.first_after {
            return;
        }
        eprint!("\r{}", render(elapsed.as_secs_f64()));
        self.drawn = true;
    }

    /// Erases the line, if it was drawn.
    pub fn finish(&mut self) {
        if self.drawn {
            eprint!("\r{}\r", " ".repeat(100));
            self.drawn = false;
        }
    }
}

impl Default for Bar {
    fn default() -> Bar {
        Bar::new()
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
    fn a_bar_draws_on_a_terminal_only_and_after_its_delay() {
        let mut off = Bar::with(false, Duration::ZERO);
        off.update(|_| unreachable!("nothing is drawn off a terminal"));
        assert!(!off.drawn);
        let mut late = Bar::with(true, Duration::from_secs(3600));
        late.update(|_| unreachable!("nothing is drawn before the delay"));
        late.finish();
        assert!(!late.drawn);
        let mut on = Bar::with(true, Duration::ZERO);
        on.update(|secs| format!("{secs:.0} s"));
        assert!(on.drawn);
        on.finish();
        assert!(!on.drawn, "a finished bar is erased once");
    }
}
