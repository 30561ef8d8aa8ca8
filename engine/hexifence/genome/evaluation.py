"""Chains, loops and the evaluation features of a position (numba).

Cells with one or two undrawn edges link up through their shared undrawn edges into paths
(*chains*) and cycles (*loops*); a cell has at most two such links, so every component is one
or the other. Chains of 1-2 cells are *short* (an opponent can take them without giving control
away), chains of 3+ cells are *long*; 3-cell loops (three cells around one vertex) cannot be
declined, so they count with the short chains. *Safe* edges are those a player can draw
without offering a cell.

The features are from the side to move's view; their names (``FEATURES``) are the genome's
genes of each phase.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.hexifence.rules.bitboard import count_safe, is_undrawn

FEATURES = (
    "margin",  # cells: side to move minus opponent
    "three_loops",  # loops of three cells around a vertex (also counted as short chains)
    "cells_two_empty",  # cells with two empty edges (the next to open them gives them away)
    "cells_three_empty",
    "safe_edges",  # edges that offer no cell
    "safe_parity",  # +1 when the safe edges are odd in number (the opponent runs out first)
    "short_chains",  # chains of 1-2 cells and 3-cell loops
    "long_chains",  # chains of 3+ cells
    "loops",  # loops of 4+ cells
    "chain_parity",  # +1 when the long-chain parity rule favours the side to move
    "controlled_value",  # Berlekamp's controlled value, signed by the chain parity
)
N_FEATURES = len(FEATURES)

# analyse() output slots
SHORT, LONG, LOOPS, LONG_CELLS, LOOP_CELLS, SHORT_CELLS, THREE_LOOPS = range(7)
N_COUNTS = 7


@njit(cache=True)
def analyse(words, deg, edge_cells, cell_edges, out):
    """Fill ``out[0:7]`` with short chains, long chains, loops, cells in long chains, cells in
    loops, cells in short chains, 3-cell loops."""
    for i in range(N_COUNTS):
        out[i] = 0
    n = deg.shape[0]
    seen = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    for start in range(n):
        if seen[start] or deg[start] == 0 or deg[start] > 2:
            continue
        seen[start] = True
        stack[0] = start
        top, size, links = 1, 0, 0
        while top > 0:
            top -= 1
            c = stack[top]
            size += 1
            for j in range(6):
                e = cell_edges[c, j]
                if not is_undrawn(words, e):
                    continue
                o = edge_cells[e, 0] if edge_cells[e, 0] != c else edge_cells[e, 1]
                if o >= 0 and 1 <= deg[o] <= 2:
                    links += 1
                    if not seen[o]:
                        seen[o] = True
                        stack[top] = o
                        top += 1
        links //= 2
        if links == size and size >= 4:
            out[LOOPS] += 1
            out[LOOP_CELLS] += size
        elif links < size and size >= 3:
            out[LONG] += 1
            out[LONG_CELLS] += size
        else:
            out[SHORT] += 1
            out[SHORT_CELLS] += size
            if links == size:
                out[THREE_LOOPS] += 1


@njit(cache=True)
def features(words, deg, margin, n_edges, edge_cells, cell_edges, out):
    """Fill ``out`` (``N_FEATURES``) for the side to move. The search evaluates only positions
    with nothing to capture, so cells with one empty edge are not a feature."""
    counts = np.zeros(N_COUNTS, np.int64)
    analyse(words, deg, edge_cells, cell_edges, counts)
    by_degree = np.zeros(7, np.int64)
    free = 0
    for c in range(deg.shape[0]):
        by_degree[deg[c]] += 1
        if deg[c] > 0:
            free += 1
    undrawn = 0
    for e in range(n_edges):
        if is_undrawn(words, e):
            undrawn += 1
    safe = count_safe(words, deg, n_edges, edge_cells)
    # Turns left = non-capturing moves + 1 and every capture but a double-cross ends no turn,
    # so the side to move makes the last turn when undrawn - free + double-crosses is even;
    # with control kept, double-crosses = long chains - 1.
    parity = 1.0 if (undrawn - free + counts[LONG]) % 2 == 1 else -1.0
    controlled = counts[LONG_CELLS] + counts[LOOP_CELLS] - 4 * counts[LONG] - 8 * counts[LOOPS]
    if counts[LONG] > 0:
        controlled += 4
    elif counts[LOOPS] > 0:
        controlled += 8
    out[0] = margin
    out[1] = counts[THREE_LOOPS]
    out[2] = by_degree[2]
    out[3] = by_degree[3]
    out[4] = safe
    out[5] = 1.0 if safe % 2 == 1 else -1.0
    out[6] = counts[SHORT]
    out[7] = counts[LONG]
    out[8] = counts[LOOPS]
    out[9] = parity
    out[10] = parity * controlled


@njit(cache=True)
def evaluate(words, deg, margin, drawn, n_edges, weights, edge_cells, cell_edges, buf):
    """The weighted features of the phase that ``drawn`` edges fall in (``weights``: [P, F])."""
    phases = weights.shape[0]
    phase = drawn * phases // (n_edges + 1)
    features(words, deg, margin, n_edges, edge_cells, cell_edges, buf)
    v = 0.0
    for i in range(buf.shape[0]):
        v += weights[phase, i] * buf[i]
    return v
