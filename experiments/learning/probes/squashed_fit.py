"""Labels squashed before the fit: a 1-ply player needs the order of close positions more than
the size of large margins, so the Edax-like patterns are fitted to ``c tanh(label / c)`` (in
discs; ``c`` large is the plain fit), which spends the least squares on the decisions.

    python -m experiments.learning.probes.squashed_fit DATASET OUT.npz --c 16
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from engine.core.commands.helptext import summary
from engine.core.registry import get_game
from engine.kernels.ntuple import fit
from engine.reversi.genome.layout import MIN_DISCS, phase_of_discs_table
from engine.reversi.genome.network import index_tables
from evolve.labels.dataset import read_dataset


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=summary(__doc__))
    p.add_argument("dataset", type=Path, help="a labelled Othello dataset folder")
    p.add_argument("out", type=Path, help="the fitted champion file (.npz or .json)")
    p.add_argument("--c", type=float, default=16.0, help="discs where the squashing bends")
    p.add_argument("--phases", type=int, default=15)
    p.add_argument("--l2", type=float, default=1.0)
    args = p.parse_args(argv)
    game = get_game("othello", {"genome": {"kind": "ntuple", "layout": "edax",
                                           "phases": args.phases}})
    network = game.network
    layout, n_phases = network.layout, network.phases
    data = read_dataset(args.dataset).columns()
    cells, ply = data["cells"], data["ply"]
    target = args.c * np.tanh(data["target"].astype(np.float64) / args.c)
    phase = phase_of_discs_table(game.phase_bounds)[ply.astype(np.int64) + MIN_DISCS]
    order = np.argsort(phase, kind="stable")
    indices = fit.position_indices(cells, phase, index_tables(layout), layout.n_weights,
                                   n_phases, order)
    held = fit.holdout_mask(len(target), 0.1, 0)[order]
    target = target[order]
    result = fit.fit_phases(indices, target, np.flatnonzero(~held), n_phases, layout.n_weights,
                            args.l2, 100, 1e-4, 0, None)
    error = fit.predict(indices, result.weights.ravel()) - target
    print(f"squashed labels: train RMSE {np.sqrt(np.mean(error[~held] ** 2)):.3f}, held-out "
          f"{np.sqrt(np.mean(error[held] ** 2)):.3f}", flush=True)
    features = np.zeros((n_phases, len(network.feature_names)))
    metadata = {"command": "python -m experiments.learning.probes.squashed_fit "
                + " ".join(argv)}
    game.save_champion(args.out, network.join(result.weights, features if network.features
                                              else None), f"edax, labels squashed at {args.c}",
                       metadata)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
