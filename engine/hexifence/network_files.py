"""Champion files of Hexifence's ``ntuple`` genomes: JSON (no pickle) that says what it holds,
so another program can evaluate a position without our code::

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
edge, a rim cell's boundary edges for its ground node. Schema version 2 tells these files apart
from the feature genome's (version 1, unchanged). Every problem is one ``ChampionFileError``
line naming the file and the field.
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
from engine.hexifence.board import board
from engine.hexifence.network import nodes
from engine.hexifence.structure import FEATURES
from engine.kernels import ntuple as nt

SCHEMA_VERSION = 2
KIND = "ntuple"
MAX_WEIGHT = 1000.0  # far beyond any cell count: a larger weight is a broken file
NODE_STATES = ("an inner edge's node: 0 undrawn, 1 drawn; a ground node: how many of its "
               "cell's boundary edges are drawn")
SYMMETRY = "the 12 symmetries of the hexagon (rotations by 60 degrees and reflections)"
VALUE = ("for the side to move: its cells minus the opponent's (without feature_weights), plus "
         "the sum over layout.instances [lut, nodes] of weights[phase][layout.lut_offsets[lut] + "
         "index], index = the nodes' states read as a number, first node most significant, "
         "digit j in base layout.states[node j]; with feature_weights, the features of "
         "engine.hexifence.structure weighted by that phase's row instead of the margin")


def save(path: str | Path, game, genome: np.ndarray, name: str = "",
         metadata: Mapping | None = None) -> None:
    """Write ``genome`` of the n-tuple ``game`` (``HexifenceGame``)."""
    network = game.network
    net, feat = network.split(genome)
    doc = {"game": game.name, "schema_version": SCHEMA_VERSION, "kind": KIND, "name": name,
           "settings": game.settings(), "layout": nt.layout_to_json(network.layout),
           "nodes": {"edges": node_edges(game.size), "states": NODE_STATES},
           "symmetry": SYMMETRY,
           "phases": {"count": network.phases,
                      "rule": f"phase = drawn edges * {network.phases} // "
                              f"{board(game.size).n_edges + 1}"},
           "value": VALUE, "weights": net.tolist()}
    if network.features:
        doc["feature_weights"] = {"names": list(FEATURES), "weights": feat.tolist()}
    doc["metadata"] = dict(metadata or {})
    text = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in doc.items())
    Path(path).write_text("{\n" + text + "\n}\n", encoding="utf-8")


def node_edges(size: int) -> list[list[list[int]]]:
    """The course edge points ``[row, col]`` each node reads."""
    b, node_of_edge = board(size), nodes(size).node_of_edge
    out = [[] for _ in range(nodes(size).count)]
    for e, node in enumerate(node_of_edge):
        out[node].append(list(b.edges[e]))
    return out


def load(path: str | Path, data: dict, make_game) -> Champion:
    """The champion in ``data`` (read from ``path``); ``make_game(settings)`` is the configured
    game."""
    check_header(path, data, "hexifence", SCHEMA_VERSION)
    if data.get("kind") != KIND:
        raise ChampionFileError(f"{path}: kind={data.get('kind')!r}, expected {KIND!r}")
    settings = data.get("settings")
    if not isinstance(settings, dict) or not isinstance(settings.get("genome"), dict):
        raise ChampionFileError(f"{path}: settings must be {{\"size\": N, \"genome\": {{...}}}}")
    try:
        game = make_game(settings)
    except GameSettingsError as exc:
        raise ChampionFileError(f"{path}: settings: {exc}") from None
    network = game.network
    if network is None:
        raise ChampionFileError(f"{path}: settings.genome.kind must be 'ntuple'")
    try:
        layout = nt.layout_from_json(data.get("layout"))
    except nt.LayoutError as exc:
        raise ChampionFileError(f"{path}: layout: {exc}") from None
    if layout != network.layout:
        raise ChampionFileError(f"{path}: layout does not match settings.genome.layout="
                                f"{network.layout.name} on the N={game.size} board")
    net = _matrix(path, data.get("weights"), "weights", network.phases, layout.n_weights)
    feat = np.zeros((network.phases, 0))
    if network.features:
        block = data.get("feature_weights")
        if not isinstance(block, dict) or block.get("names") != list(FEATURES):
            raise ChampionFileError(f"{path}: feature_weights.names must be {list(FEATURES)} "
                                    "(settings say features: true)")
        feat = _matrix(path, block.get("weights"), "feature_weights.weights", network.phases,
                       len(FEATURES))
    elif "feature_weights" in data:
        raise ChampionFileError(f"{path}: feature_weights present but settings say "
                                "features: false")
    metadata = data.get("metadata", {})
    return Champion(game.name, network.join(net, feat), game.settings(),
                    str(data.get("name", "")), metadata if isinstance(metadata, dict) else {})


_LOADED: dict = {}  # resolved path -> (digest of the bytes, Champion)


def unchanged_file_cache(path: str | Path, read: Callable) -> Champion:
    """``read(path)``, or a copy of what it returned for the same bytes at the same path: an
    evaluation builds an agent (and reads its file) per game. Errors are never kept."""
    try:
        key = str(Path(path).resolve())
        digest = hashlib.blake2b(Path(path).read_bytes(), digest_size=16).digest()
    except OSError:
        return read(path)
    if key not in _LOADED or _LOADED[key][0] != digest:
        _LOADED[key] = (digest, read(path))
    return copy.deepcopy(_LOADED[key][1])


def _matrix(path, rows, field: str, phases: int, width: int) -> np.ndarray:
    try:
        matrix = np.array(rows, dtype=np.float64)
    except (TypeError, ValueError):
        raise ChampionFileError(f"{path}: {field} must be [phases][{width}] numbers") from None
    if matrix.shape != (phases, width):
        raise ChampionFileError(f"{path}: {field} must be [{phases}][{width}] numbers (one row "
                                f"per phase), got shape {list(matrix.shape)}")
    if not np.all(np.isfinite(matrix)) or np.abs(matrix).max(initial=0) > MAX_WEIGHT:
        raise ChampionFileError(f"{path}: {field} must be finite with |w| <= {MAX_WEIGHT:g}")
    return matrix
