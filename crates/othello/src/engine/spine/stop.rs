//! When a search must end: a caller's stop flag, a deadline, or (with several threads) the
//! end of another thread, looked at every so many nodes so that the clock costs nothing.

use std::{
    sync::atomic::{AtomicBool, Ordering::Relaxed},
    time::Instant,
};

use super::clock::Clock;

/// A search's stop control. Once it says stop, it says so at every later look.
#[derive(Debug)]
pub(crate) struct StopControl<'a> {
    /// Raised by this control when the caller's flag or the deadline says stop, and looked
    /// at: how threads of one search stop each other.
    shared: Option<&'a AtomicBool>,
    /// The caller's flag.
    external: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    /// Where the deadline is read against.
    clock: &'a dyn Clock,
    /// Nodes between two looks.
    every: u64,
    /// The node count at which the flags and the clock are looked at next.
    next: u64,
    stopped: bool,
}

impl<'a> StopControl<'a> {
    /// A control that first looks after `first` nodes, then every `every` nodes, with the
    /// deadline read against `clock`.
    pub(crate) fn new(
        shared: Option<&'a AtomicBool>,
        external: Option<&'a AtomicBool>,
        deadline: Option<Instant>,
        clock: &'a dyn Clock,
        every: u64,
        first: u64,
    ) -> StopControl<'a> {
        debug_assert!(every > 0);
        StopControl {
            shared,
            external,
            deadline,
            clock,
            every,
            next: first,
            stopped: false,
        }
    }

    /// Looks at the flags and the clock when `nodes` has reached the next look; true once
    /// the search must end.
    #[inline]
    pub(crate) fn poll(&mut self, nodes: u64) -> bool {
        if nodes >= self.next {
            self.next = nodes + self.every;
            self.look();
        }
        self.stopped
    }

    /// Looks at the flags and the clock now; true once the search must end.
    pub(crate) fn look(&mut self) -> bool {
        let external = self.external.is_some_and(|e| e.load(Relaxed));
        let late = self.deadline.is_some_and(|d| self.clock.now() >= d);
        if external || late {
            match self.shared {
                Some(shared) => shared.store(true, Relaxed),
                None => self.stopped = true,
            }
        }
        if self.shared.is_some_and(|s| s.load(Relaxed)) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether another thread has raised the shared flag (looked at now, without the clock).
    #[inline]
    pub(crate) fn shared_raised(&self) -> bool {
        self.shared.is_some_and(|s| s.load(Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spine::clock::{SteppingClock, SYSTEM};

    #[test]
    fn looks_only_every_so_many_nodes_and_stays_stopped() {
        let flag = AtomicBool::new(false);
        let mut c = StopControl::new(None, Some(&flag), None, &SYSTEM, 100, 100);
        assert!(!c.poll(0));
        flag.store(true, Relaxed);
        assert!(!c.poll(99), "no look before the 100th node");
        assert!(c.poll(100));
        flag.store(false, Relaxed);
        assert!(c.poll(101), "a stopped search stays stopped");
    }

    #[test]
    fn a_deadline_raises_the_shared_flag_for_the_other_threads() {
        let shared = AtomicBool::new(false);
        let past = Instant::now();
        let mut c = StopControl::new(Some(&shared), None, Some(past), &SYSTEM, 1, 0);
        assert!(c.poll(0));
        assert!(shared.load(Relaxed));
        let mut other = StopControl::new(Some(&shared), None, None, &SYSTEM, 1, 0);
        assert!(other.shared_raised());
        assert!(other.poll(0));
    }

    /// The deadline is read on the clock given, only at the looks: with a clock that moves
    /// 10 ms a read and a deadline 30 ms after the first read, the fourth look stops.
    #[test]
    fn the_deadline_is_read_on_the_given_clock_at_each_look() {
        let clock = SteppingClock::new(std::time::Duration::from_millis(10));
        let deadline = clock.now() + std::time::Duration::from_millis(30);
        let mut c = StopControl::new(None, None, Some(deadline), &clock, 1000, 1000);
        assert!(!c.poll(999));
        assert_eq!(
            clock.elapsed(),
            std::time::Duration::from_millis(10),
            "no read"
        );
        assert!(!c.poll(1000));
        assert!(!c.poll(2000));
        assert!(!c.poll(2999), "between looks");
        assert!(c.poll(3000));
        assert_eq!(clock.elapsed(), std::time::Duration::from_millis(40));
    }
}
