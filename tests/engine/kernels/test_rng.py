"""The kernel RNG (``engine.kernels.rng``) draws what it says, and the kernels' epsilon-greedy
players (``engine.kernels.ntuple.td.explores``, every game's TD self-play) move at random at
the rate asked.

Statistical checks with fixed seeds and bounds of five to six standard deviations (or chi-square
tails near 1e-6): a correct RNG fails them about never, a wrong range or rate by far.

Checked by hand: ``uniform`` halved in range (``* (0.5 / 9007199254740992.0)``) fails the
uniform and the epsilon tests, run with a fresh ``NUMBA_CACHE_DIR`` (``explores`` is cached in
``ntuple/td.py`` with ``uniform`` inlined: the test command's cache is keyed by the sources,
``tests/conftest.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from engine.kernels.ntuple.td import explores
from engine.kernels.rng import below, new_state, next_u64, random_bit, uniform

N = 200_000


@njit
def uniforms(state, n):
    out = np.empty(n)
    for i in range(n):
        out[i] = uniform(state)
    return out


@njit
def belows(state, bound, n):
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = below(state, bound)
    return out


@njit
def random_bits(state, mask, n):
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = random_bit(state, mask)
    return out


@njit
def bit_counts(state, n):
    """How often each of the 64 bits of ``next_u64`` is set in ``n`` draws."""
    counts = np.zeros(64, dtype=np.int64)
    for _ in range(n):
        x = next_u64(state)
        for b in range(64):
            counts[b] += (x >> np.uint64(b)) & np.uint64(1)
    return counts


@njit
def explorations(state, epsilon, n):
    count = 0
    for _ in range(n):
        count += explores(state, epsilon)
    return count


def state(seed: int = 0) -> np.ndarray:
    return new_state(np.random.default_rng(seed))


def chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / counts.size
    return float(((counts - expected) ** 2 / expected).sum())


# chi-square with k - 1 degrees of freedom, beyond which a uniform sample lands about 1e-6
CHI2_1E6 = {9: 44.0, 6: 35.9, 4: 31.0, 63: 131.0}


def test_uniform_covers_zero_to_one_with_the_right_mean_and_variance():
    u = uniforms(state(1), N)
    assert u.min() >= 0.0 and u.max() < 1.0
    assert u.min() < 1e-3 and u.max() > 1 - 1e-3  # both ends reached
    assert abs(u.mean() - 0.5) < 6 * (1 / 12 / N) ** 0.5
    assert abs(u.var() - 1 / 12) < 6 * (1 / 180 / N) ** 0.5
    counts, _ = np.histogram(u, bins=10, range=(0.0, 1.0))
    assert chi_square(counts) < CHI2_1E6[9], counts


@pytest.mark.parametrize("bound", [1, 2, 7, 64])
def test_below_draws_every_value_of_its_range_equally_often(bound):
    draws = belows(state(2), bound, N)
    assert draws.min() == 0 and draws.max() == bound - 1
    if bound > 1:
        counts = np.bincount(draws, minlength=bound)
        assert chi_square(counts) < {2: 24.0, 7: CHI2_1E6[6], 64: CHI2_1E6[63]}[bound], counts


def test_below_a_large_bound_has_the_mean_of_its_range():
    bound = 2**40
    draws = belows(state(3), bound, N).astype(np.float64)
    assert draws.min() >= 0 and draws.max() < bound
    assert abs(draws.mean() / bound - 0.5) < 6 * (1 / 12 / N) ** 0.5


def test_random_bit_picks_each_set_bit_equally_often_and_no_other():
    squares = np.array([0, 9, 27, 36, 63])
    mask = np.uint64(sum(1 << int(s) for s in squares))
    draws = random_bits(state(4), mask, N)
    assert set(np.unique(draws)) == set(squares.tolist())
    counts = np.array([(draws == s).sum() for s in squares])
    assert chi_square(counts) < CHI2_1E6[4], counts


def test_each_bit_of_a_raw_draw_is_a_fair_coin():
    n = 50_000
    counts = bit_counts(state(5), n)
    sd = (n / 4) ** 0.5
    assert np.abs(counts - n / 2).max() < 6 * sd, counts


def test_the_same_seed_gives_the_same_draws_and_another_seed_others():
    assert np.array_equal(uniforms(state(6), 100), uniforms(state(6), 100))
    assert not np.array_equal(uniforms(state(6), 100), uniforms(state(7), 100))


@pytest.mark.parametrize("epsilon", [0.05, 0.1, 0.5])
def test_an_epsilon_greedy_kernel_player_explores_at_the_rate_asked(epsilon):
    count = explorations(state(8), epsilon, N)
    sd = (N * epsilon * (1 - epsilon)) ** 0.5
    assert abs(count - N * epsilon) < 6 * sd, (count, N * epsilon)


def test_epsilon_zero_never_explores_nor_draws_and_one_always_explores():
    s = state(9)
    before = s.copy()
    assert explorations(s, 0.0, 1000) == 0 and np.array_equal(s, before)
    assert explorations(s, 1.0, 1000) == 1000
