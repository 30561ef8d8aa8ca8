"""Learning as indexed, seeded tasks on the execution layer, like games: each ``LearnTask`` is one
genome's temporal-difference self-play (``Game.td_learn``), so any backend runs any task on any
worker, and the learnt genome depends on the task alone (its seed), never on who ran it.

A ``TdContext`` is shipped once per batch (the game, its settings, the genomes and the TD
settings); ``play(tasks)`` is the name every backend calls.

TD in rounds (``python -m evolve.td --round-games``): a ``RoundContext`` holds one round's fixed
genome; each ``PlayTask`` is a chunk of its self-play games (``Game.td_play``), recorded for the
driver, which learns from them in task order (``Game.td_learn_games``). With ``learn_alpha``
set (``--learner workers``) the worker also learns from its chunk, starting from the round's
genome, and returns the change instead of the record: the network moves by the mean of the
changes (summed in task order), so learning spreads over the workers as playing does.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

from engine.core.agent import child_seeds
from evolve.execution.games import configured_game


@dataclass(frozen=True)
class LearnTask:
    index: int  # position in this batch's result list
    genome: int  # row of the context's genomes
    seed: tuple[int, ...]  # SeedSequence entropy


@dataclass(frozen=True)
class LearnResult:
    index: int
    genome: np.ndarray  # the learnt genome (float64)


@dataclass(frozen=True)
class TdContext:
    game: str
    settings: dict  # the game's settings (``Game.with_settings``)
    genomes: np.ndarray
    games: int  # self-play games per genome
    alpha: float
    epsilon: float

    def play(self, tasks: list[LearnTask]) -> list[LearnResult]:
        """Every task's learnt genome, in task order."""
        game = configured_game(self.game, self.settings)
        results = []
        for task in tasks:
            learnt = game.td_learn(self.genomes[task.genome].copy(), self.games,
                                   np.random.SeedSequence(list(task.seed)), self.alpha,
                                   self.epsilon)
            results.append(LearnResult(task.index, np.asarray(learnt, dtype=np.float64)))
        return results


@dataclass(frozen=True)
class PlayTask:
    index: int  # position in this round's result list
    games: int
    seed: tuple[int, ...]  # SeedSequence entropy: the openings' and the games' seeds


@dataclass(frozen=True)
class PlayResult:
    index: int
    record: dict  # the game's record of its games (``Game.td_play``)
    cpu_seconds: float = 0.0  # what playing them cost the process that played them
    pid: int = 0  # that process (the driver's own when the backend is serial)
    change: np.ndarray | None = None  # with learn_alpha: learnt - the round's genome
    errors: np.ndarray | None = None  # with learn_alpha: each game's mean squared TD error


@dataclass(frozen=True)
class RoundContext:
    game: str
    settings: dict
    genome: np.ndarray  # the round's fixed genome
    epsilon: float
    opening_plies: tuple[int, int] | None  # (min, max) random plies before play, or None
    opponents: tuple[str, ...] = ()  # fixed players of some games (``Game.td_opponents``)
    self_play_share: float = 0.5  # with opponents: the share of games that stay self-play
    learn_alpha: float | None = None  # set: learn on the worker (``--learner workers``)
    phase_share: float = 0.0  # of the worker's plain (stateless) step rule

    def play(self, tasks: list[PlayTask]) -> list[PlayResult]:
        """Every task's recorded games (or, with ``learn_alpha``, what learning from them
        changes), in task order."""
        game = configured_game(self.game, self.settings)
        results = []
        for task in tasks:
            opening_seed, play_seed = child_seeds(np.random.SeedSequence(list(task.seed)), 2)
            openings = None if self.opening_plies is None else game.random_openings(
                task.games, opening_seed, *self.opening_plies)
            started = time.process_time()
            against = {"opponents": self.opponents, "self_play_share": self.self_play_share} \
                if self.opponents else {}
            record = game.td_play(self.genome, task.games, play_seed, self.epsilon, openings,
                                  **against)
            change = errors = None
            if self.learn_alpha is not None:
                learnt, errors = game.td_learn_games(self.genome, [record], self.learn_alpha,
                                                     **self.rule())
                change, record = learnt - self.genome, {}
            results.append(PlayResult(task.index, record, time.process_time() - started,
                                      os.getpid(), change, errors))
        return results

    def rule(self) -> dict:
        from engine.core import StepRule

        return {"rule": StepRule("nlms", self.phase_share)} if self.phase_share else {}
