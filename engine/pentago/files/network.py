"""Champion files of Pentago Twist's ``ntuple`` genomes: the shared form of
``engine.kernels.ntuple.files`` (JSON that says what it holds, schema version 2), with this
game's own description of its cells::

    {"game": "pentago_twist", "schema_version": 2, "kind": "ntuple", "name": "...",
     "settings": {"genome": {"kind": "ntuple", "phases": 3, "layout": "straight5+corner3",
                             "symmetry": "rot180", "features": false}},
     "layout": {...},          the layout JSON of engine.kernels.ntuple (docs/patterns.md)
     "cells": "...", "states": {"0": "empty", ...}, "symmetry": "rot180",
     "phases": {"count": 3, "rule": "phase = stones * 3 // 37"},
     "value": "...",           how the weights make a value (below)
     "weights": [[...], ...],  per phase, layout.n_weights numbers
     "feature_weights": {"names": [...], "weights": [[...], ...]},   only with features
     "metadata": {...}}

The feature genome's files (version 1, one weight per gene name) are ``GameBase``'s; both kinds
are read by ``engine.pentago.files.read_champion``, the game's one reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from engine.core import Champion, GameSettingsError
from engine.kernels import ntuple as nt
from engine.kernels.ntuple.files import NetworkFile
from engine.kernels.ntuple.settings import is_layout_file
from engine.pentago.genome import weights as genes
from engine.pentago.genome.network import build_layout, symmetry_of

CELLS = "cell 6x + y: row x (0 = top), column y (0 = left); bit 6x + y of a 36-bit board"
STATES = {"0": "empty", "1": "a stone of the side to move", "2": "an opponent's stone"}
VALUE = ("for the side to move: sum over layout.instances [lut, cells] of "
         "weights[phase][layout.lut_offsets[lut] + index], index = the cells' states read as a "
         "base-3 number, first cell most significant; plus, with feature_weights, the features "
         "of engine.pentago.evaluation weighted by that phase's row (own then opp)")
FILE = NetworkFile("pentago_twist", VALUE, genes.MAX_WEIGHT)


def save(path: str | Path, game, genome: np.ndarray, name: str = "",
         metadata: Mapping | None = None) -> None:
    """Write ``genome`` of the n-tuple ``game`` (``PentagoTwistGame``)."""
    header = {"cells": CELLS, "states": STATES, "symmetry": game.genome["symmetry"]}
    rule = f"phase = stones * {game.network.phases} // 37"
    FILE.save(path, game, genome, header, rule, name, metadata)


def load(path: str | Path, data: dict, configure: Callable[[dict], object]) -> Champion:
    """The champion in ``data`` (read from ``path``); ``configure(settings)`` is the game the
    settings configure (``PentagoTwistGame.with_settings``)."""
    def make_game(settings: dict, layout: nt.Layout):
        genome = settings["genome"]
        own = {**genome, "layout": _layout_setting(genome.get("layout"), layout)}
        return configure({**settings, "genome": own})

    return FILE.load(path, data, make_game)


def _layout_setting(spec, layout: nt.Layout):
    """The settings' layout name when it rebuilds the file's layout (a family spec), else the
    file's layout itself (a layout file the reader may not have)."""
    if isinstance(spec, str) and not is_layout_file(spec):
        try:
            if build_layout(spec, symmetry_of(layout)) == _renamed(layout, spec):
                return spec
        except GameSettingsError:
            pass
    return nt.layout_to_json(layout)


def _renamed(layout: nt.Layout, name: str) -> nt.Layout:
    return nt.Layout(layout.n_cells, layout.states, layout.tuples, layout.symmetries,
                     name.replace(" ", ""))
