"""The exact solver's last four empty squares (numba): most of a solve's nodes are here.

These functions avoid everything the deep search needs: no transposition table, no move list,
no sorting, no arrays (passing an array to a numba function costs two atomic reference-count
updates per call, which at this depth took most of the time).

- ``solve_1``: the last empty square is scored by counting flips, without making the move.
- ``solve_2`` .. ``solve_4``: the empty squares are passed (or extracted once) as square indexes
  and tried directly: a square that flips nothing is not a move, so no move generation at all.
  ``solve_4`` tries squares in odd quadrants first (parity: having the last move in a region
  is worth it).

Each is a fail-soft alpha-beta over ``(alpha, beta)`` returning ``(value, nodes)``: the final
disc difference for the side to move times ``sign`` (+1 Othello, -1 Reversed Reversi, whose
score is the negated Othello score) and the number of positions entered, leaves included. A
side without a move passes (inline, no recursion: numba's cache cannot hold recursive code).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.reversi.endgame.flips import count_flips, flips
from engine.reversi.rules.bitboard import lowest_bit_index, popcount

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
QUADRANTS = (
    U64(0x000000000F0F0F0F),
    U64(0x00000000F0F0F0F0),
    U64(0x0F0F0F0F00000000),
    U64(0xF0F0F0F000000000),
)


@njit(cache=True, inline="always")
def final_score(P, O, sign):
    """Disc difference (empties to the winner) for the side to move, times ``sign``."""
    p = popcount(P)
    o = popcount(O)
    diff = p - o
    if diff > 0:
        diff += 64 - p - o
    elif diff < 0:
        diff -= 64 - p - o
    return sign * diff


@njit(cache=True, inline="always")
def odd_quadrants(empty):
    """Union of the board quadrants holding an odd number of empty squares."""
    odd = ZERO
    for q in QUADRANTS:
        if popcount(empty & q) & 1:
            odd |= q
    return odd


@njit(cache=True)
def solve_1(P, O, sq, sign):
    """Exact score with one empty square ``sq``: whoever can play it does, and the game ends."""
    p = popcount(P)
    n = count_flips(P, O, sq)
    if n:
        return sign * (2 * (p + n) + 2 - 64)
    n = count_flips(O, P, sq)
    if n:
        return sign * (2 * (p - n) - 64)
    diff = 2 * p - 63  # odd: never a draw; the empty square goes to the winner
    return sign * (diff + 1 if diff > 0 else diff - 1)


@njit(cache=True, inline="always")
def _play_2(P, O, x, y, sign):
    """Value of playing ``x`` with ``y`` left empty; -100 if ``x`` flips nothing."""
    f = flips(P, O, x)
    if f == ZERO:
        return -100
    return -solve_1(O ^ f, P ^ f ^ (ONE << U64(x)), y, sign)


@njit(cache=True, inline="always")
def _moves_2(P, O, beta, sign, x1, x2):
    """(best value over the side to move's moves or -100 if none, nodes below)."""
    best = _play_2(P, O, x1, x2, sign)
    if best >= beta:
        return best, 1
    v = _play_2(P, O, x2, x1, sign)
    return max(best, v), (best > -100) + (v > -100)


@njit(cache=True)
def solve_2(P, O, alpha, beta, sign, x1, x2):
    v, n = _moves_2(P, O, beta, sign, x1, x2)
    if v > -100:
        return v, n + 1
    v, n = _moves_2(O, P, -alpha, sign, x1, x2)  # pass
    if v > -100:
        return -v, n + 2
    return final_score(P, O, sign), 2


@njit(cache=True, inline="always")
def _play_3(P, O, alpha, beta, sign, x, y, z):
    """(value of playing ``x``, ``y`` and ``z`` left empty, nodes); -100 if ``x`` flips nothing."""
    f = flips(P, O, x)
    if f == ZERO:
        return -100, 0
    v, n = solve_2(O ^ f, P ^ f ^ (ONE << U64(x)), -beta, -alpha, sign, y, z)
    return -v, n


@njit(cache=True)
def _moves_3(P, O, alpha, beta, sign, x1, x2, x3):
    best, nodes = _play_3(P, O, alpha, beta, sign, x1, x2, x3)
    if best >= beta:
        return best, nodes
    v, n = _play_3(P, O, max(alpha, best), beta, sign, x2, x1, x3)
    nodes += n
    if v > best:
        best = v
        if best >= beta:
            return best, nodes
    v, n = _play_3(P, O, max(alpha, best), beta, sign, x3, x1, x2)
    return max(best, v), nodes + n


@njit(cache=True)
def solve_3(P, O, alpha, beta, sign, x1, x2, x3):
    v, n = _moves_3(P, O, alpha, beta, sign, x1, x2, x3)
    if v > -100:
        return v, n + 1
    v, n = _moves_3(O, P, -beta, -alpha, sign, x1, x2, x3)
    if v > -100:
        return -v, n + 2
    return final_score(P, O, sign), 2


@njit(cache=True, inline="always")
def _play_4(P, O, alpha, beta, sign, x, y, z, w):
    """(value of playing ``x``, three squares left, nodes); -100 if ``x`` flips nothing."""
    f = flips(P, O, x)
    if f == ZERO:
        return -100, 0
    v, n = solve_3(O ^ f, P ^ f ^ (ONE << U64(x)), -beta, -alpha, sign, y, z, w)
    return -v, n


@njit(cache=True)
def _moves_4(P, O, alpha, beta, sign, x1, x2, x3, x4):
    best, nodes = _play_4(P, O, alpha, beta, sign, x1, x2, x3, x4)
    for x, y, z, w in ((x2, x1, x3, x4), (x3, x1, x2, x4), (x4, x1, x2, x3)):
        if best >= beta:
            break
        v, n = _play_4(P, O, max(alpha, best), beta, sign, x, y, z, w)
        nodes += n
        best = max(best, v)
    return best, nodes


@njit(cache=True, inline="always")
def _take_square(a, b):
    """The lowest square of ``a`` (or of ``b`` once ``a`` is used up), and both sets without it."""
    if a:
        return lowest_bit_index(a), a & (a - ONE), b
    return lowest_bit_index(b), a, b & (b - ONE)


@njit(cache=True)
def solve_4(P, O, alpha, beta, sign):
    """Four empty squares, tried odd quadrants first (then by square index)."""
    empty = ~(P | O)
    odd = odd_quadrants(empty)
    a, b = empty & odd, empty & ~odd
    x1, a, b = _take_square(a, b)
    x2, a, b = _take_square(a, b)
    x3, a, b = _take_square(a, b)
    x4, a, b = _take_square(a, b)
    v, n = _moves_4(P, O, alpha, beta, sign, x1, x2, x3, x4)
    if v > -100:
        return v, n + 1
    v, n = _moves_4(O, P, -beta, -alpha, sign, x1, x2, x3, x4)
    if v > -100:
        return -v, n + 2
    return final_score(P, O, sign), 2
