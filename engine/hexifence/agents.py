"""Hexifence agents: random, the course's greedy, safe-edge, alpha-beta and the perfect player.

The chain-aware agent (the seed's endgame) is in ``engine.hexifence.chain_agent``. Every agent
draws its random choices from its own generator, reseeded by ``reset(seed)``.
"""

from __future__ import annotations

import numpy as np

from engine.core.agent import Seed, check_search_args, cut_info, make_rng
from engine.hexifence.searcher import NO_MOVE, Searcher
from engine.hexifence.state import State
from engine.hexifence.structure import N_FEATURES
from engine.hexifence.tactics import CAPTURES, IMMEDIATE, SWEEP, table_of


class _RandomChoice:
    def __init__(self, seed: Seed = None):
        self.rng = make_rng(seed)
        self.last_info: dict = {}

    def reset(self, seed: Seed = None) -> None:
        self.rng = make_rng(seed)

    def pick(self, state: State, edges) -> int:
        edges = list(edges)
        return int(state.board.move_of_edge[edges[int(self.rng.integers(len(edges)))]])


class RandomAgent(_RandomChoice):
    name = "random"

    def select_move(self, state: State) -> int:
        return self.pick(state, state.legal_edges())


def _undrawn(table: np.ndarray) -> np.ndarray:
    return np.flatnonzero(table[:, CAPTURES] >= 0)


def _minimal(table: np.ndarray, edges: np.ndarray, column: int) -> np.ndarray:
    values = table[edges, column]
    return edges[values == values.min()]


class GreedyAgent(_RandomChoice):
    """The course's baseline: capture when possible, else the move that lets the opponent
    capture the fewest cells with its next edge (ties at random)."""

    name = "greedy"

    def select_move(self, state: State) -> int:
        table = table_of(state)
        edges = _undrawn(table)
        captures = edges[table[edges, CAPTURES] > 0]
        if len(captures):
            return self.pick(state, captures)
        return self.pick(state, _minimal(table, edges, IMMEDIATE))


class SafeAgent(_RandomChoice):
    """Captures, then random safe edges, then the smallest sacrifice (all the opponent could
    take in a row)."""

    name = "safe"

    def select_move(self, state: State) -> int:
        table = table_of(state)
        edges = _undrawn(table)
        captures = edges[table[edges, CAPTURES] > 0]
        if len(captures):
            return self.pick(state, captures)
        safe = edges[table[edges, IMMEDIATE] == 0]
        if len(safe):
            return self.pick(state, safe)
        return self.pick(state, _minimal(table, edges, SWEEP))


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


class PerfectAgent:
    """The exact solver as a player, N=2 only (the empty N=3 board would take far too long).
    Exact table entries are kept across games: they are the same truth every time."""

    name = "perfect"

    def __init__(self, size: int, tt_bits: int = 22):
        if size != 2:
            raise ValueError(f"the perfect agent plays N=2 only (got size={size}): larger "
                             "boards cannot be solved in time")
        self.searcher = Searcher(np.zeros((1, N_FEATURES)), size, tt_bits)
        self.last_info: dict = {}

    def reset(self, seed: Seed = None) -> None:
        pass

    def select_move(self, state: State) -> int:
        result = self.searcher.solve(state)
        self.last_info = {"eval": result.value}
        return result.move
