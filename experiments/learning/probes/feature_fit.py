"""Feature weights fitted with the patterns: mobility and potential mobility (the features a
1-ply player lacks most) beside the Edax-like patterns, by alternating least squares: per
phase the features on the labels minus the patterns' prediction (ridge, 4 columns), then the
patterns on the labels minus the features'.

    python -m experiments.learning.probes.feature_fit DATASET OUT.npz --phases 15 --rounds 2
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from engine.core.registry import get_game
from engine.kernels.ntuple import fit
from engine.reversi.genome.evaluation import ALL_FEATURE_NAMES, feature_vector
from experiments.learning.probes import probe_arguments, read_labels, rmse, sorted_by_phase

GROUPS = ["mobility"]


@njit(cache=True)
def feature_rows(cells, columns):
    """The ``columns`` of ``feature_vector`` for each position (cells: 1 own, 2 opponent)."""
    out = np.empty((cells.shape[0], columns.shape[0]))
    for i in range(cells.shape[0]):
        P, O = np.uint64(0), np.uint64(0)
        for s in range(64):
            if cells[i, s] == 1:
                P |= np.uint64(1) << np.uint64(s)
            elif cells[i, s] == 2:
                O |= np.uint64(1) << np.uint64(s)
        values = feature_vector(P, O)
        for k in range(columns.shape[0]):
            out[i, k] = values[columns[k]]
    return out


def main(argv: list[str]) -> int:
    p = probe_arguments(__doc__, "the fitted champion file (.npz or .json)")
    p.add_argument("--phases", type=int, default=15)
    p.add_argument("--rounds", type=int, default=2, help="alternations of the two fits")
    args = p.parse_args(argv)
    dataset, out, phases, rounds = args.dataset, args.out, args.phases, args.rounds
    game = get_game("othello", {"genome": {"kind": "ntuple", "layout": "edax",
                                           "phases": phases, "features": GROUPS}})
    network = game.network
    layout, n_phases = network.layout, network.phases
    cells, ply, target = read_labels(dataset)
    started = time.process_time()
    x = feature_rows(cells, np.array([ALL_FEATURE_NAMES.index(n)
                                      for n in network.feature_names]))
    print(f"features in {time.process_time() - started:.0f} CPU-s", flush=True)
    s = sorted_by_phase(game, cells, ply)
    phase, indices, held, train = s.phase, s.indices, s.held, s.train
    target, x = target[s.order], x[s.order]
    features = np.zeros((n_phases, x.shape[1]))
    patterns = np.zeros_like(target)
    for r in range(rounds):
        rest = target - patterns
        for p in range(n_phases):
            rows = train[phase[train] == p]
            a = x[rows]
            features[p] = np.linalg.solve(a.T @ a + np.eye(a.shape[1]), a.T @ rest[rows])
        from_features = np.einsum("ij,ij->i", x, features[phase])
        result = fit.fit_phases(indices, target - from_features, train, n_phases,
                                layout.n_weights, 1.0, 100, 1e-4, 0, None)
        patterns = fit.predict(indices, result.weights.ravel())
        both = patterns + from_features
        print(f"round {r + 1}: train RMSE {rmse(both, target, ~held):.3f}, "
              f"held-out {rmse(both, target, held):.3f}", flush=True)
    print("feature weights by phase (rows), " + ", ".join(network.feature_names))
    print(np.round(features, 3))
    metadata = {"command": "python -m experiments.learning.probes.feature_fit " + " ".join(argv)}
    game.save_champion(out, network.join(result.weights, features), "edax + mobility fitted",
                       metadata)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
