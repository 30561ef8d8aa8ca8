"""The study's **objective** (``objective.metric``, ``objective.direction``): one number a Hydra
sweeper can optimise. It is that column of ``generations.csv`` in the row of the exported
champion's generation (the playoff's pick, else the last generation), so by default the exported
champion's Elo against the yardstick panel. ``python -m evolve`` returns it and
``objective.json`` holds it.
"""

from __future__ import annotations

import csv
import json
import logging
import math
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("evolve")
OBJECTIVE_FILE = "objective.json"
SCHEMA = 1


@dataclass(frozen=True)
class Objective:
    metric: str
    value: float  # NaN without a panel; +-inf when the champion won (lost) every panel game
    direction: str
    generation: int  # the row of generations.csv it comes from

    def to_json(self) -> dict:
        value = self.value if math.isfinite(self.value) else None  # JSON has no NaN or inf
        return {"schema": SCHEMA, "metric": self.metric, "value": value,
                "direction": self.direction, "generation": self.generation}


def write_objective(run_dir: Path, config, champion, last_generation: int) -> Objective:
    """The run's objective (see the module docstring), written to ``objective.json``.
    ``champion``: the exported ``ChampionRecord``."""
    selection = champion.metadata.get("selection") or {}
    generation = int(selection.get("generation", last_generation))
    row = _rows(run_dir / "generations.csv").get(generation, {})
    metric = config.objective.metric
    objective = Objective(metric, _number(row.get(metric)), config.objective.direction,
                          generation)
    tmp = run_dir / f".{OBJECTIVE_FILE}.tmp"
    tmp.write_text(json.dumps(objective.to_json(), indent=2) + "\n")
    tmp.replace(run_dir / OBJECTIVE_FILE)
    if math.isnan(objective.value):
        log.warning("objective %s is undefined (no value in generation %d's row of "
                    "generations.csv: is the yardstick off?)", metric, generation)
    return objective


def _rows(path: Path) -> dict[int, dict]:
    if not path.is_file():
        return {}
    with open(path, newline="") as f:
        return {int(row["generation"]): row for row in csv.DictReader(f)}


def _number(text) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan
