"""Champion files of Hexifence's ``features`` genome (JSON, ``schema_version`` 1)::

    {"game": "hexifence", "schema_version": 1, "name": "...", "settings": {"size": 3,
     "genome": {"phases": 3}}, "features": [...], "weights": [[...], ...], "metadata": {}}

``weights[k]`` is phase ``k``'s row, one number per name of ``features`` (the genome of
``engine.hexifence.genome.weights``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from engine.core.champions.files import check_header, read_document
from engine.core.game import Champion, ChampionFileError
from engine.hexifence.genome.evaluation import FEATURES, N_FEATURES
from engine.hexifence.genome.weights import weights_matrix

SCHEMA_VERSION = 1
GAME = "hexifence"


def save_champion(path: str | Path, genome: np.ndarray, settings: Mapping, name: str = "",
                  metadata: Mapping | None = None) -> None:
    phases = int(settings["genome"]["phases"])
    matrix = weights_matrix(genome, phases)
    doc = {"game": GAME, "schema_version": SCHEMA_VERSION, "name": name,
           "settings": dict(settings), "features": list(FEATURES),
           "weights": [[float(x) for x in row] for row in matrix],
           "metadata": dict(metadata or {})}
    Path(path).write_text(json.dumps(doc, indent=1) + "\n")


def load_champion(path: str | Path) -> Champion:
    """Read a champion file; every problem is a ``ChampionFileError`` naming file and field."""
    return read_champion(read_document(path))


def read_champion(document) -> Champion:
    """The champion of a parsed feature-genome file (``ChampionDocument``)."""
    path, doc = document.path, document.data
    check_header(path, doc, GAME, SCHEMA_VERSION)
    if doc.get("features") != list(FEATURES):
        raise ChampionFileError(f"{path}: features must be {list(FEATURES)}")
    weights = doc.get("weights")
    try:
        matrix = np.array(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise ChampionFileError(f"{path}: weights must be a list of lists of numbers") from None
    if matrix.ndim != 2 or matrix.shape[1] != N_FEATURES or matrix.shape[0] < 1:
        raise ChampionFileError(f"{path}: weights must be [phases][{N_FEATURES}] numbers")
    if not np.all(np.isfinite(matrix)):
        raise ChampionFileError(f"{path}: weights must be finite numbers")
    settings = doc.get("settings")
    if not isinstance(settings, dict):
        raise ChampionFileError(f"{path}: settings must be an object")
    settings = {**settings, "genome": {**settings.get("genome", {}), "phases": len(matrix)}}
    return Champion(GAME, matrix.ravel(), settings, str(doc.get("name", "")),
                    dict(doc.get("metadata") or {}))
