"""The evolvable Pentago Twist evaluation: features that survive twists, weighted per phase.

Every feature is counted twice, once for the side to move ("own") and once for the opponent
("opp"): the same count is worth more to the player about to move. The features:

- ``win1``..``win4``: open five-windows (holding stones of one colour only) by stone count; a
  ``win4`` is a threat, won next move by its owner unless a twist breaks it;
- ``centre``: quadrant centres (a twist never moves them);
- ``corner``, ``edge``: quadrant corners / edge midpoints (twists move them only within
  their class, so the count is twist-invariant);
- ``qline3``, ``qline2``: 3-cell lines inside a quadrant (rows, columns, diagonals; a twist
  maps them onto each other) that are full, or hold two stones and an empty cell.

A genome is a flat array: ``phases`` blocks of ``2 * len(FEATURES)`` weights (own then opp);
the phase of a position is ``stones * phases // 37`` (equal slices of 0..36 stones).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bits import popcount
from engine.pentago.rules import bitboard as bb

FEATURES = ("win1", "win2", "win3", "win4", "centre", "corner", "edge", "qline3", "qline2")
N_FEATURES = len(FEATURES)
WIN_SCORE = 1_000_000.0  # a won position (plus the empty cells left: quicker wins are better)


def _class_mask(local_cells) -> int:
    mask = 0
    for r0, c0 in bb.QUADRANT_ORIGINS:
        for i, j in local_cells:
            mask |= 1 << bb.cell_of(r0 + i, c0 + j)
    return mask


def _quadrant_lines() -> np.ndarray:
    local = [[(i, 0), (i, 1), (i, 2)] for i in range(3)] + \
        [[(0, j), (1, j), (2, j)] for j in range(3)] + \
        [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
    lines = []
    for r0, c0 in bb.QUADRANT_ORIGINS:
        for line in local:
            lines.append(sum(1 << bb.cell_of(r0 + i, c0 + j) for i, j in line))
    return np.array(lines, np.uint64)


CENTRES = np.uint64(_class_mask([(1, 1)]))
CORNERS = np.uint64(_class_mask([(0, 0), (0, 2), (2, 0), (2, 2)]))
EDGES = np.uint64(_class_mask([(0, 1), (1, 0), (1, 2), (2, 1)]))
QUADRANT_LINES = _quadrant_lines()


def phase_table(phases: int) -> np.ndarray:
    """``table[stones]`` = the phase evaluating a position with that many stones."""
    return np.array([s * phases // 37 for s in range(37)], np.int64)


@njit(cache=True)
def features(P, O, out):
    """Fill ``out`` (length ``2 * N_FEATURES``) with the own then the opp feature counts."""
    out[:] = 0.0
    for w in bb.WINDOWS:
        p, o = popcount(P & w), popcount(O & w)
        if o == 0 and p > 0:
            out[min(p, 4) - 1] += 1.0
        elif p == 0 and o > 0:
            out[N_FEATURES + min(o, 4) - 1] += 1.0
    for side in range(2):
        mine = P if side == 0 else O
        base = side * N_FEATURES
        out[base + 4] = popcount(mine & CENTRES)
        out[base + 5] = popcount(mine & CORNERS)
        out[base + 6] = popcount(mine & EDGES)
    for line in QUADRANT_LINES:
        p, o = popcount(P & line), popcount(O & line)
        if p == 3:
            out[7] += 1.0
        elif o == 3:
            out[N_FEATURES + 7] += 1.0
        elif p == 2 and o == 0:
            out[8] += 1.0
        elif o == 2 and p == 0:
            out[N_FEATURES + 8] += 1.0


@njit(cache=True)
def terminal_value(P, O):
    """The value of a finished position for the side to move (0 for a draw)."""
    r = bb.result(P, O)
    bonus = 36 - popcount(P | O)
    if r == bb.TO_MOVE_WINS:
        return WIN_SCORE + bonus
    if r == bb.TO_MOVE_LOSES:
        return -WIN_SCORE - bonus
    return 0.0


@njit(cache=True)
def evaluate(P, O, weights, phase_of_stones):
    """Heuristic value of an unfinished position for the side to move: the weighted feature
    counts of its phase (``weights`` is the genome reshaped to ``(phases, 2 * N_FEATURES)``)."""
    row = weights[phase_of_stones[popcount(P | O)]]
    total = 0.0
    for w in bb.WINDOWS:
        p, o = popcount(P & w), popcount(O & w)
        if o == 0 and p > 0:
            total += row[min(p, 4) - 1]
        elif p == 0 and o > 0:
            total += row[N_FEATURES + min(o, 4) - 1]
    total += row[4] * popcount(P & CENTRES) + row[N_FEATURES + 4] * popcount(O & CENTRES)
    total += row[5] * popcount(P & CORNERS) + row[N_FEATURES + 5] * popcount(O & CORNERS)
    total += row[6] * popcount(P & EDGES) + row[N_FEATURES + 6] * popcount(O & EDGES)
    for line in QUADRANT_LINES:
        p, o = popcount(P & line), popcount(O & line)
        if p == 3:
            total += row[7]
        elif o == 3:
            total += row[N_FEATURES + 7]
        elif p == 2 and o == 0:
            total += row[8]
        elif o == 2 and p == 0:
            total += row[N_FEATURES + 8]
    return total
