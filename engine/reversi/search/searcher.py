"""Reversi's alpha-beta searcher: fixed depth, iterative deepening in a time limit, and exact
solving near the end (the dedicated solver of ``engine.reversi.endgame.solver``).

The search itself is the shared kernel (``engine.kernels.search.alphabeta``) with Reversi's parts
(``engine.reversi.search.negamax``); the table, generations and timing are the shared driver's
(``engine.kernels.search.driver``).
"""

from __future__ import annotations

import time

import numpy as np

from engine.kernels.search.driver import UNLIMITED, SearchDriver, SearchResult
from engine.reversi.endgame import solver as endgame
from engine.reversi.endgame import table as endgame_table
from engine.reversi.rules.bitboard import NO_MOVE, PASS  # noqa: F401 - re-exported for callers
from engine.reversi.rules.state import Position, Variant
from engine.reversi.search.negamax import EXACT_DEPTH, negamax
from engine.reversi.search.settings import EXACT_SOLVERS

MIN_RATE = 200_000.0  # floor of the measured speed (nodes/s)
START_SOLVE_RATE = 5_000_000.0  # exact-solver speed assumed before anything is measured
START_RATE = 1_000_000.0  # speed assumed before anything is measured (a few M nodes/s warm)


# SearchResult: move a square 0..63, PASS or NO_MOVE; score the exact disc difference when exact


class Searcher(SearchDriver):
    """Alpha-beta with fixed weights and variant; keeps its table between searches.

    ``search(position, depth=...)`` searches to a fixed depth; ``time_limit=...`` (seconds)
    deepens iteratively within it (``SearchDriver.deepen``). Positions with at most
    ``endgame_empties`` empty squares are solved exactly instead.

    ``weights``: a ``Weights`` (square tables + features) or an ``NtupleWeights`` (a network
    + features); ``incremental`` says how the network
    evaluates a node's children (the same values and moves either way, only the speed differs).
    """

    def __init__(
        self,
        weights,
        variant="othello",
        endgame_empties: int = 10,
        tt_bits: int = 20,
        shared: bool = False,
        exact_solver: str = "pvs",
        incremental: bool = True,
    ):
        if exact_solver not in EXACT_SOLVERS:
            raise ValueError(f"exact_solver={exact_solver!r} must be one of: "
                             f"{', '.join(EXACT_SOLVERS)}")
        super().__init__(tt_bits, shared, START_RATE, MIN_RATE)
        self.exact_solver = exact_solver
        self.weights = weights
        self.variant = Variant.parse(variant)
        self.endgame_empties = int(endgame_empties)
        self.arrays = weights.search_arrays(bool(incremental))
        self._endgame_table = None  # made on the first exact solve (GA agents may never solve)
        self.solve_rate = START_SOLVE_RATE

    def _run(self, position: Position, depth: int, exact: bool, max_nodes: int,
             root_hint: int = NO_MOVE):
        P, O = position.boards
        return self.measured(negamax, P, O, depth, exact, self.variant.is_reversed,
                             *self.arrays, self.table, np.uint32(self.generation), max_nodes,
                             np.int64(root_hint))

    def solve(self, position: Position, time_limit: float | None = None) -> SearchResult | None:
        """Exact result of perfect play (score = final disc difference for the side to move).

        With ``time_limit``, returns None if the solve did not finish in about that time.
        """
        if self.exact_solver == "negamax":  # the plain exact negamax (older runs replay with it)
            budget = UNLIMITED if time_limit is None else max(1000, int(time_limit * self.rate))
            move, value, nodes, aborted, seconds = self._run(position, EXACT_DEPTH, True, budget)
            return None if aborted else SearchResult(move, value, position.empties, nodes,
                                                     seconds, True)
        budget = UNLIMITED if time_limit is None else max(1000, int(time_limit * self.solve_rate))
        if self._endgame_table is None:
            bits = self.tt_bits
            self._endgame_table = (
                endgame_table.shared_table(bits) if self.shared else endgame_table.new_table(bits)
            )
        P, O = position.boards
        t0 = time.perf_counter()
        move, score, nodes, aborted = endgame.solve_exact(
            P, O, self.variant.is_reversed, self._endgame_table, self.generation, budget
        )
        seconds = time.perf_counter() - t0
        if nodes > 100_000 and seconds > 0:
            self.solve_rate = max(MIN_RATE, 0.5 * self.solve_rate + 0.5 * nodes / seconds)
        if aborted:
            return None
        return SearchResult(move, float(score), position.empties, nodes, seconds, True)

    def search(
        self, position: Position, depth: int | None = None, time_limit: float | None = None,
        deadline: float | None = None,
    ) -> SearchResult:
        """``depth`` plies, or anytime deepening within ``time_limit`` seconds (``depth`` then
        caps it). ``deadline`` (seconds) with a fixed ``depth``: the fixed-depth search's move
        when it finishes in time, else the deepest depth completed by then (a ``depth`` below
        the one asked for)."""
        if deadline is not None and time_limit is None and depth is not None:
            return self._search_until(position, depth, deadline)
        if depth is None and time_limit is None:
            raise ValueError("give a depth or a time_limit")
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        if depth is not None:
            depth = min(int(depth), 64)  # deeper than the empties only reaches the same ends
        start = time.perf_counter()
        if position.empties <= self.endgame_empties:
            result = self.solve(position, time_limit)
            if result is not None:
                return result
        if time_limit is None:
            move, value, nodes, _, seconds = self._run(position, depth, False, UNLIMITED)
            return SearchResult(move, value, depth, nodes, seconds, False)
        max_depth = max(1, min(depth or 60, position.empties))
        best, nodes = self.deepen(
            lambda d, budget, hint: self._run(position, d, False, budget, hint), max_depth,
            time_limit, start, first_budget=1000)
        return SearchResult(best.move, best.value, best.depth, nodes,
                            time.perf_counter() - start, False, best.partial)

    def _search_until(self, position: Position, depth: int, deadline: float) -> SearchResult:
        if depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        start = time.perf_counter()
        if position.empties <= self.endgame_empties:
            result = self.solve(position, deadline)
            if result is not None:
                return result
        remaining = max(0.0, deadline - (time.perf_counter() - start))
        max_depth = max(1, min(int(depth), position.empties))
        best, nodes = self.deepen(
            lambda d, budget, hint: self._run(position, d, False, budget, hint), max_depth,
            remaining, time.perf_counter(), first_budget=1000, fixed_depth=True)
        return SearchResult(best.move, best.value, best.depth, nodes,
                            time.perf_counter() - start, False, cut=best.depth < max_depth)
