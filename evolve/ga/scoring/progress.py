"""Absolute progress: the champion's Elo against the fixed yardstick panel, its score against a
hall of fame of earlier champions (shown separately), diversity by block and by phase.

Round-robin fitness is relative (zero-sum inside the population), so progress is measured
against opponents that do not move. The champion's Elo uses the yardstick panel alone (fixed
agents, all rated 0: the scale is "Elo relative to the panel"). Earlier champions (every k-th
generation's, the hall of fame) play every later champion too, but are *not* anchors of that
Elo: a champion bred from them beats them by more than its gain against fixed opponents (the
committed default study: generation 29 scores 0.95 against generation 15's champion, which is
as strong against the panel), so rating it against their ratings inflates the Elo (+656 where
the panel alone says +436). Their games give a separate number instead, the champion's score
against them (``hall_of_fame_score``); experiments/notes/progress.md has the measurements.

A member from generation h plays the yardstick of generation h + 2 on (by then it is known
whether it joined, whatever the workers' timing), so the opponents of every generation are
fixed by the config and seed alone.
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
    elo: float | None  # its Elo against the panel when it was champion (information only)

    def as_dict(self) -> dict:
        return {"generation": self.generation, "genome": list(self.genome), "elo": self.elo}


def anchors_for(members: list[Member], generation: int, size: int) -> list[Member]:
    """The newest ``size`` members that joined at least two generations before
    ``generation``: the earlier champions its champion plays in the yardstick."""
    ready = [m for m in members if m.generation <= generation - 2]
    return ready[-size:] if size else []


def joins(generation: int, every: int, counts: dict) -> bool:
    """Whether this generation's champion enters the hall of fame: every ``every``-th
    generation's, unless it won or lost every yardstick game (kept from when members were
    rated: such a champion had no finite rating, and the hall of fame of every run made since
    stays the same)."""
    if every <= 0 or generation % every:
        return False
    losses, draws, wins = (sum(c[k] for c in counts.values()) for k in range(3))
    return 0 < wins + draws / 2 < losses + draws + wins


def counts_by_opponent(champion: int, tasks, results, label=str) -> dict:
    """(losses, draws, wins) of the champion against each opponent of its yardstick games: a
    hall of fame member by its genome index, a panel player (an agent spec, or a ``Champion``)
    by its ``label``, the text the config names it by."""
    counts: dict = {}
    for task, res in zip(tasks, results, strict=True):
        first = task.first == champion
        opponent = task.second if first else task.first
        points = res.points_for(0 if first else 1)
        key = int(opponent) if isinstance(opponent, int | np.integer) else label(opponent)
        c = counts.setdefault(key, [0, 0, 0])
        c[int(points * 2)] += 1
    return counts


def champion_rating(counts: dict) -> EloEstimate | None:
    """The champion's Elo against the panel alone, every panel agent rated 0 (panel agents are
    labelled by text, hall-of-fame members by genome index); None without panel games."""
    panel = [(c, 0.0) for opponent, c in counts.items() if isinstance(opponent, str)]
    return performance_rating(panel) if panel else None


def hall_of_fame_score(counts: dict) -> float:
    """The champion's score fraction (win 1, draw 1/2) against the hall-of-fame members it
    played (NaN when none): head-to-head progress against earlier champions."""
    members = [c for opponent, c in counts.items() if not isinstance(opponent, str)]
    games = sum(sum(c) for c in members)
    return sum(c[2] + c[1] / 2 for c in members) / games if games else math.nan


MAX_KINDS = 16  # more block kinds than this (an n-tuple network's tables): phases only


def diversity_groups(genomes: np.ndarray, bounds, blocks: dict[str, slice]) -> dict[str, float]:
    """Mean per-gene standard deviation (relative to the bound range) per block kind and per
    phase: block ``p1.mobility`` counts for ``mobility`` and for ``p1``. A genome of more than
    ``MAX_KINDS`` kinds (``p0.t0`` ... ``p0.t31``: one per lookup table) gets the phases alone,
    not a column per table."""
    span = np.where(bounds[1] > bounds[0], bounds[1] - bounds[0], 1.0)
    spread = np.std(genomes, axis=0) / span
    kinds = {name.partition(".")[2] for name in blocks} - {""}
    groups: dict[str, list[int]] = {}
    for name, block in blocks.items():
        indices = list(range(len(spread))[block])
        head, _, tail = name.partition(".")
        for group in ([tail, head] if tail and len(kinds) <= MAX_KINDS else [head]):
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
