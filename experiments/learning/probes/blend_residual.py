"""Keep the champion, learn what it gets wrong: per phase, the champion's static value times a
least-squares scale (discs per unit), the Edax-like patterns fitted to the labels' residual,
both composed into one network (the champion's layout + the patterns, its features scaled) that
plays like any champion file.

    python -m experiments.learning.probes.blend_residual DATASET OUT.npz --phases 12 --l2 3

DATASET: a labelled Othello dataset (``evolve.label``); the champion is the promoted blend.
PHASES must split the champion's phases (12 does the blend's 4).
"""

from __future__ import annotations

import dataclasses
import sys
import time

import numpy as np

from engine.core.champions.files import load_champion
from engine.core.registry import get_game
from engine.kernels.ntuple import fit
from engine.reversi.genome.network import EDAX, NtupleWeights
from engine.reversi.genome.projection import exact_network
from engine.reversi.labels.evaluation import champion_evaluation
from engine.reversi.labels.labelling import decided, search_values
from engine.reversi.labels.symmetry import boards_of
from experiments.learning.probes import (
    HELD_OUT,
    phases_of,
    probe_arguments,
    read_labels,
    rmse,
    sorted_by_phase,
)

CHAMPION = "experiments/results/champions/othello_ntuple.json"
RESIDUAL = EDAX.replace("+diag4", "")  # the champion's straight4 holds the 4-square diagonals
GROUPS = ("mobility", "stability")


def main(argv: list[str]) -> int:
    p = probe_arguments(__doc__, "the composed champion file (.npz or .json)")
    p.add_argument("--phases", type=int, default=12, help="must split the champion's phases")
    p.add_argument("--l2", type=float, default=3.0)
    args = p.parse_args(argv)
    dataset, out, phases, l2 = args.dataset, args.out, args.phases, args.l2
    champion = champion_evaluation(get_game("othello"), load_champion(CHAMPION))
    residual_game = get_game("othello", {"genome": {"kind": "ntuple", "layout": RESIDUAL,
                                                    "phases": phases}})
    cells, ply, target = read_labels(dataset)
    started = time.process_time()
    values = search_values(*boards_of(cells), False, champion.search_arrays(True), 0)
    values[decided(values)] = 0.0  # finished games: the patterns learn their margins
    print(f"the champion's values in {time.process_time() - started:.0f} CPU-s", flush=True)
    network = residual_game.network
    layout, n_phases = network.layout, network.phases
    phase = phases_of(residual_game, ply)
    held = fit.holdout_mask(len(target), HELD_OUT, 0)
    scale = np.array([np.dot(values[m], target[m]) / np.dot(values[m], values[m])
                      for m in ((phase == p) & ~held for p in range(n_phases))])
    alone = values * scale[phase]
    print(f"discs per unit by phase {np.round(scale, 2).tolist()}; the champion alone: "
          f"held-out RMSE {rmse(alone, target, held):.3f}", flush=True)
    s = sorted_by_phase(residual_game, cells, ply)
    indices, held = s.indices, s.held
    target, alone = target[s.order], alone[s.order]
    result = fit.fit_phases(indices, target - alone, s.train, n_phases, layout.n_weights, l2,
                            100, 1e-4, 0, None)
    both = fit.predict(indices, result.weights.ravel()) + alone
    print(f"champion + residual patterns: train RMSE {rmse(both, target, ~held):.3f}, "
          f"held-out {rmse(both, target, held):.3f}", flush=True)
    spec = "straight4+square2+" + RESIDUAL
    game = get_game("othello", {"genome": {"kind": "ntuple", "layout": spec, "symmetry": "d4",
                                           "phases": phases, "features": list(GROUPS)}})
    bounds, union = game.phase_bounds, game.network.layout
    kept = exact_network(champion, union, bounds, GROUPS, spec, "d4")
    patterns = NtupleWeights(layout, residual_game.phase_bounds, result.weights,
                             np.zeros((n_phases, len(kept.feature_names))), GROUPS,
                             spec=RESIDUAL, symmetry="d4")
    learnt = exact_network(patterns, union, bounds, GROUPS, spec, "d4")
    metadata = {"command": "python -m experiments.learning.probes.blend_residual "
                + " ".join(argv), "discs_per_unit": scale.tolist()}
    composed = dataclasses.replace(kept, weights=kept.weights * scale[:, None] + learnt.weights,
                                   features=kept.features * scale[:, None])
    game.save_champion(out, composed.to_genome(), "blend + fitted residual", metadata)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
