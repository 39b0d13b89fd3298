//! The pattern features of each board size: which squares each pattern reads, every placed
//! copy of it (its *instances*, the images under the board's eight symmetries, one per
//! distinct set of squares), and the tables that turn a move into a change of instance
//! indices.
//!
//! An instance's index reads its squares as base-3 digits, the `k`-th square of the instance
//! counting `3^k`: 0 for an empty square, 1 for a disc of the side whose view the index takes,
//! 2 for a disc of the other side. Images of one pattern share one weight table, and a pattern
//! that is its own image under some symmetry (a row under the mirror, a corner block under
//! the diagonal) ties the indices that symmetry exchanges ([`Layout::canonical`]).

use std::sync::LazyLock;

use crate::BoardSize;

/// Most instances any board size has (8x8: 46), rounded up for vector adds.
pub const MAX_INSTANCES: usize = 48;

/// A pattern: its name and its squares on the 8x8 layout (a1 = 0, h1 = 7, a2 = 8, … h8 = 63),
/// in digit order.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// What the pattern is, for people.
    pub name: &'static str,
    /// The squares, lowest digit first.
    pub squares: &'static [u8],
}

const PATTERNS_8: [Pattern; 11] = [
    Pattern {
        name: "corner 3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Pattern {
        name: "corner 2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    Pattern {
        name: "edge and X-squares",
        squares: &[9, 0, 1, 2, 3, 4, 5, 6, 7, 14],
    },
    Pattern {
        name: "second row",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Pattern {
        name: "third row",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Pattern {
        name: "fourth row",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    Pattern {
        name: "diagonal of 8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Pattern {
        name: "diagonal of 7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    Pattern {
        name: "diagonal of 6",
        squares: &[2, 11, 20, 29, 38, 47],
    },
    Pattern {
        name: "diagonal of 5",
        squares: &[3, 12, 21, 30, 39],
    },
    Pattern {
        name: "diagonal of 4",
        squares: &[4, 13, 22, 31],
    },
];

/// The 6x6 patterns (the board sits in a1..f6 of the 8x8 layout).
const PATTERNS_6: [Pattern; 8] = [
    Pattern {
        name: "corner 3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Pattern {
        name: "corner 2x4",
        squares: &[0, 1, 2, 3, 8, 9, 10, 11],
    },
    Pattern {
        name: "edge and X-squares",
        squares: &[9, 0, 1, 2, 3, 4, 5, 12],
    },
    Pattern {
        name: "second row",
        squares: &[8, 9, 10, 11, 12, 13],
    },
    Pattern {
        name: "third row",
        squares: &[16, 17, 18, 19, 20, 21],
    },
    Pattern {
        name: "diagonal of 6",
        squares: &[0, 9, 18, 27, 36, 45],
    },
    Pattern {
        name: "diagonal of 5",
        squares: &[1, 10, 19, 28, 37],
    },
    Pattern {
        name: "diagonal of 4",
        squares: &[2, 11, 20, 29],
    },
];

/// The square `sq` of an `n`x`n` board (in the corner of the 8x8 layout) under symmetry `s`
/// (0..8: identity, the two mirrors, the half turn, and those four after the diagonal flip).
#[must_use]
pub fn map_square(sq: u8, n: u8, s: u8) -> u8 {
    let (mut c, mut r) = (sq % 8, sq / 8);
    let m = n - 1;
    if s & 1 != 0 {
        r = m - r;
    }
    if s & 2 != 0 {
        c = m - c;
    }
    if s & 4 != 0 {
        std::mem::swap(&mut c, &mut r);
    }
    r * 8 + c
}

/// Everything the evaluation of one board size needs to know about its patterns.
#[derive(Debug)]
pub struct Layout {
    /// The board size.
    pub size: BoardSize,
    /// The patterns.
    pub patterns: &'static [Pattern],
    /// Every instance: its pattern and its squares in digit order.
    pub instances: Vec<(usize, Vec<u8>)>,
    /// Where each pattern's weight table starts in a phase's weights; one more entry at the
    /// end: where the other features start.
    pub offsets: Vec<usize>,
    /// `delta[sq][i]`: what a disc of the viewing side on `sq` adds to instance `i`'s index
    /// (`3^k` when `sq` is the instance's `k`-th square, else 0).
    pub delta: Vec<[u16; MAX_INSTANCES]>,
    /// For each pattern, the digit permutations of its symmetries onto itself (the identity
    /// included).
    automorphisms: Vec<Vec<Vec<usize>>>,
}

/// One layout per board size: equal when their sizes are.
impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        self.size == other.size
    }
}

impl Eq for Layout {}

impl Layout {
    fn new(size: BoardSize, patterns: &'static [Pattern]) -> Layout {
        let n = size.n();
        let mut instances: Vec<(usize, Vec<u8>)> = Vec::new();
        let mut automorphisms = Vec::new();
        let mut offsets = vec![0];
        for (pi, pat) in patterns.iter().enumerate() {
            let mut sets: Vec<u64> = Vec::new();
            let base: u64 = pat.squares.iter().map(|&s| 1u64 << s).sum();
            let mut autos = Vec::new();
            for s in 0..8 {
                let image: Vec<u8> = pat.squares.iter().map(|&q| map_square(q, n, s)).collect();
                let set: u64 = image.iter().map(|&q| 1u64 << q).sum();
                if set == base {
                    let perm: Vec<usize> = image
                        .iter()
                        .map(|q| pat.squares.iter().position(|x| x == q).expect("same set"))
                        .collect();
                    if !autos.contains(&perm) {
                        autos.push(perm);
                    }
                }
                if !sets.contains(&set) {
                    sets.push(set);
                    instances.push((pi, image));
                }
            }
            automorphisms.push(autos);
            offsets.push(offsets[pi] + 3usize.pow(pat.squares.len() as u32));
        }
        assert!(instances.len() <= MAX_INSTANCES, "too many instances");
        let mut delta = vec![[0u16; MAX_INSTANCES]; 64];
        for (i, (_, squares)) in instances.iter().enumerate() {
            for (k, &sq) in squares.iter().enumerate() {
                delta[usize::from(sq)][i] = 3u16.pow(k as u32);
            }
        }
        Layout {
            size,
            patterns,
            instances,
            offsets,
            delta,
            automorphisms,
        }
    }

    /// Pattern weights in one phase (every pattern's table, before the other features).
    #[must_use]
    pub fn pattern_weights(&self) -> usize {
        self.offsets[self.patterns.len()]
    }

    /// The smallest index that a symmetry of pattern `pattern` onto itself gives the same
    /// contents as `index`: the one weight such indices share.
    #[must_use]
    pub fn canonical(&self, pattern: usize, index: usize) -> usize {
        let len = self.patterns[pattern].squares.len();
        let mut digits = [0usize; 16];
        let mut x = index;
        for d in digits.iter_mut().take(len) {
            *d = x % 3;
            x /= 3;
        }
        let mut best = index;
        for perm in &self.automorphisms[pattern] {
            // The image's digit perm[k] holds what digit k held.
            let mut v = 0;
            for k in (0..len).rev() {
                let from = perm.iter().position(|&p| p == k).expect("a permutation");
                v = v * 3 + digits[from];
            }
            best = best.min(v);
        }
        best
    }

    /// The index of instance `i` from the view of the side with discs `p` (other side `o`),
    /// read square by square: the slow, obvious way.
    #[must_use]
    pub fn index_of(&self, i: usize, p: u64, o: u64) -> usize {
        self.instances[i].1.iter().rev().fold(0, |acc, &sq| {
            let digit = if p >> sq & 1 != 0 {
                1
            } else if o >> sq & 1 != 0 {
                2
            } else {
                0
            };
            acc * 3 + digit
        })
    }
}

/// The layout of a board size; `None` for 4x4, which needs no evaluation.
#[must_use]
pub fn layout(size: BoardSize) -> Option<&'static Layout> {
    static EIGHT: LazyLock<Layout> = LazyLock::new(|| Layout::new(BoardSize::Eight, &PATTERNS_8));
    static SIX: LazyLock<Layout> = LazyLock::new(|| Layout::new(BoardSize::Six, &PATTERNS_6));
    match size {
        BoardSize::Eight => Some(&EIGHT),
        BoardSize::Six => Some(&SIX),
        BoardSize::Four => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_are_the_distinct_images() {
        let eight = layout(BoardSize::Eight).unwrap();
        // Edax's set: 4 corner blocks, 8 corner 2x5, 4 edges, 4 of each row, 2 long
        // diagonals, 4 of each shorter one.
        assert_eq!(eight.instances.len(), 46);
        let six = layout(BoardSize::Six).unwrap();
        assert_eq!(six.instances.len(), 34);
        for l in [eight, six] {
            let mask = l.size.mask().0;
            for (_, sq) in &l.instances {
                assert!(sq.iter().all(|&s| mask >> s & 1 != 0), "on the board");
            }
        }
    }

    #[test]
    fn symmetries_form_the_group_of_the_square() {
        for n in [6u8, 8] {
            for s in 0..8 {
                let mut seen = 0u64;
                for r in 0..n {
                    for c in 0..n {
                        seen |= 1 << map_square(r * 8 + c, n, s);
                    }
                }
                assert_eq!(seen.count_ones(), u32::from(n) * u32::from(n));
            }
        }
    }

    #[test]
    fn canonical_ties_mirrored_rows() {
        let l = layout(BoardSize::Eight).unwrap();
        let row = 3; // the second row: its mirror reverses it
                     // a2 mine, the rest empty; and h2 mine.
        let a = 1;
        let h = 3usize.pow(7);
        assert_eq!(l.canonical(row, a), l.canonical(row, h));
        assert_eq!(l.canonical(row, a), 1);
        // The corner 2x5 is nobody's image: every index is its own.
        assert_eq!(l.canonical(1, 12345), 12345);
    }
}
