//! The aspiration step both searches take at the root: a search in a window around a guess
//! costs less than one in the full window when the score falls inside it, and fails fast
//! when it does not; then the window widens and the search runs again.
//!
//! The two searches widen in two ways ([`Widen`]), because their results prove different
//! things: the midgame engine's selective scores are estimates, the solver's fail-soft
//! results are bounds.

/// How the window widens after a search fails outside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Widen {
    /// The midgame engine's: the side the score fell out of opens to its limit, the other
    /// side stays (a selective estimate is no bound to move the window to); a fail on a side
    /// that is open already is the answer.
    Open,
    /// The exact solver's: a fail-soft result outside the window is a proven bound, so the
    /// limit on that side moves to it, and the window moves to the result with twice its
    /// width, until the limits leave one score.
    Follow,
}

/// The score searched by `search(alpha, beta)` (fail-soft, as both searches are) around
/// `guess`: first in `guess - delta..guess + delta`, cut to the limits `lo..hi` (scores no
/// search returns), then in windows widened as `widen` says. An error of `search` (a search
/// stopped) ends the loop and is returned.
pub(crate) fn around<E>(
    guess: i32,
    delta: i32,
    (mut lo, mut hi): (i32, i32),
    widen: Widen,
    mut search: impl FnMut(i32, i32) -> Result<i32, E>,
) -> Result<i32, E> {
    let mut delta = delta;
    let mut alpha = lo.max(guess.saturating_sub(delta));
    let mut beta = hi.min(guess.saturating_add(delta));
    loop {
        let v = search(alpha, beta)?;
        if v > alpha && v < beta {
            return Ok(v);
        }
        match widen {
            Widen::Open => {
                if v <= alpha {
                    if alpha == lo {
                        return Ok(v);
                    }
                    alpha = lo;
                } else {
                    if beta == hi {
                        return Ok(v);
                    }
                    beta = hi;
                }
            }
            Widen::Follow => {
                if v <= alpha {
                    hi = v + 1;
                } else {
                    lo = v - 1;
                }
                if hi - lo <= 2 {
                    // Only one score is left: the bounds met.
                    return Ok(lo + 1);
                }
                delta = delta.saturating_mul(2);
                alpha = lo.max(v.saturating_sub(delta));
                beta = hi.min(v.saturating_add(delta));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search whose true score is `score`, fail-soft the simplest way (the window's edge
    /// beyond which the score lies), recording the windows it was given.
    fn oracle(
        score: i32,
        windows: &mut Vec<(i32, i32)>,
    ) -> impl FnMut(i32, i32) -> Result<i32, ()> + '_ {
        move |alpha, beta| {
            windows.push((alpha, beta));
            Ok(score.clamp(alpha, beta))
        }
    }

    #[test]
    fn a_score_inside_the_first_window_takes_one_search() {
        for widen in [Widen::Open, Widen::Follow] {
            let mut w = Vec::new();
            assert_eq!(
                around(10, 4, (-100, 100), widen, oracle(12, &mut w)),
                Ok(12)
            );
            assert_eq!(w, [(6, 14)]);
        }
    }

    #[test]
    fn open_widens_the_failing_side_to_its_limit() {
        let mut w = Vec::new();
        assert_eq!(
            around(10, 4, (-100, 100), Widen::Open, oracle(-30, &mut w)),
            Ok(-30)
        );
        assert_eq!(w, [(6, 14), (-100, 14)]);
        let mut w = Vec::new();
        assert_eq!(
            around(10, 4, (-100, 100), Widen::Open, oracle(300, &mut w)),
            Ok(100)
        );
        assert_eq!(w, [(6, 14), (6, 100)]);
    }

    #[test]
    fn follow_moves_to_the_bound_and_doubles() {
        let mut w = Vec::new();
        assert_eq!(
            around(0, 1, (-65, 65), Widen::Follow, oracle(9, &mut w)),
            Ok(9)
        );
        // Fails high at 1, 3 and 7 (each a proven lower bound), then holds 9.
        assert_eq!(w, [(-1, 1), (0, 3), (2, 7), (6, 15)]);
    }

    #[test]
    fn a_stopped_search_ends_the_loop() {
        let mut calls = 0;
        let r = around(0, 1, (-65, 65), Widen::Follow, |_, _| {
            calls += 1;
            Err::<i32, _>("stopped")
        });
        assert_eq!((r, calls), (Err("stopped"), 1));
    }
}
