"""Fitness that does not chase its own tail: a weighted mix of three sources of opponents.

- ``population``: the round robin (relative: the population only learns to beat itself);
- ``references``: fixed agent specs (or champion files) every individual plays;
- ``hall_of_fame``: earlier champions (``evolve.ga.scoring.progress.Member``), which do not move
  either.

Every individual plays the same opponents on the same openings with both colours (paired
openings), so differences in score come from the individuals, not from the draw. A source's
score is the mean points per game (``games.win/draw/loss``, plus ``games.margin`` per unit
of final margin); the fitness is the weighted mean
over the sources that played this generation (the hall of fame is empty at first). With only
the population weighted, the fitness stays the round robin's summed points (legacy runs).

The hall of fame member of generation h may be an opponent from generation h + 3 on: generation
G's games are submitted before generation G - 2 finishes (``evolve.ga.loop``), so this rule
makes the opponents a function of the config and seed alone, resumed or not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.core.game import DRAW, Champion
from engine.core.matches.specs import Player
from evolve.ga.scoring.progress import Member
from evolve.ga.scoring.tournament import GameTask, Standings, score_round_robin

FITNESS_GENERATION_OFFSET = 3 * 10**6  # openings of the opponent games: their own stream
HALL_OF_FAME_LAG = 3  # a member of generation h plays from generation h + 3 on


@dataclass(frozen=True)
class Opponents:
    """The fixed opponents of one generation: players (agent specs, or champions loaded once
    when the config was resolved), then hall of fame genomes."""

    references: tuple[Player, ...]
    hall_of_fame: tuple[Member, ...]

    def players(self, population_size: int) -> list[int | str]:
        """Task players: references as they are, members as indices after the
        population's."""
        members = [population_size + k for k in range(len(self.hall_of_fame))]
        return [*self.references, *members]

    def labels(self, population_size: int) -> dict[int, str]:
        return {population_size + k: f"hof_gen{m.generation:04d}"
                for k, m in enumerate(self.hall_of_fame)}

    def genomes(self, population: np.ndarray) -> np.ndarray:
        extra = [np.asarray(m.genome, np.float64)[None, :] for m in self.hall_of_fame]
        return np.vstack([population, *extra]) if extra else population


def is_legacy(fitness) -> bool:
    """Only the round robin counts: summed points, exactly as before the mix existed."""
    return fitness.references == 0 and fitness.hall_of_fame == 0


def opponents_for(fitness, references: list[Player], members: list[Member],
                  generation: int) -> Opponents:
    refs = tuple(references) if fitness.references > 0 else ()
    ready = [m for m in members if m.generation <= generation - HALL_OF_FAME_LAG]
    chosen = ready[-fitness.hall_of_fame_size:] if fitness.hall_of_fame > 0 and \
        fitness.hall_of_fame_size else []
    return Opponents(refs, tuple(chosen))


def opponent_tasks(n: int, players: list, openings, seed: int, generation: int,
                   first_index: int, first_pairing: int) -> list[GameTask]:
    """Individual i against every fixed opponent o on every opening, both colours. Pairing
    numbers start after the round robin's, so no two games of a generation share a seed."""
    tasks = []
    for o, opponent in enumerate(players):
        for i in range(n):
            pairing = first_pairing + o * n + i
            for k, opening in enumerate(openings):
                for swap in (0, 1):
                    g = 2 * k + swap
                    first, second = (opponent, i) if swap else (i, opponent)
                    tasks.append(GameTask(first_index + len(tasks), pairing, g, first, second,
                                          tuple(opening), (seed, generation, pairing, g)))
    return tasks


def score_mix(n: int, tasks, results, fitness, games, round_robin_tasks: int,
              opponents: Opponents) -> Standings:
    """Standings over every fitness game; the fitness as the module docstring says."""
    rr_tasks, rr_results = tasks[:round_robin_tasks], results[:round_robin_tasks]
    rr = score_round_robin(n, rr_tasks, rr_results, games.win, games.draw, games.loss,
                           games.margin)
    if is_legacy(fitness):
        return rr
    wins, draws, losses = rr.wins.copy(), rr.draws.copy(), rr.losses.copy()
    sums = {"population": np.zeros(n), "references": np.zeros(n), "hall_of_fame": np.zeros(n)}
    counts = {key: np.zeros(n) for key in sums}
    rr_games = rr.wins + rr.draws + rr.losses
    sums["population"] += rr.fitness
    counts["population"] += rr_games
    for task, res in zip(tasks[round_robin_tasks:], results[round_robin_tasks:], strict=True):
        individual_first = isinstance(task.first, int) and task.first < n
        i = task.first if individual_first else task.second
        opponent = task.second if individual_first else task.first
        source = "references" if isinstance(opponent, str | Champion) else "hall_of_fame"
        points = res.points_for(0 if individual_first else 1)
        column = wins if points == 1.0 else draws if res.winner == DRAW else losses
        column[i] += 1
        sums[source][i] += games.win if points == 1.0 else \
            games.draw if res.winner == DRAW else games.loss
        if games.margin:
            sums[source][i] += games.margin * (res.margin if individual_first else -res.margin)
        counts[source][i] += 1
    total, weight = np.zeros(n), 0.0
    for source, w in (("population", fitness.population), ("references", fitness.references),
                      ("hall_of_fame", fitness.hall_of_fame)):
        if w > 0 and counts[source].max() > 0:
            total += w * sums[source] / np.maximum(counts[source], 1)
            weight += w
    return Standings(total / weight if weight else total, wins, draws, losses)
