"""Short names for players in tables: a run's champion by its experiment and generation, any
other file by its name, an agent spec as it is.

    experiments/runs/rr/champion.json            -> "reversed_reversi gen 28"
    outputs/2026-11-26/06-32-25/champions/gen_0003.json -> "reversed_reversi gen 3"
    experiments/results/champions/othello.json   -> "othello.json"
    eps0.1:experiments/runs/rr/champion.json     -> "eps0.1:reversed_reversi gen 28"

The experiment is the run's ``+experiment=`` override (Hydra's ``.hydra/overrides.yaml``), or
the champion's game for a run without one; the generation is the champion's own (0-based, as
``champions/gen_XXXX`` and ``generations.csv`` count). Two players that would get the same
name get their run folder's name added. ``describe`` gives the long form for a legend.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.core.champions.files import champion_game, file_header
from engine.core.records import Champion
from evolve.arena.matches import file_of

_GENERATION_FILE = re.compile(r"gen_(\d+)\.\w+$")


@dataclass(frozen=True)
class ChampionOrigin:
    """Where a champion file comes from, as far as the file and its folder tell."""

    path: Path
    run_dir: Path | None  # the run directory the file belongs to, if it is in one
    generation: int | None
    experiment: str | None  # +experiment=... of the run
    overrides: tuple[str, ...] = ()


def origin(source: str | Path | Champion) -> ChampionOrigin:
    """A file's origin; a ``Champion`` read already tells its metadata without a read."""
    metadata = source.metadata if isinstance(source, Champion) else None
    path = Path(source.path if isinstance(source, Champion) else source)
    run_dir = None
    if path.name == "champion.json":
        run_dir = path.parent
    elif path.parent.name == "champions" and _GENERATION_FILE.search(path.name):
        run_dir = path.parent.parent
    overrides = tuple(_overrides(run_dir)) if run_dir is not None else ()
    experiment = next((o.split("=", 1)[1] for o in overrides
                       if o.lstrip("+~").startswith("experiment=")), None)
    return ChampionOrigin(path, run_dir, _generation(path, metadata), experiment, overrides)


def _overrides(run_dir: Path) -> list[str]:
    from evolve.analysis.rundata import RunDirError, read_overrides

    try:
        return read_overrides(run_dir)
    except RunDirError:  # a broken overrides file only costs the label its experiment
        return []


def _generation(path: Path, metadata: dict | None = None) -> int | None:
    if metadata is None:
        try:
            metadata = file_header(path).get("metadata")
        except (OSError, ValueError):
            metadata = None
    provenance = metadata.get("provenance") if isinstance(metadata, dict) else None
    generation = provenance.get("generation") if isinstance(provenance, dict) else None
    if isinstance(generation, int):
        return generation
    match = _GENERATION_FILE.search(path.name)
    return int(match.group(1)) if match else None


def file_label(source: str | Path | Champion) -> str:
    o = origin(source)
    if o.run_dir is not None and o.generation is not None:
        game = source.game if isinstance(source, Champion) else _game_or_none(o.path)
        name = o.experiment or game or o.run_dir.name
        return f"{name} gen {o.generation}"
    if o.run_dir is not None:
        return o.run_dir.name
    return o.path.name


def _game_or_none(path: Path) -> str | None:
    try:
        return champion_game(path)
    except (OSError, ValueError):
        return None


def split_spec(spec: str) -> tuple[str, str | None]:
    """(prefix, file): ``eps0.1:a.json`` -> ``("eps0.1:", "a.json")``; no file: ``(spec, None)``."""
    file = file_of(spec)
    if file is None or not spec.endswith(file) or not Path(file).is_file():
        return spec, None
    return spec[: len(spec) - len(file)], file


def player_labels(specs: list[str], champions: Mapping[str, Champion] | None = None
                  ) -> dict[str, str]:
    """``{spec: short name}``, the names distinct for distinct specs; ``champions``: the
    players read already (``{spec: Champion}``), not read again."""
    champions = champions or {}
    labels = {}
    for spec in dict.fromkeys(specs):
        prefix, file = split_spec(spec)
        labels[spec] = spec if file is None else prefix + file_label(champions.get(spec, file))
    labels = _distinct(labels, lambda spec, label: _with_folder(spec, label,
                                                                champions.get(spec)))
    return _distinct(labels, _with_path)


def _distinct(labels: dict[str, str], refine) -> dict[str, str]:
    """Labels shared by several specs get ``refine(spec, label)`` instead."""
    seen: dict[str, int] = {}
    for label in labels.values():
        seen[label] = seen.get(label, 0) + 1
    return {spec: refine(spec, label) if seen[label] > 1 else label
            for spec, label in labels.items()}


def _with_folder(spec: str, label: str, champion: Champion | None = None) -> str:
    _, file = split_spec(spec)
    if file is None:
        return label
    o = origin(champion or file)
    folder = o.run_dir if o.run_dir is not None else o.path.parent
    return f"{label} [{folder.name}]"


def _with_path(spec: str, label: str) -> str:
    return spec


def describe(spec: str, label: str, champion: Champion | None = None) -> str | None:
    """A legend line for a player that is a file (``champion``: read already): its label,
    path, and run; ``None`` for an agent spec (its name says it all)."""
    _, file = split_spec(spec)
    if file is None:
        return None
    o = origin(champion or file)
    details = []
    if o.generation is not None:
        details.append(f"generation {o.generation}")
    if o.overrides:
        details.append("run with " + " ".join(o.overrides))
    return f"{label} = {file}" + (f" ({', '.join(details)})" if details else "")
