"""Temporal-difference learning of Reversi's ``ntuple`` genomes behind the game contract (a
mixin of ``ReversiGame``, which gives ``kind``, ``network``, ``phase_bounds``, ``variant`` and
``weights``): online self-play (``engine.reversi.td.selfplay``), against fixed opponents, and in
rounds (``engine.reversi.td.rounds``)."""

from __future__ import annotations

import numpy as np

from engine.core import Seed


class ReversiTD:
    def learns_by_td(self) -> bool:
        return self.kind == "ntuple"

    def td_learn(self, genome: np.ndarray, games: int, seed: Seed, alpha: float,
                 epsilon: float, opponents=(), self_play_share: float = 0.5,
                 rule=None) -> np.ndarray:
        """TD(0) self-play of a network genome, some games against fixed ``opponents`` (agent
        specs: references, ``wpc1``, weights or network files) if given
        (``engine.reversi.td.selfplay.td_learn``)."""
        if self.kind != "ntuple":
            return super().td_learn(genome, games, seed, alpha, epsilon)
        from engine.reversi.td.opponents import opponent_networks
        from engine.reversi.td.selfplay import td_learn

        fixed = opponent_networks(tuple(opponents), self.variant.is_reversed)
        learnt = td_learn(self.network, genome, games, seed, alpha, epsilon, self.phase_bounds,
                          self.variant.is_reversed, fixed, self_play_share, rule)
        self.weights(learnt)  # the same checks as any genome: finite, below the win score
        return learnt

    def td_opponents(self) -> bool:
        return self.kind == "ntuple"

    def td_rounds(self) -> bool:
        return self.kind == "ntuple"

    def td_play(self, genome: np.ndarray, games: int, seed: Seed, epsilon: float,
                openings=None, opponents=(), self_play_share: float = 0.5) -> dict:
        """Fixed-network self-play, recorded, some games against fixed ``opponents`` (agent
        specs, as ``td_learn`` takes them) if given (``engine.reversi.td.rounds.td_play``)."""
        if self.kind != "ntuple":
            return super().td_play(genome, games, seed, epsilon, openings)
        from engine.reversi.td.opponents import opponent_networks
        from engine.reversi.td.rounds import td_play

        fixed = opponent_networks(tuple(opponents), self.variant.is_reversed)
        return td_play(self.network, genome, self.phase_bounds, self.variant.is_reversed,
                       games, seed, epsilon, openings, fixed, self_play_share)

    def td_step_rules(self) -> tuple[str, ...]:
        return ("nlms", "tcl") if self.kind == "ntuple" else ()

    def td_learn_games(self, genome: np.ndarray, records, alpha: float, rule=None
                       ) -> tuple[np.ndarray, np.ndarray]:
        if self.kind != "ntuple":
            return super().td_learn_games(genome, records, alpha)
        from engine.reversi.td.rounds import td_learn_games

        learnt, errors = td_learn_games(self.network, genome, self.phase_bounds,
                                        self.variant.is_reversed, records, alpha, rule)
        self.weights(learnt)  # the same checks as any genome: finite, below the win score
        return learnt, errors

