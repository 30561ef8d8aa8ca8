"""Elo differences, confidence intervals, the pentanomial SPRT and a round-robin Elo fit.

Everything uses the *logistic* Elo model, ``score = 1 / (1 + 10 ** (-elo / 400))``, as fishtest
(Stockfish's testing framework) and cutechess-cli do; no BayesElo "draw Elo" is fitted.

- Results are a distribution over a few outcome values in [0, 1]: per game loss/draw/win =
  0, 1/2, 1 (the *trinomial*), or per colour-swapped pair of games the player's points
  0, 1/2, 1, 3/2, 2 divided by 2 = 0, 1/4, 1/2, 3/4, 1 (the *pentanomial*). The pentanomial is
  what the reports use: the two games of a pair share an opening, so they are correlated and
  a pair, not a game, is the independent sample.
- 95% CI of the mean score: ``p +- 1.96 sqrt(var / N)`` with the observed variance (N games or
  N pairs), clipped to [0, 1] and mapped to Elo. When all N samples have the same result the
  observed variance is 0 and that interval would have no width; then the other outcomes can
  still have probability up to ``u = 1 - 0.025 ** (1/N)`` (the exact one-sided 97.5%
  Clopper-Pearson bound for 0 events in N), so the mean lies in ``[r (1-u), r + u (1-r)]`` for
  the observed result r (N wins: score >= 0.025 ** (1/N); N draws: 0.5 +- u/2).
- SPRT: fishtest's ``LLR_logistic`` on the pentanomial, i.e. the *exact* generalized
  log-likelihood ratio of the multinomial: under each hypothesis H_i (expected score
  s_i = score(elo_i)) the outcome distribution is the maximum-likelihood one with mean s_i
  (found by solving fishtest's "secular equation", see ``mle_with_mean``), and the LLR is the
  log ratio of the two likelihoods of the observed counts. As in fishtest a zero count is
  replaced by 0.001 first (so the MLE may put mass on outcomes not yet seen). Unlike the normal
  approximation ``N (s1-s0)(2p-s0-s1) / (2 var)`` (fishtest's ``LLR_alt2``, used here before),
  the exact LLR stays finite when every pair has the same result: N won pairs give about
  ``N log(s1 / s0)``, the Bernoulli likelihood ratio, not a division by a variance of ~0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963...
TRINOMIAL = (0.0, 0.5, 1.0)  # loss, draw, win
PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's points / 2: LL, LD+DL, LW+DD+WL, DW+WD, WW


def score_from_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger than its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    """Elo difference that gives expected ``score``; +-inf at 1 and 0."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return 0.0 - 400.0 * math.log10(1.0 / score - 1.0)  # 0.0 - x: no "-0.0" at 50%


def outcome_values(counts: Sequence[float]) -> tuple[float, ...]:
    """Outcome values of a trinomial (L, D, W) or pentanomial (LL ... WW) count vector."""
    if len(counts) == 3:
        return TRINOMIAL
    if len(counts) == 5:
        return PENTANOMIAL
    raise ValueError(f"counts must be trinomial (3) or pentanomial (5), got {len(counts)}")


def mean_and_variance(counts: Sequence[float]) -> tuple[float, float]:
    """Mean and variance of the outcome (per game or per pair / 2) from observed counts."""
    n = float(sum(counts))
    if n <= 0:
        raise ValueError("no results: the counts must have a positive sum")
    values = outcome_values(counts)
    mean = sum(c * a for c, a in zip(counts, values, strict=True)) / n
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, values, strict=True)) / n
    return mean, var


def score_and_variance(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """Mean score and per-game score variance from the observed W/D/L frequencies."""
    return mean_and_variance((losses, draws, wins))


def penta_from_pairs(pair_points) -> tuple[int, int, int, int, int]:
    """Pentanomial counts from the player's points (0..2 in halves) of each complete pair."""
    counts = [0] * 5
    for points in pair_points:
        counts[round(2 * points)] += 1
    return tuple(counts)


# --- confidence interval --------------------------------------------------------------------


@dataclass(frozen=True)
class EloEstimate:
    games: int  # games (or pairs, for ``pair_estimate``) the estimate is based on
    score: float  # mean score in [0, 1]
    elo: float
    elo_low: float  # 95% confidence interval
    elo_high: float

    def as_dict(self) -> dict:
        return {"games": self.games, "score": self.score, "elo": self.elo,
                "elo_ci95": [self.elo_low, self.elo_high]}


def score_interval(counts: Sequence[int], z: float = Z95) -> tuple[float, float]:
    """Confidence interval of the mean outcome (see the module docstring)."""
    n = sum(counts)
    p, var = mean_and_variance(counts)
    if var > 0.0:
        half = z * math.sqrt(var / n)
        return max(0.0, p - half), min(1.0, p + half)
    u = 1.0 - (1.0 - NormalDist().cdf(z)) ** (1.0 / n)  # Clopper-Pearson: 0 events in n
    return p * (1.0 - u), p + u * (1.0 - p)


def _estimate(counts: Sequence[int], z: float) -> EloEstimate:
    p, _ = mean_and_variance(counts)
    low, high = score_interval(counts, z)
    return EloEstimate(int(sum(counts)), p, elo_from_score(p), elo_from_score(low),
                       elo_from_score(high))


def elo_estimate(wins: int, draws: int, losses: int, z: float = Z95) -> EloEstimate:
    """Elo difference with a (default 95%) CI from W/D/L counts, games taken as independent."""
    return _estimate((losses, draws, wins), z)


def pair_estimate(penta: Sequence[int], z: float = Z95) -> EloEstimate:
    """Elo difference with a CI from pentanomial pair counts (``games`` counts pairs)."""
    if len(penta) != 5:
        raise ValueError(f"pentanomial counts need 5 entries, got {len(penta)}")
    return _estimate(penta, z)


# --- SPRT -----------------------------------------------------------------------------------


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """(lower, upper) LLR bounds: accept H0 at or below lower, H1 at or above upper."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must be in (0, 1), got {alpha}, {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


REGULARIZE = 1e-3  # fishtest's ``regularize``: a zero count becomes this pseudo-count
SECULAR_STEPS = 200  # bisection steps: the bracket shrinks below double precision long before


def regularized(counts: Sequence[float]) -> list[float]:
    return [float(c) if c > 0 else REGULARIZE for c in counts]


def mle_with_mean(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution on ``values`` with mean ``s`` that maximises the likelihood of the
    observed frequencies ``probs`` (all > 0, ``min(values) < s < max(values)``).

    Lagrange multipliers give ``q_i = p_i / (1 + x (a_i - s))`` with x the root of the secular
    equation ``sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0`` on ``(-1 / max(a - s), -1 /
    min(a - s))``, where the left side falls strictly from +inf to -inf (fishtest's
    ``MLE_expected``; bisection here instead of scipy's brentq)."""
    d = [a - s for a in values]
    lo, hi = -1.0 / max(d), -1.0 / min(d)

    def f(x: float) -> float:
        return sum(p * di / (1.0 + x * di) for p, di in zip(probs, d, strict=True))

    for _ in range(SECULAR_STEPS):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    x = 0.5 * (lo + hi)
    return [p / (1.0 + x * di) for p, di in zip(probs, d, strict=True)]


def llr_logistic(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """Generalized log-likelihood ratio of H1 (elo1) against H0 (elo0) for trinomial (L, D, W)
    or pentanomial (LL ... WW) counts: fishtest's ``LLR_logistic``. 0 before any result."""
    values = outcome_values(counts)
    if sum(counts) == 0:
        return 0.0
    reg = regularized(counts)
    n = sum(reg)
    probs = [c / n for c in reg]
    q0 = mle_with_mean(values, probs, score_from_elo(elo0))
    q1 = mle_with_mean(values, probs, score_from_elo(elo1))
    return sum(c * (math.log(b) - math.log(a)) for c, a, b in zip(reg, q0, q1, strict=True))


@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float
    upper: float
    decision: str  # "H0", "H1" or "continue"

    def as_dict(self) -> dict:
        return {"llr": self.llr, "bounds": [self.lower, self.upper], "decision": self.decision}


def sprt(counts: Sequence[int], elo0: float, elo1: float, alpha=0.05, beta=0.05) -> SprtResult:
    """The SPRT's state after ``counts`` (pentanomial pairs; a trinomial also works)."""
    if elo1 <= elo0:
        raise ValueError(f"SPRT needs ELO0 < ELO1, got {elo0} and {elo1}")
    lower, upper = sprt_bounds(alpha, beta)
    llr = llr_logistic(counts, elo0, elo1)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtResult(llr, lower, upper, decision)


# --- round robin ----------------------------------------------------------------------------


def fit_elo(score: np.ndarray, games: np.ndarray, prior_draws: float = 1.0, iters: int = 10000):
    """Bradley-Terry maximum-likelihood Elo ratings from a round robin, mean 0.

    ``score[i, j]`` = points player i took from j (win 1, draw 1/2), ``games[i, j]`` = games
    between them. Every pair also gets ``prior_draws`` virtual drawn games (BayesElo's
    trick), which keeps the fit finite when someone wins or loses everything. Solved with the
    minorise-maximise iteration of Hunter (2004), which converges monotonically.
    """
    score = np.asarray(score, dtype=np.float64)
    games = np.asarray(games, dtype=np.float64)
    n = score.shape[0]
    off = ~np.eye(n, dtype=bool)
    s = np.where(off, score + 0.5 * prior_draws, 0.0)
    g = np.where(off, games + prior_draws, 0.0)
    gamma = np.ones(n)
    for _ in range(iters):
        denom = (g / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = s.sum(axis=1) / denom
        new /= np.exp(np.log(new).mean())  # geometric mean 1 <=> mean Elo 0
        if np.max(np.abs(new - gamma)) < 1e-12:
            gamma = new
            break
        gamma = new
    return 400.0 * np.log10(gamma)


def performance_rating(results: Sequence[tuple[Sequence[int], float]],
                       z: float = Z95) -> EloEstimate:
    """Rating (with a CI) of a player whose opponents have known ratings.

    ``results``: per opponent, its (losses, draws, wins) counts from the player's view and the
    opponent's rating. The rating R is where the expected score ``mean_j score(R - r_j)`` over
    all games equals the observed mean; the CI maps the pooled score interval (``score_interval``)
    the same way, so with every opponent at 0 this is ``elo_estimate`` of the pooled counts."""
    pooled = [0, 0, 0]
    for counts, _ in results:
        pooled = [a + int(b) for a, b in zip(pooled, counts, strict=True)]
    n = sum(pooled)
    if n == 0:
        raise ValueError("performance_rating needs at least one game")
    p, _ = mean_and_variance(pooled)
    low, high = score_interval(pooled, z)
    weights = [(sum(counts) / n, rating) for counts, rating in results if sum(counts)]

    def rating_for(score: float) -> float:
        if score <= 0.0:
            return -math.inf
        if score >= 1.0:
            return math.inf
        lo, hi = -4000.0, 4000.0
        for _ in range(100):  # bisection: the expected score is increasing in R
            mid = (lo + hi) / 2
            expected = sum(w * score_from_elo(mid - r) for w, r in weights)
            lo, hi = (mid, hi) if expected < score else (lo, mid)
        return (lo + hi) / 2

    return EloEstimate(n, p, rating_for(p), rating_for(low), rating_for(high))
