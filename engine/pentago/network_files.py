"""Champion files of Pentago Twist's ``ntuple`` genomes: JSON (no pickle) that says what it
holds, so another program can evaluate a position without our code::

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

Schema version 2 tells these files apart from the feature genome's (version 1, one weight per
gene name, unchanged). Every problem is one ``ChampionFileError`` line naming the file and field.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from engine.core import Champion, ChampionFileError, GameSettingsError
from engine.core.files import check_header
from engine.kernels import ntuple as nt
from engine.pentago import genome as genes
from engine.pentago.evaluation import FEATURES
from engine.pentago.network import build_layout, symmetry_of

SCHEMA_VERSION = 2
KIND = "ntuple"
CELLS = "cell 6x + y: row x (0 = top), column y (0 = left); bit 6x + y of a 36-bit board"
STATES = {"0": "empty", "1": "a stone of the side to move", "2": "an opponent's stone"}
VALUE = ("for the side to move: sum over layout.instances [lut, cells] of "
         "weights[phase][layout.lut_offsets[lut] + index], index = the cells' states read as a "
         "base-3 number, first cell most significant; plus, with feature_weights, the features "
         "of engine.pentago.evaluation weighted by that phase's row (own then opp)")


def save(path: str | Path, game, genome: np.ndarray, name: str = "",
         metadata: Mapping | None = None) -> None:
    """Write ``genome`` of the n-tuple ``game`` (``PentagoTwistGame``)."""
    network = game.network
    net, feat = network.split(genome)
    doc = {"game": game.name, "schema_version": SCHEMA_VERSION, "kind": KIND, "name": name,
           "settings": game.settings(), "layout": nt.layout_to_json(network.layout),
           "cells": CELLS, "states": STATES, "symmetry": game.genome["symmetry"],
           "phases": {"count": network.phases,
                      "rule": f"phase = stones * {network.phases} // 37"},
           "value": VALUE, "weights": net.tolist()}
    if network.features:
        names = [f"{side}.{f}" for side in ("own", "opp") for f in FEATURES]
        doc["feature_weights"] = {"names": names, "weights": feat.tolist()}
    doc["metadata"] = dict(metadata or {})
    Path(path).write_text(_lines(doc), encoding="utf-8")


def _lines(doc: dict) -> str:
    """One line per top-level field: the header reads at a glance, the arrays stay compact."""
    return "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in doc.items()) + \
        "\n}\n"


def load(path: str | Path, data: dict, make_game) -> Champion:
    """The champion in ``data`` (read from ``path``); ``make_game(genome_settings)`` is the
    configured game."""
    check_header(path, data, "pentago_twist", SCHEMA_VERSION)
    if data.get("kind") != KIND:
        raise ChampionFileError(f"{path}: kind={data.get('kind')!r}, expected {KIND!r}")
    settings = data.get("settings")
    genome = settings.get("genome") if isinstance(settings, dict) else None
    if not isinstance(genome, dict) or set(settings) != {"genome"}:
        raise ChampionFileError(f"{path}: settings must be {{\"genome\": {{...}}}}")
    try:
        layout = nt.layout_from_json(data.get("layout"))
    except nt.LayoutError as exc:
        raise ChampionFileError(f"{path}: layout: {exc}") from None
    try:
        game = make_game({**genome, "layout": _layout_setting(genome.get("layout"), layout)})
    except GameSettingsError as exc:
        raise ChampionFileError(f"{path}: settings: {exc}") from None
    network = game.network
    net = _matrix(path, data.get("weights"), "weights", network.phases, layout.n_weights)
    feat = np.zeros((network.phases, 0))
    if network.features:
        block = data.get("feature_weights")
        if not isinstance(block, dict) or len(block.get("names", ())) != len(FEATURES) * 2:
            raise ChampionFileError(f"{path}: feature_weights must hold names and weights "
                                    "(settings say features: true)")
        feat = _matrix(path, block.get("weights"), "feature_weights.weights", network.phases,
                       2 * len(FEATURES))
    elif "feature_weights" in data:
        raise ChampionFileError(f"{path}: feature_weights present but settings say "
                                "features: false")
    metadata = data.get("metadata", {})
    return Champion(game.name, network.join(net, feat), game.settings(),
                    str(data.get("name", "")), metadata if isinstance(metadata, dict) else {})


_LOADED: dict = {}  # resolved path -> (digest of the bytes, Champion)


def unchanged_file_cache(path: str | Path, read: Callable) -> Champion:
    """``read(path)``, or a copy of what it returned for the same bytes at the same path
    (hashing is cheap next to parsing tens of thousands of weights); errors are never kept
    (a missing or broken file raises every time)."""
    try:
        key = str(Path(path).resolve())
        digest = hashlib.blake2b(Path(path).read_bytes(), digest_size=16).digest()
    except OSError:
        return read(path)
    if key not in _LOADED or _LOADED[key][0] != digest:
        _LOADED[key] = (digest, read(path))
    return copy.deepcopy(_LOADED[key][1])


def _layout_setting(spec, layout: nt.Layout):
    """The settings' layout name when it rebuilds the file's layout (a family spec), else the
    file's layout itself (a layout file the reader may not have)."""
    if isinstance(spec, str) and not spec.strip().endswith(".json"):
        try:
            if build_layout(spec, symmetry_of(layout)) == _renamed(layout, spec):
                return spec
        except GameSettingsError:
            pass
    return nt.layout_to_json(layout)


def _renamed(layout: nt.Layout, name: str) -> nt.Layout:
    return nt.Layout(layout.n_cells, layout.states, layout.tuples, layout.symmetries,
                     name.replace(" ", ""))


def _matrix(path, rows, field: str, phases: int, width: int) -> np.ndarray:
    try:
        matrix = np.array(rows, dtype=np.float64)
    except (TypeError, ValueError):
        raise ChampionFileError(f"{path}: {field} must be [phases][{width}] numbers") from None
    if matrix.shape != (phases, width):
        raise ChampionFileError(f"{path}: {field} must be [{phases}][{width}] numbers (one row "
                                f"per phase), got shape {list(matrix.shape)}")
    if not np.all(np.isfinite(matrix)) or np.abs(matrix).max(initial=0) > genes.MAX_WEIGHT:
        raise ChampionFileError(f"{path}: {field} must be finite with |w| <= "
                                f"{genes.MAX_WEIGHT:g}")
    return matrix
