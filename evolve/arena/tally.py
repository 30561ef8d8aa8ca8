"""A match's running tally and its sequential test (SPRT), fed game by game in game order.

Games ``2j`` and ``2j + 1`` of a match form a colour-swapped pair (same opening, sides
swapped); the SPRT and the pair CI count pairs (pentanomial), see ``evolve.arena.elo``. The
SPRT looks after every complete pair, so where it stops does not depend on how the games were
batched or which backend played them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.core.game import DRAW
from evolve.arena.elo import elo_estimate, pair_estimate, sprt
from evolve.arena.intervals import score_estimate


@dataclass
class MatchResult:
    player: str
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    sprt: dict | None = None
    penta: list[int] = field(default_factory=lambda: [0] * 5)  # pairs by points: 0, 1/2, .., 2
    extra: dict = field(default_factory=dict)
    # the player's wins, draws, losses when it moved first / second
    by_side: dict = field(default_factory=lambda: {"first": [0, 0, 0], "second": [0, 0, 0]})

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, points: float, moved_first: bool) -> None:
        column = 0 if points == 1.0 else 1 if points == 0.5 else 2
        if column == 0:
            self.wins += 1
        elif column == 1:
            self.draws += 1
        else:
            self.losses += 1
        self.by_side["first" if moved_first else "second"][column] += 1

    def as_dict(self) -> dict:
        d = {"player": self.player, "opponent": self.opponent, "games": self.games,
             "wins": self.wins, "draws": self.draws, "losses": self.losses}
        if self.games:
            est = elo_estimate(self.wins, self.draws, self.losses).as_dict()
            wilson = score_estimate(self.wins, self.draws, self.losses)
            d.update(score=est["score"], elo=_finite(est["elo"]),
                     elo_ci95=[_finite(x) for x in est["elo_ci95"]],
                     score_ci95=list(wilson.score_ci),
                     elo_ci95_wilson=[_finite(x) for x in wilson.elo_ci])
        if sum(self.penta):
            pairs = pair_estimate(self.penta).as_dict()
            d.update(pentanomial=list(self.penta),
                     elo_ci95_pairs=[_finite(x) for x in pairs["elo_ci95"]])
        d["by_side"] = {side: dict(zip(("wins", "draws", "losses"), wdl, strict=True))
                        for side, wdl in self.by_side.items()}
        if self.sprt is not None:
            d["sprt"] = self.sprt
        return d


def _finite(x: float) -> float | None:
    """JSON has no infinity: a 100% or 0% score's unbounded Elo is written as null."""
    return x if math.isfinite(x) else None


def points_for_a(index: int, winner: int) -> float:
    """The match player's points in game ``index`` (it moves first on even ``index``)."""
    if winner == DRAW:
        return 0.5
    a_side = 0 if index % 2 == 0 else 1
    return 1.0 if winner == a_side else 0.0


class Match:
    """One pairing's running tally; ``record`` takes results in game order and says when the
    SPRT (looked at after every complete pair, on the pentanomial counts) has decided."""

    def __init__(self, a: str, b: str, sprt_elo=None, alpha=0.05, beta=0.05):
        self.result = MatchResult(a, b)
        self.sprt_elo, self.alpha, self.beta = sprt_elo, alpha, beta
        self.first_game_points = 0.0

    def record(self, task, winner: int) -> bool:
        """``task``: the game's ``EvalTask`` (its index says who moved first)."""
        r = self.result
        points = points_for_a(task.index, winner)
        r.add(points, moved_first=task.index % 2 == 0)
        if task.index % 2 == 0:
            self.first_game_points = points
            return self.decided
        r.penta[round(2 * (self.first_game_points + points))] += 1
        if self.sprt_elo is None or self.decided:
            return self.decided
        test = sprt(r.penta, *self.sprt_elo, self.alpha, self.beta)
        r.sprt = {"elo0": self.sprt_elo[0], "elo1": self.sprt_elo[1], "alpha": self.alpha,
                  "beta": self.beta, **test.as_dict(), "games": r.games}
        return self.decided

    @property
    def decided(self) -> bool:
        return self.result.sprt is not None and self.result.sprt["decision"] != "continue"

    def finish(self) -> MatchResult:
        r = self.result
        if self.sprt_elo is not None and r.sprt is not None:
            r.sprt["llr_final"] = sprt(r.penta, *self.sprt_elo).llr
        return r
