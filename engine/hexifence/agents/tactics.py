"""What each move offers the opponent (numba), for the hand-built agents.

``move_table`` fills one row per undrawn edge: the cells it captures, the most cells the
opponent could then take with one edge (the course greedy agent's "immediate gain"), all the
cells the opponent could then take in a row (the size of the sacrifice), and how many of the
cells it leaves capturable sit at the end of a chain (where the opponent may double-deal).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.hexifence.rules.bitboard import (
    captures_of,
    degrees,
    draw,
    is_undrawn,
    last_edge,
    sweep_gain,
)

CAPTURES, IMMEDIATE, SWEEP, DEAL_POINTS = range(4)


@njit(cache=True)
def _deal_points(words, deg, edge_cells, cell_edges):
    """Capturable cells whose last string leads to a cell with two strings."""
    k = 0
    for c in range(deg.shape[0]):
        if deg[c] == 1:
            e = last_edge(words, c, cell_edges)
            d = edge_cells[e, 0] if edge_cells[e, 0] != c else edge_cells[e, 1]
            if d >= 0 and deg[d] == 2:
                k += 1
    return k


@njit(cache=True)
def move_table(words, n_edges, edge_cells, cell_edges, out):
    """Fill ``out[e]`` for every undrawn edge ``e`` (rows of drawn edges are left as -1)."""
    deg = np.empty(cell_edges.shape[0], np.int8)
    degrees(words, cell_edges, deg)
    w = words.copy()
    dg = deg.copy()
    for e in range(n_edges):
        for j in range(4):
            out[e, j] = -1
        if not is_undrawn(words, e):
            continue
        w[:] = words
        dg[:] = deg
        out[e, CAPTURES] = draw(w, dg, e, edge_cells)
        best = 0
        for x in range(n_edges):
            if is_undrawn(w, x):
                best = max(best, captures_of(dg, x, edge_cells))
        out[e, IMMEDIATE] = best
        out[e, DEAL_POINTS] = _deal_points(w, dg, edge_cells, cell_edges)
        out[e, SWEEP] = sweep_gain(w, dg, edge_cells, cell_edges)


def table_of(state) -> np.ndarray:
    b = state.board
    out = np.empty((b.n_edges, 4), dtype=np.int64)
    move_table(state.undrawn, b.n_edges, b.edge_cells, b.cell_edges, out)
    return out
