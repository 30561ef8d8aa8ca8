"""The agent the GA tunes: Pentago Twist's alpha-beta (``engine.pentago.search.searcher``) with
a genome's weights (features per phase) or an n-tuple network."""

from __future__ import annotations

import numpy as np

from engine.core.agent import Seed, check_search_args, cut_info
from engine.pentago.search.searcher import NO_MOVE, Searcher, SearchResult


class AlphaBetaAgent:
    """``depth`` plies per move, or iterative deepening within ``time_limit`` seconds; exact
    play once at most ``endgame_empties`` cells are empty. Deterministic: ``seed`` is accepted
    for the Agent protocol and ignored. Agents in one process share one table. ``network``:
    an n-tuple genome's evaluation (``Searcher``)."""

    def __init__(self, weights: np.ndarray, phase_of_stones: np.ndarray, depth: int = 2,
                 time_limit: float | None = None, endgame_empties: int = 8,
                 seed: Seed = None, name: str = "alphabeta", tt_bits: int = 20,
                 network: tuple | None = None):
        check_search_args(depth, time_limit, endgame_empties)
        self.depth, self.time_limit = int(depth), time_limit
        self.deadline: float | None = None  # a fixed-depth search's cap (``cut_info``)
        self.searcher = Searcher(weights, phase_of_stones, endgame_empties, tt_bits,
                                 network=network)
        self.name = name
        self.nodes = 0
        self.last_result: SearchResult | None = None
        self.last_info: dict = {}

    def reset(self, seed: Seed = None) -> None:
        self.searcher.clear()
        self.nodes = 0
        self.last_result, self.last_info = None, {}

    def select_move(self, state) -> int:
        P, O = state.boards()
        if self.time_limit is None:
            result = self.searcher.search(P, O, depth=self.depth, deadline=self.deadline)
        else:
            result = self.searcher.search(P, O, time_limit=self.time_limit)
        self.nodes += result.nodes
        self.last_result = result
        self.last_info = {"eval": float(result.score), "exact": bool(result.exact),
                          "depth": int(result.depth), **cut_info(self, result)}
        if result.move == NO_MOVE:
            raise RuntimeError("search returned no move for an unfinished game")
        return result.move
