"""The transposition table every game's search shares (numpy arrays, probed from numba).

An entry holds two 64-bit keys (a game's two boards, or two independent Zobrist hashes: together
they make false hits practically impossible), the value, its bound type and depth tag, the best
move, and a generation number. Searchers tag entries with their own generation, so ``clear()`` is
O(1) and agents sharing one table never read each other's entries (``shared_table``: one table
per size per process, which saves every GA agent its own). Which slot a position takes is the
game's choice (``slot_of_pair`` for a pair of boards, or the low bits of a Zobrist key).
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 0, 1, 2
EXACT_TAG = 10_000  # depth tag of exact-mode entries (deeper than any depth)
HASH_MUL_P = np.uint64(0x9E3779B97F4A7C15)
HASH_MUL_O = np.uint64(0xC2B2AE3D27D4EB4F)

K1, K2, VALUE, MOVE, DEPTH, BOUND, GEN = range(7)  # the arrays of a table, in this order

PERMANENT_GEN = 1  # entries valid for every searcher (exact truths a game keeps forever)

_SHARED: dict[int, tuple] = {}
_GENERATIONS = itertools.count(2)  # process-wide: searchers sharing a table never collide


def new_table(bits: int) -> tuple:
    """A table of ``2**bits`` entries (about 30 bytes each): (k1, k2, value, move, depth tag,
    bound, generation) arrays."""
    if not 4 <= bits <= 30:
        raise ValueError(f"tt_bits must be in 4..30, got {bits}")
    n = 1 << bits
    table = (np.empty(n, np.uint64), np.empty(n, np.uint64), np.empty(n, np.float64),
             np.empty(n, np.int16), np.empty(n, np.int16), np.empty(n, np.int8),
             np.empty(n, np.uint32))
    for a in table:  # touch every page now: first-touch page faults would stall a timed search
        a.fill(0)
    return table


def shared_table(bits: int) -> tuple:
    """One table per size per process (see the module docstring for why sharing is safe)."""
    if bits not in _SHARED:
        _SHARED[bits] = new_table(bits)
    return _SHARED[bits]


def next_generation() -> int:
    """A generation number no other searcher of this process uses (never 0 = empty slot, nor
    ``PERMANENT_GEN``)."""
    return next(_GENERATIONS) % (2**32 - 2) + 2


def table_shift(table: tuple) -> np.uint64:
    """The right shift that turns a 64-bit hash into a slot of ``table``."""
    return np.uint64(64 - int(np.log2(table[K1].shape[0])))


@njit(cache=True, inline="always")
def slot_of_pair(P, O, shift):
    """A slot for a pair of boards (multiply-xor hash, top bits)."""
    return np.int64(((P ^ (O * HASH_MUL_O)) * HASH_MUL_P) >> shift)


@njit(cache=True, _nrt=False)
def probe(table, slot, k1, k2, gen):
    """Whether ``slot`` holds this searcher's entry for the keys."""
    return table[GEN][slot] == gen and table[K1][slot] == k1 and table[K2][slot] == k2


@njit(cache=True, _nrt=False)
def cutoff(table, slot, tag, alpha, beta, offset):
    """(usable, value): the entry answers the node when its depth tag is exactly ``tag`` (so the
    value returned is exactly the fixed-depth value whatever the table holds) and its bound
    decides the window. ``offset`` is added to the stored value (a game may store values
    relative to something the key leaves out)."""
    if table[DEPTH][slot] != tag:
        return False, 0.0
    v = table[VALUE][slot] + offset
    b = table[BOUND][slot]
    ok = b == BOUND_EXACT or (b == BOUND_LOWER and v >= beta) or (b == BOUND_UPPER and v <= alpha)
    return ok, v


@njit(cache=True, _nrt=False)
def store(table, slot, k1, k2, gen, value, alpha0, beta, tag, move, offset):
    """Store a node's fail-soft ``value`` searched in the window (``alpha0``, ``beta``), minus
    ``offset`` (the inverse of ``cutoff``'s)."""
    bound = BOUND_EXACT
    if value <= alpha0:
        bound = BOUND_UPPER
    elif value >= beta:
        bound = BOUND_LOWER
    table[K1][slot] = k1
    table[K2][slot] = k2
    table[GEN][slot] = gen
    table[VALUE][slot] = value - offset
    table[BOUND][slot] = bound
    table[DEPTH][slot] = tag
    table[MOVE][slot] = move
