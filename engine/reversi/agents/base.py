"""The agent interface shared by every player (OpenSpiel's vocabulary: agent, select_move)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from engine.reversi.position import Position

Seed = int | np.random.SeedSequence | None


@runtime_checkable
class Agent(Protocol):
    """A player. ``select_move`` returns a square index 0..63, or ``PASS`` when the side to move
    has no legal move (it is never called on a finished game). ``reset`` starts a new game and
    reseeds any randomness, so a game is reproducible from its seed."""

    name: str

    def select_move(self, position: Position) -> int: ...

    def reset(self, seed: Seed = None) -> None: ...


def make_rng(seed: Seed) -> np.random.Generator:
    """A fresh generator from an int or SeedSequence; never touches global RNG state."""
    return np.random.default_rng(seed)
