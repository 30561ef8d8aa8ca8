"""Elo differences, confidence intervals, the SPRT and a round-robin Elo fit.

All statistics here use the *logistic* Elo model, ``score = 1 / (1 + 10 ** (-elo / 400))``,
and the normal approximation that engine-testing frameworks use (fishtest's "logistic"
GSPRT by M. Van den Bergh, also used by cutechess-cli's ``-sprt`` since 2020), not BayesElo:

- A game's score is 1 (win), 0.5 (draw) or 0 (loss). From W/D/L counts the mean score is
  ``p = (W + D/2) / N`` and the per-game variance is estimated from the observed frequencies,
  ``var = (W (1-p)^2 + D (1/2-p)^2 + L p^2) / N``. Draws therefore shrink the variance instead
  of being modelled by a "draw Elo" parameter.
- The 95% confidence interval is ``p +- 1.96 sqrt(var / N)``, clipped to [0, 1], then mapped
  through the Elo transform (monotone, so the interval maps to an interval). When every game
  has the same decisive result the estimated variance is 0 and that interval would have no
  width, so the exact (Clopper-Pearson) bound is used instead: N wins out of N give a score of
  at least ``(0.025) ** (1/N)``.
- The SPRT log-likelihood ratio of H1 (elo = elo1) against H0 (elo = elo0) is the GSPRT
  normal approximation ``LLR = N (s1 - s0) (2p - s0 - s1) / (2 var)`` with ``s_i`` the expected
  scores of ``elo_i``; it stops when LLR leaves ``[log(beta / (1-alpha)), log((1-beta) / alpha)]``.
  As in fishtest, a zero W, D or L count is replaced by 0.001 first so that a run of identical
  results still has a (small) variance and moves the LLR.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963...


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


def score_and_variance(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """Mean score and per-game score variance from the observed W/D/L frequencies."""
    n = wins + draws + losses
    if n <= 0:
        raise ValueError("no games: wins + draws + losses must be positive")
    p = (wins + 0.5 * draws) / n
    var = (wins * (1.0 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
    return p, var


@dataclass(frozen=True)
class EloEstimate:
    games: int
    score: float  # mean score in [0, 1]
    elo: float
    elo_low: float  # 95% confidence interval
    elo_high: float

    def as_dict(self) -> dict:
        return {
            "games": self.games,
            "score": self.score,
            "elo": self.elo,
            "elo_ci95": [self.elo_low, self.elo_high],
        }


def elo_estimate(wins: int, draws: int, losses: int, z: float = Z95) -> EloEstimate:
    """Elo difference with a (default 95%) confidence interval from W/D/L counts."""
    p, var = score_and_variance(wins, draws, losses)
    n = wins + draws + losses
    half = z * math.sqrt(var / n)
    low, high = max(0.0, p - half), min(1.0, p + half)
    tail = (1.0 - NormalDist().cdf(z)) ** (1.0 / n)  # Clopper-Pearson for N out of N
    if wins == n:
        low = tail
    elif losses == n:
        high = 1.0 - tail
    return EloEstimate(n, p, elo_from_score(p), elo_from_score(low), elo_from_score(high))


# --- SPRT -----------------------------------------------------------------------------------


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """(lower, upper) LLR bounds: accept H0 at or below lower, H1 at or above upper."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must be in (0, 1), got {alpha}, {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


REGULARIZE = 1e-3  # fishtest's stand-in for a zero count


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """GSPRT log-likelihood ratio of H1 (elo1) vs H0 (elo0), logistic normal approximation
    (fishtest's ``LLR_logistic``, zero counts regularised to 0.001). 0 before any game."""
    if wins + draws + losses == 0:
        return 0.0
    w, d, l = (max(float(c), REGULARIZE) for c in (wins, draws, losses))
    n = w + d + l
    p, var = score_and_variance(w, d, l)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2.0 * p - s0 - s1) / (2.0 * var)


@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float
    upper: float
    decision: str  # "H0", "H1" or "continue"

    def as_dict(self) -> dict:
        return {"llr": self.llr, "bounds": [self.lower, self.upper], "decision": self.decision}


def sprt(
    wins: int, draws: int, losses: int, elo0: float, elo1: float, alpha=0.05, beta=0.05
) -> SprtResult:
    if elo1 <= elo0:
        raise ValueError(f"SPRT needs ELO0 < ELO1, got {elo0} and {elo1}")
    lower, upper = sprt_bounds(alpha, beta)
    llr = sprt_llr(wins, draws, losses, elo0, elo1)
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
