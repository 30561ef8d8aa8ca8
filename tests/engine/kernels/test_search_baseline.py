"""Fixed-depth alpha-beta computes exactly what the code before the anytime driver did.

``tests/data/search_baseline.json`` was recorded from the checkout before the anytime driver
changed the kernel and driver (its commit is in the file; ``record_search_baseline.py`` beside
this test made it): seeded fixed-depth games of every game, hand weights and n-tuple networks,
with exact endgames. Replayed here, every kernel call must give the same move, value and node
count, in the same order (the table carries over between moves), and every game the same
result: the GA's reproducibility rests on it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.kernels.search import driver
from tests.engine.kernels.record_search_baseline import measured_spy, play_case

DATA = json.loads((Path(__file__).parents[2] / "data" / "search_baseline.json").read_text())
GAMES = ("othello", "reversed_reversi", "pentago_twist", "hexifence")


@pytest.fixture
def calls(monkeypatch):
    """The kernel calls, made with tables as fresh as the recording's process had them: the
    shared tables keep exact entries (``PERMANENT_GEN``) across searches and tests, which
    changes node counts, never moves or values."""
    from engine.kernels.search import tt
    from engine.reversi.endgame import table as endgame_table

    monkeypatch.setattr(tt, "_SHARED", {})
    monkeypatch.setattr(endgame_table, "_SHARED_TABLES", {})
    seen: list[list] = []
    monkeypatch.setattr(driver.SearchDriver, "measured",
                        measured_spy(driver.SearchDriver.measured, seen))
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_fixed_depth_search_is_unchanged_call_by_call(game, calls):
    recorded = DATA[game]
    cases = []
    for g in recorded:
        if tuple(g["case"]) not in cases:
            cases.append(tuple(g["case"]))
    replayed = [g for case in cases for g in play_case(game, case, calls)]
    assert len(replayed) == len(recorded)
    for want, got in zip(recorded, replayed, strict=True):
        assert got["opening"] == want["opening"]
        for i, (w, c) in enumerate(zip(want["calls"], got["calls"], strict=True)):
            assert c == w, f"{want['case']}: call {i} (move, value, nodes)"
        assert len(got["calls"]) == len(want["calls"])
        assert (got["winner"], got["margin"]) == (want["winner"], want["margin"])
