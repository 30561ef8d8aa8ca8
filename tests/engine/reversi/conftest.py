"""Shared fixtures: seeded random reachable positions."""

from __future__ import annotations

import numpy as np
import pytest

from engine.reversi.rules.state import PASS, Position


def random_reachable(seed: int, plies: int) -> Position:
    """Play up to ``plies`` uniformly random legal moves (passes included) from the start."""
    rng = np.random.default_rng(seed)
    position = Position.start()
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(moves[rng.integers(len(moves))] if moves != [PASS] else PASS)
    return position


@pytest.fixture
def reachable_positions() -> list[Position]:
    return [random_reachable(seed, plies) for seed in range(40) for plies in (5, 20, 40, 58, 70)]
