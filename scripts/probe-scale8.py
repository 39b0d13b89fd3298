#!/usr/bin/env python3
"""Whether the 8x8 evaluation's errors on the test set are a matter of scale or of noise.

Reads a weight file (the shipped one by default) and the test set's arrays that `ply train
export` wrote (DIR/test.*), and prints for each phase of the test set the mean absolute error
of the weights as they are, the least-squares slope of the exact scores on the estimates, and
the best mean absolute error that any one factor applied to the estimates (0.30-1.50 by 0.02)
reaches. A slope near 1 with the best factor near 1 says the estimates are calibrated; a best
error far above the target says that no rescaling of these tables reaches it, and the
remainder is what the tables cannot tell apart.

  target/venv-train/bin/python scripts/probe-scale8.py DIR [--weights FILE]

DIR may be the arrays of any export, even of one shard: only the test set's are read, e.g.
  ply train export data/selfplay8/shard-0-of-200.bin --apart-from testdata/eval8-testset.obf --out DIR

Deterministic, a second of one core.
"""
import argparse
import importlib.util
import json
import os

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fit_eval8", os.path.join(here, "fit-eval8.py"))
fit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fit)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", help="the arrays of `ply train export`")
    ap.add_argument("--weights", default=os.path.join(here, "..", "crates/othello/data/eval8.bin"))
    args = ap.parse_args()
    L = json.load(open(os.path.join(args.dir, "layout.json")))
    feat, y, emp, _ = fit.load(args.dir, "test", L["features"])
    raw = np.fromfile(args.weights, dtype="u1")
    nw = L["phases"] * L["per_phase"]
    # The weight file ends with every phase's weights, i16 in 1/64 disc (as fit-eval8.py reads it).
    w = raw[-2 * nw :].view("<i2").astype(np.float64) / 64
    phase = np.minimum(emp // L["phase_width"], L["phases"] - 1)
    pred = np.zeros(len(y))
    for k in range(L["phases"]):
        m = phase == k
        if m.any():
            pred[m] = fit.predict(w[k * L["per_phase"] : (k + 1) * L["per_phase"]], feat[m])
    factors = np.arange(0.30, 1.5001, 0.02)
    print(f"{args.weights} on {len(y)} positions of the test set")
    print(" empties  count    MAE  slope  best factor  its MAE")
    for lo, hi in [(14, 20), (21, 26), (27, 32), (33, 40)]:
        m = (emp >= lo) & (emp <= hi)
        if not m.any():
            continue
        errs = [np.abs(f * pred[m] - y[m]).mean() for f in factors]
        best = int(np.argmin(errs))
        slope = np.polyfit(pred[m], y[m], 1)[0]
        mae = np.abs(pred[m] - y[m]).mean()
        print(f"{lo:>5}-{hi:<2} {int(m.sum()):>6} {mae:6.2f} {slope:6.2f} {factors[best]:12.2f} {errs[best]:8.2f}")


if __name__ == "__main__":
    main()
