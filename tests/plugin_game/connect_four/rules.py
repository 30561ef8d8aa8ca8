"""Connect Four on two ``uint64`` boards (numba): ``P`` the side to move's stones, ``O`` the
opponent's. A move (a column) returns the boards already swapped, so search is one negamax
branch. Bit numbering, column by column with a sentinel bit on top of each::

    row 5   5 12 19 26 33 40 47
    row 4   4 11 18 25 32 39 46
    ...
    row 0   0  7 14 21 28 35 42      (columns 0..6, left to right)

A column's next free cell is ``(P | O) + bottom`` masked to the column; it is full when its
row-5 cell is taken. Four in a row: shift-and-and along the four directions (1 = up,
7 = right, 6 and 8 = the diagonals); the sentinel row keeps runs from wrapping.
"""

from __future__ import annotations

import numpy as np
from numba import njit

U64 = np.uint64
COLUMNS, ROWS, CELLS = 7, 6, 42
BOTTOM = U64(sum(1 << (7 * c) for c in range(COLUMNS)))
BOARD = U64(sum(((1 << ROWS) - 1) << (7 * c) for c in range(COLUMNS)))
ORDER = np.array([3, 2, 4, 1, 5, 0, 6], dtype=np.int64)  # centre columns first


def _windows() -> np.ndarray:
    """The 69 lines of four cells, as masks."""
    out = []
    for c in range(COLUMNS):
        for r in range(ROWS):
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < COLUMNS and 0 <= y < ROWS for x, y in cells):
                    out.append(sum(1 << (7 * x + y) for x, y in cells))
    return np.array(out, dtype=np.uint64)


WINDOWS = _windows()
CENTRE = U64(((1 << ROWS) - 1) << (7 * 3))


@njit(cache=True, inline="always")
def column_mask(c):
    return U64((1 << ROWS) - 1) << U64(7 * c)


@njit(cache=True, inline="always")
def can_play(P, O, c):
    return ((P | O) & (U64(1) << U64(7 * c + ROWS - 1))) == U64(0)


@njit(cache=True, inline="always")
def play(P, O, c):
    """The boards after the side to move drops a stone in column ``c`` (swapped)."""
    mask = P | O
    bit = (mask + (U64(1) << U64(7 * c))) & column_mask(c)
    return O, P | bit


@njit(cache=True)
def four(b):
    """Whether ``b`` holds four in a row."""
    for d in (1, 7, 6, 8):
        s = U64(d)
        m = b & (b >> s)
        if m & (m >> (s + s)):
            return True
    return False


def perft(P: int, O: int, depth: int) -> int:
    """Positions reached after exactly ``depth`` plies (a finished game has no successors)."""
    if depth == 0:
        return 1
    if four(U64(O)) or bin(P | O).count("1") == CELLS:
        return 0
    total = 0
    for c in range(COLUMNS):
        if can_play(U64(P), U64(O), c):
            nP, nO = play(U64(P), U64(O), c)
            total += perft(int(nP), int(nO), depth - 1)
    return total
