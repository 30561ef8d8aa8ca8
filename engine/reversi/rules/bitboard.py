"""Bitboard kernels for 8x8 Reversi-family games (numba, no Python objects).

A position is two ``uint64`` boards: ``P`` (discs of the side to move) and ``O`` (the
opponent's). Making a move returns the boards *already swapped* for the next player, so a
pass is just ``(O, P)`` and search is one negamax branch with no colour tests.

Bit numbering (drawn once; the text format uses the same order)::

        a  b  c  d  e  f  g  h
    1   0  1  2  3  4  5  6  7
    2   8  9 10 11 12 13 14 15
    3  16 17 18 19 20 21 22 23
    4  24 25 26 27 28 29 30 31
    5  32 33 34 35 36 37 38 39
    6  40 41 42 43 44 45 46 47
    7  48 49 50 51 52 53 54 55
    8  56 57 58 59 60 61 62 63

So ``a1`` is bit 0, ``h1`` bit 7, ``a8`` bit 56 and ``h8`` bit 63; square index =
``8 * (rank - 1) + file``. "East" is towards file h (+1), "north" towards rank 8 (+8).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bits import lowest_bit_index, popcount, square_bit  # noqa: F401 - re-exported

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
FULL = U64(0xFFFFFFFFFFFFFFFF)
FILE_A = U64(0x0101010101010101)
FILE_H = U64(0x8080808080808080)
NOT_FILE_A = U64(0xFEFEFEFEFEFEFEFE)
NOT_FILE_H = U64(0x7F7F7F7F7F7F7F7F)
INNER_FILES = U64(0x7E7E7E7E7E7E7E7E)  # files b..g: a horizontal run can never wrap past them
CORNERS = U64(0x8100000000000081)
PASS = 64  # the move id of a pass (squares are 0..63)
NO_MOVE = -1  # no move at all: the game is over

# Shift amounts as uint64 so numba never promotes a shift to float or int64.
S1, S2, S7, S8, S9 = U64(1), U64(2), U64(7), U64(8), U64(9)
S14, S16, S18 = U64(14), U64(16), U64(18)


# --- move generation ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _moves_one_axis(P, M, shift):
    """Empty-or-not squares that close a run of ``M`` discs ending at a ``P`` disc.

    Kogge-Stone style doubling along one axis, both directions (Edax's get_some_moves):
    ``M`` is the opponent mask already restricted so that a run cannot wrap a board edge.
    """
    shift2 = shift + shift
    flip_l = M & (P << shift)
    flip_l |= M & (flip_l << shift)
    pre_l = M & (M << shift)
    flip_l |= pre_l & (flip_l << shift2)
    flip_l |= pre_l & (flip_l << shift2)

    flip_r = M & (P >> shift)
    flip_r |= M & (flip_r >> shift)
    pre_r = M & (M >> shift)
    flip_r |= pre_r & (flip_r >> shift2)
    flip_r |= pre_r & (flip_r >> shift2)
    return (flip_l << shift) | (flip_r >> shift)


@njit(cache=True)
def legal_moves(P, O):
    """Bitboard of the legal moves of the side to move."""
    inner = O & INNER_FILES
    moves = _moves_one_axis(P, inner, S1)
    moves |= _moves_one_axis(P, O, S8)
    moves |= _moves_one_axis(P, inner, S7)
    moves |= _moves_one_axis(P, inner, S9)
    return moves & ~(P | O)


@njit(cache=True, inline="always")
def _flips_up(P, O, m, shift, mask):
    """Discs flipped in one direction that moves towards higher bit numbers."""
    flipped = ZERO
    x = (m << shift) & mask
    while x & O:
        flipped |= x
        x = (x << shift) & mask
    return flipped if (x & P) else ZERO


@njit(cache=True, inline="always")
def _flips_down(P, O, m, shift, mask):
    """Discs flipped in one direction that moves towards lower bit numbers."""
    flipped = ZERO
    x = (m >> shift) & mask
    while x & O:
        flipped |= x
        x = (x >> shift) & mask
    return flipped if (x & P) else ZERO


@njit(cache=True)
def flips(P, O, sq):
    """Opponent discs flipped by the side to move playing square ``sq`` (0 if it flips none)."""
    m = ONE << U64(sq)
    f = _flips_up(P, O, m, S1, NOT_FILE_A)  # east
    f |= _flips_down(P, O, m, S1, NOT_FILE_H)  # west
    f |= _flips_up(P, O, m, S8, FULL)  # north
    f |= _flips_down(P, O, m, S8, FULL)  # south
    f |= _flips_up(P, O, m, S9, NOT_FILE_A)  # north-east
    f |= _flips_up(P, O, m, S7, NOT_FILE_H)  # north-west
    f |= _flips_down(P, O, m, S7, NOT_FILE_A)  # south-east
    f |= _flips_down(P, O, m, S9, NOT_FILE_H)  # south-west
    return f


@njit(cache=True, inline="always")
def make_move(P, O, sq, flipped):
    """Boards after the mover plays ``sq`` flipping ``flipped``, swapped for the next player."""
    return O ^ flipped, P ^ flipped ^ (ONE << U64(sq))


@njit(cache=True)
def play(P, O, sq):
    """(next_P, next_O, flipped); ``flipped == 0``: illegal move, boards unchanged."""
    if (P | O) & (ONE << U64(sq)):
        return P, O, ZERO
    f = flips(P, O, sq)
    if f == ZERO:
        return P, O, ZERO
    nP, nO = make_move(P, O, sq, f)
    return nP, nO, f


@njit(cache=True)
def is_game_over(P, O):
    return legal_moves(P, O) == ZERO and legal_moves(O, P) == ZERO


@njit(cache=True)
def othello_score(P, O):
    """Final disc difference for the side to move under Othello rules.

    Empty squares left at the end go to the winner (the FFO/Edax convention); a draw stays 0.
    """
    p = popcount(P)
    o = popcount(O)
    empties = 64 - p - o
    diff = p - o
    if diff > 0:
        diff += empties
    elif diff < 0:
        diff -= empties
    return diff


@njit(cache=True)
def final_score(P, O, reversed_rules):
    """Final score for the side to move, positive = win, for either rule variant.

    Reversed Reversi (fewer discs wins) counts empties to the *loser*, which makes its score
    exactly the negated Othello score: the margin grows by the empties as in Othello and the
    winner never depends on the convention.
    """
    s = othello_score(P, O)
    return -s if reversed_rules else s


# --- features used by evaluation -------------------------------------------------------------


@njit(cache=True, inline="always")
def neighbours(x):
    """Squares adjacent (8-neighbourhood) to any set square of ``x``."""
    east = (x << S1) & NOT_FILE_A
    west = (x >> S1) & NOT_FILE_H
    row = x | east | west
    return (east | west | (row << S8) | (row >> S8))


@njit(cache=True)
def frontier(P, O):
    """Discs of ``P`` next to at least one empty square (potential-mobility count source)."""
    return P & neighbours(~(P | O))
