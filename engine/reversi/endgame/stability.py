"""Stable discs: discs no sequence of moves can flip (numba), for the solver's cut-offs.

``stable_discs(P, O)`` returns a *subset* of the truly stable discs of ``P`` (it may miss some,
never adds one), computed as Edax does:

1. edges, exactly: a table over every pattern of one edge (``P`` and ``O`` bytes) gives the
   discs that stay ``P`` whatever is played on that edge, either colour, legal or not (a move
   on an edge can be legal through another direction, so every empty edge square may fill);
2. interior discs on a full line in each of the 4 axes (horizontal, vertical, 2 diagonals);
3. repeatedly, interior discs that in each axis sit on a full line or next to a stable disc of
   their colour: a flip along an axis would have to flip that neighbour too.

An edge disc can only flip along its edge, so (1) is exact for edges. The solver uses the
count as a bound: at the end ``P`` owns at least its stable discs, so the side to move can
score at most ``64 - 2 * stable_discs(O, P)`` (Othello; the empties go to the winner, which
keeps the bound).
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from engine.reversi.rules.bitboard import popcount

U64 = np.uint64
INTERIOR = U64(0x007E7E7E7E7E7E00)
FILE_A = U64(0x0101010101010101)
GATHER_FILE = U64(0x0102040810204080)  # (P & FILE_A) * this >> 56: bit k = square 8k
CORNER_PATTERN = U64(0x8100000000000081)


@njit(cache=True)
def _edge_move(p, o, x):
    """Edge after ``p`` plays the bit ``x`` on an 8-square line (flips along the line only)."""
    flipped = 0
    for step in (1, -1):
        run = 0
        y = x << 1 if step == 1 else x >> 1
        while y & 0xFF and y & o:
            run |= y
            y = y << 1 if step == 1 else y >> 1
        if y & 0xFF and y & p:
            flipped |= run
    return p | x | flipped, o & ~flipped


@njit(cache=True)
def _edge_table(patterns):
    """``table[p << 8 | o]`` = discs of ``p`` that stay ``p`` whatever is played on the edge.

    ``patterns`` lists every ``(p, o)`` from full edges down to empty ones, so each pattern's
    children (one disc more) are done before it.
    """
    table = np.zeros(1 << 16, np.uint8)
    for k in range(patterns.shape[0]):
        p, o = patterns[k, 0], patterns[k, 1]
        stable = p
        for i in range(8):
            x = 1 << i
            if (p | o) & x:
                continue
            np_, no = _edge_move(p, o, x)  # p plays x
            stable &= table[np_ << 8 | no]
            no2, np2 = _edge_move(o, p, x)  # o plays x
            stable &= table[np2 << 8 | no2]
        table[p << 8 | o] = stable
    return table


def _edge_patterns() -> np.ndarray:
    """Every edge as (p, o) bytes, the fullest first (3**8 = 6561 of them)."""
    cells = np.array(list(itertools.product((0, 1, 2), repeat=8)))
    weights = 1 << np.arange(8)
    patterns = np.stack([(cells == 1) @ weights, (cells == 2) @ weights], axis=1)
    return patterns[np.argsort(-(cells > 0).sum(axis=1), kind="stable")].astype(np.int64)


def _file_unpack() -> np.ndarray:
    return np.array([sum(1 << (8 * k) for k in range(8) if b >> k & 1) for b in range(256)],
                    dtype=np.uint64)


def _full_line_masks() -> np.ndarray:
    """The 8 ranks, 8 files and 2 x 15 diagonals, each as a mask (axis-major order)."""
    def squares(cond):
        return sum(1 << (8 * r + f) for r in range(8) for f in range(8) if cond(r, f))

    ranks = [squares(lambda r, f, k=k: r == k) for k in range(8)]
    files = [squares(lambda r, f, k=k: f == k) for k in range(8)]
    diag9 = [squares(lambda r, f, k=k: r - f == k) for k in range(-7, 8)]
    diag7 = [squares(lambda r, f, k=k: r + f == k) for k in range(15)]
    return np.array(ranks + files + diag9 + diag7, dtype=np.uint64)


EDGE_STABLE = _edge_table(_edge_patterns())
FILE_UNPACK = _file_unpack()
LINES = _full_line_masks()


@njit(cache=True, inline="always")
def _gather_file(x):
    return ((x & FILE_A) * GATHER_FILE) >> U64(56)


@njit(cache=True)
def stable_edges(P, O):
    """Stable discs of ``P`` on the four edges (exact, from the edge table)."""
    s = U64(EDGE_STABLE[(P & U64(0xFF)) << U64(8) | (O & U64(0xFF))])
    s |= U64(EDGE_STABLE[(P >> U64(56)) << U64(8) | (O >> U64(56))]) << U64(56)
    pa, oa = _gather_file(P), _gather_file(O)
    s |= FILE_UNPACK[EDGE_STABLE[pa << U64(8) | oa]]
    ph, oh = _gather_file(P >> U64(7)), _gather_file(O >> U64(7))
    s |= FILE_UNPACK[EDGE_STABLE[ph << U64(8) | oh]] << U64(7)
    return s


@njit(cache=True, inline="always")
def _full_along(discs, first, last):
    """Union of the lines ``LINES[first:last]`` that ``discs`` fills completely."""
    full = U64(0)
    for k in range(first, last):
        m = LINES[k]
        if discs & m == m:
            full |= m
    return full


@njit(cache=True)
def full_lines(discs):
    """Per axis (horizontal, vertical, two diagonals), the squares on a completely full line."""
    return (_full_along(discs, 0, 8), _full_along(discs, 8, 16), _full_along(discs, 16, 31),
            _full_along(discs, 31, 46))


@njit(cache=True)
def stable_discs(P, O):
    """A set of stable discs of ``P`` (see the module docstring)."""
    fh, fv, f9, f7 = full_lines(P | O)
    return stable_with_lines(P, O, fh, fv, f9, f7)


@njit(cache=True)
def stable_with_lines(P, O, fh, fv, f9, f7):
    """``stable_discs`` given ``full_lines(P | O)``, which both sides' counts can share."""
    central = P & INTERIOR
    stable = stable_edges(P, O) | (fh & fv & f9 & f7 & central)
    while True:
        old = stable
        h = (stable >> U64(1)) | (stable << U64(1)) | fh
        v = (stable >> U64(8)) | (stable << U64(8)) | fv
        d9 = (stable >> U64(9)) | (stable << U64(9)) | f9
        d7 = (stable >> U64(7)) | (stable << U64(7)) | f7
        stable |= h & v & d9 & d7 & central
        if stable == old:
            return stable


@njit(cache=True, inline="always")
def corner_stability(P):
    """Corners of ``P`` and the ``P`` discs next to them along an edge: a cheap ordering term."""
    near = (
        ((P & U64(0x0100000000000001)) << U64(1))
        | ((P & U64(0x8000000000000080)) >> U64(1))
        | ((P & U64(0x0000000000000081)) << U64(8))
        | ((P & U64(0x8100000000000000)) >> U64(8))
        | CORNER_PATTERN
    )
    return popcount(near & P)
