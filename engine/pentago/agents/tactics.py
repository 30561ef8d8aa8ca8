"""One-move tactics shared by the greedy agent and MCTS's root checks (numba).

Ranks of a move, best first: it wins now (``WIN``); the game goes on and the opponent cannot
win in one (``SAFE``); it draws now (``DRAW_NOW``); it loses now or lets the opponent win in one
(``HANDS_WIN``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bits import ONE, lowest_bit_index
from engine.pentago.rules import bitboard as bb

HANDS_WIN, DRAW_NOW, SAFE, WIN = 0, 1, 2, 3


@njit(cache=True)
def winning_move(P, O):
    """A move id that wins at once for the side to move (the lowest), or -1."""
    empties = bb.empty_cells(P, O)
    while empties:
        cell = lowest_bit_index(empties)
        empties &= empties - ONE
        for t in range(bb.TWISTS):
            nP, nO = bb.play(P, O, cell * bb.TWISTS + t)
            if bb.result(nP, nO) == bb.TO_MOVE_LOSES:
                return cell * bb.TWISTS + t
    return -1


@njit(cache=True)
def move_rank(nP, nO):
    """The rank of the move that led to ``(nP, nO)`` (the opponent to move there)."""
    r = bb.result(nP, nO)
    if r == bb.TO_MOVE_LOSES:
        return WIN
    if r == bb.TO_MOVE_WINS:
        return HANDS_WIN
    if r == bb.DRAWN:
        return DRAW_NOW
    return HANDS_WIN if bb.can_win_now(nP, nO) else SAFE


@njit(cache=True)
def ranked_children(P, O, c_P, c_O, c_move, rank):
    """Distinct children with their ranks; returns n (arrays need room for 288). A winning
    child ends the search: it is reported alone, as entry 0."""
    n = bb.distinct_children(P, O, c_P, c_O, c_move)
    for i in range(n):
        rank[i] = move_rank(c_P[i], c_O[i])
        if rank[i] == WIN:
            c_P[0], c_O[0], c_move[0], rank[0] = c_P[i], c_O[i], c_move[i], WIN
            return 1
    return n


def best_ranked_moves(P, O) -> tuple[int, list[int]]:
    """(best rank, the distinct moves of that rank) for the side to move."""
    c_P, c_O = np.empty(bb.MOVES, np.uint64), np.empty(bb.MOVES, np.uint64)
    c_move, rank = np.empty(bb.MOVES, np.int64), np.empty(bb.MOVES, np.int64)
    n = ranked_children(P, O, c_P, c_O, c_move, rank)
    top = int(rank[:n].max())
    return top, [int(m) for m, r in zip(c_move[:n], rank[:n], strict=True) if r == top]
