"""Temporal-difference learning of Reversi's ``ntuple`` genomes behind the game contract (a
mixin of ``ReversiGame``, which gives ``model()``, ``network``, ``phase_bounds``, ``variant``
and ``weights``): online self-play (``engine.reversi.td.selfplay``), against fixed opponents, and in
rounds (``engine.reversi.td.rounds``).

The genome kind decides whether it learns (``model().learns_by_td``): a network learns through
a ``NetworkTD``; square tables fall back to ``GameBase`` (no TD)."""

from __future__ import annotations

import numpy as np

from engine.core import Seed


class NetworkTD:
    """TD(0) of a network genome of ``game`` (a ``ReversiGame`` whose kind is ``ntuple``)."""

    step_rules = ("nlms", "tcl")

    def __init__(self, game):
        self.game = game

    def learn(self, genome, games, seed, alpha, epsilon, opponents, self_play_share, rule):
        from engine.reversi.td.opponents import opponent_networks
        from engine.reversi.td.selfplay import td_learn

        g = self.game
        fixed = opponent_networks(tuple(opponents), g.variant.is_reversed)
        learnt = td_learn(g.network, genome, games, seed, alpha, epsilon, g.phase_bounds,
                          g.variant.is_reversed, fixed, self_play_share, rule)
        g.weights(learnt)  # the same checks as any genome: finite, below the win score
        return learnt

    def play(self, genome, games, seed, epsilon, openings, opponents, self_play_share):
        from engine.reversi.td.opponents import opponent_networks
        from engine.reversi.td.rounds import td_play

        g = self.game
        fixed = opponent_networks(tuple(opponents), g.variant.is_reversed)
        return td_play(g.network, genome, g.phase_bounds, g.variant.is_reversed, games, seed,
                       epsilon, openings, fixed, self_play_share)

    def learn_games(self, genome, records, alpha, rule):
        from engine.reversi.td.rounds import td_learn_games

        g = self.game
        learnt, errors = td_learn_games(g.network, genome, g.phase_bounds,
                                        g.variant.is_reversed, records, alpha, rule)
        g.weights(learnt)  # the same checks as any genome: finite, below the win score
        return learnt, errors


class ReversiTD:
    def _learner(self) -> NetworkTD | None:
        return NetworkTD(self) if self.model().learns_by_td else None

    def learns_by_td(self) -> bool:
        return self._learner() is not None

    def td_learn(self, genome: np.ndarray, games: int, seed: Seed, alpha: float,
                 epsilon: float, opponents=(), self_play_share: float = 0.5,
                 rule=None) -> np.ndarray:
        """TD(0) self-play of a network genome, some games against fixed ``opponents`` (agent
        specs: references, ``wpc1``, weights or network files) if given
        (``engine.reversi.td.selfplay.td_learn``)."""
        learner = self._learner()
        if learner is None:
            return super().td_learn(genome, games, seed, alpha, epsilon)
        return learner.learn(genome, games, seed, alpha, epsilon, opponents, self_play_share,
                             rule)

    def td_opponents(self) -> bool:
        return self.learns_by_td()

    def td_rounds(self) -> bool:
        return self.learns_by_td()

    def td_play(self, genome: np.ndarray, games: int, seed: Seed, epsilon: float,
                openings=None, opponents=(), self_play_share: float = 0.5) -> dict:
        """Fixed-network self-play, recorded, some games against fixed ``opponents`` (agent
        specs, as ``td_learn`` takes them) if given (``engine.reversi.td.rounds.td_play``)."""
        learner = self._learner()
        if learner is None:
            return super().td_play(genome, games, seed, epsilon, openings)
        return learner.play(genome, games, seed, epsilon, openings, opponents, self_play_share)

    def td_step_rules(self) -> tuple[str, ...]:
        learner = self._learner()
        return () if learner is None else learner.step_rules

    def td_learn_games(self, genome: np.ndarray, records, alpha: float, rule=None
                       ) -> tuple[np.ndarray, np.ndarray]:
        learner = self._learner()
        if learner is None:
            return super().td_learn_games(genome, records, alpha)
        return learner.learn_games(genome, records, alpha, rule)
