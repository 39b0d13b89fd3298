//! Where a search reads the time: the system's clock, or one a test drives.
//!
//! The engines read the time through [`Clock`] only, so that how they spend a budget (when
//! an iteration starts, when a search gives up) can be tested with a clock that moves by
//! the reads instead of by the machine's speed:
//!
//! ```
//! use std::time::Duration;
//! use ply_othello::spine::clock::{Clock, SteppingClock};
//!
//! let clock = SteppingClock::new(Duration::from_micros(10));
//! let t0 = clock.now();
//! assert_eq!(clock.now() - t0, Duration::from_micros(10));
//! ```

use std::{
    fmt,
    sync::atomic::{AtomicU64, Ordering::Relaxed},
    time::{Duration, Instant},
};

/// A source of the current time.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The time now.
    fn now(&self) -> Instant;
}

/// The system's monotonic clock ([`Instant::now`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// The clock every search uses unless told otherwise.
pub static SYSTEM: SystemClock = SystemClock;

/// A test clock that moves forward by a fixed step at every read, from the instant it was
/// made: a search that looks at the clock every so many nodes then sees time pass in
/// proportion to its work, the same on every machine.
#[derive(Debug)]
pub struct SteppingClock {
    start: Instant,
    step: Duration,
    reads: AtomicU64,
}

impl SteppingClock {
    /// A clock whose every read is `step` later than the one before.
    #[must_use]
    pub fn new(step: Duration) -> SteppingClock {
        SteppingClock {
            start: Instant::now(),
            step,
            reads: AtomicU64::new(0),
        }
    }

    /// How far the clock has moved since it was made.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.step * self.reads.load(Relaxed) as u32
    }
}

impl Clock for SteppingClock {
    fn now(&self) -> Instant {
        let reads = self.reads.fetch_add(1, Relaxed);
        self.start + self.step * reads as u32
    }
}
