//! Pattern evaluations of 6x6 and 8x8 positions, learnt from exactly solved endgames: the sum
//! of one weight per pattern and per board symmetry, looked up by the contents of the pattern's
//! squares (empty, mine, theirs as a base-3 number), plus a weight per move of mobility.
//!
//! It predicts the final disc difference of positions with roughly 12 to 24 empty squares
//! well enough to order moves: the exact solver tries first the move whose child it rates
//! worst for the opponent. The weights are made by `cargo run --release -p ply-othello
//! --example train-pattern` (the positions, their exact scores and the fit are all produced
//! there, from a fixed seed) and shipped in `data/pattern8.bin` and `data/pattern6.bin`.
//!
//! ```
//! use ply_othello::{pattern, BoardSize, Position};
//! let eval = pattern::builtin(BoardSize::Eight).expect("the shipped weights load");
//! let pos = Position::start(BoardSize::Eight);
//! let v = eval.evaluate(pos.player().0, pos.opponent().0);
//! assert!(v.abs() < 10 * pattern::UNIT);
//! ```

use std::sync::LazyLock;

use crate::BoardSize;

/// One disc of predicted score in weight units.
pub const UNIT: i32 = 64;

/// A pattern's squares on the 8x8 layout (a1 = bit 0); the lowest square is the lowest
/// base-3 digit.
const fn mask(squares: &[u8]) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < squares.len() {
        m |= 1 << squares[i];
        i += 1;
    }
    m
}

/// The 8x8 patterns, one instance each; the other instances come from the eight symmetries
/// of the board. Squares: a1 = 0, h1 = 7, a2 = 8, … h8 = 63.
const PATTERNS_8: [u64; 11] = [
    mask(&[8, 9, 10, 11, 12, 13, 14, 15]),    // second row
    mask(&[16, 17, 18, 19, 20, 21, 22, 23]),  // third row
    mask(&[24, 25, 26, 27, 28, 29, 30, 31]),  // fourth row
    mask(&[0, 9, 18, 27, 36, 45, 54, 63]),    // long diagonal
    mask(&[1, 10, 19, 28, 37, 46, 55]),       // diagonal of 7
    mask(&[2, 11, 20, 29, 38, 47]),           // diagonal of 6
    mask(&[3, 12, 21, 30, 39]),               // diagonal of 5
    mask(&[4, 13, 22, 31]),                   // diagonal of 4
    mask(&[0, 1, 2, 3, 4, 5, 6, 7, 9, 14]),   // edge and both X-squares
    mask(&[0, 1, 2, 8, 9, 10, 16, 17, 18]),   // corner 3x3
    mask(&[0, 1, 2, 3, 4, 8, 9, 10, 11, 12]), // corner 2x5
];

/// The 6x6 patterns (the board sits in a1..f6 of the 8x8 layout).
const PATTERNS_6: [u64; 8] = [
    mask(&[8, 9, 10, 11, 12, 13]),          // second row
    mask(&[16, 17, 18, 19, 20, 21]),        // third row
    mask(&[0, 9, 18, 27, 36, 45]),          // long diagonal
    mask(&[1, 10, 19, 28, 37]),             // diagonal of 5
    mask(&[2, 11, 20, 29]),                 // diagonal of 4
    mask(&[0, 1, 2, 3, 4, 5, 9, 12]),       // edge and both X-squares
    mask(&[0, 1, 2, 8, 9, 10, 16, 17, 18]), // corner 3x3
    mask(&[0, 1, 2, 3, 8, 9, 10, 11]),      // corner 2x4
];

/// The base-3 value of each 10-bit set: bit i counts 3^i.
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u16;
        let mut i = 9;
        loop {
            v = v * 3 + ((b >> i) & 1) as u16;
            if i == 0 {
                break;
            }
            i -= 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The bits of `x` under `mask`, packed low (BMI2 `pext` where the CPU has it).
#[inline]
fn extract(x: u64, mask: u64) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the target has BMI2 (checked by the cfg above).
        unsafe { std::arch::x86_64::_pext_u64(x, mask) as usize }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut m, mut out, mut bit) = (mask, 0usize, 0);
        while m != 0 {
            let sq = m.trailing_zeros();
            out |= ((x >> sq & 1) as usize) << bit;
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

/// The board mirrored left to right on the 8x8 layout.
#[inline]
fn flip_horizontal(b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((b & 0x0f0f_0f0f_0f0f_0f0f) << 4)
}

/// The board mirrored in the a1-h8 diagonal (which is also the a1 diagonal of the smaller
/// boards in the corner).
#[inline]
fn flip_diagonal(b: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// The eight images of a board of side `n` (in the corner of the 8x8 layout) under the
/// symmetries of the square.
#[inline]
#[must_use]
pub fn symmetries(b: u64, n: u32) -> [u64; 8] {
    let gap = 8 - n;
    let v = b.swap_bytes() >> (8 * gap);
    let h = flip_horizontal(b) >> gap;
    let vh = flip_horizontal(v) >> gap;
    [
        b,
        v,
        h,
        vh,
        flip_diagonal(b),
        flip_diagonal(v),
        flip_diagonal(h),
        flip_diagonal(vh),
    ]
}

/// Moves of the side to move minus moves of the other side (`mask`: the squares that exist).
#[inline]
#[must_use]
pub fn mobility(p: u64, o: u64, mask: u64) -> i32 {
    let empty = !(p | o) & mask;
    crate::moves::legal_moves(p, o, empty).count_ones() as i32
        - crate::moves::legal_moves(o, p, empty).count_ones() as i32
}

/// Learnt weights for one board size, ready to evaluate positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternEval {
    size: BoardSize,
    patterns: &'static [u64],
    /// Where each pattern's table starts; the last entry is the mobility weight's index.
    offsets: Vec<usize>,
    weights: Vec<i16>,
}

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadWeights(pub String);

impl std::fmt::Display for BadWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pattern weights: {}", self.0)
    }
}

impl std::error::Error for BadWeights {}

/// The patterns of a board size, if it has any.
fn patterns_of(size: BoardSize) -> Option<&'static [u64]> {
    match size {
        BoardSize::Eight => Some(&PATTERNS_8),
        BoardSize::Six => Some(&PATTERNS_6),
        BoardSize::Four => None,
    }
}

/// First bytes of a weight file of a board size.
fn magic(size: BoardSize) -> [u8; 8] {
    let mut m = *b"plypat?\n";
    m[6] = b'0' + size.n();
    m
}

impl PatternEval {
    /// Number of weights of a board size (every pattern table, then mobility), or `None`
    /// for 4x4, which is solved too fast to need them.
    #[must_use]
    pub fn weight_count(size: BoardSize) -> Option<usize> {
        patterns_of(size).map(|p| p.iter().map(|m| 3usize.pow(m.count_ones())).sum::<usize>() + 1)
    }

    /// Weights from a vector of [`PatternEval::weight_count`] values.
    ///
    /// # Errors
    /// When the board size has no patterns or the vector has the wrong length.
    pub fn from_weights(size: BoardSize, weights: Vec<i16>) -> Result<PatternEval, BadWeights> {
        let Some(patterns) = patterns_of(size) else {
            return Err(BadWeights(format!("no patterns for {0}x{0}", size.n())));
        };
        let mut offsets = vec![0];
        for m in patterns {
            offsets.push(offsets[offsets.len() - 1] + 3usize.pow(m.count_ones()));
        }
        if weights.len() != offsets[offsets.len() - 1] + 1 {
            return Err(BadWeights(format!(
                "{} weights where {} are needed",
                weights.len(),
                offsets[offsets.len() - 1] + 1
            )));
        }
        Ok(PatternEval {
            size,
            patterns,
            offsets,
            weights,
        })
    }

    /// Reads a weight file: the magic line (`plypat8` or `plypat6`), then the weights as
    /// little-endian `i16`.
    ///
    /// # Errors
    /// When the magic line is missing or the length is not exactly right.
    pub fn from_bytes(size: BoardSize, bytes: &[u8]) -> Result<PatternEval, BadWeights> {
        let Some(body) = bytes.strip_prefix(magic(size).as_slice()) else {
            return Err(BadWeights(format!(
                "the file does not start with `plypat{}`",
                size.n()
            )));
        };
        if body.len() % 2 != 0 {
            return Err(BadWeights(format!(
                "{} bytes of weights: an odd number",
                body.len()
            )));
        }
        let weights = body
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        PatternEval::from_weights(size, weights)
    }

    /// The weight file of these weights, as [`PatternEval::from_bytes`] reads it.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = magic(self.size).to_vec();
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The board size these weights are for.
    #[must_use]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Calls `each` with the index of every weight a position lights up (with `p` to move):
    /// one per pattern and symmetry. The mobility weight is apart (the last index).
    #[inline]
    pub fn features(&self, p: u64, o: u64, mut each: impl FnMut(usize)) {
        let n = u32::from(self.size.n());
        let ps = symmetries(p, n);
        let os = symmetries(o, n);
        for (sp, so) in ps.into_iter().zip(os) {
            for (i, &m) in self.patterns.iter().enumerate() {
                let idx =
                    usize::from(TERNARY[extract(sp, m)]) + 2 * usize::from(TERNARY[extract(so, m)]);
                each(self.offsets[i] + idx);
            }
        }
    }

    /// The predicted final disc difference for the side to move (`p`), in [`UNIT`]s.
    #[inline]
    #[must_use]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        let mut sum = 0i32;
        self.features(p, o, |f| sum += i32::from(self.weights[f]));
        let mob = mobility(p, o, self.size.mask().0);
        sum + i32::from(self.weights[self.weights.len() - 1]) * mob
    }
}

/// The weights shipped with ply for a board size, or `None` for 4x4 or when they do not load
/// (the solver then orders moves without them).
#[must_use]
pub fn builtin(size: BoardSize) -> Option<&'static PatternEval> {
    static EIGHT: LazyLock<Option<PatternEval>> = LazyLock::new(|| {
        PatternEval::from_bytes(BoardSize::Eight, include_bytes!("../data/pattern8.bin")).ok()
    });
    static SIX: LazyLock<Option<PatternEval>> = LazyLock::new(|| {
        PatternEval::from_bytes(BoardSize::Six, include_bytes!("../data/pattern6.bin")).ok()
    });
    match size {
        BoardSize::Eight => EIGHT.as_ref(),
        BoardSize::Six => SIX.as_ref(),
        BoardSize::Four => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bit(col: u32, row: u32) -> u64 {
        1 << (row * 8 + col)
    }

    #[test]
    fn symmetries_map_squares_as_the_square_does() {
        for n in [6, 8] {
            let m = n - 1;
            for row in 0..n {
                for col in 0..n {
                    let s = symmetries(bit(col, row), n);
                    let want = [
                        bit(col, row),
                        bit(col, m - row),
                        bit(m - col, row),
                        bit(m - col, m - row),
                        bit(row, col),
                        bit(m - row, col),
                        bit(row, m - col),
                        bit(m - row, m - col),
                    ];
                    assert_eq!(s, want, "{n}x{n}, square {col},{row}");
                }
            }
        }
    }

    #[test]
    fn ternary_counts_each_bit_as_a_power_of_three() {
        assert_eq!(TERNARY[0], 0);
        assert_eq!(TERNARY[1], 1);
        assert_eq!(TERNARY[0b101], 10);
        assert_eq!(TERNARY[1023], 29524);
    }

    fn lit(e: &PatternEval, p: u64, o: u64) -> Vec<usize> {
        let mut f = Vec::new();
        e.features(p, o, |i| f.push(i));
        f
    }

    #[test]
    fn features_stay_in_their_tables_and_are_symmetric() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let n = u32::from(size.n());
            let count = PatternEval::weight_count(size).unwrap();
            let e = PatternEval::from_weights(size, vec![0; count]).unwrap();
            let p = bit(0, 0) | bit(3, 3) | bit(4, 5) | bit(5, 1);
            let o = bit(1, 0) | bit(4, 4) | bit(2, 5);
            let f = lit(&e, p, o);
            assert_eq!(f.len(), 8 * e.patterns.len());
            for (k, &i) in f.iter().enumerate() {
                let pat = k % e.patterns.len();
                assert!((e.offsets[pat]..e.offsets[pat + 1]).contains(&i));
            }
            // Any symmetric image of the position lights up the same multiset of weights.
            let mut a = f.clone();
            a.sort_unstable();
            for (sp, so) in symmetries(p, n).into_iter().zip(symmetries(o, n)) {
                let mut b = lit(&e, sp, so);
                b.sort_unstable();
                assert_eq!(a, b, "{n}x{n}");
            }
        }
    }

    #[test]
    fn weight_files_round_trip_and_bad_ones_are_refused() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let count = PatternEval::weight_count(size).unwrap();
            let w: Vec<i16> = (0..count).map(|i| (i % 200) as i16 - 100).collect();
            let e = PatternEval::from_weights(size, w).unwrap();
            let bytes = e.to_bytes();
            assert_eq!(PatternEval::from_bytes(size, &bytes).unwrap(), e);
            assert!(PatternEval::from_bytes(size, &bytes[..bytes.len() - 1]).is_err());
            assert!(PatternEval::from_bytes(size, &bytes[..bytes.len() - 2]).is_err());
            assert!(PatternEval::from_bytes(size, b"nonsense").is_err());
        }
        let six = PatternEval::from_weights(
            BoardSize::Six,
            vec![0; PatternEval::weight_count(BoardSize::Six).unwrap()],
        )
        .unwrap();
        let err = PatternEval::from_bytes(BoardSize::Eight, &six.to_bytes()).unwrap_err();
        assert!(err.to_string().contains("plypat8"), "{err}");
        assert!(PatternEval::from_weights(BoardSize::Four, vec![]).is_err());
    }

    #[test]
    fn the_shipped_weights_load_and_like_corners() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let e = builtin(size).expect("the weight file loads");
            let m = u32::from(size.n()) - 1;
            let start = crate::Position::start(size);
            let (p, o) = (start.player().0, start.opponent().0);
            let corner = bit(m, m);
            assert!(
                e.evaluate(p | corner, o) > e.evaluate(p, o | corner),
                "{size:?}"
            );
        }
        assert!(builtin(BoardSize::Four).is_none());
    }
}
