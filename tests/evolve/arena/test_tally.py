"""A match's tally: games counted from the player's side, pairs into the pentanomial, and the
SPRT looked at pair by pair."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.game import DRAW
from evolve.arena.elo import score_from_elo
from evolve.arena.matches import EvalTask
from evolve.arena.tally import Match


def feed(match: Match, points: list[float]) -> int:
    """Record games with the given points for the first player (game k: a black on even k);
    returns the number of games recorded when the SPRT decided (or all of them)."""
    winner_of = {1.0: (0, 1), 0.0: (1, 0), 0.5: (DRAW, DRAW)}
    for k, p in enumerate(points):
        if match.record(EvalTask(k, "", "", (), ()), winner_of[p][k % 2]):
            return k + 1
    return len(points)


def test_pairs_are_counted_into_the_pentanomial():
    m = Match("a", "b")
    # pairs: W+W, W+L, D+D, L+D, L+L, D+W  ->  points 2, 1, 1, 1/2, 0, 3/2
    feed(m, [1, 1, 1, 0, 0.5, 0.5, 0, 0.5, 0, 0, 0.5, 1])
    assert m.result.penta == [1, 1, 2, 1, 1]
    assert (m.result.wins, m.result.draws, m.result.losses) == (4, 4, 4)


def test_sprt_on_a_perfect_sweep_neither_explodes_nor_accepts_h0():
    # n won pairs: LLR ~ n log(s1 / s0) (Bernoulli likelihood ratio of "WW" under each
    # hypothesis); with s1 = score(50) that crosses log(19) = 2.944 at n = 23 pairs = 46 games.
    per_pair = np.log(score_from_elo(50) / 0.5)
    assert 22 * per_pair < np.log(19) < 23 * per_pair
    m = Match("a", "b", sprt_elo=(0, 50))
    assert feed(m, [1.0] * 20) == 20 and m.result.sprt["decision"] == "continue"
    assert m.result.sprt["llr"] == pytest.approx(10 * per_pair, rel=1e-3)
    m = Match("a", "b", sprt_elo=(0, 50))
    assert feed(m, [1.0] * 100) == 46 and m.result.sprt["decision"] == "H1"
    m = Match("a", "b", sprt_elo=(0, 50))  # and the mirror image: H0 from lost pairs
    lost_pair = np.log((1 - score_from_elo(50)) / 0.5)
    assert feed(m, [0.0] * 20) == 20 and m.result.sprt["decision"] == "continue"
    assert m.result.sprt["llr"] == pytest.approx(10 * lost_pair, rel=1e-3)
    assert feed(m, [0.0] * 80) < 80 and m.result.sprt["decision"] == "H0"
