//! The transposition table: a fixed number of 64-byte buckets of four entries, shared by every
//! search thread without locks.
//!
//! Each entry is two atomic words, the packed data and the key xor the data (the "lockless
//! hashing" of Hyatt and Mann): a reader that meets a half-written entry sees a key that does
//! not match and treats it as a miss, so threads never need a lock. Keys are 64-bit hashes
//! of the two bitboards and the board size; a false match needs two different positions with
//! the same 64-bit key in the same bucket.
//!
//! The endgame search is exact, so every stored bound holds whatever depth it came from; a
//! second store for the same position narrows the stored interval. The selective passes
//! before an exact search store bounds that are only likely: each entry says how sure it is
//! ([`Entry::level`]), a search uses the bounds of entries at least as sure as itself (and
//! every entry's move), and a store never replaces surer bounds with less sure ones. When a
//! bucket is full the entry from an older search, or else the one whose subtree was
//! cheapest, makes way.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::spine::geometry::Geometry;
use crate::{rules::symmetry, spine::hash::endgame as hash};

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// The best move found (0..64), or [`NO_MOVE`].
    pub best: u8,
    /// log2 of the nodes the search of this position took: what replacement keeps.
    pub cost: u8,
    /// How sure the bounds are: [`EXACT`] for a search without selective cutoffs, lower
    /// levels for the selective passes that go before it (see [`crate::spine::probcut::SELECTIVITY`]).
    pub level: u8,
}

/// `Entry::level` of bounds that hold for certain.
pub(crate) const EXACT: u8 = u8::MAX;

/// `Entry::best` when no move is known.
pub(crate) const NO_MOVE: u8 = 64;

impl Entry {
    /// The score these bounds give a search of `alpha..beta` without searching (fail-soft):
    /// the lower bound when it reaches `beta` or meets the upper one, the upper bound when it
    /// is at most `alpha`.
    #[inline]
    pub fn cutoff(&self, alpha: i32, beta: i32) -> Option<i32> {
        crate::spine::bounds::cutoff(i32::from(self.lower), i32::from(self.upper), alpha, beta)
    }

    fn pack(self, generation: u8) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best) << 16
            | u64::from(self.cost) << 24
            | u64::from(generation) << 32
            | u64::from(self.level) << 40
    }

    fn unpack(data: u64) -> (Entry, u8) {
        (
            Entry {
                lower: data as u8 as i8,
                upper: (data >> 8) as u8 as i8,
                best: (data >> 16) as u8,
                cost: (data >> 24) as u8,
                level: (data >> 40) as u8,
            },
            (data >> 32) as u8,
        )
    }
}

#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    slots: [[AtomicU64; 2]; 4],
}

/// The transposition table asked for is more memory than the machine can give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTooLarge {
    /// The size asked for, in megabytes.
    pub mb: usize,
}

impl std::fmt::Display for TableTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a transposition table of {} MB: not enough memory",
            self.mb
        )
    }
}

impl std::error::Error for TableTooLarge {}

/// A fixed-size table shared by reference between threads.
pub(crate) struct Tt {
    buckets: Box<[Bucket]>,
    generation: AtomicU64,
}

impl std::fmt::Debug for Tt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tt")
            .field("buckets", &self.buckets.len())
            .finish()
    }
}

/// The table key of a position, and the symmetry that maps the position onto the image the
/// key stands for (0 below `Geometry::sym_from`, where positions are keyed as they are).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    /// What the table is indexed by.
    pub hash: u64,
    /// The position's number of empty squares.
    pub empties: u32,
    sym: u8,
}

/// The key of the position `(p, o)` with `n` empty squares on the board of `geo`.
#[inline(always)]
pub(crate) fn key(geo: &Geometry, p: u64, o: u64, n: u32) -> Key {
    if n >= geo.sym_from {
        let (cp, co, sym) = symmetry::canonical(p, o, geo.n);
        Key {
            hash: hash(cp, co, geo.key),
            empties: n,
            sym,
        }
    } else {
        Key {
            hash: hash(p, o, geo.key),
            empties: n,
            sym: 0,
        }
    }
}

impl Key {
    /// A move of the position as the table stores it (on the keyed image).
    #[inline]
    pub fn move_to_table(self, mv: u8, geo: &Geometry) -> u8 {
        if self.sym == 0 || mv == NO_MOVE {
            mv
        } else {
            symmetry::square(mv, self.sym, geo.n)
        }
    }

    /// A move read from the table, back on the position.
    #[inline]
    pub fn move_from_table(self, mv: u8, geo: &Geometry) -> u8 {
        if self.sym == 0 || mv == NO_MOVE {
            mv
        } else {
            symmetry::square(mv, symmetry::inverse(self.sym), geo.n)
        }
    }
}

impl Tt {
    /// A table of at most `mb` megabytes: the largest power-of-two count of buckets that fits
    /// (at least one bucket).
    ///
    /// # Errors
    /// When the machine cannot give that much memory.
    pub fn try_new(mb: usize) -> Result<Tt, TableTooLarge> {
        let too_large = TableTooLarge { mb };
        let bytes = mb.max(1).checked_mul(1 << 20).ok_or(too_large)?;
        let fit = bytes / std::mem::size_of::<Bucket>();
        let n = 1usize << fit.ilog2();
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| too_large)?;
        crate::engine::memory::advise_huge_pages(&buckets);
        buckets.extend((0..n).map(|_| Bucket::default()));
        let buckets = buckets.into_boxed_slice();
        Ok(Tt {
            buckets,
            generation: AtomicU64::new(1),
        })
    }

    /// The table's size in bytes.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.slots {
                s[0].store(0, Relaxed);
                s[1].store(0, Relaxed);
            }
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed) % 255 + 1;
        self.generation.store(g, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key as usize) & (self.buckets.len() - 1)]
    }

    /// Starts loading the bucket of `key` into the cache, for a probe soon after.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::engine::memory::prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in &self.bucket(key).slots {
            let data = s[1].load(Relaxed);
            if s[0].load(Relaxed) ^ data == key && data != 0 {
                return Some(Entry::unpack(data).0);
            }
        }
        None
    }

    /// Stores what a search of the position `key` found, narrowing what was already known
    /// at the same level, replacing what was known less surely, and leaving surer bounds be.
    #[inline(always)]
    pub fn store(&self, key: u64, mut e: Entry) {
        debug_assert!(e.lower <= e.upper, "stored bounds cross: {e:?}");
        let generation = self.generation.load(Relaxed) as u8;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for (i, s) in bucket.slots.iter().enumerate() {
            let data = s[1].load(Relaxed);
            if s[0].load(Relaxed) ^ data == key && data != 0 {
                let (old, _) = Entry::unpack(data);
                if old.level > e.level {
                    return;
                }
                // Bounds from two exact searches of one position always overlap.
                if old.level == e.level && old.lower.max(e.lower) <= old.upper.min(e.upper) {
                    e.lower = e.lower.max(old.lower);
                    e.upper = e.upper.min(old.upper);
                }
                if e.best == NO_MOVE {
                    e.best = old.best;
                }
                e.cost = e.cost.max(old.cost);
                victim = i;
                break;
            }
            let (old, g) = Entry::unpack(data);
            let rank = if data == 0 {
                0
            } else {
                (u32::from(g == generation) << 8) | (u32::from(old.cost) + 1)
            };
            if rank < victim_rank {
                victim_rank = rank;
                victim = i;
            }
        }
        let data = e.pack(generation);
        let s = &bucket.slots[victim];
        s[0].store(key ^ data, Relaxed);
        s[1].store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_beyond_the_address_space_is_an_error_naming_its_size() {
        let e = Tt::try_new(1 << 43).unwrap_err();
        assert_eq!(e.mb, 1 << 43);
        assert!(e.to_string().contains("8796093022208 MB"), "{e}");
        assert!(Tt::try_new(usize::MAX).is_err());
    }

    #[test]
    fn size_is_the_largest_power_of_two_that_fits() {
        assert_eq!(Tt::try_new(64).unwrap().bytes(), 64 << 20);
        assert_eq!(Tt::try_new(1).unwrap().bytes(), 1 << 20);
        assert_eq!(Tt::try_new(3).unwrap().bytes(), 2 << 20);
        assert_eq!(Tt::try_new(1000).unwrap().bytes(), 512 << 20);
    }

    #[test]
    fn stores_probes_and_narrows() {
        let tt = Tt::try_new(1).unwrap();
        let k = hash(0x1234, 0x5678_0000, 0);
        assert_eq!(tt.probe(k), None);
        let e = Entry {
            lower: -64,
            upper: 10,
            best: 12,
            cost: 3,
            level: EXACT,
        };
        tt.store(k, e);
        assert_eq!(tt.probe(k), Some(e));
        tt.store(
            k,
            Entry {
                lower: 4,
                upper: 64,
                best: NO_MOVE,
                cost: 1,
                level: EXACT,
            },
        );
        let narrowed = Entry {
            lower: 4,
            upper: 10,
            best: 12,
            cost: 3,
            level: EXACT,
        };
        assert_eq!(tt.probe(k), Some(narrowed));
        // A selective pass cannot move exact bounds.
        tt.store(
            k,
            Entry {
                lower: 20,
                upper: 20,
                best: 5,
                cost: 9,
                level: 1,
            },
        );
        assert_eq!(tt.probe(k), Some(narrowed));
        tt.clear();
        // Exact bounds replace selective ones, even where they disagree.
        let selective = Entry {
            lower: 20,
            upper: 64,
            best: 5,
            cost: 9,
            level: 1,
        };
        tt.store(k, selective);
        assert_eq!(tt.probe(k), Some(selective));
        tt.store(k, narrowed);
        assert_eq!(
            tt.probe(k),
            Some(Entry {
                cost: 9,
                ..narrowed
            })
        );
        tt.clear();
        assert_eq!(tt.probe(k), None);
    }

    #[test]
    fn negative_bounds_survive_packing() {
        let e = Entry {
            lower: -64,
            upper: -2,
            best: 63,
            cost: 40,
            level: 3,
        };
        assert_eq!(Entry::unpack(e.pack(7)), (e, 7));
    }
}
