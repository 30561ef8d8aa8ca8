"""The Python side of the search: Zobrist keys, iterative deepening, exact solving.

Agents in one process share one transposition table per size (the shared driver's); every
search tags its entries with a generation number, so sharing never changes a result. Exact
entries are the same truth for everybody, so exact searches use the permanent generation and
keep them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from engine.hexifence.genome.network import FEATURES_ONLY
from engine.hexifence.genome.network_eval import no_network
from engine.hexifence.rules.board import board, cell_symmetries
from engine.hexifence.rules.state import State
from engine.hexifence.search.negamax import NO_MOVE, negamax
from engine.kernels.search.driver import UNLIMITED, SearchDriver
from engine.kernels.search.tt import PERMANENT_GEN

START_RATE = 300_000.0  # nodes/s assumed before anything is measured
MIN_RATE = 50_000.0
MAX_NODES = UNLIMITED


@dataclass(frozen=True)
class SearchResult:
    move: int  # move id, or NO_MOVE (-1) when the game is over
    value: float  # final cell margin for the side to move (estimated unless exact)
    depth: int  # turns of the last iteration (completed unless ``partial``; -1 exact)
    nodes: int
    exact: bool = False
    partial: bool = False  # a timed search's last depth, stopped by the clock (``Iteration``)
    cut: bool = False  # a deadline stopped a fixed-depth search: ``depth`` is the deepest done


class Keys:
    """Zobrist keys and symmetry tables of one board size (fixed seed: same keys everywhere)."""

    def __init__(self, size: int):
        b = board(size)
        rng = np.random.default_rng(20160501 + size)
        hi = np.iinfo(np.uint64).max
        self.zob1 = rng.integers(0, hi, b.n_edges, dtype=np.uint64, endpoint=True)
        self.zob2 = rng.integers(0, hi, b.n_edges, dtype=np.uint64, endpoint=True)
        self.zmar1 = rng.integers(0, hi, 2 * b.n_cells + 1, dtype=np.uint64, endpoint=True)
        self.zmar2 = rng.integers(0, hi, 2 * b.n_cells + 1, dtype=np.uint64, endpoint=True)
        self.zg1 = rng.integers(0, hi, (b.n_cells, 7), dtype=np.uint64, endpoint=True)
        self.zg2 = rng.integers(0, hi, (b.n_cells, 7), dtype=np.uint64, endpoint=True)
        self.sym = np.ascontiguousarray(b.symmetries)
        self.inv_sym = np.argsort(self.sym, axis=1).astype(np.int64)
        self.sym_cell = cell_symmetries(b)


_KEYS: dict[int, Keys] = {}


def keys(size: int) -> Keys:
    if size not in _KEYS:
        _KEYS[size] = Keys(size)
    return _KEYS[size]


class Searcher(SearchDriver):
    """Alpha-beta with ``weights`` ([phases, features] float64) on boards of one size.
    ``network``: ``(node of each edge, tables, weights [phases, n_weights], mode)`` of an
    n-tuple genome (``engine.hexifence.genome.network``); without it the features alone evaluate."""

    def __init__(self, weights: np.ndarray, size: int, tt_bits: int = 20, shared: bool = True,
                 network: tuple | None = None):
        super().__init__(tt_bits, shared, START_RATE, MIN_RATE)
        self.weights = np.ascontiguousarray(weights, dtype=np.float64)
        self.size = size
        self.board = board(size)
        self.keys = keys(size)
        if network is None:
            network = (*no_network(self.board.n_edges), FEATURES_ONLY)
        node_of_edge, self.tables, net, self.mode = network
        self.node_of_edge = np.ascontiguousarray(node_of_edge, dtype=np.int64)
        self.net = np.ascontiguousarray(net, dtype=np.float64)

    def _run(self, state: State, depth: int, exact: bool, max_nodes: int,
             window: tuple[float, float] = (-np.inf, np.inf), root_hint: int = NO_MOVE):
        b, k = self.board, self.keys
        margin = state.margin if state.to_move == 0 else -state.margin
        gen = PERMANENT_GEN if exact else self.generation
        return self.measured(negamax, state.undrawn, margin, depth, exact, self.weights,
                             b.edge_cells, b.cell_edges, b.n_edges, k.zob1, k.zob2, k.zg1, k.zg2,
                             k.zmar1, k.zmar2, k.sym, k.inv_sym, k.sym_cell, self.node_of_edge,
                             self.tables, self.net, np.int64(self.mode), self.table,
                             np.uint32(gen), max_nodes, *window, np.int64(root_hint))

    def _result(self, edge, value, depth, nodes, exact, partial=False) -> SearchResult:
        move = NO_MOVE if edge == NO_MOVE else int(self.board.move_of_edge[edge])
        return SearchResult(move, float(value), depth, int(nodes), exact, partial)

    def solve(self, state: State) -> SearchResult:
        """Perfect play: the exact final margin for the side to move and a best move.

        MTD(f): null-window searches (margins are integers) that close in on the value; each
        one is far cheaper than a full-window search and the table carries bounds between them.
        """
        lower, upper, guess, total = -np.inf, np.inf, 0.0, 0
        edge = NO_MOVE
        while lower < upper:
            beta = max(guess, lower + 1)
            e, guess, nodes, _, _ = self._run(state, 0, True, MAX_NODES, (beta - 1, beta))
            total += nodes
            if guess < beta:
                upper = guess
            else:
                lower, edge = guess, e
        if edge == NO_MOVE and not state.is_terminal():  # the value was only ever an upper bound
            edge, _, nodes, _, _ = self._run(state, 0, True, MAX_NODES, (lower - 1, lower + 1))
            total += nodes
        return self._result(edge, lower, -1, total, True)

    def search(self, state: State, depth: int | None = None,
               time_limit: float | None = None, deadline: float | None = None) -> SearchResult:
        """Fixed ``depth`` (turns), or anytime deepening within ``time_limit`` seconds.
        ``deadline`` (seconds) with a fixed ``depth``: the fixed-depth search's move when it
        finishes in time, else the deepest depth completed by then."""
        if deadline is not None and time_limit is None:
            max_depth = max(1, min(int(depth or 1), state.empty_edges))
            best, nodes = self.deepen(
                lambda d, budget, hint: self._run(state, d, False, budget, root_hint=hint),
                max_depth, deadline, time.perf_counter(), first_budget=1000, fixed_depth=True)
            result = self._result(best.move, best.value, best.depth, nodes, False)
            return replace(result, cut=best.depth < max_depth)
        if time_limit is None:
            edge, value, nodes, _, _ = self._run(state, int(depth or 1), False, MAX_NODES)
            return self._result(edge, value, int(depth or 1), nodes, False)
        best, nodes = self.deepen(
            lambda d, budget, hint: self._run(state, d, False, budget, root_hint=hint),
            max(1, state.empty_edges), time_limit, time.perf_counter(), first_budget=1000)
        return self._result(best.move, best.value, best.depth, nodes, False, best.partial)
