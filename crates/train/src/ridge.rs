//! The regression both fits share: a position's weight indices, ridge regression by
//! preconditioned conjugate gradients, and the fitted weights written into a phase's table.

use ply_othello::{
    eval::{extra_indices, Layout, EXTRA_WEIGHTS, UNIT},
    BoardSize,
};

/// One training position as the fit sees it: its weight indices within the phase (pattern
/// indices already mapped to the weight their symmetric images share) and its label.
pub(crate) struct Row {
    pub(crate) features: Vec<u32>,
    pub(crate) target: f64,
}

/// The weight indices a position lights up within its phase's weights.
pub(crate) fn features(eval_layout: &Layout, p: u64, o: u64, size: BoardSize) -> Vec<u32> {
    let l = eval_layout;
    let mut f: Vec<u32> = l
        .instances
        .iter()
        .enumerate()
        .map(|(i, (pat, _))| (l.offsets[*pat] + l.canonical(*pat, l.index_of(i, p, o))) as u32)
        .collect();
    let empty = !(p | o) & size.mask().0;
    let base = l.pattern_weights();
    f.extend(extra_indices(p, o, empty).map(|i| (base + i) as u32));
    f
}

/// Ridge regression by preconditioned conjugate gradients: the weights `w` (length `n`)
/// minimising `sum (x·w - y)^2 + ridge * |w|^2` over `rows`.
pub(crate) fn ridge_fit(rows: &[Row], n: usize, ridge: f64, iterations: usize) -> Vec<f64> {
    let apply = |v: &[f64]| -> Vec<f64> {
        let mut out: Vec<f64> = v.iter().map(|x| ridge * x).collect();
        for r in rows {
            let s: f64 = r.features.iter().map(|&f| v[f as usize]).sum();
            for &f in &r.features {
                out[f as usize] += s;
            }
        }
        out
    };
    let mut diag = vec![ridge; n];
    let mut b = vec![0.0; n];
    for r in rows {
        for &f in &r.features {
            diag[f as usize] += 1.0;
            b[f as usize] += r.target;
        }
    }
    let mut w = vec![0.0; n];
    let mut res = b;
    let mut z: Vec<f64> = res.iter().zip(&diag).map(|(r, d)| r / d).collect();
    let mut dir = z.clone();
    let mut rz: f64 = res.iter().zip(&z).map(|(a, b)| a * b).sum();
    for _ in 0..iterations {
        let q = apply(&dir);
        let dq: f64 = dir.iter().zip(&q).map(|(a, b)| a * b).sum();
        if dq <= 0.0 || rz.abs() < 1e-12 {
            break;
        }
        let step = rz / dq;
        for i in 0..n {
            w[i] += step * dir[i];
            res[i] -= step * q[i];
        }
        z = res.iter().zip(&diag).map(|(r, d)| r / d).collect();
        let rz_new: f64 = res.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = rz_new / rz;
        rz = rz_new;
        for i in 0..n {
            dir[i] = z[i] + beta * dir[i];
        }
    }
    w
}

/// Writes one phase's fitted weights `w` (in discs, one per canonical index and extra
/// feature) into `out` in evaluation units: every index takes the weight of its canonical
/// image.
pub(crate) fn store_phase(l: &Layout, w: &[f64], out: &mut [i16]) {
    let per_phase = l.pattern_weights() + EXTRA_WEIGHTS;
    for (pat, window) in l.offsets.windows(2).enumerate() {
        for idx in 0..window[1] - window[0] {
            let c = window[0] + l.canonical(pat, idx);
            out[window[0] + idx] = quantize(w[c]);
        }
    }
    for k in l.pattern_weights()..per_phase {
        out[k] = quantize(w[k]);
    }
}

fn quantize(discs: f64) -> i16 {
    (discs * f64::from(UNIT))
        .round()
        .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ridge_fit_recovers_a_linear_target() {
        // Three weights; every row lights two of them; the target is their true sum.
        let truth = [3.0, -2.0, 0.5];
        let mut rows = Vec::new();
        for (a, b) in [(0, 1), (1, 2), (0, 2), (0, 1), (2, 1)] {
            rows.push(Row {
                features: vec![a, b],
                target: truth[a as usize] + truth[b as usize],
            });
        }
        let w = ridge_fit(&rows, 3, 1e-9, 50);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 1e-6, "{w:?}");
        }
    }
}
