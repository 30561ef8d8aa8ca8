"""Game-neutral agent wrappers."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.agent import Seed, child_seeds, make_rng


class EpsilonAgent:
    """With probability ``epsilon`` a uniformly random legal move, otherwise ``inner``'s move.

    The Othello League protocol plays its opponents this way with epsilon = 0.1 so that
    deterministic players do not replay one game. ``legal_moves`` is the game's
    ``Game.legal_moves``."""

    def __init__(self, inner, epsilon: float, legal_moves: Callable, seed: Seed = None,
                 name: str | None = None):
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
        self.inner, self.epsilon, self.legal_moves = inner, float(epsilon), legal_moves
        self.name = name or f"eps{epsilon:g}:{inner.name}"
        self.reset(seed)

    def reset(self, seed: Seed = None) -> None:
        own, inner = child_seeds(seed, 2) if seed is not None else (None, None)
        self._rng = make_rng(own)
        self.inner.reset(inner)

    def select_move(self, state) -> int:
        moves = self.legal_moves(state)
        if self._rng.random() < self.epsilon:
            return moves[int(self._rng.integers(len(moves)))]
        return self.inner.select_move(state)

    @property
    def last_info(self) -> dict:
        return getattr(self.inner, "last_info", {})
