"""``experiments.strength.cs303_match``: games through the platform interface, resumed from its
JSON lines only for the same settings and the same agent files."""

from __future__ import annotations

import json

from experiments.strength import cs303_match
from tests.engine.reversi.test_cs303 import load_generated, random_champion


def run(a, b, games, out) -> dict:
    assert cs303_match.main(["--a", str(a), "--b", str(b), "--time-out", "0.05", "--openings",
                             "1", "--plies", "48", "--games", str(games), "--out",
                             str(out)]) == 0
    return json.loads(out.with_suffix(".json").read_text())


def test_a_rerun_resumes_the_same_agents_and_restarts_for_changed_ones(tmp_path):
    _, a = load_generated(random_champion(2, seed=1), tmp_path, "agent_a")
    _, b = load_generated(random_champion(2, seed=2), tmp_path, "agent_b")
    games, out = tmp_path / "games.jsonl", tmp_path / "match.md"
    first = run(a, b, games, out)
    assert first["games"] == 2 and first["sides"]["a"]["illegal"] == 0
    lines = games.read_text().splitlines()
    assert run(a, b, games, out)["games"] == 2
    assert games.read_text().splitlines() == lines  # resumed: nothing played again
    a.write_text(a.read_text() + "\n# changed\n")
    assert run(a, b, games, out)["games"] == 2
    assert len(games.read_text().splitlines()) == 4  # the changed file played anew
    assert "moves solved (won)" in out.read_text()
