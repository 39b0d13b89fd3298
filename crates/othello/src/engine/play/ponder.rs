//! Thinking on the opponent's time: a thread that searches the position after the reply
//! the player expects, with the player's kept solver and (on a clock) the kept midgame
//! table, until it is stopped; what it found is kept for the player's next move.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicU32, Ordering::Relaxed},
        Arc, Mutex, PoisonError,
    },
    thread::JoinHandle,
};

use crate::{
    analyze::{analyze_with, Analysis, Options},
    Move, Position,
};

/// What a pondering found: the position it searched (the one after the expected reply)
/// and its deepest analysis, if an iteration finished.
#[derive(Clone, Debug)]
pub(super) struct Pondered {
    pub position: Position,
    pub analysis: Option<Analysis>,
}

/// A pondering thread.
pub(super) struct Ponder {
    stop: Arc<AtomicBool>,
    depth: Arc<AtomicU32>,
    found: Arc<Mutex<Option<Pondered>>>,
    handle: JoinHandle<()>,
}

/// The deepest a reply is predicted to, when the player's own line does not say it.
const PREDICT_DEPTH: u32 = 6;

impl Ponder {
    /// Starts pondering on `pos` (the opponent to move): on the position after `predicted`,
    /// or after the reply a short search of `pos` finds best when the player's line did not
    /// go that far. `opts` are the searches' (their stop flag is replaced by the ponder's).
    pub fn start(pos: Position, predicted: Option<Move>, opts: Options) -> Ponder {
        let stop = Arc::new(AtomicBool::new(false));
        let depth = Arc::new(AtomicU32::new(0));
        let found = Arc::new(Mutex::new(None));
        let opts = Options {
            stop: Some(stop.clone()),
            ..opts
        };
        let handle = {
            let (stop, depth, found) = (stop.clone(), depth.clone(), found.clone());
            std::thread::spawn(move || {
                let reply = match predicted {
                    Some(m) if pos.play_move(m).is_ok() => m,
                    _ => {
                        let quick = Options {
                            depth: Some(PREDICT_DEPTH),
                            ..opts.clone()
                        };
                        let a = analyze_with(&pos, &quick, &mut |_| {});
                        a.line.first().copied().unwrap_or(Move::Pass)
                    }
                };
                let after = match pos.play_move(reply) {
                    Ok(after) if !stop.load(Relaxed) && !after.is_game_over() => after,
                    _ => return,
                };
                let keep = |a: Option<Analysis>| {
                    *found.lock().unwrap_or_else(PoisonError::into_inner) = Some(Pondered {
                        position: after,
                        analysis: a,
                    });
                };
                keep(None);
                let a = analyze_with(&after, &opts, &mut |a| {
                    depth.store(a.depth, Relaxed);
                    keep(Some(a.clone()));
                });
                // The last word is the analysis returned, which a stopped iteration may
                // have bettered (a move finished before the stop).
                if a.depth >= depth.load(Relaxed) {
                    depth.store(a.depth, Relaxed);
                    keep(Some(a));
                }
            })
        };
        Ponder {
            stop,
            depth,
            found,
            handle,
        }
    }

    /// The deepest iteration finished so far.
    pub fn depth(&self) -> u32 {
        self.depth.load(Relaxed)
    }

    /// Stops the thread (the searches look at the flag every few thousand nodes) and says
    /// what it found.
    pub fn stop(self) -> Option<Pondered> {
        self.stop.store(true, Relaxed);
        // A panic of the search thread loses only the pondering.
        let _ = self.handle.join();
        self.found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}
