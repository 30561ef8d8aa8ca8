"""The exact solver from 5 to 7 empty squares (numba), and ``solve_small`` for 0..7.

``solve_5`` .. ``solve_7`` try the legal moves odd quadrants first (parity), each group by square
class (corners first, the squares next to a corner last), without a table or a move list; from 6
empties they first try a stability cut-off when alpha is high. Same contract as
``engine.reversi.endgame.shallow``: fail-soft over ``(alpha, beta)``, returns ``(value, nodes)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.reversi.endgame.flips import flips
from engine.reversi.endgame.shallow import (
    final_score,
    odd_quadrants,
    solve_1,
    solve_2,
    solve_3,
    solve_4,
)
from engine.reversi.endgame.stability import stable_discs
from engine.reversi.rules.bitboard import (
    CORNERS,
    ONE,
    U64,
    ZERO,
    legal_moves,
    lowest_bit_index,
    popcount,
)

# Square classes tried first to last inside a parity group: corners, then the edge squares
# two away from a corner (A/C), the other edge and inner squares, and last the squares next
# to a corner (C and X squares), the ones that give corners away.
NEXT_TO_CORNER = U64(0x42C300000000C342)
GOOD_EDGES = U64(0x2400810000810024)
OTHERS = ~(CORNERS | NEXT_TO_CORNER | GOOD_EDGES)
SQUARE_CLASSES = (CORNERS, GOOD_EDGES, OTHERS, NEXT_TO_CORNER)

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


# solve_5, solve_6 and solve_7 share one shape; they are written out three times because a
# cached numba function that takes the child solver as an argument fails when loaded from the
# cache ("unresolved symbol"), and a closure over it is compiled again in every process.


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
