"""experiments.learning.td_curves: runs through evolve.td with snapshots, each snapshot against
the anchors (each at its own search when it says so), a finished run not trained again."""

from __future__ import annotations

import json

import pytest

import experiments.learning.td_curves as tc

TINY = tc.Curve("tiny", "othello", (
    tc.Run("a", tc.network("straight2"), "--stage 400:0.07 --round-games 200 --chunk-games 100"),
    tc.Run("b", tc.network("straight2"), "--stage 400:0.07 --round-games 200 --chunk-games 100",
           seed=1),
), 200, ("wpc1", "random@--depth 1 --endgame-empties 0"), tc.LEAGUE, 10, "a tiny curve", 10)


# 11 subprocesses (2 trainings, 9 evaluations): 90-130 s, a third of the default run's margin
@pytest.mark.slow
def test_a_curve_is_trained_measured_and_resumed(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tc, "WORK", tmp_path / "work")
    monkeypatch.setattr(tc, "CURVES", [TINY])
    assert tc.main(["--curve", "tiny", "--results", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "tiny.json").read_text())
    assert [(r["run"], r["games"]) for r in data["rows"]] == [("a", 200), ("a", 400),
                                                              ("b", 200), ("b", 400)]
    searches = [m["search"] for m in data["rows"][0]["matches"]]
    assert searches == [tc.LEAGUE, "--depth 1 --endgame-empties 0"]
    assert [m["opponent"] for m in data["rows"][0]["matches"]] == ["wpc1", "random"]
    assert len(data["head_to_head"]["matches"]) == 1
    assert (tmp_path / "tiny.png").stat().st_size > 0
    md = (tmp_path / "tiny.md").read_text()
    assert "| b | 400 |" in md and "random (--depth 1 --endgame-empties 0)" in md
    assert sorted(p.name for p in (tmp_path / "work" / "tiny").glob("*.json")) == [
        "a.g200.json", "a.g400.json", "a.json", "b.g200.json", "b.g400.json", "b.json"]
    capsys.readouterr()
    assert tc.main(["--curve", "tiny", "--results", str(tmp_path)]) == 0
    assert "done before" in (tmp_path / "tiny.md").read_text()  # not trained again
