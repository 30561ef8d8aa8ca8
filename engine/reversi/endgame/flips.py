"""Flips without loops, for the exact endgame solver (numba).

``bitboard.flips`` walks each direction square by square; the solver computes flips tens of
millions of times, so here each of the 8 directions is a few branch-free operations on a
precomputed *line*: the squares beyond ``sq`` in that direction up to the board edge (Edax's
"carry" idea). In a line, the first square that is not an opponent disc is the *outflank*; the
discs between ``sq`` and the outflank flip when the outflank holds a ``P`` disc.

- Lines towards higher bits (east, north-east, north, north-west): the outflank is the lowest
  set bit of ``~O & line``.
- Lines towards lower bits: the outflank is the highest set bit, found with a leading-zero
  count. ``| 1`` keeps the count defined when no square qualifies: the stand-in square a1 then
  either lies outside the line or holds an opponent disc, so it never passes ``& P & line``.

Bit numbering as in ``engine.reversi.rules.bitboard`` (a1 = 0, h1 = 7, a8 = 56).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from engine.reversi.rules.bitboard import popcount

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
TOP_BIT = U64(1 << 63)
UP_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1))  # (file step, rank step): east, NE, north, NW
DOWN_STEPS = ((-1, 0), (-1, -1), (0, -1), (1, -1))  # west, SW, south, SE


@intrinsic
def leading_zeros(typingctx, x):
    """Number of leading zero bits of a nonzero uint64 (one LZCNT/BSR instruction)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


def _line(sq: int, file_step: int, rank_step: int) -> int:
    f, r = sq % 8 + file_step, sq // 8 + rank_step
    mask = 0
    while 0 <= f < 8 and 0 <= r < 8:
        mask |= 1 << (8 * r + f)
        f, r = f + file_step, r + rank_step
    return mask


def _lines(steps) -> np.ndarray:
    return np.array([[_line(sq, *s) for s in steps] for sq in range(64)], dtype=np.uint64)


UP_LINES = _lines(UP_STEPS)  # [square, direction]
DOWN_LINES = _lines(DOWN_STEPS)


@njit(cache=True)
def flips(P, O, sq):
    """Opponent discs flipped by ``P`` playing the empty square ``sq`` (0: not a legal move)."""
    flipped = ZERO
    not_o = ~O
    for d in range(4):
        line = UP_LINES[sq, d]
        x = not_o & line
        outflank = x & (ZERO - x) & P
        if outflank:
            flipped |= (outflank - ONE) & line
        line = DOWN_LINES[sq, d]
        x = (not_o & line) | ONE
        outflank = (TOP_BIT >> U64(leading_zeros(x))) & P & line
        flipped |= (ZERO - (outflank << ONE)) & line
    return flipped


@njit(cache=True, inline="always")
def count_flips(P, O, sq):
    """Number of discs ``P`` would flip by playing ``sq`` (the last move needs no board)."""
    return popcount(flips(P, O, sq))
