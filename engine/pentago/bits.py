"""Bit intrinsics and a seeded in-kernel RNG for the Pentago Twist kernels (numba).

``popcount`` / ``lowest_bit_index`` compile to single POPCNT / TZCNT instructions. The RNG is
splitmix64 over a one-element ``uint64`` array drawn from the agent's ``np.random.Generator``:
numba's own ``np.random`` keeps hidden state a ``Generator`` cannot seed, so playouts would not
be reproducible.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
_GOLDEN = U64(0x9E3779B97F4A7C15)
_MIX1 = U64(0xBF58476D1CE4E5B9)
_MIX2 = U64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = U64(30), U64(27), U64(31), U64(11)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(x), codegen


@intrinsic
def lowest_bit_index(typingctx, x):
    """Index of the least significant set bit (undefined for 0: callers test first)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(x), codegen


def new_rng_state(rng: np.random.Generator) -> np.ndarray:
    """A fresh kernel RNG state seeded from ``rng`` (one draw)."""
    return np.array([rng.integers(0, 2**63, dtype=np.uint64)], dtype=np.uint64)


@njit(cache=True, inline="always")
def next_u64(state):
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def below(state, n):
    """An int in [0, n) (n >= 1); the modulo bias (< n / 2**64) is negligible."""
    return np.int64(next_u64(state) % U64(n))


@njit(cache=True, inline="always")
def uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(state) >> _S11) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def nth_set_bit(mask, k):
    """Index of the ``k``-th (0-based, from the lowest) set bit of ``mask``."""
    for _ in range(k):
        mask &= mask - ONE
    return lowest_bit_index(mask)
