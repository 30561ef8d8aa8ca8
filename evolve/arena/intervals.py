"""Score intervals that stay inside [0, 1] (Wilson) and the Elo they map to, as a bound when a
side scored 100% or 0%.

The Wilson score interval is the set of true scores p for which the observed score is within
``z`` standard errors, the standard error taken *under p* (``sqrt(p (1 - p) / n)``) rather than
under the observed score. Unlike the normal interval ``p +- z sqrt(var / n)`` it never leaves
[0, 1] and keeps a width when every game had the same result: n straight wins give
``[n / (n + z^2), 1]``. Draws count as half a point; for any outcome in [0, 1] with mean p the
variance is at most ``p (1 - p)`` (a win/loss coin has the most), so with draws the interval is
a little wider than it needs to be, never narrower. Games are taken as independent (the
pentanomial interval over colour-swapped pairs is ``evolve.arena.elo.pair_estimate``).

Elo is the logistic map of the score (``evolve.arena.elo.elo_from_score``), so the Elo interval
is the score interval's ends mapped the same way. A 100% score maps to an unbounded Elo: only
its lower end is known, and ``elo_text`` shows it as ``>= +407`` (``<= -407`` for 0%).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from evolve.arena.elo import Z95, elo_from_score


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson interval of a mean score in [0, 1] observed over ``n`` games."""
    if n <= 0:
        raise ValueError(f"a score needs at least one game, got n = {n}")
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score must be in [0, 1], got {score}")
    shrink = 1.0 + z * z / n
    centre = (score + z * z / (2 * n)) / shrink
    half = z * math.sqrt(score * (1.0 - score) / n + z * z / (4 * n * n)) / shrink
    # exact ends at 0% and 100% (the formula gives them only up to rounding)
    low = 0.0 if score == 0.0 else centre - half
    high = 1.0 if score == 1.0 else centre + half
    return max(0.0, low), min(1.0, high)


@dataclass(frozen=True)
class ScoreEstimate:
    """A match's score (points per game) with its 95% Wilson interval, and the same in Elo."""

    games: int
    score: float
    score_low: float
    score_high: float

    @property
    def score_ci(self) -> tuple[float, float]:
        return self.score_low, self.score_high

    @property
    def elo(self) -> float:
        return elo_from_score(self.score)

    @property
    def elo_ci(self) -> tuple[float, float]:
        return elo_from_score(self.score_low), elo_from_score(self.score_high)


def score_estimate(wins: int, draws: int, losses: int, z: float = Z95) -> ScoreEstimate:
    """The score of ``wins`` / ``draws`` / ``losses`` with its Wilson interval."""
    return points_estimate(wins + draws / 2, wins + draws + losses, z)


def points_estimate(points: float, games: int, z: float = Z95) -> ScoreEstimate:
    """The score of ``points`` (win 1, draw 1/2) taken in ``games`` games, with its interval."""
    if games <= 0:
        raise ValueError(f"a score needs at least one game, got {games}")
    score = points / games
    low, high = wilson_interval(score, games, z)
    return ScoreEstimate(games, score, low, high)


def score_text(est: ScoreEstimate) -> str:
    """``90.0% [69.9, 97.2]``: the score and its 95% interval, in percent."""
    return (f"{100 * est.score:.1f}% [{100 * est.score_low:.1f}, "
            f"{100 * est.score_high:.1f}]")


def elo_text(est: ScoreEstimate) -> str:
    """``+382 [+146, +618]``; a 100% score as ``>= +407`` and a 0% score as ``<= -407``, the
    end of the interval that is known (the other is unbounded)."""
    elo, (low, high) = est.elo, est.elo_ci
    if math.isinf(elo):
        return f">= {round(low):+d}" if elo > 0 else f"<= {round(high):+d}"
    return f"{round(elo):+d} [{round(low):+d}, {round(high):+d}]"  # round: no "-0"
