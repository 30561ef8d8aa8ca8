"""The chain-aware agent, in the spirit of the 2016 seed program's endgame.

- Something to capture: take cells that are free to take (their last edge leads outside or to
  a cell that is not part of a chain) and cells deep in an opened chain. At the last two cells
  of a chain (or last four of a loop) decide between taking everything and the all-but-two
  *double-deal* that hands them over and keeps control: double-deal when no safe edge will be
  left, the short chains left are even in number (so the opponent opens the first long chain)
  and the controlled value of what is left beats the cells handed over.
- Nothing to capture: a random safe edge.
- No safe edge: the smallest sacrifice (fewest cells the opponent can take in a row), and
  among those one that leaves no double-deal (the hard-hearted handout of a 2-chain).
3-cell loops count as short chains (they cannot be declined).
"""

from __future__ import annotations

import numpy as np

from engine.hexifence.agents.simple import _minimal, _RandomChoice, _undrawn
from engine.hexifence.agents.tactics import DEAL_POINTS, IMMEDIATE, SWEEP, table_of
from engine.hexifence.genome.evaluation import (
    LONG,
    LONG_CELLS,
    LOOP_CELLS,
    LOOPS,
    N_COUNTS,
    SHORT,
    analyse,
)
from engine.hexifence.rules.bitboard import (
    count_safe,
    degrees,
    last_edge,
    other_edge,
    sweep_gain,
)
from engine.hexifence.rules.state import State


def controlled_value(counts: np.ndarray) -> int:
    """Berlekamp's controlled value of the long chains and loops (what control is worth)."""
    value = counts[LONG_CELLS] + counts[LOOP_CELLS] - 4 * counts[LONG] - 8 * counts[LOOPS]
    if counts[LONG] > 0:
        value += 4
    elif counts[LOOPS] > 0:
        value += 8
    return int(value)


def _neighbour(edge_cells, e, c) -> int:
    a, b = edge_cells[e]
    return int(b if a == c else a)


def opened_piece(words, deg, edge_cells, cell_edges, c) -> tuple[int, bool]:
    """Cells of the opened chain that capturable cell ``c`` starts, and whether its far end
    is capturable too (the remains of an opened loop)."""
    length, e, cur = 1, last_edge(words, c, cell_edges), c
    while True:
        nxt = _neighbour(edge_cells, e, cur)
        if nxt < 0 or deg[nxt] >= 3:
            return length, False
        length += 1
        if deg[nxt] == 1:
            return length, True
        e, cur = other_edge(words, nxt, e, cell_edges), nxt


class ChainAgent(_RandomChoice):
    name = "chain"

    def select_move(self, state: State) -> int:
        b = state.board
        words = state.undrawn
        deg = np.empty(b.n_cells, np.int8)
        degrees(words, b.cell_edges, deg)
        if (deg == 1).any():
            return int(b.move_of_edge[self._capture_or_deal(state, words, deg)])
        table = table_of(state)
        edges = _undrawn(table)
        safe = edges[table[edges, IMMEDIATE] == 0]
        if len(safe):
            return self.pick(state, safe)
        smallest = _minimal(table, edges, SWEEP)
        return self.pick(state, _minimal(table, smallest, DEAL_POINTS))

    def _capture_or_deal(self, state: State, words, deg) -> int:
        b = state.board
        deal_points = []
        for c in np.flatnonzero(deg == 1):
            e = last_edge(words, c, b.cell_edges)
            d = _neighbour(b.edge_cells, e, c)
            if d < 0 or deg[d] != 2:
                return e  # free to take
            length, loop = opened_piece(words, deg, b.edge_cells, b.cell_edges, c)
            if length != (4 if loop else 2):
                return e  # deep in a chain: keep eating
            deal_points.append((c, e, d, loop))
        c, e, d, loop = deal_points[0]
        if self._should_deal(state, words, deg, 4 if loop else 2):
            return other_edge(words, d, e, b.cell_edges)
        return e

    def _should_deal(self, state: State, words, deg, handed_over: int) -> bool:
        b = state.board
        rest_words, rest_deg = words.copy(), deg.copy()
        sweep_gain(rest_words, rest_deg, b.edge_cells, b.cell_edges)
        if count_safe(rest_words, rest_deg, b.n_edges, b.edge_cells) > 0:
            return False
        counts = np.zeros(N_COUNTS, np.int64)
        analyse(rest_words, rest_deg, b.edge_cells, b.cell_edges, counts)
        if counts[LONG] + counts[LOOPS] == 0 or counts[SHORT] % 2 == 1:
            return False
        return controlled_value(counts) > handed_over
