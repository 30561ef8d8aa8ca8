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


def set_deadline(agent, seconds: float | None) -> bool:
    """Give the fixed-depth search of ``agent`` (or of the agent it wraps, ``inner``) a
    deadline: past it, the deepest depth completed plays (``cut_info`` says so). False when no
    agent in the chain searches to a fixed depth with one (MCTS, a timed search, a rule)."""
    while agent is not None:
        if hasattr(agent, "deadline") and getattr(agent, "time_limit", None) is None:
            agent.deadline = seconds
            return True
        agent = getattr(agent, "inner", None)
    return False


def cut_info(agent, result) -> dict:
    """What a move's ``last_info`` adds when its fixed-depth search was stopped by its deadline
    before the depth asked for: ``{"cut": True, "depth": reached, "depth_asked": asked}``."""
    if not getattr(result, "cut", False):
        return {}
    return {"cut": True, "depth": int(result.depth), "depth_asked": int(agent.depth)}


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
