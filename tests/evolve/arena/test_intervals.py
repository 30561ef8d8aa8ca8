"""Wilson score intervals and the Elo text they become, checked against scipy's Wilson interval,
the closed form at 0% and 100%, and the coverage of simulated matches with draws."""

from __future__ import annotations

import numpy as np
import pytest

from evolve.arena.elo import Z95, elo_from_score
from evolve.arena.intervals import (
    elo_text,
    score_estimate,
    score_text,
    wilson_interval,
)

stats = pytest.importorskip("scipy.stats")


@pytest.mark.parametrize("wins, n", [(0, 1), (1, 1), (3, 10), (18, 20), (57, 100), (199, 200)])
def test_without_draws_it_is_scipys_wilson_interval(wins, n):
    expected = stats.binomtest(wins, n).proportion_ci(0.95, method="wilson")
    low, high = wilson_interval(wins / n, n)
    assert low == pytest.approx(expected.low, abs=1e-6)
    assert high == pytest.approx(expected.high, abs=1e-6)


@pytest.mark.parametrize("n", [1, 10, 40, 200])
def test_a_clean_sweep_has_the_closed_form_ends(n):
    assert wilson_interval(1.0, n) == (pytest.approx(n / (n + Z95**2)), 1.0)
    assert wilson_interval(0.0, n) == (0.0, pytest.approx(Z95**2 / (n + Z95**2)))


def test_a_clean_sweep_shows_its_elo_as_a_lower_bound():
    sweep = score_estimate(40, 0, 0)
    bound = elo_from_score(40 / (40 + Z95**2))  # +407: the lower end of the interval
    assert elo_text(sweep) == f">= {bound:+.0f}" == ">= +407"
    assert elo_text(score_estimate(0, 0, 40)) == "<= -407"
    assert score_text(sweep) == "100.0% [91.2, 100.0]"


def test_a_score_short_of_100_percent_has_a_two_sided_elo_interval():
    est = score_estimate(18, 0, 2)
    low, high = wilson_interval(0.9, 20)
    assert elo_text(est) == (f"{elo_from_score(0.9):+.0f} [{elo_from_score(low):+.0f}, "
                             f"{elo_from_score(high):+.0f}]")
    assert np.isfinite(est.elo_ci).all()  # the normal interval's upper end here is +inf
    never_lost = score_estimate(38, 2, 0)
    assert np.isfinite(never_lost.elo_ci).all() and never_lost.elo_ci[1] > never_lost.elo


def test_draws_count_half_a_point():
    est = score_estimate(3, 4, 3)
    assert est.score == 0.5 and est.games == 10
    low, high = est.score_ci
    assert low == pytest.approx(1 - high)


@pytest.mark.parametrize("win, draw", [(0.3, 0.5), (0.05, 0.9), (0.7, 0.2)])
def test_with_draws_the_interval_covers_the_true_score_at_least_95_percent(win, draw):
    """Simulated 40-game matches: draws make the outcome less variable than a coin of the
    same mean, so the interval (which assumes the coin's variance) covers more, not less."""
    rng = np.random.default_rng(2026)
    n, reps = 40, 4000
    counts = rng.multinomial(n, [win, draw, 1 - win - draw], size=reps)
    truth = win + draw / 2
    covered = 0
    for w, d, loss in counts:
        low, high = score_estimate(int(w), int(d), int(loss)).score_ci
        covered += low <= truth <= high
    assert covered / reps >= 0.95


def test_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="at least one game"):
        wilson_interval(0.5, 0)
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        wilson_interval(1.5, 10)
