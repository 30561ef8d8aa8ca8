"""Test helper: an agent that thinks until the test lets it move, to hold a search slot."""

from __future__ import annotations

import threading


class BlockingAgent:
    """Thinks until the test lets it move (then plays its first legal move)."""

    name = "blocking"

    def __init__(self, game):
        self.game, self.thinking, self.release = game, threading.Event(), threading.Event()

    def select_move(self, state) -> int:
        self.thinking.set()
        assert self.release.wait(timeout=30), "the test never released the agent"
        self.last_info = {"eval": 0.25}
        return self.game.legal_moves(state)[0]

    def reset(self, seed=None) -> None:
        pass
