"""Hexifence's baseline agents: random, the course's greedy, safe-edge and the perfect player.

The chain-aware agent (the seed's endgame) is in ``engine.hexifence.agents.chain``, the tuned
alpha-beta in ``engine.hexifence.agents.alphabeta``. Every agent
draws its random choices from its own generator, reseeded by ``reset(seed)``.
"""

from __future__ import annotations

import numpy as np

from engine.core.agent import Seed, make_rng
from engine.hexifence.agents.tactics import CAPTURES, IMMEDIATE, SWEEP, table_of
from engine.hexifence.genome.evaluation import N_FEATURES
from engine.hexifence.rules.state import State
from engine.hexifence.search.searcher import Searcher


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


class _CapturesFirst(_RandomChoice):
    """A random capture when there is one, else a random edge of ``fallback``'s."""

    def select_move(self, state: State) -> int:
        table = table_of(state)
        edges = _undrawn(table)
        captures = edges[table[edges, CAPTURES] > 0]
        if len(captures):
            return self.pick(state, captures)
        return self.pick(state, self.fallback(table, edges))


class GreedyAgent(_CapturesFirst):
    """The course's baseline: capture when possible, else the move that lets the opponent
    capture the fewest cells with its next edge (ties at random)."""

    name = "greedy"

    def fallback(self, table: np.ndarray, edges: np.ndarray) -> np.ndarray:
        return _minimal(table, edges, IMMEDIATE)


class SafeAgent(_CapturesFirst):
    """Captures, then random safe edges, then the smallest sacrifice (all the opponent could
    take in a row)."""

    name = "safe"

    def fallback(self, table: np.ndarray, edges: np.ndarray) -> np.ndarray:
        safe = edges[table[edges, IMMEDIATE] == 0]
        return safe if len(safe) else _minimal(table, edges, SWEEP)


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
