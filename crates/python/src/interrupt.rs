//! Long calls without the GIL, stopped by Ctrl-C.
//!
//! Python runs signal handlers only when the interpreter gets control back, so a solve that
//! held the calling thread would ignore Ctrl-C until it ended. Instead the work runs on a
//! scoped worker thread with the GIL released, and the calling thread wakes every few
//! milliseconds to run `Python::check_signals`: when a handler raises (`KeyboardInterrupt`),
//! it raises the work's stop flag, waits for the worker to notice, and returns that error.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
    time::Duration,
};

use pyo3::{exceptions::PyRuntimeError, prelude::*};

/// How often the calling thread looks for a pending signal.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a worker thread with the GIL released; raises `stop` and returns the
/// Python error when a signal handler raises one (Ctrl-C) before the work is done.
///
/// # Errors
/// The signal handler's exception, or `RuntimeError` when the work panicked.
pub fn run<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.allow_threads(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel::<()>();
            let worker = s.spawn(move || {
                let out = work();
                // The receiver is gone only if the caller has already returned: nothing to tell.
                let _ = tx.send(());
                out
            });
            let mut interrupted = None;
            loop {
                match rx.recv_timeout(POLL) {
                    Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                            stop.store(true, Ordering::Relaxed);
                            interrupted = Some(e);
                            break;
                        }
                    }
                }
            }
            let out = worker
                .join()
                .map_err(|_| PyRuntimeError::new_err("ply: the search failed (a panic)"));
            match interrupted {
                Some(e) => Err(e),
                None => out,
            }
        })
    })
}
