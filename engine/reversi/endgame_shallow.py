"""The exact solver's last seven empty squares (numba): most of a solve's nodes are here.

These functions avoid everything the deep search needs: no transposition table, no move list,
no sorting, no arrays (passing an array to a numba function costs two atomic reference-count
updates per call, which at this depth took most of the time).

- ``solve_1``: the last empty square is scored by counting flips, without making the move.
- ``solve_2`` .. ``solve_4``: the empty squares are passed (or extracted once) as square indexes
  and tried directly: a square that flips nothing is not a move, so no move generation at all.
  ``solve_4`` tries squares in odd quadrants first (parity: having the last move in a region
  is worth it).
- ``solve_5`` .. ``solve_7``: legal moves by parity, then by square class (corners first,
  squares next to a corner last); from 6 empties a stability cut-off when alpha is high.

Each is a fail-soft alpha-beta over ``(alpha, beta)`` returning ``(value, nodes)``: the final
disc difference for the side to move times ``sign`` (+1 Othello, -1 Reversed Reversi, whose
score is the negated Othello score) and the number of positions entered, leaves included. A
side without a move passes (inline, no recursion: numba's cache cannot hold recursive code).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.reversi.bitboard import legal_moves, lowest_bit_index, popcount
from engine.reversi.flips import count_flips, flips
from engine.reversi.stability import stable_discs

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
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


# Stability cut-off only when alpha is at least this (index: empties): below it the bound
# almost never cuts and computing stable discs costs more than it saves (Edax's table).
STABILITY_FROM = np.array(
    [99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44,
     46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64,
     64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64],
    dtype=np.int64,
)


@njit(cache=True)
def stability_bound(P, O, sign):
    """Highest score the side to move can still reach, given the stable discs that bind it:
    the opponent's in Othello, its own in Reversed Reversi (they stay its discs)."""
    binding = stable_discs(O, P) if sign > 0 else stable_discs(P, O)
    return 64 - 2 * popcount(binding)


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
    if best >= beta:
        return best, nodes
    v, n = _play_4(P, O, max(alpha, best), beta, sign, x2, x1, x3, x4)
    nodes += n
    if v > best:
        best = v
        if best >= beta:
            return best, nodes
    v, n = _play_4(P, O, max(alpha, best), beta, sign, x3, x1, x2, x4)
    nodes += n
    if v > best:
        best = v
        if best >= beta:
            return best, nodes
    v, n = _play_4(P, O, max(alpha, best), beta, sign, x4, x1, x2, x3)
    return max(best, v), nodes + n


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


# solve_5, solve_6 and solve_7 share one shape; they are written out three times because a
# numba function cannot take the child solver as a parameter without recursion in its type.


@njit(cache=True)
def _moves_5(P, O, alpha, beta, sign):
    """(best value over the moves, -100 if none; nodes), by parity then square class."""
    moves = legal_moves(P, O)
    if moves == ZERO:
        return -100, 0
    odd = odd_quadrants(~(P | O))
    best = -100
    nodes = 0
    for parity in (odd, ~odd):
        for cls in SQUARE_CLASSES:
            group = moves & parity & cls
            while group:
                x = lowest_bit_index(group)
                group &= group - ONE
                f = flips(P, O, x)
                v, n = solve_4(O ^ f, P ^ f ^ (ONE << U64(x)), -beta, -max(alpha, best), sign)
                nodes += n
                if -v > best:
                    best = -v
                    if best >= beta:
                        return best, nodes
    return best, nodes


@njit(cache=True)
def solve_5(P, O, alpha, beta, sign):
    v, n = _moves_5(P, O, alpha, beta, sign)
    if v > -100:
        return v, n + 1
    v, n = _moves_5(O, P, -beta, -alpha, sign)
    if v > -100:
        return -v, n + 2
    return final_score(P, O, sign), 2


@njit(cache=True)
def _moves_6(P, O, alpha, beta, sign):
    moves = legal_moves(P, O)
    if moves == ZERO:
        return -100, 0
    odd = odd_quadrants(~(P | O))
    best = -100
    nodes = 0
    for parity in (odd, ~odd):
        for cls in SQUARE_CLASSES:
            group = moves & parity & cls
            while group:
                x = lowest_bit_index(group)
                group &= group - ONE
                f = flips(P, O, x)
                v, n = solve_5(O ^ f, P ^ f ^ (ONE << U64(x)), -beta, -max(alpha, best), sign)
                nodes += n
                if -v > best:
                    best = -v
                    if best >= beta:
                        return best, nodes
    return best, nodes


@njit(cache=True)
def solve_6(P, O, alpha, beta, sign):
    if alpha >= STABILITY_FROM[6]:
        bound = stability_bound(P, O, sign)
        if bound <= alpha:
            return bound, 1
    v, n = _moves_6(P, O, alpha, beta, sign)
    if v > -100:
        return v, n + 1
    v, n = _moves_6(O, P, -beta, -alpha, sign)
    if v > -100:
        return -v, n + 2
    return final_score(P, O, sign), 2


@njit(cache=True)
def _moves_7(P, O, alpha, beta, sign):
    moves = legal_moves(P, O)
    if moves == ZERO:
        return -100, 0
    odd = odd_quadrants(~(P | O))
    best = -100
    nodes = 0
    for parity in (odd, ~odd):
        for cls in SQUARE_CLASSES:
            group = moves & parity & cls
            while group:
                x = lowest_bit_index(group)
                group &= group - ONE
                f = flips(P, O, x)
                v, n = solve_6(O ^ f, P ^ f ^ (ONE << U64(x)), -beta, -max(alpha, best), sign)
                nodes += n
                if -v > best:
                    best = -v
                    if best >= beta:
                        return best, nodes
    return best, nodes


@njit(cache=True)
def solve_7(P, O, alpha, beta, sign):
    if alpha >= STABILITY_FROM[7]:
        bound = stability_bound(P, O, sign)
        if bound <= alpha:
            return bound, 1
    v, n = _moves_7(P, O, alpha, beta, sign)
    if v > -100:
        return v, n + 1
    v, n = _moves_7(O, P, -beta, -alpha, sign)
    if v > -100:
        return -v, n + 2
    return final_score(P, O, sign), 2


@njit(cache=True)
def solve_small(P, O, alpha, beta, sign):
    """(exact fail-soft value, nodes) with at most 7 empty squares."""
    empty = ~(P | O)
    n = popcount(empty)
    if n == 7:
        return solve_7(P, O, alpha, beta, sign)
    if n == 6:
        return solve_6(P, O, alpha, beta, sign)
    if n == 5:
        return solve_5(P, O, alpha, beta, sign)
    if n == 4:
        return solve_4(P, O, alpha, beta, sign)
    if n == 0:
        return final_score(P, O, sign), 1
    x1 = lowest_bit_index(empty)
    empty &= empty - ONE
    if n == 1:
        return solve_1(P, O, x1, sign), 1
    x2 = lowest_bit_index(empty)
    empty &= empty - ONE
    if n == 2:
        return solve_2(P, O, alpha, beta, sign, x1, x2)
    return solve_3(P, O, alpha, beta, sign, x1, x2, lowest_bit_index(empty))
