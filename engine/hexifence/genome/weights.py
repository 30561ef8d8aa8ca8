"""The genome: evaluation weights per phase, the reference weights, and champion JSON files.

A genome is the flat float64 vector of ``phases x len(FEATURES)`` weights, phase-major (phase
``k`` evaluates positions with ``drawn * phases // (edges + 1) == k`` edges drawn). Crossover
swaps whole phases (the genome spec's blocks).

Champion file (JSON, ``schema_version`` 1)::

    {"game": "hexifence", "schema_version": 1, "name": "...", "settings": {"size": 3,
     "genome": {"phases": 3}}, "features": [...], "weights": [[...], ...], "metadata": {}}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from engine.core.champions.files import check_header, read_document
from engine.core.game import Champion, ChampionFileError, GenomeSpec
from engine.hexifence.genome.evaluation import FEATURES, N_FEATURES

SCHEMA_VERSION = 1
GAME = "hexifence"
BOUND = 1.0  # genes start and are clipped in [-BOUND, BOUND]

# The reference weights: the score, then the structure the seed agent reasoned about. Odd
# safe-edge counts and a favourable long-chain parity mean the opponent opens the chains;
# the controlled value (signed by that parity) is what keeping control is worth.
REFERENCE = {
    "margin": 1.0,
    "three_loops": 0.0,
    "cells_two_empty": 0.0,
    "cells_three_empty": 0.0,
    "safe_edges": 0.0,
    "safe_parity": 0.5,
    "short_chains": 0.0,
    "long_chains": 0.0,
    "loops": 0.0,
    "chain_parity": 0.5,
    "controlled_value": 0.25,
}
REFERENCES = ("reference", "margin")


def genome_spec(phases: int) -> GenomeSpec:
    names = tuple(f"p{k}.{f}" for k in range(phases) for f in FEATURES)
    blocks = {f"phase{k}": slice(k * N_FEATURES, (k + 1) * N_FEATURES) for k in range(phases)}
    size = phases * N_FEATURES
    return GenomeSpec(names, blocks, np.full(size, -BOUND), np.full(size, BOUND))


def reference_genome(reference: str, phases: int) -> np.ndarray:
    """``reference``: the structure-aware weights; ``margin``: the score alone."""
    if reference == "reference":
        row = np.array([REFERENCE[f] for f in FEATURES], dtype=np.float64)
    elif reference == "margin":
        row = np.zeros(N_FEATURES)
        row[FEATURES.index("margin")] = 1.0
    else:
        raise ValueError(f"unknown reference weights {reference!r} (allowed: "
                         f"{', '.join(REFERENCES)})")
    return np.tile(row, phases)


def weights_matrix(genome: np.ndarray, phases: int) -> np.ndarray:
    """[phases, features] from a flat genome; ``ValueError`` on a wrong length."""
    genome = np.asarray(genome, dtype=np.float64)
    if genome.shape != (phases * N_FEATURES,):
        raise ValueError(f"genome must have {phases} x {N_FEATURES} = {phases * N_FEATURES} "
                         f"genes, got shape {genome.shape}")
    return genome.reshape(phases, N_FEATURES).copy()


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
