"""Move ordering of the exact solver's table nodes (8+ empties): fastest first (numba).

Key of a move, higher first: the table's best move before all; then fewest opponent replies
(corners counted twice); own corner-anchored edge discs; fewest empty squares next to own discs
(the opponent's potential moves); a small square bonus; below ``PARITY_MAX`` empties, a bonus
for a square in a quadrant with an odd number of empties. Weights are powers of two so each term
mostly breaks the ties of the one before.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.reversi.endgame.flips import flips
from engine.reversi.endgame.shallow import odd_quadrants
from engine.reversi.endgame.stability import corner_stability
from engine.reversi.rules.bitboard import (
    CORNERS,
    ONE,
    U64,
    legal_moves,
    lowest_bit_index,
    neighbours,
    popcount,
)

PARITY_MAX = 12  # below this many empties, moves in odd quadrants get the parity bonus
# Static square bonus for ordering ties: corners best, next-to-corner squares worst.
SQUARE_BONUS = np.array(
    [9, 2, 8, 6, 6, 8, 2, 9,
     2, 0, 3, 4, 4, 3, 0, 2,
     8, 3, 7, 5, 5, 7, 3, 8,
     6, 4, 5, 1, 1, 5, 4, 6,
     6, 4, 5, 1, 1, 5, 4, 6,
     8, 3, 7, 5, 5, 7, 3, 8,
     2, 0, 3, 4, 4, 3, 0, 2,
     9, 2, 8, 6, 6, 8, 2, 9],
    dtype=np.int64,
)
W_HASH_MOVE = 1 << 30
W_MOBILITY = 1 << 15
W_CORNER_STABILITY = 1 << 11
W_POTENTIAL_MOBILITY = 1 << 5
W_PARITY = 1 << 4


@njit(cache=True)
def move_key(P, O, x, f, odd, n_empty):
    """Ordering key of playing ``x`` (flipping ``f``): higher is tried first."""
    nP = O ^ f  # the opponent, to move next
    nO = P ^ f ^ (ONE << U64(x))
    replies = legal_moves(nP, nO)
    empty = ~(nP | nO)
    key = (36 - popcount(replies) - popcount(replies & CORNERS)) * W_MOBILITY
    key += corner_stability(nO) * W_CORNER_STABILITY
    key += (36 - popcount(neighbours(nO) & empty)) * W_POTENTIAL_MOBILITY
    key += SQUARE_BONUS[x]
    if n_empty < PARITY_MAX and odd & (ONE << U64(x)):
        key += W_PARITY
    return key


@njit(cache=True, inline="always")
def order_moves(P, O, moves, hash_move, keys, squares, flipped, row):
    """Fill row ``row`` of the move lists (square, flips, key); returns its length.

    The caller sorts lazily (``pick_next``). Rows of 2-D arrays, not views, and inlined: each
    array passed to a compiled call costs atomic reference counting."""
    empty = ~(P | O)
    odd = odd_quadrants(empty)
    n_empty = popcount(empty)
    n = 0
    while moves:
        x = lowest_bit_index(moves)
        moves &= moves - ONE
        f = flips(P, O, x)
        squares[row, n] = x
        flipped[row, n] = f
        keys[row, n] = W_HASH_MOVE if x == hash_move else move_key(P, O, x, f, odd, n_empty)
        n += 1
    return n


@njit(cache=True, inline="always")
def pick_next(keys, squares, flipped, row, i, n):
    """Move the best-keyed of moves ``i..n-1`` of ``row`` to ``i`` (first of equal keys: stable)."""
    b = i
    for j in range(i + 1, n):
        if keys[row, j] > keys[row, b]:
            b = j
    if b != i:
        k, s, f = keys[row, b], squares[row, b], flipped[row, b]
        for j in range(b, i, -1):
            keys[row, j] = keys[row, j - 1]
            squares[row, j] = squares[row, j - 1]
            flipped[row, j] = flipped[row, j - 1]
        keys[row, i], squares[row, i], flipped[row, i] = k, s, f
