//! The gate in front of expensive requests: a few run at once (one per core by default), a
//! few more wait in a short queue for a bounded time, and the rest are turned away at once.
//! A refusal is a 503 with `Retry-After` (see [`crate::error`]), so a burst of searches
//! cannot starve the cheap endpoints or pile up without bound, and a client knows when to
//! come back. The limits and the current load are public ([`Gate::load`], shown by
//! `/api/health`), so a client can see how long a queued request may wait.

use std::{
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Duration,
};

use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// Admission control for expensive requests.
#[derive(Debug, Clone)]
pub struct Gate {
    running: Arc<Semaphore>,
    max_running: usize,
    waiting: Arc<AtomicUsize>,
    max_waiting: usize,
    max_wait: Duration,
    retry_after_s: u64,
}

/// Counts a request as waiting until dropped.
struct Waiting(Arc<AtomicUsize>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The gate's limits and how full it is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Load {
    /// Searches running now.
    pub running: usize,
    /// Searches that may run at once.
    pub max_running: usize,
    /// Searches waiting for a turn now.
    pub waiting: usize,
    /// Searches that may wait; past this a search is refused at once.
    pub max_waiting: usize,
    /// The longest a search waits for its turn before it is refused, in milliseconds.
    pub max_wait_ms: u64,
    /// What a refusal's `Retry-After` says, in seconds.
    pub retry_after_s: u64,
}

impl Gate {
    /// A gate letting `running` requests through at once with `max_waiting` more queued for
    /// at most `max_wait`; a refused request is told to come back after `retry_after`
    /// (rounded up to whole seconds, at least one).
    ///
    /// ```
    /// use std::time::Duration;
    /// use ply_server::Gate;
    /// let gate = Gate::new(2, 8, Duration::from_secs(5), Duration::from_millis(1500));
    /// let load = gate.load();
    /// assert_eq!((load.running, load.max_running, load.max_waiting), (0, 2, 8));
    /// assert_eq!(load.retry_after_s, 2);
    /// ```
    pub fn new(
        running: usize,
        max_waiting: usize,
        max_wait: Duration,
        retry_after: Duration,
    ) -> Gate {
        let running = running.max(1);
        Gate {
            running: Arc::new(Semaphore::new(running)),
            max_running: running,
            waiting: Arc::new(AtomicUsize::new(0)),
            max_waiting,
            max_wait,
            retry_after_s: retry_after.as_millis().div_ceil(1000).max(1) as u64,
        }
    }

    /// Waits for a turn; the permit is held until dropped.
    ///
    /// # Errors
    /// A 503 with `Retry-After`, at once when the queue is full, or when the wait in the
    /// queue reaches its bound.
    pub async fn enter(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        if let Ok(permit) = self.running.clone().try_acquire_owned() {
            return Ok(permit);
        }
        let before = self.waiting.fetch_add(1, Ordering::AcqRel);
        let _waiting = Waiting(self.waiting.clone());
        if before >= self.max_waiting {
            return Err(ApiError::busy(
                format!(
                    "the server is busy: {} analyses running and {} waiting; try again in {} s",
                    self.max_running, self.max_waiting, self.retry_after_s
                ),
                self.retry_after_s,
            ));
        }
        match tokio::time::timeout(self.max_wait, self.running.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(ApiError::busy(
                format!(
                    "the server is busy: no analysis finished within {} ms of waiting; try again \
                     in {} s",
                    self.max_wait.as_millis(),
                    self.retry_after_s
                ),
                self.retry_after_s,
            )),
        }
    }

    /// The limits and the current load.
    pub fn load(&self) -> Load {
        Load {
            running: self.max_running - self.running.available_permits(),
            max_running: self.max_running,
            waiting: self.waiting.load(Ordering::Acquire).min(self.max_waiting),
            max_waiting: self.max_waiting,
            max_wait_ms: u64::try_from(self.max_wait.as_millis()).unwrap_or(u64::MAX),
            retry_after_s: self.retry_after_s,
        }
    }
}
