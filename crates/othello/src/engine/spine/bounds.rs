//! Bounds on a position's score, as a transposition table remembers them.
//!
//! A fail-soft search of the window `alpha..beta` that returns `best` proves: the score is at
//! most `best` when `best <= alpha` (it failed low), at least `best` when `best >= beta` (it
//! failed high), and exactly `best` in between.

/// The bounds `(lower, upper)` that a fail-soft result `best` of a search of `alpha..beta`
/// proves, where `floor..=ceil` holds every score (the bound it does not prove).
#[inline]
pub(crate) fn proven(best: i32, alpha: i32, beta: i32, floor: i32, ceil: i32) -> (i32, i32) {
    debug_assert!(alpha < beta, "empty window {alpha}..{beta}");
    if best >= beta {
        (best, ceil)
    } else if best <= alpha {
        (floor, best)
    } else {
        (best, best)
    }
}

/// The score that the bounds `lower..=upper` give a search of `alpha..beta` without
/// searching (fail-soft): the lower bound when it reaches `beta` or meets the upper one, the
/// upper bound when it is at most `alpha`; `None` when the window lies between them.
#[inline]
pub(crate) fn cutoff(lower: i32, upper: i32, alpha: i32, beta: i32) -> Option<i32> {
    debug_assert!(lower <= upper, "crossed bounds {lower}..{upper}");
    if lower >= beta || lower == upper {
        Some(lower)
    } else if upper <= alpha {
        Some(upper)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a result proves answers every later window the way a search of it would: a
    /// window the bounds settle gets a score that fails the same way as the true score.
    #[test]
    fn proven_bounds_settle_windows_as_the_true_score_does() {
        let (floor, ceil) = (-64, 64);
        for score in -8..=8 {
            for alpha in -10..10 {
                for beta in alpha + 1..=10 {
                    // Every fail-soft result a search of alpha..beta may return for `score`:
                    // an upper bound in score..=alpha, the score, or a lower bound in
                    // beta..=score.
                    let results = if score <= alpha {
                        score..=alpha
                    } else if score >= beta {
                        beta..=score
                    } else {
                        score..=score
                    };
                    for best in results {
                        let (lower, upper) = proven(best, alpha, beta, floor, ceil);
                        assert!(lower <= score && score <= upper);
                        for a in -10..10 {
                            for b in a + 1..=10 {
                                if let Some(v) = cutoff(lower, upper, a, b) {
                                    assert_eq!(v <= a, score <= a, "{a}..{b}: {v} for {score}");
                                    assert_eq!(v >= b, score >= b, "{a}..{b}: {v} for {score}");
                                    if score > a && score < b {
                                        assert_eq!(v, score);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn open_bounds_settle_nothing() {
        assert_eq!(cutoff(-64, 64, -3, 4), None);
        assert_eq!(cutoff(5, 64, -3, 4), Some(5));
        assert_eq!(cutoff(-64, -3, -3, 4), Some(-3));
        assert_eq!(cutoff(2, 2, -3, 4), Some(2));
    }
}
