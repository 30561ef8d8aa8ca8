"""Elo, confidence intervals, SPRT and the round-robin fit against hand-computed values."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from evolve.elo import (
    elo_estimate,
    elo_from_score,
    fit_elo,
    score_from_elo,
    sprt,
    sprt_bounds,
    sprt_llr,
)


def test_elo_of_75_percent_is_190_85():
    assert elo_from_score(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.25) == pytest.approx(-190.848, abs=1e-3)


def test_score_and_elo_are_inverse():
    for elo in (-500.0, -35.5, 0.0, 12.0, 400.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-9)
    assert score_from_elo(400.0) == pytest.approx(10 / 11)


def test_perfect_scores_have_infinite_elo():
    assert elo_estimate(10, 0, 0).elo == math.inf
    assert elo_estimate(0, 0, 10).elo == -math.inf


def test_ci_by_hand_for_a_small_sample():
    # W=6 D=2 L=2: p = 7/10, var = (6*.09 + 2*.04 + 2*.49)/10 = 0.16, se = 0.4/sqrt(10)
    est = elo_estimate(6, 2, 2)
    half = 1.959964 * 0.4 / math.sqrt(10)
    assert est.score == pytest.approx(0.7)
    assert est.elo_low == pytest.approx(-400 * math.log10(1 / (0.7 - half) - 1), abs=1e-3)
    assert est.elo_high == pytest.approx(-400 * math.log10(1 / (0.7 + half) - 1), abs=1e-3)
    assert est.elo_low < est.elo < est.elo_high


def test_ci_shrinks_with_more_games():
    widths = []
    for k in (1, 4, 16, 64):
        e = elo_estimate(6 * k, 2 * k, 2 * k)
        widths.append(e.elo_high - e.elo_low)
        assert e.elo == pytest.approx(elo_from_score(0.7))
    assert all(a > b for a, b in zip(widths, widths[1:], strict=False))
    # standard error scales as 1/sqrt(N): 4x the games, about half the width (Elo is ~linear here)
    assert widths[3] / widths[2] == pytest.approx(0.5, rel=0.05)


def test_sprt_bounds_for_alpha_beta_5_percent():
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944439, abs=1e-6)
    assert upper == pytest.approx(2.944439, abs=1e-6)


def test_llr_known_value_computed_by_hand():
    # W=10 D=5 L=5: p = 12.5/20 = 0.625;
    # var = (10*0.375^2 + 5*0.125^2 + 5*0.625^2) / 20 = 3.4375 / 20 = 0.171875
    # s0 = 0.5, s1 = 1/(1+10^-0.25) = 0.6400649998
    # LLR = 20 * (s1-s0) * (2*0.625 - s0 - s1) / (2*0.171875) = 0.895906...
    s1 = 1 / (1 + 10**-0.25)
    expected = 20 * (s1 - 0.5) * (1.25 - 0.5 - s1) / (2 * 0.171875)
    assert expected == pytest.approx(0.8959, abs=1e-3)
    assert sprt_llr(10, 5, 5, 0.0, 100.0) == pytest.approx(expected, rel=1e-12)


def test_llr_is_the_log_ratio_of_two_normal_likelihoods():
    # Independent derivation: mean score ~ Normal(s_i, var/N) under H_i.
    w, d, l = 37, 21, 30
    n = w + d + l
    p = (w + d / 2) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p**2) / n
    sd = math.sqrt(var / n)
    h0, h1 = NormalDist(score_from_elo(-10), sd), NormalDist(score_from_elo(30), sd)
    expected = math.log(h1.pdf(p)) - math.log(h0.pdf(p))
    assert sprt_llr(w, d, l, -10, 30) == pytest.approx(expected, rel=1e-9)


def test_sprt_accepts_h1_on_mostly_wins_and_h0_on_mostly_losses():
    def run(pattern):
        w = d = l = 0
        for i in range(10000):
            r = pattern[i % len(pattern)]
            w, d, l = w + (r == "w"), d + (r == "d"), l + (r == "l")
            result = sprt(w, d, l, 0.0, 50.0)
            if result.decision != "continue":
                return result, w + d + l
        raise AssertionError("SPRT never stopped")

    res, n = run("wwwdlwwdlw")
    assert res.decision == "H1" and res.llr >= res.upper and n < 200
    res, n = run("llldwlldwl")
    assert res.decision == "H0" and res.llr <= res.lower and n < 200


def test_sprt_continues_while_undecided_and_rejects_bad_bounds():
    assert sprt(3, 2, 3, 0, 10).decision == "continue"
    assert sprt_llr(0, 0, 0, 0, 10) == 0.0


def test_identical_results_still_move_the_llr_with_fishtest_regularisation():
    # 5 wins: counts (5, 0.001, 0.001), as fishtest's regularize() does
    n = 5.002
    p = (5 + 0.0005) / n
    var = (5 * (1 - p) ** 2 + 0.001 * (0.5 - p) ** 2 + 0.001 * p**2) / n
    s0, s1 = 0.5, score_from_elo(10)
    assert sprt_llr(5, 0, 0, 0, 10) == pytest.approx(n * (s1 - s0) * (2 * p - s0 - s1) / (2 * var))
    assert sprt(20, 0, 0, 0, 10).decision == "H1"
    assert sprt(0, 0, 20, 0, 10).decision == "H0"


def test_unanimous_results_get_the_exact_clopper_pearson_bound():
    # 10 wins out of 10: the lower 97.5% bound of p solves p**10 = 0.025
    est = elo_estimate(10, 0, 0)
    assert est.elo_low == pytest.approx(elo_from_score(0.025 ** 0.1), rel=1e-6)
    assert est.elo_high == math.inf
    low_loss = elo_estimate(0, 0, 10)
    assert low_loss.elo_low == -math.inf and low_loss.elo_high == pytest.approx(-est.elo_low)
    with pytest.raises(ValueError, match="ELO0 < ELO1"):
        sprt(1, 1, 1, 10, 0)


def test_fit_elo_recovers_a_two_player_75_percent_score():
    score = np.array([[0, 75000], [25000, 0]])
    games = np.array([[0, 100000], [100000, 0]])
    elo = fit_elo(score, games)
    assert elo[0] - elo[1] == pytest.approx(190.85, abs=0.1)
    assert elo.mean() == pytest.approx(0.0, abs=1e-9)


def test_fit_elo_recovers_consistent_ratings():
    true = np.array([0.0, 100.0, -150.0, 320.0])
    n = 1_000_000
    games = np.full((4, 4), n) - np.eye(4, dtype=int) * n
    expected = np.array([[score_from_elo(a - b) for b in true] for a in true])
    elo = fit_elo(expected * games, games)
    assert elo - elo.mean() == pytest.approx(true - true.mean(), abs=0.05)


def test_fit_elo_stays_finite_when_one_player_wins_everything():
    score = np.array([[0, 10], [0, 0]])
    games = np.array([[0, 10], [10, 0]])
    elo = fit_elo(score, games)
    assert np.all(np.isfinite(elo)) and elo[0] > elo[1] + 200
