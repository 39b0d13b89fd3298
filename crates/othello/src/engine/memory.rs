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
