#!/usr/bin/env python3
"""What smoothing rare configurations toward their one-disc neighbours would gain.

Fits phases 2 and 3 of ply's 8x8 evaluation (12-23 empties) on the arrays of `ply train
export` to the games' results, as the first round of fit-eval8.py does (ridge regression,
one phase with the positions within 4 empties of it), with one more penalty beside the ridge:
--smooth S times the sum, over every pair of configurations of a pattern that differ by one
disc on one square (that square empty in the other), of the squared difference of their
weights (Edax's evaluation builder smooths so). Prints, for each S, the mean absolute error
at 14-20 empties on the test set and on the exact positions of the games kept aside.

  target/venv-train/bin/python scripts/probe-smooth8.py DIR [--ridge R] [--smooth 0,2,5]

Deterministic; about two minutes of one core for each S on 23 shards.
"""
import argparse
import importlib.util
import json
import os

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fit = load("fit_eval8", "fit-eval8.py")
patterns = load("probe_patterns8", "probe-patterns8.py")


def neighbour_pairs(layout):
    """Both ends of every one-disc neighbour pair, as canonical indices within a phase."""
    ends = ([], [])
    for p in layout["patterns"]:
        k, off = p["squares"], p["offset"]
        _, autos = patterns.instances(p["cells"])
        c = np.arange(3**k)
        digits = np.stack([(c // 3**j) % 3 for j in range(k)], 1)
        power = 3 ** np.arange(k)
        canon = np.min([(digits[:, perm] * power).sum(1) for perm in autos], axis=0)
        for j in range(k):
            m = digits[:, j] != 0
            ends[0].append(canon[c[m]] + off)
            ends[1].append(canon[c[m] - digits[m, j] * 3**j] + off)
    return np.concatenate(ends[0]), np.concatenate(ends[1])


def smoothing(pairs, n, smooth):
    """The neighbour penalty for fit-eval8.py's ridge_cg: smooth times the graph Laplacian of
    `pairs` (its product with a vector, its diagonal)."""
    a, b = pairs

    def product(v):
        d = v[a] - v[b]
        return smooth * (np.bincount(a, weights=d, minlength=n) - np.bincount(b, weights=d, minlength=n))

    degree = np.bincount(a, minlength=n) + np.bincount(b, minlength=n)
    return product, smooth * degree


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", help="the arrays of `ply train export`")
    ap.add_argument("--ridge", type=float, default=15.0)
    ap.add_argument("--smooth", default="0,2,5")
    args = ap.parse_args()
    layout = json.load(open(os.path.join(args.dir, "layout.json")))
    if layout["size"] != 8 or "cells" not in layout["patterns"][0]:
        raise SystemExit(f"{args.dir}/layout.json: not the 8x8 export of this version of ply")
    n, F, width = layout["per_phase"], layout["features"], layout["phase_width"]
    pairs = neighbour_pairs(layout)
    feat, y, emp, flags = fit.load(args.dir, "train", F)
    held = (flags & 2) != 0
    exact = held & ((flags & 1) != 0)
    tfeat, ty, temp, _ = fit.load(args.dir, "test", F)
    for smooth in (float(x) for x in args.smooth.split(",")):
        tables = {}
        for k in (2, 3):
            m = (~held) & (emp >= k * width - 4) & (emp <= k * width + width - 1 + 4)
            w = fit.ridge_cg(feat[m], y[m], n, args.ridge, 60, smoothing(pairs, n, smooth))
            tables[k] = np.round(w * 64) / 64  # as the engine holds them

        def error(f, e, label):
            m = (e >= 14) & (e <= 20)
            f, e, label = f[m], e[m], label[m]
            pred = np.zeros(len(e))
            for k in (2, 3):
                mk = e // width == k
                pred[mk] = fit.predict(tables[k], f[mk])
            return np.abs(pred - label).mean()

        print(
            f"ridge {args.ridge} smooth {smooth}: 14-20 empties, test set {error(tfeat, temp, ty):.3f}, "
            f"kept-aside exact {error(feat[exact], emp[exact], y[exact]):.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
