//! A pattern evaluation of 8x8 positions, learnt from exactly solved endgames: the sum of one
//! weight per pattern and per board symmetry, looked up by the contents of the pattern's
//! squares (empty, mine, theirs as a base-3 number), plus a weight per move of mobility.
//!
//! It predicts the final disc difference of positions with roughly 12 to 24 empty squares
//! well enough to order moves: the exact solver tries first the move whose child it rates
//! worst for the opponent. The weights are made by `cargo run --release -p ply-othello
//! --example train-pattern` (the positions, their exact scores and the fit are all produced
//! there, from a fixed seed) and shipped in `data/pattern8.bin`.
//!
//! ```
//! use ply_othello::{pattern, BoardSize, Position};
//! let eval = pattern::builtin().expect("the shipped weights load");
//! let pos = Position::start(BoardSize::Eight);
//! let v = eval.evaluate(pos.player().0, pos.opponent().0);
//! assert!(v.abs() < 10 * pattern::UNIT);
//! ```

use std::sync::LazyLock;

/// One disc of predicted score in weight units.
pub const UNIT: i32 = 64;

/// A pattern's squares on the 8x8 layout (a1 = bit 0), in the order of its base-3 digits:
/// the lowest square is the lowest digit.
const fn mask(squares: &[u8]) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < squares.len() {
        m |= 1 << squares[i];
        i += 1;
    }
    m
}

/// The patterns, one instance each; the other instances come from the eight symmetries of
/// the board. Squares: a1 = 0, h1 = 7, a2 = 8, … h8 = 63.
pub const PATTERNS: [u64; 11] = [
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

/// Where each pattern's table starts in the weight vector, and the total length (the last
/// weight is the mobility weight).
const fn offsets() -> [usize; PATTERNS.len() + 1] {
    let mut o = [0; PATTERNS.len() + 1];
    let mut i = 0;
    while i < PATTERNS.len() {
        o[i + 1] = o[i] + 3usize.pow(PATTERNS[i].count_ones());
        i += 1;
    }
    o
}

/// Start of each pattern's table; `OFFSETS[PATTERNS.len()]` is the mobility weight's index.
pub const OFFSETS: [usize; PATTERNS.len() + 1] = offsets();
/// Number of weights: every pattern table, then mobility.
pub const WEIGHTS: usize = OFFSETS[PATTERNS.len()] + 1;

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

/// The board mirrored top to bottom.
#[inline]
fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// The board mirrored left to right.
#[inline]
fn flip_horizontal(b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((b & 0x0f0f_0f0f_0f0f_0f0f) << 4)
}

/// The board mirrored in the a1-h8 diagonal.
#[inline]
fn flip_diagonal(b: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// The eight images of a board under the symmetries of the square.
#[inline]
pub fn symmetries(b: u64) -> [u64; 8] {
    let v = flip_vertical(b);
    let h = flip_horizontal(b);
    let vh = flip_horizontal(v);
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

/// The weight indices a position lights up (with `p` to move): one per pattern and symmetry,
/// in a fixed order. The mobility feature is apart (see [`mobility`]).
#[inline]
pub fn features(p: u64, o: u64) -> [u32; 8 * PATTERNS.len()] {
    let ps = symmetries(p);
    let os = symmetries(o);
    let mut out = [0u32; 8 * PATTERNS.len()];
    let mut k = 0;
    for s in 0..8 {
        for (i, &m) in PATTERNS.iter().enumerate() {
            let idx = usize::from(TERNARY[extract(ps[s], m)])
                + 2 * usize::from(TERNARY[extract(os[s], m)]);
            out[k] = (OFFSETS[i] + idx) as u32;
            k += 1;
        }
    }
    out
}

/// Moves of the side to move minus moves of the other side.
#[inline]
pub fn mobility(p: u64, o: u64) -> i32 {
    let empty = !(p | o);
    crate::moves::legal_moves(p, o, empty).count_ones() as i32
        - crate::moves::legal_moves(o, p, empty).count_ones() as i32
}

/// Learnt weights, ready to evaluate positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternEval {
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

/// First bytes of a weight file.
const MAGIC: &[u8; 8] = b"plypat1\n";

impl PatternEval {
    /// Weights from a vector of [`WEIGHTS`] values.
    ///
    /// # Errors
    /// When the vector has the wrong length.
    pub fn from_weights(weights: Vec<i16>) -> Result<PatternEval, BadWeights> {
        if weights.len() != WEIGHTS {
            return Err(BadWeights(format!(
                "{} weights where {WEIGHTS} are needed",
                weights.len()
            )));
        }
        Ok(PatternEval { weights })
    }

    /// Reads a weight file: the magic line, then [`WEIGHTS`] little-endian `i16`.
    ///
    /// # Errors
    /// When the magic line is missing or the length is not exactly right.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternEval, BadWeights> {
        let Some(body) = bytes.strip_prefix(MAGIC.as_slice()) else {
            return Err(BadWeights("the file does not start with `plypat1`".into()));
        };
        if body.len() != 2 * WEIGHTS {
            return Err(BadWeights(format!(
                "{} bytes of weights where {} are needed",
                body.len(),
                2 * WEIGHTS
            )));
        }
        let weights = body
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        PatternEval::from_weights(weights)
    }

    /// The weight file of these weights, as [`PatternEval::from_bytes`] reads it.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The predicted final disc difference for the side to move (`p`), in [`UNIT`]s.
    #[inline]
    #[must_use]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        let mut sum = 0i32;
        for f in features(p, o) {
            sum += i32::from(self.weights[f as usize]);
        }
        sum + i32::from(self.weights[WEIGHTS - 1]) * mobility(p, o)
    }
}

/// The weights shipped with ply, or `None` when they do not load (the solver then orders
/// moves without them).
#[must_use]
pub fn builtin() -> Option<&'static PatternEval> {
    static BUILTIN: LazyLock<Option<PatternEval>> = LazyLock::new(|| {
        if let Some(path) = std::env::var_os("PLY_PATTERN") {
            return PatternEval::from_bytes(&std::fs::read(path).ok()?).ok();
        }
        PatternEval::from_bytes(include_bytes!("../data/pattern8.bin")).ok()
    });
    BUILTIN.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bit(col: u32, row: u32) -> u64 {
        1 << (row * 8 + col)
    }

    #[test]
    fn symmetries_map_squares_as_the_square_does() {
        for row in 0..8 {
            for col in 0..8 {
                let s = symmetries(bit(col, row));
                let want = [
                    bit(col, row),
                    bit(col, 7 - row),
                    bit(7 - col, row),
                    bit(7 - col, 7 - row),
                    bit(row, col),
                    bit(7 - row, col),
                    bit(row, 7 - col),
                    bit(7 - row, 7 - col),
                ];
                assert_eq!(s, want, "square {col},{row}");
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

    #[test]
    fn features_stay_in_their_tables_and_are_symmetric() {
        let p = bit(0, 0) | bit(3, 3) | bit(4, 5) | bit(6, 1);
        let o = bit(1, 0) | bit(4, 4) | bit(2, 6);
        let f = features(p, o);
        for (k, &i) in f.iter().enumerate() {
            let pat = k % PATTERNS.len();
            assert!((OFFSETS[pat]..OFFSETS[pat + 1]).contains(&(i as usize)));
        }
        // Any symmetric image of the position lights up the same multiset of weights.
        let mut a = f.to_vec();
        a.sort_unstable();
        for (sp, so) in symmetries(p).into_iter().zip(symmetries(o)) {
            let mut b = features(sp, so).to_vec();
            b.sort_unstable();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn weight_files_round_trip_and_bad_ones_are_refused() {
        let w: Vec<i16> = (0..WEIGHTS).map(|i| (i % 200) as i16 - 100).collect();
        let e = PatternEval::from_weights(w).unwrap();
        assert_eq!(PatternEval::from_bytes(&e.to_bytes()).unwrap(), e);
        let bytes = e.to_bytes();
        assert!(PatternEval::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(PatternEval::from_bytes(b"nonsense").is_err());
    }

    #[test]
    fn the_shipped_weights_load_and_like_corners() {
        let e = builtin().expect("data/pattern8.bin loads");
        let start = crate::Position::start(crate::BoardSize::Eight);
        let (p, o) = (start.player().0, start.opponent().0);
        assert!(e.evaluate(p | bit(0, 0), o) > e.evaluate(p, o | bit(0, 0)));
    }
}
