//! Hints to the processor and the kernel about the transposition tables of both searches:
//! big tables backed by 2 MB pages, and the buckets of a node's children loaded into the
//! cache while the node still rates them, so that the children's probes do not wait on
//! memory. Neither changes a result.

/// Asks the kernel to back the reserved, still untouched capacity of `table` with 2 MB pages
/// where it can: a probe of a big table then costs one TLB miss instead of two or three. Call
/// it between reserving the capacity and filling it. Only advice; nothing changes if the
/// kernel declines.
pub(crate) fn advise_huge_pages<T>(table: &Vec<T>) {
    const HUGE: usize = 2 << 20;
    let start = table.as_ptr() as usize;
    let len = table.capacity() * std::mem::size_of::<T>();
    let (from, to) = (start.next_multiple_of(HUGE), (start + len) / HUGE * HUGE);
    #[cfg(target_os = "linux")]
    if from < to {
        // SAFETY: the range lies inside the allocation of `table`, which the caller owns and
        // has not handed out; MADV_HUGEPAGE changes how its pages are backed, never their
        // contents.
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (from, to);
}

/// Starts loading the cache line holding `value` (a no-op where the target has no prefetch
/// hint).
#[inline]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it cannot fault, and the pointer comes from a
    // reference, so it points into live memory anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Tables kept between analyses that run on a clock, so that the next one neither pays for
/// a fresh table (tens of megabytes written, a share of a short budget) nor starts from
/// nothing: a game's next position is mostly in the table its last search left, as an
/// engine keeps its table from move to move. An entry is keyed by its whole position and
/// carries the depth it was searched to, so an old one is as true as a new one.
///
/// Analyses without a clock (a fixed depth) never use it: their results must depend on
/// nothing but the position and the depth.
pub(crate) struct Pool<T> {
    kept: std::sync::Mutex<Vec<T>>,
}

/// How many tables a [`Pool`] keeps: one for each of two analyses at once (a server's),
/// the others are dropped.
const POOL_KEEPS: usize = 2;

impl<T> Pool<T> {
    pub const fn new() -> Pool<T> {
        Pool {
            kept: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// A kept table that `fits`, the most recently given back first; `None` when none does.
    pub fn take(&self, fits: impl Fn(&T) -> bool) -> Option<T> {
        let mut kept = self
            .kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let i = kept.iter().rposition(fits)?;
        Some(kept.remove(i))
    }

    /// Keeps `table` for a later [`Pool::take`], dropping the oldest past [`POOL_KEEPS`].
    pub fn give(&self, table: T) {
        let mut kept = self
            .kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.push(table);
        if kept.len() > POOL_KEEPS {
            kept.remove(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_hands_back_the_latest_fitting_table_and_keeps_two() {
        let pool = Pool::new();
        assert_eq!(pool.take(|_: &u32| true), None);
        for t in [1, 2, 3] {
            pool.give(t);
        }
        // The oldest went past two; the latest that fits comes first.
        assert_eq!(pool.take(|&t| t == 1), None);
        assert_eq!(pool.take(|&t| t > 1), Some(3));
        assert_eq!(pool.take(|_| true), Some(2));
        assert_eq!(pool.take(|_| true), None);
    }
}
