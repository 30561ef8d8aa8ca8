"""How far search labels are from the truth: the same positions labelled at two search depths
(two datasets of one sampling: the same ``--seed`` and sampling options), compared with their
exact values at 15-18 empties, where the solver is still affordable.

    python -m experiments.learning.probes.label_error DEPTH4_BATCH.npz DEPTH6_BATCH.npz
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from engine.core.commands.helptext import summary
from engine.reversi.labels.labelling import SEARCH, exact_scores
from engine.reversi.labels.symmetry import boards_of

PER_EMPTIES = 150


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=summary(__doc__))
    p.add_argument("shallow", help="a dataset batch (.npz) labelled at one depth")
    p.add_argument("deep", help="the same batch labelled deeper (same --seed and sampling)")
    args = p.parse_args(argv)
    shallow, deep = np.load(args.shallow), np.load(args.deep)
    if not np.array_equal(shallow["cells"], deep["cells"]):
        print("error: the two batches hold other positions (label them with one --seed)",
              file=sys.stderr)
        return 2
    empties = 64 - np.count_nonzero(shallow["cells"], axis=1)
    for e in (15, 16, 17, 18):
        rows = np.flatnonzero((empties == e) & (shallow["source"] == SEARCH))[:PER_EMPTIES]
        P, O = boards_of(shallow["cells"][rows])
        started = time.process_time()
        exact = exact_scores(P, O, False)
        line = [f"{e} empties, {len(rows)} positions (exact in "
                f"{time.process_time() - started:.0f} CPU-s):"]
        for label, batch in (("shallow", shallow), ("deep", deep)):
            x = batch["target"][rows]
            rms = float(np.sqrt(np.mean((x - exact) ** 2)))
            line.append(f"{label} depth {int(batch['depth'][rows].max())}: RMS error "
                        f"{rms:.2f}, sign agrees {np.mean(np.sign(x) == np.sign(exact)):.2f};")
        print(" ".join(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
