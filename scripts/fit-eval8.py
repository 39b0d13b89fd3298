#!/usr/bin/env python3
"""Fits ply's 8x8 evaluation tables from `ply train export`'s arrays, with numpy on one core.

Model, phase by phase (each phase on its positions and those within --window empties of it):
  table value of a pattern configuration = a small network of the pattern's squares
  (2 inputs a square: the side to move's disc, the other side's; two hidden layers) plus a
  per-configuration correction fitted by ridge regression toward zero afterwards; the extra
  features (mobility, discs, frontier, parity) are plain weights. Symmetric images of a
  pattern share one configuration (the export gives canonical indices), so they share the
  network's value. The networks are trained by full-batch Adam on the mean squared error of
  the summed table; then every configuration's value is tabulated, so a position still costs
  one look-up per pattern instance.

Writes the table (f32, phase after phase, in discs) that `ply train pack` turns into a weight
file, and prints the error on the test set and the held-out games by phase.

  python3 scripts/fit-eval8.py DIR --out TABLE [--steps N] [--ridge R] [--hidden A,B] ...

Deterministic: the same arrays and settings give the same bytes on one machine (one thread,
fixed seeds, fixed order).
"""
import argparse
import json
import os
import sys
import time

import numpy as np


def load(d, name, F):
    feat = np.fromfile(os.path.join(d, name + ".feat"), dtype="<u4").reshape(-1, F)
    label = np.fromfile(os.path.join(d, name + ".label"), dtype="i1").astype(np.float64)
    emp = np.fromfile(os.path.join(d, name + ".empties"), dtype="u1").astype(np.int32)
    flags = np.fromfile(os.path.join(d, name + ".flags"), dtype="u1")
    n = len(label)
    if not (len(feat) == len(emp) == len(flags) == n):
        sys.exit(f"{d}/{name}.*: the arrays disagree on the number of positions")
    return feat, label, emp, flags


def digits_input(k):
    """Inputs of every configuration of a k-square pattern: (3^k, 2k) of 0/1."""
    c = np.arange(3**k)
    x = np.zeros((3**k, 2 * k), dtype=np.float64)
    for j in range(k):
        d = (c // 3**j) % 3
        x[:, 2 * j] = d == 1
        x[:, 2 * j + 1] = d == 2
    return x


class Net:
    """inputs -> h1 -> h2 -> 1, leaky ReLU."""

    def __init__(self, n_in, h1, h2, rng):
        self.p = [
            rng.normal(0, np.sqrt(2.0 / n_in), (n_in, h1)),
            np.zeros(h1),
            rng.normal(0, np.sqrt(2.0 / h1), (h1, h2)),
            np.zeros(h2),
            rng.normal(0, 0.01, (h2, 1)),
            np.zeros(1),
        ]

    def forward(self, x):
        w1, b1, w2, b2, w3, b3 = self.p
        z1 = x @ w1 + b1
        a1 = np.where(z1 > 0, z1, 0.01 * z1)
        z2 = a1 @ w2 + b2
        a2 = np.where(z2 > 0, z2, 0.01 * z2)
        out = (a2 @ w3 + b3)[:, 0]
        return out, (x, z1, a1, z2, a2)

    def backward(self, g, cache):
        w1, b1, w2, b2, w3, b3 = self.p
        x, z1, a1, z2, a2 = cache
        g = g[:, None]
        gw3 = a2.T @ g
        gb3 = g.sum(0)
        ga2 = g @ w3.T
        gz2 = ga2 * np.where(z2 > 0, 1.0, 0.01)
        gw2 = a1.T @ gz2
        gb2 = gz2.sum(0)
        ga1 = gz2 @ w2.T
        gz1 = ga1 * np.where(z1 > 0, 1.0, 0.01)
        gw1 = x.T @ gz1
        gb1 = gz1.sum(0)
        return [gw1, gb1, gw2, gb2, gw3, gb3]


def adam(params, grads, state, lr, t, b1=0.9, b2=0.999, eps=1e-8):
    for i, (p, g) in enumerate(zip(params, grads)):
        m, v = state[i]
        m *= b1
        m += (1 - b1) * g
        v *= b2
        v += (1 - b2) * g * g
        mh = m / (1 - b1**t)
        vh = v / (1 - b2**t)
        p -= lr * mh / (np.sqrt(vh) + eps)


def predict(table, feat):
    return table[feat].sum(axis=1)


def ridge_cg(feat, target, n, ridge, iterations, penalty=None):
    """argmin sum (x.w - target)^2 + ridge |w|^2, Jacobi-preconditioned CG (as ply's ridge).
    `penalty`, if given, is one more quadratic term (w.Pw): a pair of P's product with a
    vector and P's diagonal."""
    F = feat.shape[1]
    flat = feat.ravel()

    def apply(v):
        s = v[feat].sum(axis=1)
        out = ridge * v + np.bincount(flat, weights=np.repeat(s, F), minlength=n)
        if penalty is not None:
            out += penalty[0](v)
        return out

    diag = ridge + np.bincount(flat, minlength=n).astype(np.float64)
    if penalty is not None:
        diag += penalty[1]
    b = np.bincount(flat, weights=np.repeat(target, F), minlength=n)
    w = np.zeros(n)
    res = b.copy()
    z = res / diag
    d = z.copy()
    rz = res @ z
    for _ in range(iterations):
        q = apply(d)
        dq = d @ q
        if dq <= 0 or abs(rz) < 1e-12:
            break
        step = rz / dq
        w += step * d
        res -= step * q
        z = res / diag
        rz_new = res @ z
        d = z + (rz_new / rz) * d
        rz = rz_new
    return w


def fit_phase(L, feat, y, args, seed, log):
    n = L["per_phase"]
    F = L["features"]
    flat = feat.ravel()
    N = len(y)
    table = np.zeros(n)
    pats = L["patterns"]
    extras_at = L["extras"][0]["offset"]
    if args.hidden:
        h1, h2 = args.hidden
        rng = np.random.default_rng(seed)
        nets = [Net(2 * p["squares"], h1, h2, rng) for p in pats]
        inputs = [digits_input(p["squares"]) for p in pats]
        extra = np.zeros(n - extras_at)
        params = [q for net in nets for q in net.p] + [extra]
        state = [(np.zeros_like(q), np.zeros_like(q)) for q in params]
        # Only the configurations some position lights train the networks; the others are
        # tabulated from them afterwards.
        hit = np.bincount(flat, minlength=n) > 0
        rows = [np.nonzero(hit[p["offset"] : p["offset"] + 3 ** p["squares"]])[0] for p in pats]
        for t in range(1, args.steps + 1):
            caches = []
            for p, net, x, r in zip(pats, nets, inputs, rows):
                out, cache = net.forward(x[r])
                table[p["offset"] + r] = out
                caches.append(cache)
            table[extras_at:] = extra
            resid = predict(table, feat) - y
            g = np.bincount(flat, weights=np.repeat(resid * (2.0 / N), F), minlength=n)
            grads = []
            for p, net, r, cache in zip(pats, nets, rows, caches):
                grads += net.backward(g[p["offset"] + r], cache)
            grads.append(g[extras_at:] + 2.0 * args.extra_l2 / N * extra)
            lr = args.lr * (0.05 ** (t / args.steps))
            adam(params, grads, state, lr, t)
            if t % 100 == 0 or t == args.steps:
                log(f"    step {t}: rmse {np.sqrt((resid**2).mean()):.3f}")
        for p, net, x in zip(pats, nets, inputs):
            table[p["offset"] : p["offset"] + 3 ** p["squares"]] = net.forward(x)[0]
        table[extras_at:] = extra
    if args.ridge > 0:
        base = predict(table, feat)
        table += ridge_cg(feat, y - base, n, args.ridge, args.iterations)
    return table


def report(L, tables, feat, y, emp, buckets, title):
    w = L["phase_width"]
    phase = np.minimum(emp // w, L["phases"] - 1)
    pred = np.zeros(len(y))
    for k in range(L["phases"]):
        m = phase == k
        if m.any():
            pred[m] = predict(tables[k], feat[m])
    err = pred - y
    out = []
    for lo, hi in buckets:
        m = (emp >= lo) & (emp <= hi)
        if m.any():
            out.append((f"{lo}-{hi}", int(m.sum()), np.abs(err[m]).mean(), err[m].mean()))
    print(title)
    for b, c, mae, bias in out:
        print(f"  {b:>7} {c:>7} MAE {mae:6.2f} bias {bias:+6.2f}")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--out")
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--hidden", default="32,16", help="A,B, or 0 for no network")
    ap.add_argument("--ridge", type=float, default=15.0)
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--window", type=int, default=4)
    ap.add_argument("--extra-l2", type=float, default=1.0)
    ap.add_argument("--phases", default="all", help="comma list of phases to fit (others zero)")
    ap.add_argument("--compare", help="a weight file (eval8.bin) to report beside")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search-from", type=int, default=0,
                    help="use the search labels only at this many empties or more")
    ap.add_argument("--search", type=float, default=0.0,
                    help="weight of DIR/train.search (ply train label) in the label; the game's result has the rest")
    args = ap.parse_args()
    args.hidden = None if args.hidden == "0" else tuple(int(x) for x in args.hidden.split(","))
    L = json.load(open(os.path.join(args.dir, "layout.json")))
    F = L["features"]
    feat, y, emp, flags = load(args.dir, "train", F)
    held = (flags & 2) != 0
    target = y
    if args.search > 0:
        srch = np.fromfile(os.path.join(args.dir, "train.search"), dtype="<f4").astype(np.float64)
        if len(srch) != len(y):
            sys.exit(f"{args.dir}/train.search: {len(srch)} labels for {len(y)} positions")
        # Searches above the exact phases lean to the side to move by up to two discs in the
        # opening: each empties count's search labels are shifted to the mean of its games'
        # results there, which is unbiased (positions kept aside excluded).
        searched = (flags & 1) == 0
        for e in range(61):
            m = (emp == e) & ~held & searched
            if m.any():
                srch[(emp == e) & searched] += y[m].mean() - srch[m].mean()
        srch = np.where(emp >= args.search_from, srch, y)
        target = args.search * srch + (1 - args.search) * y
    started = time.time()
    log = lambda s: print(f"{s} ({time.time() - started:.0f} s)", file=sys.stderr, flush=True)
    tables = [np.zeros(L["per_phase"]) for _ in range(L["phases"])]
    want = range(L["phases"]) if args.phases == "all" else [int(x) for x in args.phases.split(",")]
    for k in want:
        lo = k * L["phase_width"] - args.window
        hi = k * L["phase_width"] + L["phase_width"] - 1 + args.window
        if k == L["phases"] - 1:
            hi = 99
        m = (~held) & (emp >= lo) & (emp <= hi)
        log(f"phase {k} ({lo}-{hi} empties): {int(m.sum())} positions")
        tables[k] = fit_phase(L, feat[m], target[m], args, args.seed * 1000 + k, log)
    tf, ty, te, _ = load(args.dir, "test", F)
    exact = held & ((flags & 1) != 0)
    results = held & ((flags & 1) == 0)

    def reports(t, name):
        """The test set and the held-out games, by phase, under the tables `t`."""
        report(L, t, tf, ty, te, [(14, 20), (21, 26), (27, 32), (33, 40)], f"test set{name} (static, raw)")
        report(L, t, feat[exact], y[exact], emp[exact], [(0, 7), (8, 13), (14, 20)],
               f"held-out games{name}, exact labels")
        report(L, t, feat[results], y[results], emp[results], [(21, 26), (27, 32), (33, 40), (41, 60)],
               f"held-out games{name}, game results")

    # As the engine sees them: each weight rounded to 1/64 disc.
    reports([np.round(t * 64) / 64 for t in tables], "")
    if args.compare:
        # The weight file fills every index; the exported features are canonical ones.
        raw = np.fromfile(args.compare, dtype="u1")
        nw = L["phases"] * L["per_phase"]
        w = raw[-2 * nw :].view("<i2").astype(np.float64) / 64
        reports([w[k * L["per_phase"] : (k + 1) * L["per_phase"]] for k in range(L["phases"])],
                f", {args.compare}")
    if args.out:
        out = np.concatenate(tables).astype("<f4")
        tmp = args.out + ".tmp"
        out.tofile(tmp)
        os.replace(tmp, args.out)
        log(f"{args.out}: {len(out)} values")


if __name__ == "__main__":
    main()
