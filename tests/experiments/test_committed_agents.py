"""The committed CS303 agent files are what ``evolve.export`` writes from their champions today,
so a change to the agent's template (``engine/reversi/export/cs303_template/``) shows here
until they are exported again (the catalogue's jobs ``reversed_reversi_cs303`` and
``champion_reversed_reversi_ntuple_cs303``, or the commands below)."""

from __future__ import annotations

import pytest

from evolve.export import main as export_main
from experiments.stamp import ROOT

CHAMPIONS = ROOT / "experiments" / "results" / "champions"
AGENTS = {  # committed agent file -> what it is exported from
    "reversed_reversi_cs303.py": ROOT / "experiments" / "runs" / "reversed_reversi",
    "reversed_reversi_ntuple_cs303.py": CHAMPIONS / "reversed_reversi_ntuple.json",
}


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_the_committed_cs303_agent_is_what_the_export_writes(agent, tmp_path):
    out = tmp_path / agent
    assert export_main([str(AGENTS[agent]), "--format", "cs303", "--out", str(out)]) == 0
    assert out.read_text() == (CHAMPIONS / agent).read_text(), (
        f"export again: python -m evolve.export {AGENTS[agent].relative_to(ROOT)} "
        f"--format cs303 --out {(CHAMPIONS / agent).relative_to(ROOT)}")
