"""The exact solver's transposition table: bounds of exact values, two entries per bucket.

One ``uint64`` array of shape ``(entries, 3)``: per entry the two boards (no false hits) and a
packed word ``lower + 64 | (upper + 64) << 8 | move << 16 | empties << 24 | generation << 32``.
Bounds are bounds of the *exact* final score, so an entry is valid for any window and any later
search of the same rules; ``generation`` tags each solver's entries (0 = empty) so that clearing
is O(1) and searchers sharing a table never read each other's (they may use other rules).

A position hashes to a bucket of two neighbouring entries: a store updates the entry already
holding the position, else fills a stale entry, else replaces the one with fewer empties (the
cheaper to recompute); deep entries survive floods of shallow ones.
"""

from __future__ import annotations

import numpy as np
from numba import njit

U64 = np.uint64
HASH_MUL_P = U64(0x9E3779B97F4A7C15)
HASH_MUL_O = U64(0xC2B2AE3D27D4EB4F)
NO_SQUARE = 64
UNKNOWN_LOWER, UNKNOWN_UPPER = -100, 100
MASK8 = U64(0xFF)


def new_table(bits: int) -> np.ndarray:
    """A table of ``2**bits`` entries (24 bytes each), all empty."""
    if not 4 <= bits <= 30:
        raise ValueError(f"tt_bits must be in 4..30, got {bits}")
    table = np.empty((1 << bits, 3), dtype=np.uint64)
    table.fill(0)  # generation 0 = empty; touching every page now keeps page faults out of solves
    return table


@njit(cache=True, inline="always")
def _bucket(table, P, O):
    h = (P ^ (O * HASH_MUL_O)) * HASH_MUL_P
    return np.int64(h >> U64(33)) & (table.shape[0] - 2)


@njit(cache=True, inline="always")
def _pack(lower, upper, move, n_empty, gen):
    return (U64(lower + 64) | (U64(upper + 64) << U64(8)) | (U64(move) << U64(16))
            | (U64(n_empty) << U64(24)) | (U64(gen) << U64(32)))


@njit(cache=True, inline="always")
def probe(table, P, O, gen):
    """(lower, upper, best move) stored for the position, or (-100, 100, NO_SQUARE)."""
    b = _bucket(table, P, O)
    for i in (b, b + 1):
        data = table[i, 2]
        if (data >> U64(32)) == gen and table[i, 0] == P and table[i, 1] == O:
            lower = np.int64(data & MASK8) - 64
            upper = np.int64((data >> U64(8)) & MASK8) - 64
            return lower, upper, np.int64((data >> U64(16)) & MASK8)
    return UNKNOWN_LOWER, UNKNOWN_UPPER, NO_SQUARE


@njit(cache=True, inline="always")
def store(table, P, O, gen, alpha, beta, value, move, n_empty):
    """Record what a fail-soft search over ``(alpha, beta)`` that returned ``value`` proves."""
    lower, upper = -64, 64
    if value > alpha:
        lower = value
    if value < beta:
        upper = value
    b = _bucket(table, P, O)
    victim = -1
    for i in (b, b + 1):
        data = table[i, 2]
        if (data >> U64(32)) == gen and table[i, 0] == P and table[i, 1] == O:
            lower = max(lower, np.int64(data & MASK8) - 64)  # both are bounds of one value
            upper = min(upper, np.int64((data >> U64(8)) & MASK8) - 64)
            victim = i
    if victim < 0:
        d0, d1 = table[b, 2], table[b + 1, 2]
        victim = b + 1
        if (d0 >> U64(32)) != gen:
            victim = b
        elif (d1 >> U64(32)) == gen and ((d0 >> U64(24)) & MASK8) <= ((d1 >> U64(24)) & MASK8):
            victim = b
    table[victim, 0] = P
    table[victim, 1] = O
    table[victim, 2] = _pack(lower, upper, move, n_empty, gen)


_SHARED_TABLES: dict[int, np.ndarray] = {}


def shared_table(bits: int) -> np.ndarray:
    """One table per size per process, for every solver that asks (entries carry generations)."""
    if bits not in _SHARED_TABLES:
        _SHARED_TABLES[bits] = new_table(bits)
    return _SHARED_TABLES[bits]
