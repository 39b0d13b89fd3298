//! The training's one parallel map: items shared out over scoped threads, results in item
//! order whatever the thread count, so that what is made does not depend on it.

/// Runs `f` on every item on `threads` threads; results in item order.
pub(crate) fn par_map<T: Sync, R: Send>(
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
            .flat_map(|h| h.join().expect("a training thread"))
            .collect();
        all.sort_unstable_by_key(|x| x.0);
        all.into_iter().map(|x| x.1).collect()
    })
}
