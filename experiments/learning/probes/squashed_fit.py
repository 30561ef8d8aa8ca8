"""Labels squashed before the fit: a 1-ply player needs the order of close positions more than
the size of large margins, so the Edax-like patterns are fitted to ``c tanh(label / c)`` (in
discs; ``c`` large is the plain fit), which spends the least squares on the decisions.

    python -m experiments.learning.probes.squashed_fit DATASET OUT.npz --c 16
"""

from __future__ import annotations

import sys

import numpy as np

from engine.core.registry import get_game
from engine.kernels.ntuple import fit
from experiments.learning.probes import probe_arguments, read_labels, rmse, sorted_by_phase


def main(argv: list[str]) -> int:
    p = probe_arguments(__doc__, "the fitted champion file (.npz or .json)")
    p.add_argument("--c", type=float, default=16.0, help="discs where the squashing bends")
    p.add_argument("--phases", type=int, default=15)
    p.add_argument("--l2", type=float, default=1.0)
    args = p.parse_args(argv)
    game = get_game("othello", {"genome": {"kind": "ntuple", "layout": "edax",
                                           "phases": args.phases}})
    network = game.network
    cells, ply, labels = read_labels(args.dataset)
    s = sorted_by_phase(game, cells, ply)
    target = (args.c * np.tanh(labels / args.c))[s.order]
    result = fit.fit_phases(s.indices, target, s.train, network.phases,
                            network.layout.n_weights, args.l2, 100, 1e-4, 0, None)
    prediction = fit.predict(s.indices, result.weights.ravel())
    print(f"squashed labels: train RMSE {rmse(prediction, target, ~s.held):.3f}, held-out "
          f"{rmse(prediction, target, s.held):.3f}", flush=True)
    features = np.zeros((network.phases, len(network.feature_names)))
    metadata = {"command": "python -m experiments.learning.probes.squashed_fit "
                + " ".join(argv)}
    game.save_champion(args.out, network.join(result.weights, features if network.features
                                              else None), f"edax, labels squashed at {args.c}",
                       metadata)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
