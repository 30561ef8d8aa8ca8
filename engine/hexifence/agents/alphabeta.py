"""The agent the GA tunes: Hexifence's alpha-beta (``engine.hexifence.search.searcher``) with a
genome's evaluation weights or an n-tuple network."""

from __future__ import annotations

import numpy as np

from engine.core.agent import Seed, check_search_args, cut_info
from engine.hexifence.rules.state import State
from engine.hexifence.search.searcher import NO_MOVE, Searcher


class AlphaBetaAgent:
    """Alpha-beta with evaluation ``weights`` ([phases, features]): ``depth`` turns, or
    iterative deepening within ``time_limit`` seconds; exact once ``endgame_empties`` or fewer
    edges are undrawn. Deterministic (``seed`` is accepted and ignored). ``network``: an n-tuple
    genome's evaluation (``Searcher``)."""

    def __init__(self, weights: np.ndarray, size: int, depth: int = 2,
                 time_limit: float | None = None, endgame_empties: int = 12, name: str = "",
                 tt_bits: int = 20, network: tuple | None = None):
        check_search_args(depth, time_limit)
        self.searcher = Searcher(weights, size, tt_bits, network=network)
        self.depth, self.time_limit = int(depth), time_limit
        self.deadline: float | None = None  # a fixed-depth search's cap (``cut_info``)
        self.endgame_empties = int(endgame_empties)
        budget = f"{time_limit}s" if time_limit is not None else f"d{depth}"
        self.name = name or f"alphabeta@{budget}"
        self.last_info: dict = {}

    def reset(self, seed: Seed = None) -> None:
        self.searcher.clear()

    def select_move(self, state: State) -> int:
        if state.empty_edges <= self.endgame_empties:
            result = self.searcher.solve(state)
        elif self.time_limit is not None:
            result = self.searcher.search(state, time_limit=self.time_limit)
        else:
            result = self.searcher.search(state, depth=self.depth, deadline=self.deadline)
        if result.move == NO_MOVE:
            raise RuntimeError(f"search returned no move for\n{state.to_text()}")
        self.last_info = {"eval": result.value, **cut_info(self, result)}
        return result.move
