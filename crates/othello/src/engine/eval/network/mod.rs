//! A small network over the pattern features (NNUE, as Stockfish's and Neural Reversi's):
//! the evaluation that sees how the patterns interact, where the tables only add them up.
//!
//! The inputs are the features the tables read (each pattern instance's configuration, the
//! symmetric images of a pattern sharing their rows, and the counts of [`super::EXTRAS`]).
//! Each lit feature adds its row of `width` values to an accumulator; then, in the game
//! phase's own weights ([`super::phase_of`]),
//!
//! ```text
//! a   = bias + Σ rows[feature]                      (width values)
//! h0  = clamp(a, 0, 1)
//! h1  = clamp(L2 · h0 + b2, 0, 1)                    (hidden values)
//! out = w3 · h1 + skip · a + b3                      (discs, for the side to move)
//! ```
//!
//! The linear skip from the accumulator carries what the tables carry (a sum over the
//! features, here of rank `width` across the phases); the hidden layer carries how the
//! features interact.
//!
//! [`Float`] holds the weights as the trainer (`ply-train`'s `net`) learns them and evaluates
//! them the slow, obvious way in `f64`; [`Network`] holds them quantized as the search uses
//! them: the rows in `i16` at [`QA`] per unit, the hidden layer in `i8` at [`QW`] per unit,
//! integer arithmetic throughout ([`Network::value`]). [`file`] reads and writes them.
//!
//! ```
//! use ply_othello::eval::network::{Float, Network};
//! use ply_othello::{BoardSize, Position};
//! let float = Float::seeded(BoardSize::Eight, 32, 8, 7);
//! let net = Network::quantize(&float);
//! let pos = Position::start(BoardSize::Eight);
//! let (p, o) = (pos.player().0, pos.opponent().0);
//! let exact = float.evaluate(p, o);
//! let fast = f64::from(net.evaluate(p, o)) / 64.0;
//! assert!((exact - fast).abs() < 0.25, "{exact} {fast}");
//! ```

pub mod file;

use super::{
    extra_indices, extra_indices_counted, layout, phase_count, phase_of, Layout, EXTRA_WEIGHTS,
    MAX_INSTANCES, UNIT,
};
use crate::BoardSize;

/// The accumulator's fixed point: a row value or accumulator of 1.0 is `QA` (so a row
/// holds at most ±[`MAX_ROW`]).
pub const QA: i32 = 1024;

/// The activations' fixed point: a clipped value of 1.0 is `QH`.
pub const QH: i32 = 128;

/// The hidden layer's weights' fixed point: a weight of 1.0 is `QW`.
pub const QW: i32 = 64;

/// The largest row or accumulator bias value that quantizes (in `i16` at [`QA`]).
pub const MAX_ROW: f32 = 31.99;

/// The largest hidden-layer weight that quantizes without clipping.
pub const MAX_HIDDEN_WEIGHT: f32 = 127.0 / QW as f32;

/// The output's extra fixed-point bits: its sums are in [`UNIT`]s times `2^OUT_BITS`.
pub const OUT_BITS: u32 = 14;

/// The widest accumulator the search's fixed-size buffers hold.
pub const MAX_WIDTH: usize = 256;

/// The most hidden values.
pub const MAX_HIDDEN: usize = 64;

/// The accumulator values summed together in registers: the search's copy of the weights is
/// padded with zeros to whole blocks of this many.
pub const LANES: usize = 16;

/// The first [`LANES`] values of `v` as an array (the compiler keeps it in registers).
#[inline(always)]
fn lanes<T: Copy + Default>(v: &[T]) -> [T; LANES] {
    let mut out = [T::default(); LANES];
    out.copy_from_slice(&v[..LANES]);
    out
}

/// How the features of a board size map to the network's rows: the pattern configurations
/// that a symmetry of the pattern onto itself ties share one row (as they share one weight
/// in the tables), and every extra count has its own.
#[derive(Debug)]
pub struct Features {
    /// The layout the features are read with.
    pub layout: &'static Layout,
    /// `row[w]`: the row of the table weight index `w` (pattern offset + configuration, then
    /// `pattern_weights()` + the extras' indices).
    pub row: Vec<u32>,
    /// `representative[r]`: the least table weight index of row `r`.
    pub representative: Vec<u32>,
}

impl Features {
    /// The features of board size `size`, or `None` for 4x4.
    #[must_use]
    pub fn of(size: BoardSize) -> Option<&'static Features> {
        static EIGHT: std::sync::LazyLock<Features> =
            std::sync::LazyLock::new(|| Features::new(layout(BoardSize::Eight).expect("8x8")));
        static SIX: std::sync::LazyLock<Features> =
            std::sync::LazyLock::new(|| Features::new(layout(BoardSize::Six).expect("6x6")));
        match size {
            BoardSize::Eight => Some(&EIGHT),
            BoardSize::Six => Some(&SIX),
            BoardSize::Four => None,
        }
    }

    fn new(layout: &'static Layout) -> Features {
        let total = layout.pattern_weights() + EXTRA_WEIGHTS;
        let mut row = vec![u32::MAX; total];
        let mut representative = Vec::new();
        for (p, pat) in layout.patterns.iter().enumerate() {
            let start = layout.offsets[p];
            for index in 0..3usize.pow(pat.squares.len() as u32) {
                let canonical = layout.canonical(p, index);
                if canonical == index {
                    row[start + index] = representative.len() as u32;
                    representative.push((start + index) as u32);
                } else {
                    row[start + index] = row[start + canonical];
                }
            }
        }
        for (w, r) in row.iter_mut().enumerate().skip(layout.pattern_weights()) {
            *r = representative.len() as u32;
            representative.push(w as u32);
        }
        Features {
            layout,
            row,
            representative,
        }
    }

    /// Number of rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.representative.len()
    }

    /// Number of features lit in every position: one per instance, one per extra count.
    #[must_use]
    pub fn lit(&self) -> usize {
        self.layout.instances.len() + super::EXTRAS.len()
    }

    /// The rows lit by the position with `p` to move against `o`, read square by square.
    #[must_use]
    pub fn rows_of(&self, p: u64, o: u64) -> Vec<u32> {
        let l = self.layout;
        let empty = !(p | o) & l.size.mask().0;
        let mut out: Vec<u32> = (0..l.instances.len())
            .map(|i| self.row[l.offsets[l.instances[i].0] + l.index_of(i, p, o)])
            .collect();
        out.extend(
            extra_indices(p, o, empty)
                .iter()
                .map(|&x| self.row[l.pattern_weights() + x]),
        );
        out
    }
}

/// The network's weights in floating point, as the trainer learns them; [`Float::evaluate`]
/// is the slow reference the quantized [`Network`] is tested against.
#[derive(Clone, Debug, PartialEq)]
pub struct Float {
    /// The board size.
    pub size: BoardSize,
    /// Accumulator width.
    pub width: usize,
    /// Hidden values.
    pub hidden: usize,
    /// `rows × width`: each feature row's contribution to the accumulator ([`Features`]).
    pub rows: Vec<f32>,
    /// `width`: the accumulator's start.
    pub bias: Vec<f32>,
    /// `phases × hidden × width`: the hidden layer.
    pub l2: Vec<f32>,
    /// `phases × hidden`.
    pub l2_bias: Vec<f32>,
    /// `phases × hidden`: the output's weights of the hidden values, in discs.
    pub out: Vec<f32>,
    /// `phases × width`: the output's weights of the accumulator (the skip), in discs.
    pub skip: Vec<f32>,
    /// `phases`: the output's bias, in discs.
    pub out_bias: Vec<f32>,
}

impl Float {
    /// Zero weights of the given shape.
    ///
    /// # Panics
    /// For 4x4 (no features), or a width or hidden count above [`MAX_WIDTH`] or
    /// [`MAX_HIDDEN`] or zero.
    #[must_use]
    pub fn zeros(size: BoardSize, width: usize, hidden: usize) -> Float {
        assert!((1..=MAX_WIDTH).contains(&width), "width {width}");
        assert!((1..=MAX_HIDDEN).contains(&hidden), "hidden {hidden}");
        let rows = Features::of(size).expect("an evaluated size").rows();
        let phases = phase_count(size);
        Float {
            size,
            width,
            hidden,
            rows: vec![0.0; rows * width],
            bias: vec![0.0; width],
            l2: vec![0.0; phases * hidden * width],
            l2_bias: vec![0.0; phases * hidden],
            out: vec![0.0; phases * hidden],
            skip: vec![0.0; phases * width],
            out_bias: vec![0.0; phases],
        }
    }

    /// Small pseudo-random weights from `seed` (the trainer's start; also what the tests
    /// quantize).
    #[must_use]
    pub fn seeded(size: BoardSize, width: usize, hidden: usize, seed: u64) -> Float {
        let mut f = Float::zeros(size, width, hidden);
        let mut rng = ply_core::SplitMix64::new(seed);
        let mut uniform = |scale: f32| {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            ((2.0 * u - 1.0) as f32) * scale
        };
        let lit = Features::of(size).expect("evaluated").lit() as f32;
        for w in &mut f.rows {
            *w = uniform(0.5 / lit.sqrt());
        }
        for b in &mut f.bias {
            *b = 0.5;
        }
        let fan_in = (width as f32).sqrt();
        for w in &mut f.l2 {
            *w = uniform(1.0 / fan_in);
        }
        for b in &mut f.l2_bias {
            *b = 0.5;
        }
        for w in &mut f.out {
            *w = uniform(1.0);
        }
        for w in &mut f.skip {
            *w = uniform(1.0);
        }
        f
    }

    /// The predicted final disc difference for `p` to move against `o`, in discs, every
    /// feature read square by square and every sum in `f64`.
    #[must_use]
    pub fn evaluate(&self, p: u64, o: u64) -> f64 {
        let features = Features::of(self.size).expect("evaluated");
        let empty = !(p | o) & self.size.mask().0;
        let phase = phase_of(self.size, empty.count_ones());
        let (w, h) = (self.width, self.hidden);
        let mut a: Vec<f64> = self.bias.iter().map(|&b| f64::from(b)).collect();
        for r in features.rows_of(p, o) {
            let r = r as usize;
            for (x, &v) in a.iter_mut().zip(&self.rows[r * w..(r + 1) * w]) {
                *x += f64::from(v);
            }
        }
        let h0: Vec<f64> = a.iter().map(|&x| x.clamp(0.0, 1.0)).collect();
        let mut out = f64::from(self.out_bias[phase]);
        for k in 0..h {
            let weights = &self.l2[(phase * h + k) * w..(phase * h + k + 1) * w];
            let pre = f64::from(self.l2_bias[phase * h + k])
                + weights
                    .iter()
                    .zip(&h0)
                    .map(|(&v, &x)| f64::from(v) * x)
                    .sum::<f64>();
            out += f64::from(self.out[phase * h + k]) * pre.clamp(0.0, 1.0);
        }
        let skip = &self.skip[phase * w..(phase + 1) * w];
        out + skip
            .iter()
            .zip(&a)
            .map(|(&v, &x)| f64::from(v) * x)
            .sum::<f64>()
    }
}

/// The network quantized for the search: what [`super::Eval`] evaluates with when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    size: BoardSize,
    width: usize,
    hidden: usize,
    /// The weights as the file holds them.
    parts: Parts,
    /// The width rounded up to whole [`LANES`]: the search's copies below are this wide,
    /// zero past `width`, so every sum runs over whole blocks of lanes held in registers.
    padded: usize,
    /// `table weight indices × padded`: the rows laid out by the tables' indices, so an
    /// instance's row is found from its configuration without the symmetry look-up.
    expanded: Vec<i16>,
    /// `padded`: the accumulator's bias.
    bias: Vec<i32>,
    /// `phases × hidden × padded`: the hidden layer.
    l2: Vec<i8>,
    /// `phases × padded`: the skip weights.
    skip: Vec<i32>,
    /// Where each instance's configurations start in the table weight indices.
    instance_offsets: [u32; MAX_INSTANCES],
    instances: usize,
    pattern_weights: usize,
}

fn round_to<T: TryFrom<i64>>(x: f64, what: &str) -> T {
    let r = x.round() as i64;
    T::try_from(r).unwrap_or_else(|_| panic!("{what} {x} does not fit its integer type"))
}

impl Network {
    /// The network of `float` in fixed point: rows and accumulator at [`QA`] per unit, the
    /// clipped activations at [`QH`], the hidden layer's weights at [`QW`] (clipped to
    /// ±[`MAX_HIDDEN_WEIGHT`]), the output in [`UNIT`]s with [`OUT_BITS`] more bits, all
    /// sums exact in integers.
    ///
    /// # Panics
    /// If a row or accumulator bias is beyond ±[`MAX_ROW`] (out of `i16` at [`QA`]).
    #[must_use]
    pub fn quantize(float: &Float) -> Network {
        let qa = f64::from(QA);
        let qh = f64::from(QH);
        let out_scale = f64::from(UNIT) * f64::from(1u32 << OUT_BITS);
        let q16 = |v: &[f32], what: &str| -> Vec<i16> {
            v.iter()
                .map(|&x| round_to::<i16>(f64::from(x) * qa, what))
                .collect()
        };
        let canonical = q16(&float.rows, "a row weight");
        let bias = q16(&float.bias, "an accumulator bias");
        let l2 = float
            .l2
            .iter()
            .map(|&x| {
                let c = x.clamp(-MAX_HIDDEN_WEIGHT, MAX_HIDDEN_WEIGHT);
                round_to::<i8>(f64::from(c) * f64::from(QW), "a hidden weight")
            })
            .collect();
        let l2_bias = float
            .l2_bias
            .iter()
            .map(|&x| round_to::<i32>(f64::from(x) * qh * f64::from(QW), "a hidden bias"))
            .collect();
        let scaled = |v: &[f32], by: f64, what: &str| -> Vec<i32> {
            v.iter()
                .map(|&x| round_to::<i32>(f64::from(x) * by, what))
                .collect()
        };
        Network::from_parts(
            float.size,
            float.width,
            float.hidden,
            Parts {
                canonical,
                bias,
                l2,
                l2_bias,
                out: scaled(&float.out, out_scale / qh, "an output weight"),
                skip: scaled(&float.skip, out_scale / qa, "a skip weight"),
                out_bias: scaled(&float.out_bias, out_scale, "an output bias"),
            },
        )
    }

    fn from_parts(size: BoardSize, width: usize, hidden: usize, parts: Parts) -> Network {
        let features = Features::of(size).expect("an evaluated size");
        let l = features.layout;
        let padded = width.div_ceil(LANES) * LANES;
        let pad = |v: &[i16], rows: usize| -> Vec<i16> {
            let mut out = vec![0; rows * padded];
            for (to, from) in out.chunks_exact_mut(padded).zip(v.chunks_exact(width)) {
                to[..width].copy_from_slice(from);
            }
            out
        };
        let mut expanded = vec![0i16; features.row.len() * padded];
        for (w, &r) in features.row.iter().enumerate() {
            let r = r as usize;
            expanded[w * padded..w * padded + width]
                .copy_from_slice(&parts.canonical[r * width..(r + 1) * width]);
        }
        let phases = phase_count(size);
        let bias = pad(&parts.bias, 1).into_iter().map(i32::from).collect();
        let mut l2 = vec![0i8; phases * hidden * padded];
        for (to, from) in l2
            .chunks_exact_mut(padded)
            .zip(parts.l2.chunks_exact(width))
        {
            to[..width].copy_from_slice(from);
        }
        let mut skip = vec![0i32; phases * padded];
        for (to, from) in skip
            .chunks_exact_mut(padded)
            .zip(parts.skip.chunks_exact(width))
        {
            to[..width].copy_from_slice(from);
        }
        let mut instance_offsets = [0u32; MAX_INSTANCES];
        for (i, (pat, _)) in l.instances.iter().enumerate() {
            instance_offsets[i] = l.offsets[*pat] as u32;
        }
        Network {
            size,
            width,
            hidden,
            parts,
            padded,
            expanded,
            bias,
            l2,
            skip,
            instance_offsets,
            instances: l.instances.len(),
            pattern_weights: l.pattern_weights(),
        }
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Accumulator width.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Hidden values.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The predicted final disc difference for `p` to move against `o`, in [`UNIT`]s (no
    /// side-to-move handicap: [`super::Eval`] takes its own).
    #[must_use]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        let l = Features::of(self.size).expect("evaluated").layout;
        let mut idx = [0u16; MAX_INSTANCES];
        for (i, x) in idx.iter_mut().enumerate().take(self.instances) {
            *x = l.index_of(i, p, o) as u16;
        }
        let empty = !(p | o) & self.size.mask().0;
        self.value(&idx, &extra_indices(p, o, empty), empty.count_ones())
    }

    /// The value, in [`UNIT`]s, of a position whose instances have the configurations
    /// `idx` (from the side to move's view, as [`super::EvalState::indices`]), whose extra
    /// features are `extras` ([`extra_indices_counted`]) and which has `empties` empty
    /// squares.
    ///
    /// The accumulator is summed one block of [`LANES`] at a time, the block held in
    /// registers over all the lit rows (a sum over the whole width at once would go through
    /// memory for every row).
    #[inline(always)]
    #[must_use]
    pub fn value(
        &self,
        idx: &[u16; MAX_INSTANCES],
        extras: &[usize; super::EXTRAS.len()],
        empties: u32,
    ) -> i32 {
        const LIT: usize = MAX_INSTANCES + super::EXTRAS.len();
        let pw = self.padded;
        let mut starts = [0usize; LIT];
        let lit = self.instances + extras.len();
        for (s, (&offset, &index)) in starts
            .iter_mut()
            .zip(self.instance_offsets.iter().zip(idx))
            .take(self.instances)
        {
            *s = (offset as usize + usize::from(index)) * pw;
        }
        for (s, &x) in starts[self.instances..lit].iter_mut().zip(extras) {
            *s = (self.pattern_weights + x) * pw;
        }
        let mut acc = [0i32; MAX_WIDTH];
        for block in (0..pw).step_by(LANES) {
            let mut a: [i32; LANES] = lanes(&self.bias[block..]);
            for &start in &starts[..lit] {
                let row: [i16; LANES] = lanes(&self.expanded[start + block..]);
                for (x, v) in a.iter_mut().zip(row) {
                    *x += i32::from(v);
                }
            }
            acc[block..block + LANES].copy_from_slice(&a);
        }
        self.output(&acc[..pw], phase_of(self.size, empties))
    }

    /// The layers after the accumulator `acc` (at [`QA`], [`Network::padded`] wide), in
    /// the weights of `phase`.
    #[inline(always)]
    fn output(&self, acc: &[i32], phase: usize) -> i32 {
        let (pw, h) = (self.padded, self.hidden);
        let down = (QA / QH).trailing_zeros();
        let mut h0 = [0i32; MAX_WIDTH];
        for (x, &a) in h0.iter_mut().zip(acc) {
            *x = ((a + (1 << (down - 1))) >> down).clamp(0, QH);
        }
        let h0 = &h0[..pw];
        let mut sum: i64 = i64::from(self.parts.out_bias[phase]);
        for k in 0..h {
            let weights = &self.l2[(phase * h + k) * pw..][..pw];
            let mut pre = [0i32; LANES];
            for (w, x) in weights.chunks_exact(LANES).zip(h0.chunks_exact(LANES)) {
                let (w, x): ([i8; LANES], [i32; LANES]) = (lanes(w), lanes(x));
                for j in 0..LANES {
                    pre[j] += i32::from(w[j]) * x[j];
                }
            }
            let pre = pre.iter().sum::<i32>() + self.parts.l2_bias[phase * h + k];
            let h1 = ((pre + QW / 2) >> QW.trailing_zeros()).clamp(0, QH);
            sum += i64::from(h1) * i64::from(self.parts.out[phase * h + k]);
        }
        let skip = &self.skip[phase * pw..][..pw];
        let mut linear = [0i64; LANES];
        for (s, a) in skip.chunks_exact(LANES).zip(acc.chunks_exact(LANES)) {
            let (s, a): ([i32; LANES], [i32; LANES]) = (lanes(s), lanes(a));
            for j in 0..LANES {
                linear[j] += i64::from(s[j]) * i64::from(a[j]);
            }
        }
        sum += linear.iter().sum::<i64>();
        ((sum + (1 << (OUT_BITS - 1))) >> OUT_BITS) as i32
    }

    /// [`Network::value`] of a position with `p` to move whose legal moves are counted
    /// (`mine`, `theirs`), from its instance configurations `idx`.
    #[inline(always)]
    #[must_use]
    pub fn value_counted(
        &self,
        idx: &[u16; MAX_INSTANCES],
        p: u64,
        o: u64,
        mine: u32,
        theirs: u32,
    ) -> i32 {
        let empty = !(p | o) & self.size.mask().0;
        let extras = extra_indices_counted(p, o, empty, mine, theirs);
        self.value(idx, &extras, empty.count_ones())
    }
}

/// The quantized weights in the order the file holds them: the rows (one per feature row of
/// [`Features`], at [`QA`] per unit), the accumulator's bias, then each phase's layers.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Parts {
    canonical: Vec<i16>,
    bias: Vec<i16>,
    l2: Vec<i8>,
    l2_bias: Vec<i32>,
    out: Vec<i32>,
    skip: Vec<i32>,
    out_bias: Vec<i32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_index_has_a_row_and_ties_share_one() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let f = Features::of(size).unwrap();
            assert!(f.row.iter().all(|&r| (r as usize) < f.rows()));
            for (r, &w) in f.representative.iter().enumerate() {
                assert_eq!(f.row[w as usize] as usize, r);
            }
            // A second-row configuration and its mirror share a row.
            let l = f.layout;
            let row = 3;
            let (a, h) = (1, 3usize.pow(l.patterns[row].squares.len() as u32 - 1));
            assert_eq!(f.row[l.offsets[row] + a], f.row[l.offsets[row] + h]);
            assert!(f.rows() < f.row.len());
        }
    }

    /// The quantized network's values are the floating-point reference's within a sixth
    /// of a disc, over positions of random games, every phase.
    #[test]
    fn the_quantized_network_is_the_float_one_within_a_sixth_of_a_disc() {
        // 40 is not a whole number of lanes: the padding adds nothing.
        for (size, width) in [(BoardSize::Six, 40), (BoardSize::Eight, 48)] {
            let float = Float::seeded(size, width, 16, 3);
            let net = Network::quantize(&float);
            let mut rng = ply_core::SplitMix64::new(11);
            let mut worst = 0f64;
            for _ in 0..6 {
                let mut pos = crate::Position::start(size);
                while !pos.is_game_over() {
                    let (p, o) = (pos.player().0, pos.opponent().0);
                    let exact = float.evaluate(p, o);
                    let fast = f64::from(net.evaluate(p, o)) / f64::from(UNIT);
                    worst = worst.max((exact - fast).abs());
                    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
                    pos = if moves.is_empty() {
                        pos.passed()
                    } else {
                        pos.play_unchecked(moves[rng.below(moves.len())])
                    };
                }
            }
            assert!(worst < 1.0 / 6.0, "{size:?}: off by {worst} discs");
        }
    }

    /// A network evaluation searched the way the engines search it: the state follows
    /// random games move by move, with moves taken back and replayed, and its value is
    /// always the one computed from the discs alone.
    #[test]
    fn the_incremental_state_values_as_a_fresh_computation_after_moves_and_undos() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let net = Network::quantize(&Float::seeded(size, 32, 8, 9));
            let e = super::super::Eval::from_network(net.clone());
            let mut rng = ply_core::SplitMix64::new(5);
            for _ in 0..4 {
                let mut pos = crate::Position::start(size);
                let mut state = e.state(pos.player().0, pos.opponent().0);
                while !pos.is_game_over() {
                    let (p, o) = (pos.player().0, pos.opponent().0);
                    assert_eq!(e.evaluate(&state, p, o), net.evaluate(p, o), "{pos}");
                    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
                    if moves.is_empty() {
                        pos = pos.passed();
                        state.pass();
                        continue;
                    }
                    // Try a move and take it back: the state is as it was.
                    let trial = moves[rng.below(moves.len())];
                    let f = pos.flips(trial).0;
                    let before = state;
                    state.play(trial.index(), f);
                    let next = pos.play_unchecked(trial);
                    let (np, no) = (next.player().0, next.opponent().0);
                    assert_eq!(e.evaluate(&state, np, no), net.evaluate(np, no));
                    state.undo(trial.index(), f);
                    assert_eq!(state, before);
                    let sq = moves[rng.below(moves.len())];
                    state.play(sq.index(), pos.flips(sq).0);
                    pos = pos.play_unchecked(sq);
                }
            }
        }
    }
}
