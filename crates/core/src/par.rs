//! ply's one parallel map: items shared out over scoped threads, results in item order
//! whatever the thread count, so that what a batch job makes (training data, fitted tables,
//! a book's searched positions) does not depend on how many threads made it.

/// Runs `f` on every item on `threads` threads (at least one); the results in item order.
/// Thread `k` takes items `k`, `k + threads`, ...; `f` gets each item's index with it.
///
/// ```
/// let squares = ply_core::par_map(&[1, 2, 3, 4, 5], 3, |_, &x| x * x);
/// assert_eq!(squares, [1, 4, 9, 16, 25]);
/// ```
///
/// # Panics
/// When `f` panics on some item (the panic is passed on).
pub fn par_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.max(1);
    std::thread::scope(|s| {
        let f = &f;
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                s.spawn(move || {
                    (k..items.len())
                        .step_by(threads)
                        .map(|i| (i, f(i, &items[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(usize, R)> = handles
            .into_iter()
            .flat_map(|h| match h.join() {
                Ok(part) => part,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect();
        all.sort_unstable_by_key(|x| x.0);
        all.into_iter().map(|x| x.1).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The map in item order, each item with its own index, for any thread count: more
    /// threads than items, one, none (taken as one), and a count that does not divide them.
    #[test]
    fn results_in_item_order_whatever_the_thread_count() {
        let items: Vec<u64> = (0..37).map(|i| i * 7 + 3).collect();
        let plain: Vec<(usize, u64)> = items.iter().enumerate().map(|(i, &x)| (i, x * x)).collect();
        for threads in [0, 1, 2, 5, 36, 37, 100] {
            assert_eq!(
                par_map(&items, threads, |i, &x| (i, x * x)),
                plain,
                "{threads} threads"
            );
        }
        assert!(par_map(&[] as &[u8], 4, |_, &x| x).is_empty());
    }

    /// Every item is mapped once, on as many threads as asked (up to the items).
    #[test]
    fn every_item_once_on_the_threads_asked() {
        let items: Vec<usize> = (0..12).collect();
        let threads = par_map(&items, 4, |_, _| std::thread::current().id());
        let mut distinct = threads.clone();
        distinct.sort_by_key(|id| format!("{id:?}"));
        distinct.dedup();
        assert_eq!(threads.len(), 12);
        assert_eq!(distinct.len(), 4);
    }
}
