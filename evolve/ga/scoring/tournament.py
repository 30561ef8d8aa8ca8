"""The problem: score a whole population by a full round robin (and the champion by a panel).

Games are plain data (``GameTask``) with an index, so any backend can play them in any order
and on any worker: every game's seed comes from ``SeedSequence([seed, generation, pairing,
game])`` and results are put back by index, which makes the fitness table independent of how the
work was split.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from engine.core.game import DRAW, Game
from evolve.execution.games import (  # noqa: F401 - re-exported: the tasks are the GA's words
    OPENINGS_STREAM,
    Context,
    GameResult,
    GameTask,
    play_tasks,
    warm_up,
)

YARDSTICK_STREAM = 1 << 29  # yardstick pairings are YARDSTICK_STREAM + opponent index
# the yardstick's openings use generation ``YARDSTICK_GENERATION_OFFSET + g`` so they differ from
# the round robin's and do not change when ``games.openings`` changes; the playoff's likewise
YARDSTICK_GENERATION_OFFSET = 10**6
PLAYOFF_GENERATION = 2 * 10**6


def openings_for(game: Game, seed: int, generation: int, n: int, min_plies: int, max_plies: int):
    """The generation's openings, identical for every pair (fresh each generation)."""
    ss = np.random.SeedSequence([seed, generation, OPENINGS_STREAM])
    return game.random_openings(n, ss, min_plies=min_plies, max_plies=max_plies)


def round_robin_tasks(n: int, openings, seed: int, generation: int) -> list[GameTask]:
    """Every pair (i < j) plays every opening twice, i black first, then j black."""
    return pair_tasks(((pairing, i, j) for pairing, (i, j)
                       in enumerate(itertools.combinations(range(n), 2))), openings, seed,
                      generation)


def pair_tasks(pairs, openings, seed: int, generation: int) -> list[GameTask]:
    """Each ``(pairing, i, j)`` plays every opening twice, i first, then j first; a game's seed
    is its pairing's and its number's, whichever other pairs are played."""
    tasks = []
    for pairing, i, j in pairs:
        for k, opening in enumerate(openings):
            for swap in (0, 1):
                g = 2 * k + swap
                first, second = (j, i) if swap else (i, j)
                tasks.append(GameTask(len(tasks), pairing, g, first, second, tuple(opening),
                                      (seed, generation, pairing, g)))
    return tasks


def yardstick_tasks(champion: int, panel, openings, seed: int, generation: int) -> list[GameTask]:
    """The champion against each panel opponent, every opening with both colours."""
    tasks = []
    for p, spec in enumerate(panel):
        for k, opening in enumerate(openings):
            for swap in (0, 1):
                g = 2 * k + swap
                first, second = (spec, champion) if swap else (champion, spec)
                tasks.append(GameTask(len(tasks), p, g, first, second, tuple(opening),
                                      (seed, generation, YARDSTICK_STREAM + p, g)))
    return tasks


@dataclass(frozen=True)
class Standings:
    fitness: np.ndarray
    wins: np.ndarray
    draws: np.ndarray
    losses: np.ndarray


def score_round_robin(n: int, tasks, results, win: float, draw: float, loss: float,
                      margin: float = 0.0) -> Standings:
    """Fitness = sum of points over all games (default +5 / 0 / -5), plus ``margin`` points per
    unit of each game's final margin (discs, cells) when it is not 0."""
    wins, draws, losses = (np.zeros(n, dtype=np.int64) for _ in range(3))
    for task, res in zip(tasks, results, strict=True):
        assert task.index == res.index
        if res.winner == DRAW:
            draws[task.first] += 1
            draws[task.second] += 1
        else:
            winner, loser = (task.first, task.second) if res.winner == 0 \
                else (task.second, task.first)
            wins[winner] += 1
            losses[loser] += 1
    fitness = (win * wins + draw * draws + loss * losses).astype(np.float64)
    if margin:  # legacy runs (margin 0) keep their exact sums
        for task, res in zip(tasks, results, strict=True):
            fitness[task.first] += margin * res.margin
            fitness[task.second] -= margin * res.margin
    return Standings(fitness, wins, draws, losses)


def yardstick_scores(panel, champion: int, tasks, results, label=str) -> dict[str, float]:
    """Champion's score fraction against each panel opponent (win 1, draw 0.5), by its label
    (``label``: a panel player's name in the outputs; an agent spec's is itself)."""
    points = {label(player): [] for player in panel}
    for task, res in zip(tasks, results, strict=True):
        champion_first = task.first == champion
        opponent = task.second if champion_first else task.first
        if isinstance(opponent, int | np.integer):  # the hall of fame: no panel column
            continue
        points[label(opponent)].append(res.points_for(0 if champion_first else 1))
    return {name: float(np.mean(p)) for name, p in points.items()}
