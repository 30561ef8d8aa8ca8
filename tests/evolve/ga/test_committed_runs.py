"""The committed study runs (``experiments/runs/<study>``, made before the game-neutral
refactor) still reproduce: the same command gives the same population, fitness, games and
champion (``slow``: a few minutes each; run with ``python -m pytest -m slow``).

Allowed differences: ``wall_seconds``, the champion's run directory, config hash and
``selection``, the columns ``generations.csv`` and the game tables gained since. Settings added
since are set to what those runs did (old default panel, no hall of fame, no playoff)."""

import csv
import json
from pathlib import Path

import pytest
import yaml
from hydra import compose, initialize_config_dir

from evolve.ga.loop import run

ROOT = Path(__file__).resolve().parents[3]
RUNS = ROOT / "experiments" / "runs"
OLD_GAME_COLUMNS = 10


def rows(path: Path) -> list[list[str]]:
    with open(path, newline="") as f:
        return list(csv.reader(f))


def champion(path: Path) -> dict:
    d = json.loads(path.read_text())
    for key in ("run_dir", "config_hash"):
        d["metadata"]["provenance"].pop(key)
    d["metadata"].pop("selection", None)
    return d


@pytest.mark.slow
@pytest.mark.timeout(3600)  # a whole default study, serial
@pytest.mark.parametrize("study", ["reversed_reversi", "othello", "othello_league"])
def test_a_committed_run_reproduces(study, tmp_path):
    committed = RUNS / study
    overrides = yaml.safe_load((committed / ".hydra" / "overrides.yaml").read_text())
    overrides = [o for o in overrides if not o.startswith("backend=")]  # any backend: same result
    panel = "[course,wpc,greedy,random]" if "othello" in study else \
        "[course,wpc_negated,greedy,random]"
    overrides += ["yardstick.hall_of_fame_every=0", "playoff.enabled=false",  # what they did
                  f"yardstick.panel={panel}", "game.endgame_solver=negamax",
                  "ga.elite_copies=0", "ga.immigrants=0", "ga.sigma_min=0.01",
                  "ga.mutation_prob=0.1"]
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = compose("config", overrides=[*overrides, "backend=serial", "plot=false"])
    run(cfg, run_dir=tmp_path)
    assert rows(tmp_path / "individuals.csv") == rows(committed / "individuals.csv")
    old = rows(committed / "generations.csv")
    wall, width = old[0].index("wall_seconds"), len(old[0])
    assert [r[:wall] + r[wall + 1:width] for r in rows(tmp_path / "generations.csv")] == \
        [r[:wall] + r[wall + 1:] for r in old]
    for table in ("games.csv", "yardstick_games.csv"):
        assert [r[:OLD_GAME_COLUMNS] for r in rows(tmp_path / table)] == \
            [r[:OLD_GAME_COLUMNS] for r in rows(committed / table)]
    assert champion(tmp_path / "champion.json") == champion(committed / "champion.json")
