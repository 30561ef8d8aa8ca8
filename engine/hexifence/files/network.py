"""Champion files of Hexifence's ``ntuple`` genomes: the shared form of
``engine.kernels.ntuple.files`` (JSON that says what it holds, schema version 2), with this
game's own description of its nodes::

    {"game": "hexifence", "schema_version": 2, "kind": "ntuple", "name": "...",
     "settings": {"size": 3, "genome": {"kind": "ntuple", "phases": 3, "layout": "cell+pair",
                                        "features": false}},
     "layout": {...},        the layout JSON of engine.kernels.ntuple (docs/patterns.md)
     "nodes": {"edges": [...], "states": "..."},   which course edges each node reads
     "symmetry": "...", "phases": {"count": 3, "rule": "phase = drawn * 3 // (edges + 1)"},
     "value": "...",
     "weights": [[...], ...],                       per phase, layout.n_weights numbers
     "feature_weights": {"names": [...], "weights": [[...], ...]},   only with features
     "metadata": {...}}

``nodes.edges[k]`` lists the course's edge points ``[row, col]`` of node ``k``: one for an inner
edge, a rim cell's boundary edges for its ground node. The feature genome's files (version 1)
are ``features``'; both kinds are read by ``engine.hexifence.files.read_champion``, the game's
one reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from engine.core import Champion
from engine.hexifence.genome.network import nodes
from engine.hexifence.rules.board import board
from engine.kernels.ntuple.files import NetworkFile

MAX_WEIGHT = 1000.0  # far beyond any cell count: a larger weight is a broken file
NODE_STATES = ("an inner edge's node: 0 undrawn, 1 drawn; a ground node: how many of its "
               "cell's boundary edges are drawn")
SYMMETRY = "the 12 symmetries of the hexagon (rotations by 60 degrees and reflections)"
VALUE = ("for the side to move: its cells minus the opponent's (without feature_weights), plus "
         "the sum over layout.instances [lut, nodes] of weights[phase][layout.lut_offsets[lut] + "
         "index], index = the nodes' states read as a number, first node most significant, "
         "digit j in base layout.states[node j]; with feature_weights, the features of "
         "engine.hexifence.structure weighted by that phase's row instead of the margin")
FILE = NetworkFile("hexifence", VALUE, MAX_WEIGHT)


def save(path: str | Path, game, genome: np.ndarray, name: str = "",
         metadata: Mapping | None = None) -> None:
    """Write ``genome`` of the n-tuple ``game`` (``HexifenceGame``)."""
    header = {"nodes": {"edges": node_edges(game.size), "states": NODE_STATES},
              "symmetry": SYMMETRY}
    rule = f"phase = drawn edges * {game.network.phases} // {board(game.size).n_edges + 1}"
    FILE.save(path, game, genome, header, rule, name, metadata)


def node_edges(size: int) -> list[list[list[int]]]:
    """The course edge points ``[row, col]`` each node reads."""
    b, node_of_edge = board(size), nodes(size).node_of_edge
    out = [[] for _ in range(nodes(size).count)]
    for e, node in enumerate(node_of_edge):
        out[node].append(list(b.edges[e]))
    return out


def load(path: str | Path, data: dict, configure: Callable[[dict], object]) -> Champion:
    """The champion in ``data`` (read from ``path``); ``configure(settings)`` is the game the
    settings configure (``HexifenceGame.with_settings``): its layout must be the file's."""
    return FILE.load(path, data, lambda settings, _layout: configure(settings))
