//! The one evaluation of ply: a pattern evaluation learnt from positions ply played and
//! scored itself, used by the midgame engine, the analysis (CLI, page, API) and the exact
//! solver's move ordering, on 6x6 and 8x8 (4x4 is solved at once and needs none).
//!
//! A position's value is the sum of one weight per pattern instance, looked up by the
//! contents of the instance's squares (see [`patterns`]), plus one weight for each of a few
//! counts ([`EXTRAS`]: each side's moves, the disc difference, each side's frontier, the
//! parity of the empty squares), all taken from the weights of the game phase (the number of
//! empty squares), less a small constant handicap of the side to move ([`Eval::with_tempo`]).
//! The result predicts the final disc difference for the side to move, in [`UNIT`]s per disc.
//!
//! During a search the instance indices are kept up to date move by move in an
//! [`EvalState`]: a move adds or subtracts one small precomputed vector per square it
//! touches, so evaluating a node costs a few table look-ups, not a scan of the board.
//! [`Eval::evaluate_reference`] reads every square from scratch; the two are tested
//! against each other.
//!
//! The weights are made by the `ply-train` crate, kept out of the runtime library: the 8x8
//! ones by `scripts/train-eval8` (from the self-play games committed in `data/selfplay8`:
//! game results, then search labels over the first fit), the
//! 6x6 ones by `cargo run --release -p ply-train --example train-eval -- --size 6`. They are
//! shipped in `crates/othello/data/eval8.bin` and `eval6.bin` ([`weights`] has the file
//! format).
//!
//! ```
//! use ply_othello::{eval, BoardSize, Position, Square};
//! let e = eval::builtin(BoardSize::Eight).expect("the shipped weights load");
//! let pos = Position::start(BoardSize::Eight);
//! let (p, o) = (pos.player().0, pos.opponent().0);
//! let mut state = e.state(p, o);
//! assert!(e.evaluate(&state, p, o).abs() < 10 * eval::UNIT);
//!
//! // Play f5 incrementally: the state follows the board.
//! let f5 = Square::parse("f5").unwrap();
//! let flips = pos.flips(f5).0;
//! state.play(f5.index(), flips);
//! let next = pos.play_unchecked(f5);
//! let (p, o) = (next.player().0, next.opponent().0);
//! assert_eq!(e.evaluate(&state, p, o), e.evaluate_reference(p, o));
//! ```

pub mod network;
pub mod patterns;
mod shipped;
pub mod weights;

pub use shipped::{builtin, override_variable, requested, shipped_tempo};

use crate::BoardSize;
pub use patterns::{layout, Layout, MAX_INSTANCES};
pub use weights::BadWeights;

/// One disc of predicted score in evaluation units.
pub const UNIT: i32 = 64;

/// Mobility counts above this share its weight.
pub const MOBILITY_CAP: usize = 31;

/// Potential mobility counts above this share its weight.
pub const FRONTIER_CAP: usize = 47;

/// The features after the pattern tables in each phase, each a small table indexed by a
/// count: (name, entries).
pub const EXTRAS: [(&str, usize); 6] = [
    ("mobility of the side to move", MOBILITY_CAP + 1),
    ("mobility of the other side", MOBILITY_CAP + 1),
    ("disc difference + 64", 129),
    (
        "empty squares beside the other side's discs",
        FRONTIER_CAP + 1,
    ),
    (
        "empty squares beside the side to move's discs",
        FRONTIER_CAP + 1,
    ),
    ("odd number of empty squares", 2),
];

/// Weights after the pattern tables in each phase.
pub const EXTRA_WEIGHTS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < EXTRAS.len() {
        n += EXTRAS[i].1;
        i += 1;
    }
    n
};

/// The weight index, past the pattern tables, of each of the [`EXTRAS`] of a position with
/// `p` to move (`empty`: its empty squares).
#[inline]
#[must_use]
pub fn extra_indices(p: u64, o: u64, empty: u64) -> [usize; EXTRAS.len()] {
    let mine = crate::moves::legal_moves(p, o, empty).count_ones();
    let theirs = crate::moves::legal_moves(o, p, empty).count_ones();
    extra_indices_counted(p, o, empty, mine, theirs)
}

/// [`extra_indices`] of a position whose legal moves are counted already: `mine` for `p`,
/// `theirs` for `o`.
#[inline]
#[must_use]
pub fn extra_indices_counted(
    p: u64,
    o: u64,
    empty: u64,
    mine: u32,
    theirs: u32,
) -> [usize; EXTRAS.len()] {
    let (mine, theirs) = (mine as usize, theirs as usize);
    let discs = (64 + p.count_ones() as i32 - o.count_ones() as i32) as usize;
    let front_mine = (crate::moves::neighbours(o) & empty).count_ones() as usize;
    let front_theirs = (crate::moves::neighbours(p) & empty).count_ones() as usize;
    let values = [
        mine.min(MOBILITY_CAP),
        theirs.min(MOBILITY_CAP),
        discs,
        front_mine.min(FRONTIER_CAP),
        front_theirs.min(FRONTIER_CAP),
        (empty.count_ones() & 1) as usize,
    ];
    let mut out = [0; EXTRAS.len()];
    let mut base = 0;
    for (i, v) in values.into_iter().enumerate() {
        out[i] = base + v;
        base += EXTRAS[i].1;
    }
    out
}

/// Empty squares per game phase, by board size.
#[must_use]
pub const fn phase_width(size: BoardSize) -> u32 {
    match size {
        BoardSize::Eight => 6,
        BoardSize::Six => 4,
        BoardSize::Four => 16,
    }
}

/// Number of game phases of a board size.
#[must_use]
pub const fn phase_count(size: BoardSize) -> usize {
    ((size.squares() - 4) / phase_width(size)) as usize
}

/// The phase of a position with `empties` empty squares.
#[inline]
#[must_use]
pub fn phase_of(size: BoardSize, empties: u32) -> usize {
    ((empties / phase_width(size)) as usize).min(phase_count(size) - 1)
}

/// The instance indices of a position, from both sides' view, kept up to date as moves are
/// made ([`EvalState::play`], [`EvalState::pass`]) and unmade ([`EvalState::undo`]).
///
/// Two states are equal when they hold the same indices for the side to move and for the
/// other side (whichever side the state started from).
#[derive(Clone, Copy, Debug)]
pub struct EvalState {
    /// `view[v][i]`: instance `i` read from view `v` (0: the side to move when the state was
    /// made; 1: the other side).
    view: [[u16; MAX_INSTANCES]; 2],
    /// The view of the side to move now.
    turn: usize,
    layout: &'static Layout,
}

impl PartialEq for EvalState {
    fn eq(&self, other: &EvalState) -> bool {
        self.layout == other.layout
            && self.view[self.turn] == other.view[other.turn]
            && self.view[1 - self.turn] == other.view[1 - other.turn]
    }
}

impl Eq for EvalState {}

impl EvalState {
    /// The indices of a position with `p` to move: the sum of every disc's contribution
    /// (a few vector adds per disc).
    #[must_use]
    pub fn new(layout: &'static Layout, p: u64, o: u64) -> EvalState {
        let sum = |mut b: u64| {
            let mut v = [0u16; MAX_INSTANCES];
            while b != 0 {
                let d = &layout.delta[b.trailing_zeros() as usize];
                for i in 0..MAX_INSTANCES {
                    v[i] += d[i];
                }
                b &= b - 1;
            }
            v
        };
        let (mine, theirs) = (sum(p), sum(o));
        let mut view = [[0u16; MAX_INSTANCES]; 2];
        for i in 0..MAX_INSTANCES {
            view[0][i] = mine[i] + 2 * theirs[i];
            view[1][i] = theirs[i] + 2 * mine[i];
        }
        EvalState {
            view,
            turn: 0,
            layout,
        }
    }

    /// [`EvalState::new`] the slow, obvious way: every instance read square by square.
    #[must_use]
    pub fn new_reference(layout: &'static Layout, p: u64, o: u64) -> EvalState {
        let [mut mine, mut theirs] = [[0u16; MAX_INSTANCES]; 2];
        for (i, (m, t)) in mine
            .iter_mut()
            .zip(&mut theirs)
            .take(layout.instances.len())
            .enumerate()
        {
            *m = layout.index_of(i, p, o) as u16;
            *t = layout.index_of(i, o, p) as u16;
        }
        let view = [mine, theirs];
        EvalState {
            view,
            turn: 0,
            layout,
        }
    }

    /// The side to move plays on `sq`, turning over `flips` (as [`crate::moves::flips`]
    /// gives them); then it is the other side's turn.
    #[inline(always)]
    pub fn play(&mut self, sq: u8, flips: u64) {
        let d = self.changes(sq, flips);
        let (me, them) = self.views();
        for i in 0..MAX_INSTANCES {
            me[i] = me[i] + d.0[i] - d.1[i];
            them[i] = them[i] + 2 * d.0[i] + d.1[i];
        }
        self.turn ^= 1;
    }

    /// Takes back the move on `sq` that turned over `flips`, played by the side that is
    /// not to move now.
    #[inline(always)]
    pub fn undo(&mut self, sq: u8, flips: u64) {
        self.turn ^= 1;
        let d = self.changes(sq, flips);
        let (me, them) = self.views();
        for i in 0..MAX_INSTANCES {
            me[i] = me[i] + d.1[i] - d.0[i];
            them[i] = them[i] - 2 * d.0[i] - d.1[i];
        }
    }

    /// The indices, from its side to move's view, of the position after the side to move
    /// plays `sq` turning over `flips`: what [`EvalState::play`] would leave in
    /// [`EvalState::indices`], without changing this state (one view of the two, and no
    /// undo, for a child that is only evaluated).
    #[inline(always)]
    #[must_use]
    pub fn child_indices(&self, sq: u8, flips: u64) -> [u16; MAX_INSTANCES] {
        let (placed, turned) = self.changes(sq, flips);
        let them = &self.view[self.turn ^ 1];
        let mut out = [0u16; MAX_INSTANCES];
        for i in 0..MAX_INSTANCES {
            out[i] = them[i] + 2 * placed[i] + turned[i];
        }
        out
    }

    /// The side to move passes.
    #[inline]
    pub fn pass(&mut self) {
        self.turn ^= 1;
    }

    /// The index of every instance from the side to move's view.
    #[inline]
    #[must_use]
    pub fn indices(&self) -> &[u16; MAX_INSTANCES] {
        &self.view[self.turn]
    }

    /// What a disc on `sq` adds to the indices, and what the discs of `flips` add.
    #[inline(always)]
    fn changes(&self, sq: u8, mut flips: u64) -> ([u16; MAX_INSTANCES], [u16; MAX_INSTANCES]) {
        let placed = self.layout.delta[usize::from(sq)];
        let mut turned = [0u16; MAX_INSTANCES];
        while flips != 0 {
            let f = &self.layout.delta[flips.trailing_zeros() as usize];
            for i in 0..MAX_INSTANCES {
                turned[i] += f[i];
            }
            flips &= flips - 1;
        }
        (placed, turned)
    }

    #[inline]
    fn views(&mut self) -> (&mut [u16; MAX_INSTANCES], &mut [u16; MAX_INSTANCES]) {
        let [a, b] = &mut self.view;
        if self.turn == 0 {
            (a, b)
        } else {
            (b, a)
        }
    }
}

/// Learnt weights of one board size, every phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eval {
    layout: &'static Layout,
    /// Weights per phase, each phase `per_phase` long.
    weights: Vec<i16>,
    per_phase: usize,
    /// Where each instance's table starts in a phase's weights (0 past the layout's
    /// instances).
    instance_offsets: [u32; MAX_INSTANCES],
    /// All ones for each of the layout's instances, zero past them.
    instance_lanes: [i32; MAX_INSTANCES],
    /// Where the weights of the phase of each number of empty squares start.
    phase_start: [u32; 65],
    /// Subtracted from every value (see [`Eval::with_tempo`]).
    tempo: i32,
    /// The network that values positions in place of the tables, when there is one
    /// ([`Eval::from_network`]).
    net: Option<std::sync::Arc<network::Network>>,
    /// The tables that order moves where a network values positions
    /// ([`Eval::for_ordering`]).
    order: Option<std::sync::Arc<Eval>>,
}

impl Eval {
    /// Number of weights in one phase of a board size, or `None` for 4x4.
    #[must_use]
    pub fn weights_per_phase(size: BoardSize) -> Option<usize> {
        layout(size).map(|l| l.pattern_weights() + EXTRA_WEIGHTS)
    }

    /// An evaluation from its weights: [`phase_count`] phases of
    /// [`Eval::weights_per_phase`] each.
    ///
    /// # Errors
    /// When the board size has no evaluation or the vector has the wrong length.
    pub fn from_weights(size: BoardSize, weights: Vec<i16>) -> Result<Eval, BadWeights> {
        let Some(layout) = layout(size) else {
            return Err(BadWeights::new(format!(
                "{0}x{0} has no evaluation (it is solved at once)",
                size.n()
            )));
        };
        let per_phase = layout.pattern_weights() + EXTRA_WEIGHTS;
        let want = per_phase * phase_count(size);
        if weights.len() != want {
            return Err(BadWeights::new(format!(
                "{} weights where {n}x{n} needs {want}",
                weights.len(),
                n = size.n()
            )));
        }
        let mut instance_offsets = [0u32; MAX_INSTANCES];
        let mut instance_lanes = [0i32; MAX_INSTANCES];
        for (i, (pat, _)) in layout.instances.iter().enumerate() {
            instance_offsets[i] = layout.offsets[*pat] as u32;
            instance_lanes[i] = -1;
        }
        let mut phase_start = [0u32; 65];
        for (empties, start) in phase_start.iter_mut().enumerate() {
            let empties = (empties as u32).min(size.squares());
            *start = (phase_of(size, empties) * per_phase) as u32;
        }
        Ok(Eval {
            layout,
            weights,
            per_phase,
            instance_offsets,
            instance_lanes,
            phase_start,
            tempo: 0,
            net: None,
            order: None,
        })
    }

    /// An evaluation by a network ([`network`]) in place of the tables: the same
    /// [`EvalState`] and the same calls, the network's value in place of the tables' sum.
    #[must_use]
    pub fn from_network(net: network::Network) -> Eval {
        let size = net.size();
        let layout = layout(size).expect("a network is of an evaluated size");
        let mut e = Eval::from_weights(
            size,
            vec![0; Eval::weights_per_phase(size).expect("evaluated") * phase_count(size)],
        )
        .expect("zero tables of the right length");
        e.weights = Vec::new();
        debug_assert!(std::ptr::eq(e.layout, layout));
        e.net = Some(std::sync::Arc::new(net));
        e
    }

    /// The same evaluation, with `tables` to order moves by ([`Eval::for_ordering`]).
    ///
    /// # Panics
    /// If `tables` is of another board size or is itself a network.
    #[must_use]
    pub fn ordered_by(self, tables: &Eval) -> Eval {
        assert!(std::ptr::eq(tables.layout, self.layout) && tables.net.is_none());
        let order = Some(std::sync::Arc::new(tables.clone()));
        Eval { order, ..self }
    }

    /// The evaluation that orders moves: the tables given to [`Eval::ordered_by`] where
    /// this one is a network, else this one. A search tries its best-looking moves first;
    /// the order needs a cheap guess, not the best one, and the tables cost a quarter of
    /// the network a position (the same [`EvalState`] serves both). The exact solver orders
    /// and prunes with it alone, so a network leaves the solver as it was.
    #[must_use]
    pub fn for_ordering(&self) -> &Eval {
        self.order.as_deref().unwrap_or(self)
    }

    /// The network this evaluation values positions with, if it has one.
    #[must_use]
    pub fn network(&self) -> Option<&network::Network> {
        self.net.as_deref()
    }

    /// The same evaluation with `tempo` [`UNIT`]s taken from the side to move's every value.
    ///
    /// The weights are fitted to positions one at a time, so on average they are right at
    /// depth 0; but a search of even depth ends at leaves where the root's player is to move
    /// and overestimates it, one of odd depth underestimates it, and the reported score
    /// swings with the depth the clock stops at. A constant handicap on the side to move
    /// moves even-depth values down and odd-depth ones up by the same amount; the shipped
    /// evaluations carry the one that `calibrate-tempo` measures (see [`shipped_tempo`]).
    #[must_use]
    pub fn with_tempo(self, tempo: i32) -> Eval {
        Eval { tempo, ..self }
    }

    /// The handicap of the side to move, in [`UNIT`]s (see [`Eval::with_tempo`]).
    #[must_use]
    pub fn tempo(&self) -> i32 {
        self.tempo
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> BoardSize {
        self.layout.size
    }

    /// The pattern layout.
    #[must_use]
    pub fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// All weights, phase after phase.
    #[must_use]
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// The incremental state of a position with `p` to move.
    #[must_use]
    pub fn state(&self, p: u64, o: u64) -> EvalState {
        EvalState::new(self.layout, p, o)
    }

    /// The predicted final disc difference for the side to move (`p`), in [`UNIT`]s, from
    /// the indices in `state` (which must be those of `p`, `o`).
    #[inline(always)]
    #[must_use]
    pub fn evaluate(&self, state: &EvalState, p: u64, o: u64) -> i32 {
        let empty = !(p | o) & self.layout.size.mask().0;
        let mine = crate::moves::legal_moves(p, o, empty).count_ones();
        let theirs = crate::moves::legal_moves(o, p, empty).count_ones();
        self.evaluate_counted(state, p, o, mine, theirs)
    }

    /// [`Eval::evaluate`] of a position whose legal moves the caller has counted already
    /// (a search generates them anyway): `mine` for `p`, `theirs` for `o`.
    #[inline(always)]
    #[must_use]
    pub fn evaluate_counted(
        &self,
        state: &EvalState,
        p: u64,
        o: u64,
        mine: u32,
        theirs: u32,
    ) -> i32 {
        debug_assert!(std::ptr::eq(state.layout, self.layout));
        self.value(state.indices(), p, o, mine, theirs)
    }

    /// [`Eval::evaluate`] of the position after the side to move of `state` plays `sq`,
    /// turning over `flips`, for its new side to move `np` (against `no`): the child's
    /// value, read without playing the move on `state`.
    #[inline(always)]
    #[must_use]
    pub fn evaluate_child(&self, state: &EvalState, sq: u8, flips: u64, np: u64, no: u64) -> i32 {
        let empty = !(np | no) & self.layout.size.mask().0;
        let mine = crate::moves::legal_moves(np, no, empty).count_ones();
        let theirs = crate::moves::legal_moves(no, np, empty).count_ones();
        self.evaluate_child_counted(state, sq, flips, np, no, mine, theirs)
    }

    /// [`Eval::evaluate_child`] where the caller has counted the child's legal moves
    /// already: `mine` for the side to move there (`np`), `theirs` for the other (`no`).
    #[inline(always)]
    #[must_use]
    #[allow(clippy::too_many_arguments)]
    pub fn evaluate_child_counted(
        &self,
        state: &EvalState,
        sq: u8,
        flips: u64,
        np: u64,
        no: u64,
        mine: u32,
        theirs: u32,
    ) -> i32 {
        debug_assert!(std::ptr::eq(state.layout, self.layout));
        self.value(&state.child_indices(sq, flips), np, no, mine, theirs)
    }

    /// The value for `p` (to move against `o`, with `mine` and `theirs` legal moves) whose
    /// instance indices are `idx`.
    #[inline(always)]
    fn value(&self, idx: &[u16; MAX_INSTANCES], p: u64, o: u64, mine: u32, theirs: u32) -> i32 {
        let mask = self.layout.size.mask().0;
        let empty = !(p | o) & mask;
        debug_assert_eq!(
            (mine, theirs),
            (
                crate::moves::legal_moves(p, o, empty).count_ones(),
                crate::moves::legal_moves(o, p, empty).count_ones()
            )
        );
        if let Some(net) = &self.net {
            return net.value_counted(idx, p, o, mine, theirs) - self.tempo;
        }
        let start = self.phase_start[empty.count_ones() as usize] as usize;
        let w = &self.weights[start..start + self.per_phase];
        self.pattern_sum(w, idx) + self.extras(w, extra_indices_counted(p, o, empty, mine, theirs))
            - self.tempo
    }

    /// The sum of the pattern weights in `w` (one phase's) at the instance indices `idx`:
    /// eight instances per vector gather where the processor has AVX2 ([`crate::cpu`]; the
    /// level is read on each call, a predictable branch, so that the evaluation needs no
    /// token: inside the searches compiled for x86-64-v3 the gathers are inlined).
    #[inline(always)]
    fn pattern_sum(&self, w: &[i16], idx: &[u16; MAX_INSTANCES]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::level() >= crate::cpu::Level::V3 {
            // SAFETY: the chosen level is never above the processor's, and V3 has AVX2.
            return unsafe { self.pattern_sum_avx2(w, idx) };
        }
        self.pattern_sum_scalar(w, idx)
    }

    /// [`Eval::pattern_sum`] one instance at a time.
    #[inline]
    fn pattern_sum_scalar(&self, w: &[i16], idx: &[u16; MAX_INSTANCES]) -> i32 {
        let mut sum = 0i32;
        for i in 0..self.layout.instances.len() {
            sum += i32::from(w[self.instance_offsets[i] as usize + usize::from(idx[i])]);
        }
        sum
    }

    /// [`Eval::pattern_sum`] with AVX2 gathers. Each lane reads the 32 bits at its weight
    /// and keeps the low, sign-extended half (x86 is little-endian); an index is clamped to
    /// the last pattern weight, so every read stays inside the phase's weights (the extras
    /// follow the patterns), whatever `idx` holds.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn pattern_sum_avx2(&self, w: &[i16], idx: &[u16; MAX_INSTANCES]) -> i32 {
        use std::arch::x86_64::{
            __m128i, __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_castsi256_si128,
            _mm256_cvtepu16_epi32, _mm256_extracti128_si256, _mm256_i32gather_epi32,
            _mm256_loadu_si256, _mm256_min_epu32, _mm256_set1_epi32, _mm256_setzero_si256,
            _mm256_slli_epi32, _mm256_srai_epi32, _mm_add_epi32, _mm_cvtsi128_si32,
            _mm_loadu_si128, _mm_shuffle_epi32,
        };
        let last = self.layout.pattern_weights() - 1;
        assert!(last + 2 <= w.len(), "the extras follow the pattern weights");
        let cap = _mm256_set1_epi32(last as i32);
        let mut acc = _mm256_setzero_si256();
        for k in (0..MAX_INSTANCES).step_by(8) {
            // SAFETY: `k + 8 <= MAX_INSTANCES`, the length of the three arrays read; the
            // gather reads 4 bytes at `w[i]` for `i <= last`, inside `w` (asserted above).
            unsafe {
                let ix =
                    _mm256_cvtepu16_epi32(_mm_loadu_si128(idx.as_ptr().add(k).cast::<__m128i>()));
                let off =
                    _mm256_loadu_si256(self.instance_offsets.as_ptr().add(k).cast::<__m256i>());
                let lanes =
                    _mm256_loadu_si256(self.instance_lanes.as_ptr().add(k).cast::<__m256i>());
                let at = _mm256_min_epu32(_mm256_add_epi32(ix, off), cap);
                let raw = _mm256_i32gather_epi32::<2>(w.as_ptr().cast::<i32>(), at);
                let value = _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(raw));
                acc = _mm256_add_epi32(acc, _mm256_and_si256(value, lanes));
            }
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(one)
    }

    /// The same value as [`Eval::evaluate`], every index read square by square.
    #[must_use]
    pub fn evaluate_reference(&self, p: u64, o: u64) -> i32 {
        if let Some(net) = &self.net {
            return net.evaluate(p, o) - self.tempo;
        }
        let mask = self.layout.size.mask().0;
        let empty = !(p | o) & mask;
        let phase = phase_of(self.layout.size, empty.count_ones());
        let w = &self.weights[phase * self.per_phase..(phase + 1) * self.per_phase];
        let mut sum = 0i32;
        for (i, (pat, _)) in self.layout.instances.iter().enumerate() {
            sum += i32::from(w[self.layout.offsets[*pat] + self.layout.index_of(i, p, o)]);
        }
        sum + self.extras(w, extra_indices(p, o, empty)) - self.tempo
    }

    /// The weights of the features that are not patterns, at their `indices` (past the
    /// pattern tables of the phase's weights `w`).
    #[inline]
    fn extras(&self, w: &[i16], indices: [usize; EXTRAS.len()]) -> i32 {
        let x = &w[self.layout.pattern_weights()..];
        indices.into_iter().map(|i| i32::from(x[i])).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_cover_every_empty_count() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let last = phase_count(size) - 1;
            assert_eq!(phase_of(size, 0), 0);
            assert_eq!(phase_of(size, size.squares() - 4), last);
            assert_eq!(phase_of(size, size.squares()), last);
        }
        assert_eq!(phase_count(BoardSize::Eight), 10);
        assert_eq!(phase_count(BoardSize::Six), 8);
    }

    #[test]
    fn weights_of_the_wrong_length_are_refused() {
        let n = Eval::weights_per_phase(BoardSize::Six).unwrap() * phase_count(BoardSize::Six);
        assert!(Eval::from_weights(BoardSize::Six, vec![0; n]).is_ok());
        let err = Eval::from_weights(BoardSize::Six, vec![0; n - 1]).unwrap_err();
        assert!(err.to_string().contains("weights where 6x6 needs"), "{err}");
        assert!(Eval::from_weights(BoardSize::Four, vec![]).is_err());
    }

    #[test]
    fn the_shipped_weights_load_and_like_corners() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let e = builtin(size).expect("shipped");
            let m = size.n() - 1;
            let corner = 1u64 << (m * 8 + m);
            let start = crate::Position::start(size);
            let (p, o) = (start.player().0, start.opponent().0);
            assert!(
                e.evaluate_reference(p | corner, o) > e.evaluate_reference(p, o | corner),
                "{size:?}"
            );
        }
        assert!(builtin(BoardSize::Four).is_none());
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_vector_pattern_sum_is_the_scalar_one() {
        if crate::cpu::V3::new().is_none() {
            eprintln!("skipped: this processor has no AVX2 (x86-64-v3) paths");
            return;
        }
        for size in [BoardSize::Six, BoardSize::Eight] {
            let e = builtin(size).expect("shipped");
            let mut rng = ply_core::SplitMix64::new(0x9e37_79b9_7f4a_7c15);
            for _ in 0..50 {
                let mut pos = crate::Position::start(size);
                loop {
                    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
                    if moves.is_empty() {
                        break;
                    }
                    pos = pos.play_unchecked(moves[rng.below(moves.len())]);
                    let state = e.state(pos.player().0, pos.opponent().0);
                    for w in e.weights.chunks(e.per_phase) {
                        let idx = state.indices();
                        // SAFETY: the processor has AVX2 (checked above).
                        let vector = unsafe { e.pattern_sum_avx2(w, idx) };
                        assert_eq!(vector, e.pattern_sum_scalar(w, idx), "{pos}");
                    }
                }
            }
        }
    }

    /// A child's value read through [`EvalState::child_indices`] is its value after the
    /// move is played on the state, and the state is left as it was.
    #[test]
    fn a_child_evaluated_in_place_is_the_child_played() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let e = builtin(size).expect("shipped");
            let mut rng = ply_core::SplitMix64::new(0x2545_f491);
            for _ in 0..20 {
                let mut pos = crate::Position::start(size);
                let mut state = e.state(pos.player().0, pos.opponent().0);
                while !pos.is_game_over() {
                    let (p, o) = (pos.player().0, pos.opponent().0);
                    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
                    if moves.is_empty() {
                        pos = pos.passed();
                        state.pass();
                        continue;
                    }
                    let before = state;
                    for &sq in &moves {
                        let f = pos.flips(sq).0;
                        let (np, no) = (o ^ f, p | f | 1 << sq.index());
                        let in_place = e.evaluate_child(&state, sq.index(), f, np, no);
                        assert_eq!(state, before);
                        assert_eq!(in_place, e.evaluate_reference(np, no), "{pos} {sq}");
                    }
                    let sq = moves[rng.below(moves.len())];
                    state.play(sq.index(), pos.flips(sq).0);
                    pos = pos.play_unchecked(sq);
                }
            }
        }
    }

    #[test]
    fn the_shipped_handicap_is_taken_from_every_value() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let e = builtin(size).expect("shipped");
            let t = shipped_tempo(size);
            assert_eq!(e.tempo(), t);
            let plain = e.clone().with_tempo(0);
            let mut pos = crate::Position::start(size);
            for _ in 0..6 {
                let (p, o) = (pos.player().0, pos.opponent().0);
                let state = e.state(p, o);
                assert_eq!(e.evaluate(&state, p, o), plain.evaluate(&state, p, o) - t);
                assert_eq!(
                    e.evaluate_reference(p, o),
                    plain.evaluate_reference(p, o) - t
                );
                let sq = pos.legal_moves().into_iter().last().expect("a move");
                pos = pos.play_unchecked(sq);
            }
        }
    }
}
