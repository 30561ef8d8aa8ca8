"""Pentago Twist's baseline agents: random and greedy (the evolvable alpha-beta is
``engine.pentago.agents.alphabeta``, MCTS ``engine.pentago.agents.mcts``).

Every agent owns an explicit ``np.random.Generator``; ``reset(seed)`` reseeds it, so a game is
reproducible from its seed. Agents take a ``State`` and return a move id.
"""

from __future__ import annotations

from engine.core.agent import Seed, make_rng
from engine.pentago.agents import tactics


class _Seeded:
    """A named agent with its own generator, reseeded by ``reset(seed)``."""

    def __init__(self, seed: Seed, name: str):
        self.name = name
        self.reset(seed)

    def reset(self, seed: Seed = None) -> None:
        self._rng = make_rng(seed)

    def pick(self, moves: list[int]) -> int:
        return moves[int(self._rng.integers(len(moves)))]


class RandomAgent(_Seeded):
    """A uniformly random legal move (over all move ids, duplicates included, as the course's
    random player)."""

    def __init__(self, seed: Seed = None, name: str = "random"):
        super().__init__(seed, name)

    def select_move(self, state) -> int:
        return self.pick(state.legal_moves())


class GreedyAgent(_Seeded):
    """Win now if possible, never hand the opponent a win in one (nor draw at once) while
    something else is left, else a random distinct move among the best ranked."""

    def __init__(self, seed: Seed = None, name: str = "greedy"):
        super().__init__(seed, name)

    def select_move(self, state) -> int:
        top, moves = tactics.best_ranked_moves(*state.boards())
        if top == tactics.WIN:
            return moves[0]
        return self.pick(moves)
