//! Training the network evaluation ([`ply_othello::eval::network`]) on the self-play games:
//! Adam on the mean squared error in discs, one thread, the same bytes from the same data
//! and settings on one machine.
//!
//! Each position lights one row per pattern instance and one per extra count (the rows of
//! [`Features`], computed from the discs as it is read, so the data stays the games); a
//! mini-batch's gradient touches only the rows its positions lit, and only those rows take
//! an Adam step (lazy Adam: a row's moments decay when it is next touched, the bias
//! correction uses the global step). The held-out games ([`crate::learn::held_out`]) are
//! measured after every epoch and the best epoch's weights are kept (early stopping).

use ply_core::SplitMix64;
use ply_othello::eval::{
    network::{Features, Float, MAX_HIDDEN, MAX_HIDDEN_WEIGHT, MAX_ROW, MAX_WIDTH},
    phase_of, Eval, EvalState, EXTRAS,
};

use crate::learn::{Data, Sample};

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Accumulator width.
    pub width: usize,
    /// Hidden values.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size in the first epoch.
    pub lr: f32,
    /// Each epoch's step size is the one before times this.
    pub decay: f32,
    /// Seeds the starting weights and the order of the positions.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            width: 64,
            hidden: 16,
            epochs: 6,
            batch: 1024,
            lr: 2e-3,
            decay: 0.6,
            seed: 1,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// Which (from 1).
    pub number: usize,
    /// Mean squared error on the training positions as they were trained on, discs².
    pub train_mse: f64,
    /// Mean absolute error on the held-out positions after the epoch, in discs.
    pub held_out_mae: f64,
    /// The same on the held-out positions whose label is exact.
    pub held_out_exact_mae: f64,
}

const LIT: usize = 46 + EXTRAS.len();

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step on `w` with gradient `g` (cleared), at step `t` (from 1).
    fn step(
        &mut self,
        w: &mut [f32],
        g: &mut [f32],
        range: std::ops::Range<usize>,
        lr: f32,
        t: i32,
    ) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let c1 = 1.0 - B1.powi(t);
        let c2 = 1.0 - B2.powi(t);
        let step = lr * c2.sqrt() / c1;
        for i in range {
            let gi = g[i];
            g[i] = 0.0;
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * gi;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * gi * gi;
            w[i] -= step * self.m[i] / (self.v[i].sqrt() + 1e-8);
        }
    }
}

/// The rows a position lights.
fn lit(features: &Features, s: &Sample) -> [u32; LIT] {
    let l = features.layout;
    let state = EvalState::new(l, s.p, s.o);
    let idx = state.indices();
    let mut out = [0u32; LIT];
    for (i, o) in out.iter_mut().enumerate().take(l.instances.len()) {
        *o = features.row[l.offsets[l.instances[i].0] + usize::from(idx[i])];
    }
    let empty = !(s.p | s.o) & l.size.mask().0;
    let extras = ply_othello::eval::extra_indices(s.p, s.o, empty);
    for (k, &x) in extras.iter().enumerate() {
        out[l.instances.len() + k] = features.row[l.pattern_weights() + x];
    }
    out
}

/// The trainer's working state: the weights, their gradients and moments.
struct Trainer<'a> {
    f: Float,
    features: &'a Features,
    g: Float,
    adam: [Adam; 7],
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    n_lit: usize,
}

impl Trainer<'_> {
    /// Forward and backward of one position trained towards `target` (discs), its gradient
    /// (scaled by `scale`) added; returns the squared error.
    fn sample(&mut self, s: &Sample, target: f32, scale: f32) -> f64 {
        let (w, h) = (self.f.width, self.f.hidden);
        let rows = lit(self.features, s);
        let rows = &rows[..self.n_lit];
        let phase = phase_of(self.f.size, u32::from(s.empties));
        let mut a = [0f32; MAX_WIDTH];
        let a = &mut a[..w];
        a.copy_from_slice(&self.f.bias);
        for &r in rows {
            let r = r as usize;
            for (x, &v) in a.iter_mut().zip(&self.f.rows[r * w..(r + 1) * w]) {
                *x += v;
            }
        }
        let mut h0 = [0f32; MAX_WIDTH];
        for (z, &x) in h0.iter_mut().zip(a.iter()) {
            *z = x.clamp(0.0, 1.0);
        }
        let h0 = &h0[..w];
        let mut pre = [0f32; MAX_HIDDEN];
        let pre = &mut pre[..h];
        let mut y = self.f.out_bias[phase];
        for (k, p) in pre.iter_mut().enumerate() {
            let wk = &self.f.l2[(phase * h + k) * w..(phase * h + k + 1) * w];
            *p = self.f.l2_bias[phase * h + k]
                + wk.iter().zip(h0).map(|(&x, &z)| x * z).sum::<f32>();
            y += self.f.out[phase * h + k] * p.clamp(0.0, 1.0);
        }
        let skip = &self.f.skip[phase * w..(phase + 1) * w];
        y += skip.iter().zip(a.iter()).map(|(&x, &z)| x * z).sum::<f32>();
        let err = y - target;
        let d = err * scale;
        self.g.out_bias[phase] += d;
        let mut dacc = [0f32; MAX_WIDTH];
        let dacc = &mut dacc[..w];
        for (x, &v) in dacc.iter_mut().zip(skip) {
            *x = d * v;
        }
        for (j, &x) in a.iter().enumerate() {
            self.g.skip[phase * w + j] += d * x;
        }
        for (k, &p) in pre.iter().enumerate() {
            let at = phase * h + k;
            self.g.out[at] += d * p.clamp(0.0, 1.0);
            if p <= 0.0 || p >= 1.0 {
                continue;
            }
            let dp = d * self.f.out[at];
            self.g.l2_bias[at] += dp;
            let wk = &self.f.l2[at * w..(at + 1) * w];
            let gk = &mut self.g.l2[at * w..(at + 1) * w];
            for j in 0..w {
                gk[j] += dp * h0[j];
                if a[j] > 0.0 && a[j] < 1.0 {
                    dacc[j] += dp * wk[j];
                }
            }
        }
        for (gb, &x) in self.g.bias.iter_mut().zip(dacc.iter()) {
            *gb += x;
        }
        for &r in rows {
            let r = r as usize;
            if !self.is_touched[r] {
                self.is_touched[r] = true;
                self.touched.push(r as u32);
            }
            for (gr, &x) in self.g.rows[r * w..(r + 1) * w].iter_mut().zip(dacc.iter()) {
                *gr += x;
            }
        }
        f64::from(err) * f64::from(err)
    }

    fn step(&mut self, lr: f32, t: i32) {
        let w = self.f.width;
        // Each row's step reads only its own gradient and moments: any order is the same.
        for &r in &self.touched {
            let r = r as usize;
            self.is_touched[r] = false;
            self.adam[0].step(
                &mut self.f.rows,
                &mut self.g.rows,
                r * w..(r + 1) * w,
                lr,
                t,
            );
        }
        self.touched.clear();
        let f = &mut self.f;
        let g = &mut self.g;
        let n = f.bias.len();
        self.adam[1].step(&mut f.bias, &mut g.bias, 0..n, lr, t);
        let n = f.l2.len();
        self.adam[2].step(&mut f.l2, &mut g.l2, 0..n, lr, t);
        let n = f.l2_bias.len();
        self.adam[3].step(&mut f.l2_bias, &mut g.l2_bias, 0..n, lr, t);
        let n = f.out.len();
        self.adam[4].step(&mut f.out, &mut g.out, 0..n, lr, t);
        let n = f.skip.len();
        self.adam[5].step(&mut f.skip, &mut g.skip, 0..n, lr, t);
        let n = f.out_bias.len();
        self.adam[6].step(&mut f.out_bias, &mut g.out_bias, 0..n, lr, t);
        for x in f.rows.iter_mut().chain(&mut f.bias) {
            *x = x.clamp(-MAX_ROW, MAX_ROW);
        }
        for x in &mut f.l2 {
            *x = x.clamp(-MAX_HIDDEN_WEIGHT, MAX_HIDDEN_WEIGHT);
        }
    }
}

/// The mean absolute error of `f` on `samples`, all and exact ones, in discs.
#[must_use]
pub fn mae(f: &Float, samples: &[&Sample]) -> (f64, f64) {
    let (mut all, mut exact, mut n_exact) = (0f64, 0f64, 0usize);
    for s in samples {
        let e = (f.evaluate(s.p, s.o) - f64::from(s.label)).abs();
        all += e;
        if s.exact {
            exact += e;
            n_exact += 1;
        }
    }
    (
        all / samples.len().max(1) as f64,
        exact / n_exact.max(1) as f64,
    )
}

/// Labels from searches for the positions far from the end of the game, where a game's
/// result says little about the position ([`targets`]).
#[derive(Clone, Copy, Debug)]
pub struct SearchLabels<'a> {
    /// The evaluation searched.
    pub eval: &'a Eval,
    /// Positions with at least this many empty squares (and no exact label) are searched.
    pub from_empties: u8,
    /// The label is the mean of the searches of this depth and the next.
    pub depth: u32,
    /// Threads for the searches (the labels do not depend on it).
    pub threads: usize,
    /// How much of the label is the search's, from 0 to 1: the rest is the game's result.
    /// A game of depth-6 self-play wanders from the position's value by its players'
    /// mistakes, a search by its evaluation's; the two errors are apart, so a mean of both
    /// is nearer the value than either.
    pub share: f32,
}

/// What each of `data`'s positions is trained towards, in discs: its game's result, or,
/// with `search`, the searches' value for the positions it names that are trained on (the
/// held-out ones keep their results, which they are measured against). The searched values
/// of each number of empty squares are shifted so their mean is that of the same positions'
/// results: a search of even depth leans to the side to move, the mean of two depths still a
/// little, and the games' results do not. The label is then `share` of that value and the
/// rest of the result. `progress` is called with the count searched.
#[must_use]
pub fn targets(
    data: &Data,
    search: Option<&SearchLabels>,
    progress: impl Fn(usize) + Sync,
) -> Vec<f32> {
    let mut out: Vec<f32> = data.samples.iter().map(|s| f32::from(s.label)).collect();
    let Some(search) = search else {
        return out;
    };
    let todo: Vec<usize> = (0..data.samples.len())
        .filter(|&i| {
            let s = &data.samples[i];
            !s.exact && !s.held_out && s.empties >= search.from_empties
        })
        .collect();
    let positions: Vec<(u64, u64)> = todo
        .iter()
        .map(|&i| (data.samples[i].p, data.samples[i].o))
        .collect();
    let values = crate::tables::search_labels(
        search.eval,
        data.size,
        &positions,
        search.depth,
        search.threads,
        progress,
    );
    // Per empties count: the sum of the results and of the searched values.
    let mut sums = [(0f64, 0f64, 0u64); 65];
    for (&i, &v) in todo.iter().zip(&values) {
        let e = &mut sums[usize::from(data.samples[i].empties)];
        e.0 += f64::from(data.samples[i].label);
        e.1 += f64::from(v);
        e.2 += 1;
    }
    for (&i, &v) in todo.iter().zip(&values) {
        let (results, searched, n) = sums[usize::from(data.samples[i].empties)];
        let v = v + ((results - searched) / n as f64) as f32;
        out[i] = search.share * v + (1.0 - search.share) * out[i];
    }
    out
}

/// Trains a network on `data`'s positions towards `targets` (one a position, [`targets`]),
/// its held-out games measured against their results after each epoch, calling `progress`
/// with each epoch's figures; returns the weights of the best epoch by held-out error, and
/// every epoch's figures.
///
/// # Panics
/// If the data's board size has no evaluation (4x4), the shape is out of range, or
/// `targets` is not one a position.
pub fn train(
    data: &Data,
    targets: &[f32],
    settings: &Settings,
    mut progress: impl FnMut(&Epoch),
) -> (Float, Vec<Epoch>) {
    assert_eq!(targets.len(), data.samples.len(), "one target a position");
    let features = Features::of(data.size).expect("an evaluated size");
    let f = Float::seeded(data.size, settings.width, settings.hidden, settings.seed);
    let g = Float::zeros(data.size, settings.width, settings.hidden);
    let adam = [
        Adam::new(f.rows.len()),
        Adam::new(f.bias.len()),
        Adam::new(f.l2.len()),
        Adam::new(f.l2_bias.len()),
        Adam::new(f.out.len()),
        Adam::new(f.skip.len()),
        Adam::new(f.out_bias.len()),
    ];
    let mut t = Trainer {
        is_touched: vec![false; features.rows()],
        n_lit: features.lit(),
        f,
        features,
        g,
        adam,
        touched: Vec::new(),
    };
    let train: Vec<u32> = (0..data.samples.len() as u32)
        .filter(|&i| !data.samples[i as usize].held_out)
        .collect();
    let held: Vec<&Sample> = data.samples.iter().filter(|s| s.held_out).collect();
    let mut order = train;
    let mut rng = SplitMix64::new(settings.seed ^ 0x6e6e_7565);
    let mut best: Option<(f64, Float)> = None;
    let mut epochs = Vec::new();
    let mut step = 0i32;
    let mut lr = settings.lr;
    for number in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut sse = 0f64;
        for chunk in order.chunks(settings.batch) {
            let scale = 1.0 / chunk.len() as f32;
            for &i in chunk {
                let i = i as usize;
                sse += t.sample(&data.samples[i], targets[i], scale);
            }
            step += 1;
            t.step(lr, step);
        }
        let (held_out_mae, held_out_exact_mae) = mae(&t.f, &held);
        let e = Epoch {
            number,
            train_mse: sse / order.len().max(1) as f64,
            held_out_mae,
            held_out_exact_mae,
        };
        progress(&e);
        epochs.push(e);
        if best.as_ref().is_none_or(|(b, _)| held_out_mae < *b) {
            best = Some((held_out_mae, t.f.clone()));
        }
        lr *= settings.decay;
    }
    let f = best.map_or(t.f, |(_, f)| f);
    (f, epochs)
}
