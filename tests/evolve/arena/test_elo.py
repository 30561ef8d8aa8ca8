"""Elo, confidence intervals, SPRT and the round-robin fit against hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evolve.arena.elo import (
    elo_estimate,
    elo_from_score,
    fit_elo,
    llr_logistic,
    mle_with_mean,
    pair_estimate,
    penta_from_pairs,
    score_from_elo,
    sprt,
    sprt_bounds,
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


def test_pair_points_map_to_pentanomial_buckets():
    assert penta_from_pairs([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == (1, 1, 2, 1, 3)


def brute_force_llr_trinomial(losses, draws, wins, s0, s1, steps=200_000):
    """Maximise the multinomial log-likelihood over all (qL, qD, qW) with mean s by a grid on
    the one free parameter qW (qD = 2 (s - qW), qL = 1 - qD - qW), for each hypothesis."""
    counts = [c if c > 0 else 1e-3 for c in (losses, draws, wins)]

    def best(s):
        lo, hi = max(0.0, 2 * s - 1), s  # keeps qL, qD, qW >= 0
        qw = np.linspace(lo, hi, steps)[1:-1]
        qd, ql = 2 * (s - qw), 1 - 2 * s + qw
        return np.max(counts[0] * np.log(ql) + counts[1] * np.log(qd) + counts[2] * np.log(qw))

    return best(s1) - best(s0)


@pytest.mark.parametrize("counts", [(5, 10, 20), (30, 3, 12), (0, 7, 3), (4, 0, 9)])
def test_llr_is_the_exact_multinomial_likelihood_ratio(counts):
    s0, s1 = score_from_elo(-20), score_from_elo(40)
    expected = brute_force_llr_trinomial(*counts, s0, s1)
    assert llr_logistic(counts, -20, 40) == pytest.approx(expected, abs=1e-6)


def test_pentanomial_llr_against_a_general_optimiser():
    optimize = pytest.importorskip("scipy.optimize")
    penta = (3, 11, 25, 14, 7)
    values = np.array([0, 0.25, 0.5, 0.75, 1.0])
    c = np.array(penta, dtype=float)

    def best(s):
        res = optimize.minimize(
            lambda q: -np.sum(c * np.log(q)), np.full(5, 0.2), method="SLSQP",
            bounds=[(1e-9, 1)] * 5, options={"ftol": 1e-14, "maxiter": 500},
            constraints=[{"type": "eq", "fun": lambda q: q.sum() - 1},
                         {"type": "eq", "fun": lambda q: q @ values - s}])
        return -res.fun

    s0, s1 = score_from_elo(0), score_from_elo(50)
    assert llr_logistic(penta, 0, 50) == pytest.approx(best(s1) - best(s0), abs=1e-5)


def test_mle_with_mean_has_the_requested_mean_and_is_a_distribution():
    values, probs = (0, 0.25, 0.5, 0.75, 1), (0.1, 0.2, 0.4, 0.2, 0.1)
    for s in (0.2, 0.5, 0.7):
        q = mle_with_mean(values, probs, s)
        assert sum(q) == pytest.approx(1, abs=1e-12)
        assert sum(a * p for a, p in zip(values, q, strict=True)) == pytest.approx(s, abs=1e-12)
    assert mle_with_mean(values, probs, 0.5) == pytest.approx(probs)  # already mean 0.5


def test_llr_matches_the_normal_approximation_on_a_large_sample():
    # GSPRT theory (fishtest's LLR_alt2): N (s1-s0)(2p-s0-s1) / (2 var) for large N
    penta = (500, 2000, 4000, 2500, 1000)
    values = np.array([0, 0.25, 0.5, 0.75, 1])
    n = sum(penta)
    p = np.dot(penta, values) / n
    var = np.dot(penta, (values - p) ** 2) / n
    s0, s1 = 0.5, score_from_elo(10)
    approx = n * (s1 - s0) * (2 * p - s0 - s1) / (2 * var)
    assert llr_logistic(penta, 0, 10) == pytest.approx(approx, rel=0.02)


def test_llr_of_only_won_and_lost_pairs_is_the_bernoulli_ratio():
    # mass only on LL and WW: the MLE with mean s puts s on WW, 1 - s on LL
    s0, s1 = score_from_elo(0), score_from_elo(100)
    expected = 7 * math.log(s1 / s0) + 3 * math.log((1 - s1) / (1 - s0))
    assert llr_logistic((3, 0, 0, 0, 7), 0, 100) == pytest.approx(expected, rel=2e-3)


def test_sprt_accepts_h1_on_mostly_won_pairs_and_h0_on_mostly_lost_pairs():
    def run(pattern):
        counts = [0] * 5
        for i in range(5000):
            counts[pattern[i % len(pattern)]] += 1
            result = sprt(counts, 0.0, 50.0)
            if result.decision != "continue":
                return result, sum(counts)
        raise AssertionError("SPRT never stopped")

    res, n = run([4, 3, 2, 4, 1, 3, 2])  # mean pair score 0.68
    assert res.decision == "H1" and res.llr >= res.upper and n < 200
    res, n = run([0, 1, 2, 0, 3, 1, 2])  # mean 0.32
    assert res.decision == "H0" and res.llr <= res.lower and n < 200


def test_sprt_continues_while_undecided():
    assert sprt((1, 2, 3, 2, 1), 0, 10).decision == "continue"
    assert sprt((0, 0, 0, 0, 0), 0, 10).llr == 0.0
    with pytest.raises(ValueError, match="ELO0 < ELO1"):
        sprt((1, 1, 1, 1, 1), 10, 0)


def test_identical_pairs_give_a_finite_bounded_llr_in_either_direction():
    # the normal approximation gave LLR 10618 for such runs; the exact one is ~ n log(s1/s0)
    # (up to the 4 pseudo-counts of 0.001 in the unseen buckets: < 0.5% at n = 1)
    s1 = score_from_elo(50)
    for n in (1, 10, 100):
        assert llr_logistic((0, 0, 0, 0, n), 0, 50) == pytest.approx(n * math.log(2 * s1),
                                                                   rel=5e-3)
        assert llr_logistic((n, 0, 0, 0, 0), 0, 50) == pytest.approx(
            n * math.log(2 * (1 - s1)), rel=5e-3)
    # all pairs scoring 1/2: H0's mean exactly; under H1 the likeliest way to reach s1 moves
    # 2 (s1 - 1/2) of the mass to WW, so each such pair has probability 1 - 2 (s1 - 1/2)
    assert llr_logistic((0, 0, 10, 0, 0), 0, 50) == pytest.approx(
        10 * math.log(1 - 2 * (s1 - 0.5)), rel=5e-3)
    assert sprt((0, 0, 0, 0, 10), 0, 50).decision == "continue"
    assert sprt((0, 0, 0, 0, 30), 0, 50).decision == "H1"


def test_unanimous_results_get_the_exact_clopper_pearson_bound():
    # 10 wins out of 10: the lower 97.5% bound of p solves p**10 = 0.025
    est = elo_estimate(10, 0, 0)
    assert est.elo_low == pytest.approx(elo_from_score(0.025 ** 0.1), rel=1e-6)
    assert est.elo_high == math.inf
    low_loss = elo_estimate(0, 0, 10)
    assert low_loss.elo_low == -math.inf and low_loss.elo_high == pytest.approx(-est.elo_low)


def test_all_draws_still_have_a_confidence_interval():
    # 100 draws: W and L rates are each <= u = 1 - 0.025**(1/100) (Clopper-Pearson, 0 events),
    # so the score is within 0.5 +- u/2: about +-12.6 Elo, not [0, 0]
    u = 1 - 0.025 ** (1 / 100)
    est = elo_estimate(0, 100, 0)
    assert est.elo == 0.0
    assert est.elo_high == pytest.approx(elo_from_score(0.5 + u / 2), rel=1e-9)
    assert est.elo_low == pytest.approx(-est.elo_high, rel=1e-9)
    assert 12 < est.elo_high < 13


def test_pair_ci_by_hand_and_for_identical_pairs():
    # pairs (points/2): 0.25 x2, 0.5 x4, 1 x2: mean 0.5625; var = (2 .3125^2 + 4 .0625^2 +
    # 2 .4375^2) / 8 = 0.0742..., se = sqrt(var / 8)
    est = pair_estimate((0, 2, 4, 0, 2))
    var = (2 * 0.3125**2 + 4 * 0.0625**2 + 2 * 0.4375**2) / 8
    half = 1.959964 * math.sqrt(var / 8)
    assert est.games == 8 and est.score == pytest.approx(0.5625)
    assert est.elo_low == pytest.approx(elo_from_score(0.5625 - half), abs=1e-3)
    assert est.elo_high == pytest.approx(elo_from_score(0.5625 + half), abs=1e-3)
    # 20 won pairs: at least 0.025 ** (1/20) of pairs are won (per pair, not per game)
    won = pair_estimate((0, 0, 0, 0, 20))
    assert won.elo_low == pytest.approx(elo_from_score(0.025 ** (1 / 20)), rel=1e-9)
    assert won.elo_high == math.inf


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
