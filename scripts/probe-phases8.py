#!/usr/bin/env python3
"""What narrower game phases would gain, before any change to the engine.

Fits the empties LO..HI of ply's 8x8 evaluation on the arrays of `ply train export` as
phases of WIDTH empties, each with the positions within WINDOW empties of it (ridge
regression to the games' results, as the first round of fit-eval8.py), and prints the mean
absolute error over LO..HI on the test set, on the exact labels of the games kept aside and
on the fit's own positions. A phase costs nothing in a search (a node reads one phase's
tables), only weight-file size.

  target/venv-train/bin/python scripts/probe-phases8.py DIR LO HI WIDTH/WINDOW...

e.g. `... DIR 12 17 6/4 3/4 2/3 1/2` (6/4 is the shipped split). Deterministic; about a
minute of one core a phase fitted on 23 shards.
"""
import importlib.util
import json
import os
import sys
import time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fit_eval8", os.path.join(here, "fit-eval8.py"))
fit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fit)


class Args:
    hidden = None
    ridge = 15.0
    iterations = 60


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    d, lo_all, hi_all = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    L = json.load(open(os.path.join(d, "layout.json")))
    feat, y, emp, flags = fit.load(d, "train", L["features"])
    held = (flags & 2) != 0
    exact = held & ((flags & 1) != 0)
    tf, ty, te, _ = fit.load(d, "test", L["features"])
    hf, hy, he = feat[exact], y[exact], emp[exact]
    started = time.time()
    for split in sys.argv[4:]:
        width, window = (int(x) for x in split.split("/"))
        test, kept, own = np.zeros(len(ty)), np.zeros(len(hy)), 0.0
        for lo in range(lo_all, hi_all + 1, width):
            hi = min(lo + width - 1, hi_all)
            m = (~held) & (emp >= lo - window) & (emp <= hi + window)
            table = fit.fit_phase(L, feat[m], y[m], Args, 1, lambda s: None)
            # As the engine sees them: each weight rounded to 1/64 disc.
            table = np.round(table * 64) / 64
            mt, mh = (te >= lo) & (te <= hi), (he >= lo) & (he <= hi)
            test[mt] = fit.predict(table, tf[mt])
            kept[mh] = fit.predict(table, hf[mh])
            mo = (~held) & (emp >= lo) & (emp <= hi)
            own += np.abs(fit.predict(table, feat[mo]) - y[mo]).sum()
        mt, mh = (te >= lo_all) & (te <= hi_all), (he >= lo_all) & (he <= hi_all)
        mo = (~held) & (emp >= lo_all) & (emp <= hi_all)
        print(
            f"width {width} window {window}: test set {np.abs(test[mt] - ty[mt]).mean():.3f} "
            f"({int(mt.sum())} positions), kept-aside exact {np.abs(kept[mh] - hy[mh]).mean():.3f}, "
            f"own {own / mo.sum():.3f} ({time.time() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
