"""What ``python -m evolve.export`` writes for Reversi: the JSON file, its ``.npz`` twin and
the CS303 single-file agent, for square tables and n-tuple networks alike (the file says
which it holds)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.reversi.export.cs303 import render_cs303
from engine.reversi.export.cs303_ntuple import render_cs303_network
from engine.reversi.files import load_evaluation, save_evaluation, save_npz_evaluation
from engine.reversi.genome.network import NtupleWeights
from engine.reversi.genome.weights import Weights


def export_weights(weights, fmt: str, out, depth: int | None = None,
                   endgame_empties: int | None = None, numba: str | None = None) -> None:
    """``json`` / ``npz`` / ``cs303`` of Reversi weights or a network as read from a file (a
    path is read here); ``depth``, ``endgame_empties`` and ``numba`` only for ``cs303``."""
    if not isinstance(weights, Weights | NtupleWeights):
        weights = load_evaluation(weights)
    network = isinstance(weights, NtupleWeights)
    if fmt != "cs303" and (depth, endgame_empties, numba) != (None, None, None):
        raise ValueError(f"--depth, --endgame-empties and --numba apply to --format cs303, "
                         f"not {fmt}")
    if fmt == "json":
        save_evaluation(weights, out)
    elif fmt == "npz":
        save_npz_evaluation(weights, out)
        np.load(out, allow_pickle=False).close()  # what we promise a user: no pickle needed
    elif fmt == "cs303":
        render = render_cs303_network if network else render_cs303
        Path(out).write_text(render(weights, depth, endgame_empties, numba))
    else:
        raise ValueError(f"unknown format {fmt!r} (allowed: json, npz, cs303)")
