"""A seeded RNG that lives inside numba: splitmix64 over a one-element ``uint64`` array.

numba's own ``np.random`` inside ``@njit`` keeps hidden per-thread state that a
``np.random.Generator`` cannot seed, so play-outs would not be reproducible. Instead each search
draws one ``uint64`` seed from the agent's ``Generator`` (``new_state``) and threads this explicit
state through the kernels: same agent seed -> same play-outs, in any process.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bits import nth_set_bit, popcount

U64 = np.uint64
_GOLDEN = U64(0x9E3779B97F4A7C15)
_MIX1 = U64(0xBF58476D1CE4E5B9)
_MIX2 = U64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = U64(30), U64(27), U64(31), U64(11)


def new_state(rng: np.random.Generator) -> np.ndarray:
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
def random_bit(state, mask):
    """Index of a uniformly chosen set bit of ``mask`` (mask != 0)."""
    return nth_set_bit(mask, below(state, popcount(mask)))
