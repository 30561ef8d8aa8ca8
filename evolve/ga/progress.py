"""Absolute progress: the champion's Elo against fixed anchors, a hall of fame, diversity by
block and by phase.

Round-robin fitness is relative (zero-sum inside the population), so progress is measured
against anchors that do not move: the yardstick panel (fixed agents, rated 0: the scale is
"Elo relative to the panel") and a hall of fame of earlier champions, each rated when it was
champion on that same scale. A member from generation h anchors the yardstick of generation
h + 2 on (by then its rating is known whatever the workers' timing), so the anchors of every
generation are fixed by the config and seed alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from evolve.arena.elo import EloEstimate, performance_rating


@dataclass(frozen=True)
class Member:
    generation: int
    genome: tuple[float, ...]
    elo: float

    def as_dict(self) -> dict:
        return {"generation": self.generation, "genome": list(self.genome), "elo": self.elo}


def anchors_for(members: list[Member], generation: int, size: int) -> list[Member]:
    """The newest ``size`` members rated at least two generations before ``generation``."""
    ready = [m for m in members if m.generation <= generation - 2]
    return ready[-size:] if size else []


def joins(generation: int, every: int, elo: float) -> bool:
    """Whether this generation's champion enters the hall of fame."""
    return every > 0 and generation % every == 0 and math.isfinite(elo)


def counts_by_opponent(champion: int, tasks, results) -> dict:
    """(losses, draws, wins) of the champion against each opponent of its yardstick games."""
    counts: dict = {}
    for task, res in zip(tasks, results, strict=True):
        first = task.first == champion
        opponent = task.second if first else task.first
        points = res.points_for(0 if first else 1)
        c = counts.setdefault(opponent, [0, 0, 0])
        c[int(points * 2)] += 1
    return counts


def champion_rating(counts: dict, ratings: dict) -> EloEstimate:
    """Performance rating from the counts; an opponent missing from ``ratings`` is rated 0."""
    return performance_rating([(c, ratings.get(opp, 0.0)) for opp, c in counts.items()])


def diversity_groups(genomes: np.ndarray, bounds, blocks: dict[str, slice]) -> dict[str, float]:
    """Mean per-gene standard deviation (relative to the bound range) per block kind and per
    phase: block ``p1.mobility`` counts for ``mobility`` and for ``p1``."""
    span = np.where(bounds[1] > bounds[0], bounds[1] - bounds[0], 1.0)
    spread = np.std(genomes, axis=0) / span
    groups: dict[str, list[int]] = {}
    for name, block in blocks.items():
        indices = list(range(len(spread))[block])
        head, _, tail = name.partition(".")
        for group in ([tail, head] if tail else [head]):
            groups.setdefault(group, []).extend(indices)
    return {group: float(np.mean(spread[idx])) for group, idx in sorted(groups.items(),
                                                                      key=_phases_last)}


def _phases_last(item) -> tuple:
    name = item[0]
    is_phase = name[:1] == "p" and name[1:].isdigit()
    return (is_phase, int(name[1:]) if is_phase else 0, name)


def elite_score(standings, elites: int) -> float:
    """Mean round-robin score fraction (win 1, draw 1/2) of the ``elites`` best individuals."""
    order = np.argsort(-standings.fitness, kind="stable")[: max(1, elites)]
    games = standings.wins + standings.draws + standings.losses
    scores = (standings.wins + standings.draws / 2) / np.maximum(games, 1)
    return float(np.mean(scores[order]))
