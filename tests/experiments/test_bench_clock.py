"""experiments.bench.clock: the tables it writes and its resumable match (tiny settings: what
it measures is timing and is not asserted here)."""

from __future__ import annotations

import json

from experiments.bench import clock


def test_a_tiny_run_writes_both_tables_and_a_rerun_plays_no_game_again(tmp_path, capsys,
                                                                       monkeypatch):
    argv = ["--games", "pentago_twist", "--limits", "0.01", "--time-games", "1",
            "--match-games", "2", "--match-limit", "0.01", "--work", str(tmp_path / "w"),
            "--out", str(tmp_path / "clock.md")]
    assert clock.main(argv) == 0
    text = (tmp_path / "clock.md").read_text()
    assert "| pentago_twist | 0.01 s |" in text and "| pentago_twist | 2 |" in text
    data = json.loads((tmp_path / "clock.json").read_text())
    entry = data["games"]["pentago_twist"]
    assert entry["time"]["0.01"]["all"]["moves"] > 0
    assert entry["match"]["games"] == 2 and 0 <= entry["match"]["score"] <= 1
    games = sorted((tmp_path / "w" / "pentago_twist").rglob("game*.json"))
    assert [json.loads(g.read_text())["new_first"] for g in games] == [True, False]
    monkeypatch.setattr(clock.registry.get_game("pentago_twist").__class__, "play",
                        lambda *a, **k: (_ for _ in ()).throw(AssertionError("played again")))
    assert clock.main(argv) == 0


def test_every_move_is_classified_by_what_ended_its_search():
    class Result:
        def __init__(self, exact=False, partial=False):
            self.exact, self.partial = exact, partial

    assert clock.ended(Result(exact=True), 0.1, 0.001) == "exact"
    assert clock.ended(Result(partial=True), 0.1, 0.09) == "clock"
    assert clock.ended(Result(), 0.1, 0.09) == "clock"
    assert clock.ended(Result(), 0.1, 0.01) == "proven"
