"""Pentago Twist champion files: JSON naming the game, a schema version, the genome settings
and one weight per named gene (no pickle)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from engine.core import Champion, ChampionFileError
from engine.pentago.genome import gene_names

GAME = "pentago_twist"
SCHEMA_VERSION = 1
MAX_WEIGHT = 1000.0  # far below WIN_SCORE / (counts per position): wins stay dominant


def champion_json(genome: np.ndarray, phases: int, name: str = "",
                  metadata: Mapping | None = None) -> dict:
    names = gene_names(phases)
    genome = np.asarray(genome, dtype=np.float64)
    if genome.shape != (len(names),):
        raise ValueError(f"genome has {genome.size} genes, {phases} phases need {len(names)}")
    return {"game": GAME, "schema_version": SCHEMA_VERSION, "name": name,
            "settings": {"genome": {"phases": phases}},
            "weights": {n: float(v) for n, v in zip(names, genome, strict=True)},
            "metadata": dict(metadata or {})}


def save(path: str | Path, genome: np.ndarray, phases: int, name: str = "",
         metadata: Mapping | None = None) -> None:
    text = json.dumps(champion_json(genome, phases, name, metadata), indent=1)
    Path(path).write_text(text + "\n", encoding="utf-8")


def load(path: str | Path) -> Champion:
    """The champion in ``path``; ``ChampionFileError`` naming the file and the bad field."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ChampionFileError(f"{path}: not a readable JSON champion file ({exc})") from None
    if not isinstance(data, dict):
        raise ChampionFileError(f"{path}: expected a JSON object")
    if data.get("game") != GAME:
        raise ChampionFileError(f"{path}: game={data.get('game')!r}, expected {GAME!r}")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise ChampionFileError(f"{path}: schema_version={data.get('schema_version')!r}, "
                                f"expected {SCHEMA_VERSION}")
    phases = _phases(path, data)
    weights = data.get("weights")
    names = gene_names(phases)
    if not isinstance(weights, dict) or set(weights) != set(names):
        missing = sorted(set(names) - set(weights or {}))[:3]
        raise ChampionFileError(f"{path}: weights must map each of the {len(names)} genes of "
                                f"{phases} phases to a number (missing e.g. {missing})")
    values = [weights[n] for n in names]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise ChampionFileError(f"{path}: weights must be numbers")
    genome = np.array(values, dtype=np.float64)
    if not np.all(np.isfinite(genome)) or np.abs(genome).max() > MAX_WEIGHT:
        raise ChampionFileError(f"{path}: weights must be finite with |w| <= {MAX_WEIGHT:g}")
    metadata = data.get("metadata", {})
    return Champion(GAME, genome, {"genome": {"phases": phases}}, str(data.get("name", "")),
                    metadata if isinstance(metadata, dict) else {})


def _phases(path: Path, data: dict) -> int:
    try:
        phases = data["settings"]["genome"]["phases"]
    except (KeyError, TypeError):
        raise ChampionFileError(f"{path}: settings.genome.phases is missing") from None
    if not isinstance(phases, int) or isinstance(phases, bool) or not 1 <= phases <= 36:
        raise ChampionFileError(f"{path}: settings.genome.phases={phases!r} must be in 1..36")
    return phases
