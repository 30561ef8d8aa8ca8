"""The exact solver's shallow end: positions with at most ``SHALLOW_MAX`` empty squares (numba).

Most of an exact search's nodes sit here, so these functions avoid everything the deep search
needs: no transposition table, no move list, no sorting.

- ``solve_1``: the last empty square is scored by counting flips, without making the move.
- ``solve_2`` .. ``solve_4``: the empty squares are passed (or extracted once) as square indexes
  and tried directly: a square that flips nothing is not a move, so no move generation at all.
- ``shallow``: 5..``SHALLOW_MAX`` empties, moves tried odd quadrants first (parity: the last
  move in a region is worth having), each group in a fixed square-priority order.

Every function is a fail-soft alpha-beta over the window ``(alpha, beta)`` and returns the final
disc difference for the side to move times ``sign`` (+1 Othello, -1 Reversed Reversi, whose score
is the negated Othello score). ``passed`` is True when the previous player had to pass, so that
a second pass ends the game. ``stats[0]`` counts the positions entered (nodes), leaves included.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.reversi.bitboard import legal_moves, lowest_bit_index, popcount
from engine.reversi.flips import count_flips, flips

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
SHALLOW_MAX = 7  # most empties handled here; the deep search (table, ordering) above it
QUADRANTS = (
    U64(0x000000000F0F0F0F),
    U64(0x00000000F0F0F0F0),
    U64(0x0F0F0F0F00000000),
    U64(0xF0F0F0F000000000),
)
# Square classes tried first to last inside a parity group: corners, then the edge squares
# two away from a corner (A/C), the other edge and inner squares, and last the squares next
# to a corner (C and X squares), the ones that give corners away.
CORNERS = U64(0x8100000000000081)
NEXT_TO_CORNER = U64(0x42C300000000C342)
GOOD_EDGES = U64(0x2400810000810024)
OTHERS = ~(CORNERS | NEXT_TO_CORNER | GOOD_EDGES)
SQUARE_CLASSES = (CORNERS, GOOD_EDGES, OTHERS, NEXT_TO_CORNER)


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
def solve_1(P, O, sq, sign, stats):
    """Exact score with one empty square ``sq``: whoever can play it does, and the game ends."""
    stats[0] += 1
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
def _play_2(P, O, x, y, sign, stats):
    """Value of playing ``x`` with ``y`` left empty; -100 if ``x`` flips nothing."""
    f = flips(P, O, x)
    if f == ZERO:
        return -100
    return -solve_1(O ^ f, P ^ f ^ (ONE << U64(x)), y, sign, stats)


@njit(cache=True, inline="always")
def _moves_2(P, O, beta, sign, x1, x2, stats):
    """Best value over the side to move's moves, -100 if it has none."""
    best = _play_2(P, O, x1, x2, sign, stats)
    if best >= beta:
        return best
    return max(best, _play_2(P, O, x2, x1, sign, stats))


@njit(cache=True)
def solve_2(P, O, alpha, beta, sign, x1, x2, stats):
    stats[0] += 1
    v = _moves_2(P, O, beta, sign, x1, x2, stats)
    if v > -100:
        return v
    v = _moves_2(O, P, -alpha, sign, x1, x2, stats)  # pass
    if v > -100:
        return -v
    return final_score(P, O, sign)


@njit(cache=True, inline="always")
def _play_3(P, O, alpha, beta, sign, x, y, z, stats):
    """Value of playing ``x`` (``y``, ``z`` left empty); -100 if ``x`` flips nothing."""
    f = flips(P, O, x)
    if f == ZERO:
        return -100
    return -solve_2(O ^ f, P ^ f ^ (ONE << U64(x)), -beta, -alpha, sign, y, z, stats)


@njit(cache=True)
def _moves_3(P, O, alpha, beta, sign, x1, x2, x3, stats):
    best = _play_3(P, O, alpha, beta, sign, x1, x2, x3, stats)
    if best >= beta:
        return best
    v = _play_3(P, O, max(alpha, best), beta, sign, x2, x1, x3, stats)
    if v > best:
        best = v
        if best >= beta:
            return best
    return max(best, _play_3(P, O, max(alpha, best), beta, sign, x3, x1, x2, stats))


@njit(cache=True)
def solve_3(P, O, alpha, beta, sign, x1, x2, x3, stats):
    stats[0] += 1
    v = _moves_3(P, O, alpha, beta, sign, x1, x2, x3, stats)
    if v > -100:
        return v
    v = _moves_3(O, P, -beta, -alpha, sign, x1, x2, x3, stats)
    if v > -100:
        return -v
    return final_score(P, O, sign)


@njit(cache=True, inline="always")
def _play_4(P, O, alpha, beta, sign, x, y, z, w, stats):
    """Value of playing ``x`` (``y``, ``z``, ``w`` left); -100 if ``x`` flips nothing."""
    f = flips(P, O, x)
    if f == ZERO:
        return -100
    return -solve_3(O ^ f, P ^ f ^ (ONE << U64(x)), -beta, -alpha, sign, y, z, w, stats)


@njit(cache=True)
def _moves_4(P, O, alpha, beta, sign, x1, x2, x3, x4, stats):
    best = _play_4(P, O, alpha, beta, sign, x1, x2, x3, x4, stats)
    if best >= beta:
        return best
    v = _play_4(P, O, max(alpha, best), beta, sign, x2, x1, x3, x4, stats)
    if v > best:
        best = v
        if best >= beta:
            return best
    v = _play_4(P, O, max(alpha, best), beta, sign, x3, x1, x2, x4, stats)
    if v > best:
        best = v
        if best >= beta:
            return best
    return max(best, _play_4(P, O, max(alpha, best), beta, sign, x4, x1, x2, x3, stats))


@njit(cache=True, inline="always")
def _take_square(a, b):
    """The lowest square of ``a`` (or of ``b`` once ``a`` is used up), and both sets without it."""
    if a:
        return lowest_bit_index(a), a & (a - ONE), b
    return lowest_bit_index(b), a, b & (b - ONE)


@njit(cache=True)
def solve_4(P, O, alpha, beta, sign, stats):
    """Four empty squares, tried odd quadrants first (then by square index)."""
    stats[0] += 1
    empty = ~(P | O)
    odd = odd_quadrants(empty)
    a, b = empty & odd, empty & ~odd
    x1, a, b = _take_square(a, b)
    x2, a, b = _take_square(a, b)
    x3, a, b = _take_square(a, b)
    x4, a, b = _take_square(a, b)
    v = _moves_4(P, O, alpha, beta, sign, x1, x2, x3, x4, stats)
    if v > -100:
        return v
    v = _moves_4(O, P, -beta, -alpha, sign, x1, x2, x3, x4, stats)
    if v > -100:
        return -v
    return final_score(P, O, sign)


@njit(cache=True)
def _moves_5(P, O, alpha, beta, sign, stats):
    """Best value over the side to move's moves with 5 empties (parity, then square class)."""
    moves = legal_moves(P, O)
    if moves == ZERO:
        return -100
    odd = odd_quadrants(~(P | O))
    best = -100
    for parity in (odd, ~odd):
        for cls in SQUARE_CLASSES:
            group = moves & parity & cls
            while group:
                x = lowest_bit_index(group)
                group &= group - ONE
                f = flips(P, O, x)
                v = -solve_4(O ^ f, P ^ f ^ (ONE << U64(x)), -beta, -max(alpha, best), sign, stats)
                if v > best:
                    best = v
                    if v >= beta:
                        return v
    return best


@njit(cache=True)
def solve_5(P, O, alpha, beta, sign, stats):
    stats[0] += 1
    v = _moves_5(P, O, alpha, beta, sign, stats)
    if v > -100:
        return v
    v = _moves_5(O, P, -beta, -alpha, sign, stats)
    if v > -100:
        return -v
    return final_score(P, O, sign)


@njit(cache=True)
def solve_small(P, O, alpha, beta, sign, stats):
    """Exact fail-soft value with at most 5 empty squares."""
    empty = ~(P | O)
    n = popcount(empty)
    if n == 5:
        return solve_5(P, O, alpha, beta, sign, stats)
    if n == 4:
        return solve_4(P, O, alpha, beta, sign, stats)
    if n == 0:
        stats[0] += 1
        return final_score(P, O, sign)
    x1 = lowest_bit_index(empty)
    empty &= empty - ONE
    if n == 1:
        return solve_1(P, O, x1, sign, stats)
    x2 = lowest_bit_index(empty)
    empty &= empty - ONE
    if n == 2:
        return solve_2(P, O, alpha, beta, sign, x1, x2, stats)
    return solve_3(P, O, alpha, beta, sign, x1, x2, lowest_bit_index(empty), stats)
