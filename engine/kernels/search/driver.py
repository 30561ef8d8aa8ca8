"""The Python side every game's alpha-beta shares: its table, its generation, its measured speed
and anytime iterative deepening inside a time limit.

numba has no clock, so a timed search is a sequence of kernel calls, each bounded by a node
budget computed from the measured speed (nodes per second), with the clock read between them.
Each depth's root searches the previous depth's best move first (``root_hint``); a depth is
searched in slices of at most ``SLICE`` of the limit (an aborted slice is searched again: what
it finished is in the table, so little is lost) and started whenever time remains. When the
clock runs out inside a depth, its best root move searched to the end is played if there is one:
it was proven at least as good as the previous depth's move at this depth (the PV-first rule).
A fixed-depth search never passes a hint, so it returns the same move, value and nodes as ever.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.kernels.search.tt import new_table, next_generation, shared_table

SAFETY = 0.8  # fraction of the remaining time a slice's node budget may use
SLICE = 0.1  # a slice's share of the whole limit at most: the clock is read this often
RESERVE = 0.04  # share of the limit kept back for returning the move (the overrun of a slice)
MIN_SLICE_NODES = 200  # below this a slice costs more in re-searching than it can find
NO_MOVE = -1
UNLIMITED = 2**62
DEEPENINGS = ("anytime", "predictive")


@dataclass(frozen=True)
class SearchResult:
    """What a game's ``Searcher.search`` returns (Reversi, Pentago Twist; each game says what
    its moves and scores mean)."""

    move: int  # the game's move id, NO_MOVE when the game is over
    score: float  # for the side to move
    depth: int  # plies of the last iteration (completed unless ``partial``; empties when exact)
    nodes: int
    seconds: float
    exact: bool
    partial: bool = False  # a timed search's last depth, stopped by the clock (``Iteration``)
    cut: bool = False  # a deadline stopped a fixed-depth search: ``depth`` is the deepest done


@dataclass(frozen=True)
class Iteration:
    """What a timed search plays: the deepest completed fixed-depth search, or (``partial``) a
    depth stopped by the clock after it searched the previous depth's move and proved ``move``
    at least as good; ``value`` is then ``move``'s value at ``depth`` (a lower bound of the
    root's)."""

    move: int
    value: float
    depth: int
    partial: bool = False


class SearchDriver:
    """A table, a generation and a speed estimate; ``run(depth, max_nodes)`` is the game's
    fixed-depth search returning (move, value, nodes, aborted)."""

    deepening = "anytime"  # or "predictive": the older deepening, to measure against

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

    def deepen(self, run: Callable[[int, int, int], tuple], max_depth: int, time_limit: float,
               start: float, first_budget: int = UNLIMITED,
               final: Callable[[float], bool] = lambda value: False, first_growth: float = 8.0,
               fixed_depth: bool = False):
        """Anytime iterative deepening from depth 1 inside ``time_limit`` seconds from
        ``start`` (module docstring).

        ``run(depth, max_nodes, root_hint)`` -> (move, value, nodes, aborted, seconds); aborted,
        the move is the best root child searched to the end or ``NO_MOVE``. A slice's budget is
        the lesser of the remaining time x ``SAFETY`` and ``SLICE`` of the limit, at the slower
        of the running average speed and this search's last slice. Depth 1 first gets
        ``first_budget`` and, if even that aborts, is searched without a limit. ``final(value)``:
        a value deeper search cannot change (a forced result) stops early. ``fixed_depth``:
        ``max_depth`` is a fixed depth with a deadline (``time_limit``): its iteration runs
        without a hint, so when it finishes it plays what the fixed-depth search plays (same
        move and value), and when the deadline stops it the deepest completed depth plays.
        Returns (the ``Iteration`` to play, nodes). ``first_growth``: ``predictive`` only."""
        if self.deepening == "predictive":
            return self._deepen_predictive(run, max_depth, time_limit, start, first_growth,
                                           first_budget, final)
        best, total, rate = None, 0, self.rate
        for d in range(1, max(1, max_depth) + 1):
            fixed = fixed_depth and d == max_depth
            hint = NO_MOVE if best is None or fixed else best.move
            found = None  # the best move of this depth proven so far
            while True:
                remaining = time_limit * (1.0 - RESERVE) - (time.perf_counter() - start)
                if best is None:
                    budget = first_budget
                else:
                    budget = int(rate * min(remaining * SAFETY, time_limit * SLICE))
                    if budget < MIN_SLICE_NODES:
                        break  # the clock has run out
                move, value, nodes, aborted, seconds = run(d, budget, hint)
                if nodes > 1000 and seconds > 0:
                    rate = min(self.rate, nodes / seconds)
                total += nodes
                if not aborted:
                    found = Iteration(move, value, d)
                    break
                if best is None:  # not even depth 1 within the budget: it is tiny, finish it
                    move, value, nodes, _, _ = run(1, UNLIMITED, NO_MOVE)
                    total += nodes
                    found = Iteration(move, value, 1)
                    break
                if move != NO_MOVE and not fixed and (found is None or value > found.value):
                    found = Iteration(move, value, d, partial=True)  # both exact at d
            if found is None:
                break
            best = found
            if best.partial or final(best.value):
                break
        return best, total

    def _deepen_predictive(self, run, max_depth, time_limit, start, first_growth, first_budget,
                           final):
        """The predictive deepening, kept to measure against: an iteration predicted (from
        the growth of the last two) not to fit is not started, an aborted one is thrown away,
        and the root is searched in the game's order. ``first_growth``: the node growth per ply
        assumed before two iterations are known."""
        best, total, last_nodes, prev_nodes, rate = None, 0, 0, 0, self.rate
        for d in range(1, max(1, max_depth) + 1):
            remaining = time_limit - (time.perf_counter() - start)
            if best is not None:
                growth = last_nodes / prev_nodes if prev_nodes else first_growth
                if last_nodes * max(growth, 2.0) > remaining * rate:
                    break  # the next iteration would almost surely not finish
            budget = first_budget if best is None else int(max(0.0, remaining) * rate * SAFETY)
            move, value, nodes, aborted, seconds = run(d, budget, NO_MOVE)
            if nodes > 1000 and seconds > 0:
                rate = min(self.rate, nodes / seconds)
            total += nodes
            if aborted:
                if best is None:
                    move, value, nodes, _, _ = run(1, UNLIMITED, NO_MOVE)
                    total += nodes
                    best = Iteration(move, value, 1)
                break
            best = Iteration(move, value, d)
            prev_nodes, last_nodes = last_nodes, nodes
            if final(value):
                break
        return best, total
