"""Champion files of Reversi's ``ntuple`` genomes: the shared form of
``engine.kernels.ntuple.files`` (JSON that says what it holds, schema version 2, and its
``.npz`` twin), with this game's own description of its squares and phases::

    {"game": "othello", "schema_version": 2, "kind": "ntuple", "name": "...",
     "settings": {"genome": {"kind": "ntuple", "layout": "straight2", "symmetry": "d4",
                             "phases": 3, "phase_bounds": [24, 44], "features": [...]},
                  "endgame_solver": "pvs"},
     "layout": {...},          the layout JSON of engine.kernels.ntuple (docs/patterns.md)
     "cells": "...", "states": {"0": "empty", ...}, "symmetry": "d4" (null: the layout's own),
     "phase_discs": [[4, 23], [24, 43], [44, 64]],   each phase's disc counts
     "phases": {"count": 3, "rule": "..."},
     "value": "...",           how the weights make a value (below)
     "weights": [[...], ...],  per phase, layout.n_weights numbers
     "feature_weights": {"names": [...], "weights": [[...], ...]},   with feature groups
     "metadata": {...}}

``"game"`` names the rules (``othello`` or ``reversed_reversi``). Files of schema version 1
(every network file written before; ``"game": "reversi"`` with a ``variant``) still load:
``engine.reversi.files.network_v1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from engine.core.records import ChampionFileError, GameSettingsError
from engine.kernels import ntuple as nt
from engine.kernels.ntuple.files import NetworkFile
from engine.kernels.ntuple.settings import is_layout_file
from engine.reversi.genome.evaluation import WIN_SCORE
from engine.reversi.genome.network import NtupleWeights, family_layout
from engine.reversi.genome.weights import WeightsFileError

GAMES = ("othello", "reversed_reversi")
CELLS = ("square = 8 * (rank - 1) + file: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63; "
         "bit `square` of a 64-bit board")
STATES = {"0": "empty", "1": "a disc of the side to move", "2": "an opponent's disc"}
PHASE_RULE = ("the phase whose phase_discs range holds the number of discs on the board "
              "(settings.genome.phase_bounds: the disc counts where phases 1.. start)")
VALUE = ("for the side to move: sum over layout.instances [lut, cells] of "
         "weights[phase][layout.lut_offsets[lut] + index], index = the cells' states read as a "
         "base-3 number, first cell most significant; plus, with feature_weights, the features "
         "of engine.reversi.evaluation weighted by that phase's row; a finished game is scored "
         "by its result instead")


def network_file(game_name: str) -> NetworkFile:
    return NetworkFile(game_name, VALUE, WIN_SCORE)


def _header(game, weights: NtupleWeights) -> dict:
    return {"cells": CELLS, "states": STATES, "symmetry": game.genome["symmetry"],
            "phase_discs": [list(weights.phase_discs(p)) for p in range(weights.n_phases)]}


class FileGame:
    """What the shared network reader and writer ask of a game (``name``, ``settings()``,
    ``network``, ``genome``), built from a file's settings alone: the reader needs no game
    object, so the game's module can import this one."""

    def __init__(self, name: str, settings: Mapping):
        from engine.reversi.genome.settings import NetworkKind, validated_genome
        from engine.reversi.search.settings import EXACT_SOLVERS

        unknown = set(settings) - {"genome", "endgame_solver"}
        if unknown:
            raise GameSettingsError(f"game.{sorted(unknown)[0]}: unknown setting for {name} "
                                    "(allowed: genome, endgame_solver)")
        self.name, self.genome = name, validated_genome(settings.get("genome") or {})
        self.endgame_solver = settings.get("endgame_solver", "pvs")
        if self.endgame_solver not in EXACT_SOLVERS:
            raise GameSettingsError(f"game.endgame_solver={self.endgame_solver} must be one "
                                    f"of: {', '.join(EXACT_SOLVERS)}")
        bounds = self.genome["phase_bounds"]
        self.phase_bounds = tuple(bounds) if bounds is not None else \
            _default_bounds(self.genome["phases"])
        ntuple = self.genome.get("kind", "weights") == "ntuple"
        self.kind = NetworkKind(self.genome, self.phase_bounds) if ntuple else None

    @property
    def network(self):
        return None if self.kind is None else self.kind.layout()

    def settings(self) -> dict:
        return {"genome": dict(self.genome, phase_bounds=list(self.phase_bounds)),
                "endgame_solver": self.endgame_solver}


def _default_bounds(phases: int) -> tuple[int, ...]:
    from engine.reversi.genome.layout import default_phase_bounds

    return tuple(default_phase_bounds(phases))


def save(path: str | Path, weights: NtupleWeights, npz: bool = False) -> None:
    """Write ``weights``: JSON, or with ``npz`` its ``.npz`` twin. The game is the rules of
    ``weights.variant`` (Othello when it names none) with the network's settings."""
    game = FileGame(GAMES[weights.variant == "reversed"], file_settings(weights))
    file = network_file(game.name)
    write = file.save_npz if npz else file.save
    write(path, game, weights.to_genome(), _header(game, weights), PHASE_RULE, weights.name,
          weights.metadata)


def load(path: str | Path, data: dict) -> NtupleWeights:
    """The network of a schema-2 file's data (read from ``path``); ``WeightsFileError``
    naming the file and the field."""
    if data.get("game") not in GAMES:
        raise WeightsFileError(f"{path}: game: expected one of {list(GAMES)}, got "
                               f"{data.get('game')!r}")
    name = data["game"]

    def make_game(settings: dict, layout: nt.Layout):
        genome = settings["genome"]
        if not isinstance(genome, dict):
            raise GameSettingsError("genome must be an object")
        own = {**genome, "layout": _layout_setting(genome.get("layout"),
                                                   genome.get("symmetry"), layout)}
        if not isinstance(own["layout"], str):
            own["symmetry"] = None
        return FileGame(name, {**settings, "genome": own})

    try:
        champion = network_file(name).load(path, data, make_game)
        game = FileGame(name, champion.settings)
        variant = "reversed" if name == "reversed_reversi" else "othello"
        return game.kind.weights(champion.genome, champion.name,
                                 {**champion.metadata, "variant": variant})
    except ChampionFileError as exc:
        raise WeightsFileError(str(exc)) from None
    except ValueError as exc:  # NtupleWeights: weights too large for the win score
        raise WeightsFileError(f"{path}: weights: {exc}") from None


def load_npz(path: str | Path, arrays: Mapping[str, np.ndarray]) -> NtupleWeights:
    """The network of a schema-2 ``.npz`` file's arrays."""
    try:
        data = NetworkFile("", VALUE, WIN_SCORE).document_of_arrays(path, arrays)
    except ChampionFileError as exc:
        raise WeightsFileError(str(exc)) from None
    return load(path, data)


def _layout_setting(spec, symmetry, layout: nt.Layout):
    """The settings' family spec when it rebuilds the file's layout, else the file's layout
    itself (a layout file the reader may not have)."""
    if isinstance(spec, str) and not is_layout_file(spec) and isinstance(symmetry, str):
        try:
            if family_layout(spec, symmetry) == layout:
                return spec
        except nt.LayoutError:
            pass
    return nt.layout_to_json(layout)


def file_settings(w) -> dict:
    """The ``game.genome`` settings of weights read from a file (either kind)."""
    bounds, groups = list(w.phase_bounds), list(w.feature_groups)
    if isinstance(w, NtupleWeights):
        layout = w.spec if w.spec is not None else nt.layout_to_json(w.layout)
        return {"genome": {"kind": "ntuple", "layout": layout, "symmetry": w.symmetry,
                           "phases": w.n_phases, "phase_bounds": bounds, "features": groups}}
    return {"genome": {"phases": w.n_phases, "phase_bounds": bounds, "symmetric": w.symmetric,
                       "features": groups}}
