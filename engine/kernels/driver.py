"""The Python side every game's alpha-beta shares: its table, its generation, its measured speed
and iterative deepening inside a time limit.

numba has no clock, so a timed search is a sequence of fixed-depth iterations, each bounded by a
node budget computed from the measured speed (nodes per second); the deepest completed iteration
is the answer. An iteration predicted (from the growth of the last two) not to fit is not
started. The same searcher returns the same move at a fixed depth whatever it searched before.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.kernels.tt import new_table, next_generation, shared_table

SAFETY = 0.8  # fraction of the remaining time an iteration's node budget may use
UNLIMITED = 2**62


@dataclass(frozen=True)
class Iteration:
    """One completed fixed-depth search."""

    move: int
    value: float
    depth: int


class SearchDriver:
    """A table, a generation and a speed estimate; ``run(depth, max_nodes)`` is the game's
    fixed-depth search returning (move, value, nodes, aborted)."""

    def __init__(self, tt_bits: int, shared: bool, start_rate: float, min_rate: float):
        self.table = shared_table(tt_bits) if shared else new_table(tt_bits)
        self.tt_bits, self.shared = tt_bits, shared
        self.rate, self.min_rate = float(start_rate), float(min_rate)
        self.generation = 0
        self.clear()

    def clear(self) -> None:
        """Forget the table in O(1): entries of other generations are ignored."""
        self.generation = next_generation()

    def measured(self, search: Callable, *args):
        """``search(*args)`` -> (move, value, nodes, aborted), timed; long enough runs update
        the speed estimate. Returns (move, value, nodes, aborted, seconds)."""
        t0 = time.perf_counter()
        move, value, nodes, aborted = search(*args)
        seconds = time.perf_counter() - t0
        if nodes > 1000 and seconds > 0:
            self.rate = max(self.min_rate, 0.5 * self.rate + 0.5 * nodes / seconds)
        return int(move), float(value), int(nodes), bool(aborted), seconds

    def deepen(self, run: Callable[[int, int], tuple], max_depth: int, time_limit: float,
               start: float, first_growth: float, first_budget: int = UNLIMITED,
               final: Callable[[float], bool] = lambda value: False):
        """Iterative deepening from depth 1 inside ``time_limit`` seconds from ``start``.

        ``run(depth, max_nodes)`` -> (move, value, nodes, aborted, seconds). Each iteration's
        budget is the remaining time x the slower of the running average speed and this
        search's last iteration, times ``SAFETY``; the first gets ``first_budget`` and, if even
        that aborts, depth 1 is searched without a limit. ``first_growth``: the node growth per
        ply assumed before two iterations are known. ``final(value)``: a value deeper search
        cannot change (a forced result) stops early. Returns (the deepest ``Iteration``, nodes).
        """
        best, total, last_nodes, prev_nodes, rate = None, 0, 0, 0, self.rate
        for d in range(1, max(1, max_depth) + 1):
            remaining = time_limit - (time.perf_counter() - start)
            if best is not None:
                growth = last_nodes / prev_nodes if prev_nodes else first_growth
                if last_nodes * max(growth, 2.0) > remaining * rate:
                    break  # the next iteration would almost surely not finish
            budget = first_budget if best is None else int(max(0.0, remaining) * rate * SAFETY)
            move, value, nodes, aborted, seconds = run(d, budget)
            if nodes > 1000 and seconds > 0:
                rate = min(self.rate, nodes / seconds)
            total += nodes
            if aborted:
                if best is None:  # not even depth 1 within the budget: it is tiny, finish it
                    move, value, nodes, _, _ = run(1, UNLIMITED)
                    total += nodes
                    best = Iteration(move, value, 1)
                break
            best = Iteration(move, value, d)
            prev_nodes, last_nodes = last_nodes, nodes
            if final(value):
                break
        return best, total
