"""Pentago Twist's alpha-beta searcher: fixed depth, or iterative deepening in a time limit;
exact (to the end of the game) with few empty cells left.

The search is the shared kernel (``engine.kernels.search.alphabeta``) with Pentago's parts
(``engine.pentago.search.negamax``); table, generations and timing are the shared driver's.
"""

from __future__ import annotations

import time

import numpy as np

from engine.kernels.search.driver import UNLIMITED, SearchDriver, SearchResult
from engine.pentago.genome.evaluation import WIN_SCORE
from engine.pentago.genome.network import FEATURES_ONLY, no_network
from engine.pentago.search.negamax import NO_MOVE, negamax  # noqa: F401 - NO_MOVE re-exported

MIN_RATE = 20_000.0  # floor of the measured speed (nodes/s)
START_RATE = 300_000.0  # speed assumed before anything is measured


# SearchResult: score +-WIN_SCORE (+ empties) means a forced result


class Searcher(SearchDriver):
    """Alpha-beta with fixed weights; keeps its table between searches.

    ``search(P, O, depth=...)`` searches to a fixed depth; ``time_limit=...`` deepens
    iteratively within it. With at most ``endgame_empties`` empty cells the search goes to the
    end. ``network``: ``(tables, weights [phases, n_weights], mode)`` of an n-tuple genome
    (``engine.pentago.genome.network``); without it the feature ``weights`` alone evaluate.
    """

    def __init__(self, weights: np.ndarray, phase_of_stones: np.ndarray,
                 endgame_empties: int = 8, tt_bits: int = 20, shared: bool = True,
                 network: tuple | None = None):
        super().__init__(tt_bits, shared, START_RATE, MIN_RATE)
        self.weights = np.ascontiguousarray(weights, np.float64)
        self.phase_of_stones = np.ascontiguousarray(phase_of_stones, np.int64)
        self.endgame_empties = int(endgame_empties)
        tables, net, mode = network if network is not None else (*no_network(), FEATURES_ONLY)
        self.tables, self.net, self.mode = tables, np.ascontiguousarray(net, np.float64), mode

    def _run(self, P, O, depth: int, max_nodes: int, root_hint: int = NO_MOVE):
        return self.measured(negamax, np.uint64(P), np.uint64(O), depth, self.weights,
                             self.phase_of_stones, self.tables, self.net, np.int64(self.mode),
                             self.table, np.uint32(self.generation), max_nodes,
                             np.int64(root_hint))

    def search(self, P, O, depth: int | None = None, time_limit: float | None = None,
               deadline: float | None = None) -> SearchResult:
        """``depth`` plies, or anytime deepening within ``time_limit`` seconds (``depth`` then
        caps it). ``deadline`` (seconds) with a fixed ``depth``: the fixed-depth search's move
        when it finishes in time, else the deepest depth completed by then."""
        if deadline is not None and time_limit is None and depth is not None:
            return self._search_until(P, O, depth, deadline)
        if depth is None and time_limit is None:
            raise ValueError("give a depth or a time_limit")
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        start = time.perf_counter()
        empties = 36 - (int(P) | int(O)).bit_count()
        if empties <= self.endgame_empties:
            budget = UNLIMITED if time_limit is None else max(1000, int(time_limit * self.rate))
            move, value, nodes, aborted, seconds = self._run(P, O, empties, budget)
            if not aborted:
                return SearchResult(move, value, empties, nodes, seconds, True)
        if time_limit is None:
            d = min(int(depth), empties)
            move, value, nodes, _, seconds = self._run(P, O, d, UNLIMITED)
            return SearchResult(move, value, d, nodes, seconds, d == empties)
        max_depth = min(depth or 36, empties)
        best, nodes = self.deepen(lambda d, budget, hint: self._run(P, O, d, budget, hint),
                                  max_depth, time_limit, start, first_growth=30.0,
                                  final=lambda value: abs(value) >= WIN_SCORE)
        exact = not best.partial and best.depth == max_depth and abs(best.value) >= WIN_SCORE
        return SearchResult(best.move, best.value, best.depth, nodes,
                            time.perf_counter() - start, exact, best.partial)

    def _search_until(self, P, O, depth: int, deadline: float) -> SearchResult:
        if depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        start = time.perf_counter()
        empties = 36 - (int(P) | int(O)).bit_count()
        max_depth = min(int(depth), empties)
        if empties <= self.endgame_empties:
            max_depth = empties  # the exact search, as without a deadline
        best, nodes = self.deepen(lambda d, budget, hint: self._run(P, O, d, budget, hint),
                                  max_depth, deadline, start, fixed_depth=True)
        return SearchResult(best.move, best.value, best.depth, nodes,
                            time.perf_counter() - start, best.depth == empties,
                            cut=best.depth < max_depth)
