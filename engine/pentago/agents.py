"""Pentago Twist agents besides MCTS: random, greedy, and the evolvable alpha-beta.

Every agent owns an explicit ``np.random.Generator``; ``reset(seed)`` reseeds it, so a game is
reproducible from its seed. Agents take a ``State`` and return a move id.
"""

from __future__ import annotations

import numpy as np

from engine.core.agent import Seed, check_search_args, cut_info, make_rng
from engine.pentago import tactics
from engine.pentago.search import NO_MOVE, Searcher, SearchResult


class RandomAgent:
    """A uniformly random legal move (over all move ids, duplicates included, as the course's
    random player)."""

    def __init__(self, seed: Seed = None, name: str = "random"):
        self.name = name
        self.reset(seed)

    def reset(self, seed: Seed = None) -> None:
        self._rng = make_rng(seed)

    def select_move(self, state) -> int:
        moves = state.legal_moves()
        return moves[int(self._rng.integers(len(moves)))]


class GreedyAgent:
    """Win now if possible, never hand the opponent a win in one (nor draw at once) while
    something else is left, else a random distinct move among the best ranked."""

    def __init__(self, seed: Seed = None, name: str = "greedy"):
        self.name = name
        self.reset(seed)

    def reset(self, seed: Seed = None) -> None:
        self._rng = make_rng(seed)

    def select_move(self, state) -> int:
        top, moves = tactics.best_ranked_moves(*state.boards())
        if top == tactics.WIN:
            return moves[0]
        return moves[int(self._rng.integers(len(moves)))]


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
