#!/usr/bin/env python3
"""What more patterns would gain, before any change to the engine.

Fits phases of ply's 8x8 evaluation on the arrays of `ply train export` twice, with the
shipped patterns alone and with more patterns beside them, and prints each phase's mean
absolute error on the fit's own positions, on the games kept aside and on the test set. Where
the fit misses its own positions by as much as the kept-aside games, the tables lack capacity
rather than data, and more patterns are what can help.

  target/venv-train/bin/python scripts/probe-patterns8.py DIR [--add NAME,...] [--phases 2,3]

The tables are fitted to the games' results as the first round of fit-eval8.py is (ridge
regression, no network), one phase with the positions within --window empties of it. The
added patterns' indices are computed here from the positions' discs (DIR/train.pos): a
pattern on every distinct image of its squares under the board's eight symmetries, the
images of a pattern onto itself sharing the least index, as `ply train export` numbers the
shipped ones. Before fitting, the shipped patterns (their squares from DIR/layout.json) are
recomputed that way on the first positions and compared with the exported indices.

Deterministic: the same arrays give the same figures. About a minute of one core a phase
for each fit on 23 shards.
"""
import argparse
import importlib.util
import json
import os
import sys

import numpy as np

# Patterns of ten squares tried beside the shipped ones (a1 = 0 ... h8 = 63, digit order).
CANDIDATES = {
    "triangle": [0, 1, 2, 3, 8, 9, 10, 16, 17, 24],
    "corner-block": [0, 2, 3, 4, 5, 7, 10, 11, 12, 13],
    "narrow-triangle": [0, 1, 2, 3, 4, 8, 9, 16, 24, 32],
    "kite": [0, 1, 8, 9, 10, 17, 18, 27, 36, 45],
    "wedge": [0, 1, 2, 8, 9, 10, 11, 17, 18, 19],
    "fish": [0, 1, 8, 9, 10, 11, 17, 18, 25, 27],
}

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fit_eval8", os.path.join(here, "fit-eval8.py"))
fit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fit)


def image(sq, s):
    """Square `sq` under symmetry `s` (0..8), as ply's `patterns::map_square` on 8x8."""
    c, r = sq % 8, sq // 8
    if s & 1:
        r = 7 - r
    if s & 2:
        c = 7 - c
    if s & 4:
        c, r = r, c
    return r * 8 + c


def instances(cells):
    """The distinct images of a pattern (first found first), and the digit permutations of
    its symmetries onto itself."""
    seen, images, autos = [], [], []
    for s in range(8):
        img = [image(q, s) for q in cells]
        if set(img) == set(cells):
            perm = [cells.index(q) for q in img]
            if perm not in autos:
                autos.append(perm)
        if set(img) not in seen:
            seen.append(set(img))
            images.append(img)
    return images, autos


def columns(pos, cells):
    """Each position's index in every image of the pattern: (positions, images)."""
    p, o = pos[:, 0], pos[:, 1]
    power = 3 ** np.arange(len(cells), dtype=np.int64)
    images, autos = instances(cells)
    out = []
    for img in images:
        digits = np.zeros((len(pos), len(cells)), dtype=np.int64)
        for k, q in enumerate(img):
            bit = np.uint64(1) << np.uint64(q)
            digits[:, k] = np.where(p & bit != 0, 1, np.where(o & bit != 0, 2, 0))
        out.append(np.min([(digits[:, perm] * power).sum(1) for perm in autos], axis=0))
    return np.stack(out, 1)


def check(layout, feat, pos):
    """The shipped patterns computed here equal the exported indices."""
    col = 0
    for pat in layout["patterns"]:
        got = columns(pos, pat["cells"]) + pat["offset"]
        want = feat[:, col : col + pat["instances"]]
        if got.shape != want.shape or not np.array_equal(got, want):
            sys.exit(f"pattern {pat['name']!r}: the indices computed here differ from the export's")
        col += pat["instances"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", help="the arrays of `ply train export`")
    ap.add_argument("--add", default=",".join(CANDIDATES), help="comma list of: " + ", ".join(CANDIDATES))
    ap.add_argument("--phases", default="2,3", help="comma list of phases")
    ap.add_argument("--ridge", type=float, default=15.0)
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--window", type=int, default=4)
    args = ap.parse_args()
    added = [x for x in args.add.split(",") if x]
    for name in added:
        if name not in CANDIDATES:
            sys.exit(f"--add: no pattern {name!r} (known: {', '.join(CANDIDATES)})")
    layout = json.load(open(os.path.join(args.dir, "layout.json")))
    if layout["size"] != 8 or "cells" not in layout["patterns"][0]:
        sys.exit(f"{args.dir}/layout.json: not the 8x8 export of this version of ply")
    F = layout["features"]
    feat, y, emp, flags = fit.load(args.dir, "train", F)
    pos = np.fromfile(os.path.join(args.dir, "train.pos"), dtype="<u8").reshape(-1, 2)
    tfeat, ty, temp, _ = fit.load(args.dir, "test", F)
    tpos = np.fromfile(os.path.join(args.dir, "test.pos"), dtype="<u8").reshape(-1, 2)
    if len(pos) != len(y) or len(tpos) != len(ty):
        sys.exit(f"{args.dir}: the positions and the labels disagree in number")
    check(layout, feat[:10000].astype(np.int64), pos[:10000])
    held = (flags & 2) != 0
    width = layout["phase_width"]

    def widen(f, ps):
        """The exported indices, then the added patterns' after the phase's weights."""
        cols, at = [f.astype(np.int64)], layout["per_phase"]
        for name in added:
            cols.append(columns(ps, CANDIDATES[name]) + at)
            at += 3 ** len(CANDIDATES[name])
        return np.concatenate(cols, 1)

    widened = layout["per_phase"] + sum(3 ** len(CANDIDATES[name]) for name in added)

    class Fit:
        hidden = None
        ridge = args.ridge
        iterations = args.iterations

    print(f"added: {', '.join(added) or 'nothing'}")
    for k in (int(x) for x in args.phases.split(",")):
        lo, hi = k * width, k * width + width - 1
        if k == layout["phases"] - 1:
            hi = 99  # the last phase takes every position above it, as in fit-eval8.py
        fitted = (~held) & (emp >= lo - args.window) & (emp <= hi + args.window)
        own = (emp[fitted] >= lo) & (emp[fitted] <= hi)  # within the fitted positions
        kept = held & (emp >= lo) & (emp <= hi)
        test = (temp >= lo) & (temp <= hi)
        row = [f"phase {k} ({lo}-{hi} empties)"]
        for name, extra, n in (("shipped", False, layout["per_phase"]), ("added", True, widened)):
            # Each set's indices (the added patterns' computed once a set), and its labels.
            sets = [(feat[m], pos[m], y[m]) for m in (fitted, kept)] + [(tfeat[test], tpos[test], ty[test])]
            sets = [(widen(f, p) if extra else f.astype(np.int64), l) for f, p, l in sets]
            (fx, fy), kept_set, test_set = sets
            L = dict(layout, per_phase=n, features=fx.shape[1])
            table = fit.fit_phase(L, fx, fy, Fit, k, lambda s: None)
            errs = [
                f"{np.abs(fit.predict(table, f) - l).mean():.2f}" if len(l) else "none"
                for f, l in ((fx[own], fy[own]), kept_set, test_set)
            ]
            row.append(f"{name}: own {errs[0]} kept aside {errs[1]} test {errs[2]}")
        print("  ".join(row), flush=True)


if __name__ == "__main__":
    main()
