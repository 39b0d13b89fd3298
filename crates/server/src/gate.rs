//! The gate in front of expensive requests: a few run at once (one per core by default), a
//! few more wait in a short queue, and the rest are turned away at once with a 503, so a
//! burst of searches cannot starve the cheap endpoints or pile up without bound.

use std::{
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Duration,
};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// Admission control for expensive requests.
#[derive(Debug, Clone)]
pub struct Gate {
    running: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    max_waiting: usize,
    max_wait: Duration,
}

/// Counts a request as waiting until dropped.
struct Waiting(Arc<AtomicUsize>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Gate {
    /// A gate letting `running` requests through at once with `max_waiting` more queued for
    /// at most `max_wait`.
    pub fn new(running: usize, max_waiting: usize, max_wait: Duration) -> Gate {
        Gate {
            running: Arc::new(Semaphore::new(running.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            max_waiting,
            max_wait,
        }
    }

    /// Waits for a turn; the permit is held until dropped.
    ///
    /// # Errors
    /// A 503 when the queue is full or the wait is too long.
    pub async fn enter(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        if let Ok(permit) = self.running.clone().try_acquire_owned() {
            return Ok(permit);
        }
        let before = self.waiting.fetch_add(1, Ordering::AcqRel);
        let _waiting = Waiting(self.waiting.clone());
        if before >= self.max_waiting {
            return Err(ApiError::busy(
                "the server is busy with other analyses; try again shortly",
            ));
        }
        match tokio::time::timeout(self.max_wait, self.running.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(ApiError::busy(
                "the server is busy with other analyses; try again shortly",
            )),
        }
    }
}
