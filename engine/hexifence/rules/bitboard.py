"""Numba kernels over an undrawn-edge bitset: degrees, drawing, captures, safe edges.

A position for the kernels is ``words`` (uint64 bitset of the *undrawn* edges, compact edge
order of ``engine.hexifence.rules.board``) plus ``deg`` (int8 per cell: its undrawn edges; 0 means
captured, since a free cell always has an undrawn edge). That is strings-and-coins: cells are
coins, undrawn edges are strings (to another coin or to the ground for a boundary edge), the
degree of a coin is its number of strings, and cutting a coin's last string captures it.

``edge_cells[e]`` holds the one or two cells of edge ``e`` (-1 for the outside);
``cell_edges[c]`` the six edges of cell ``c``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

U1 = np.uint64(1)


@njit(cache=True, inline="always")
def is_undrawn(words, e):
    return (words[e >> 6] >> np.uint64(e & 63)) & U1 != 0


@njit(cache=True)
def degrees(words, cell_edges, deg):
    """Fill ``deg`` with each cell's number of undrawn edges."""
    for c in range(cell_edges.shape[0]):
        k = 0
        for j in range(6):
            if is_undrawn(words, cell_edges[c, j]):
                k += 1
        deg[c] = k


@njit(cache=True)
def draw(words, deg, e, edge_cells):
    """Draw edge ``e`` in place; returns the number of cells it captured (0, 1 or 2)."""
    words[e >> 6] &= ~(U1 << np.uint64(e & 63))
    captured = 0
    for j in range(2):
        c = edge_cells[e, j]
        if c >= 0:
            deg[c] -= 1
            if deg[c] == 0:
                captured += 1
    return captured


@njit(cache=True, inline="always")
def captures_of(deg, e, edge_cells):
    """Cells that drawing ``e`` would capture."""
    k = 0
    for j in range(2):
        c = edge_cells[e, j]
        if c >= 0 and deg[c] == 1:
            k += 1
    return k


@njit(cache=True, inline="always")
def is_safe(deg, e, edge_cells):
    """Drawing ``e`` neither captures nor leaves a cell with one undrawn edge."""
    for j in range(2):
        c = edge_cells[e, j]
        if c >= 0 and deg[c] <= 2:
            return False
    return True


@njit(cache=True)
def count_safe(words, deg, n_edges, edge_cells):
    k = 0
    for e in range(n_edges):
        if is_undrawn(words, e) and is_safe(deg, e, edge_cells):
            k += 1
    return k


@njit(cache=True)
def other_edge(words, c, e, cell_edges):
    """The undrawn edge of cell ``c`` other than ``e`` (``c`` has exactly two), or -1."""
    for j in range(6):
        x = cell_edges[c, j]
        if x != e and is_undrawn(words, x):
            return x
    return -1


@njit(cache=True)
def last_edge(words, c, cell_edges):
    """The one undrawn edge of a capturable cell."""
    for j in range(6):
        x = cell_edges[c, j]
        if is_undrawn(words, x):
            return x
    return -1


@njit(cache=True)
def capture_candidates(words, deg, edge_cells, cell_edges, out):
    """The moves worth considering when some cell is capturable (Barker & Korf's filter).

    A capturable cell c (one string left, to d) whose d is the ground or a coin of degree other
    than 2 is always worth taking at once: that is the one move. Otherwise take the first
    capturable cell c: the candidates are capturing it and cutting d's other string
    (declining: leaving c-d as a domino, the all-but-two double-deal). Returns how many moves
    were written to ``out`` (0: none capturable, so every undrawn edge is a candidate)."""
    first = -1
    for c in range(deg.shape[0]):
        if deg[c] == 1:
            e = last_edge(words, c, cell_edges)
            d = edge_cells[e, 0] if edge_cells[e, 0] != c else edge_cells[e, 1]
            if d < 0 or deg[d] != 2:
                out[0] = e
                return 1
            if first < 0:
                first = c
    if first < 0:
        return 0
    e = last_edge(words, first, cell_edges)
    d = edge_cells[e, 0] if edge_cells[e, 0] != first else edge_cells[e, 1]
    out[0] = e
    out[1] = other_edge(words, d, e, cell_edges)
    return 2


@njit(cache=True)
def sweep_gain(words, deg, edge_cells, cell_edges):
    """Cells the side to move can take in a row by capturing greedily (modifies its inputs)."""
    total = 0
    progress = True
    while progress:
        progress = False
        for c in range(deg.shape[0]):
            if deg[c] == 1:
                total += draw(words, deg, last_edge(words, c, cell_edges), edge_cells)
                progress = True
    return total
