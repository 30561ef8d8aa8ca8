"""The agent interface every player implements (OpenSpiel's words: agent, ``select_move``)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

Seed = int | np.random.SeedSequence | None


@runtime_checkable
class Agent(Protocol):
    """A player. ``select_move(state)`` returns a legal move id of the state's game (it is never
    called on a finished game). ``reset(seed)`` starts a new game and reseeds any randomness, so
    a game is reproducible from its seed. Agents may expose ``last_info`` (a dict such as
    ``{"eval": 1.5}`` or ``{"win_rate": 0.6}``) about their last move."""

    name: str

    def select_move(self, state) -> int: ...

    def reset(self, seed: Seed = None) -> None: ...


def make_rng(seed: Seed) -> np.random.Generator:
    """A fresh generator from an int or SeedSequence; never touches global RNG state."""
    return np.random.default_rng(seed)


def child_seeds(seed: Seed, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent seeds derived from ``seed`` without mutating it (repeatable)."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return [
        np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, i), pool_size=ss.pool_size)
        for i in range(n)
    ]


def check_search_args(depth: int | None = None, time_limit: float | None = None,
                      endgame_empties: int | None = None) -> None:
    """``ValueError`` naming the first bad search argument of an agent (``None``: not given)."""
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be > 0 seconds, got {time_limit}")
    if endgame_empties is not None and endgame_empties < 0:
        raise ValueError(f"endgame_empties must be >= 0, got {endgame_empties}")
