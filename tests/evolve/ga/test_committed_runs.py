"""The committed study runs (``experiments/runs/<study>``, made before the game-neutral
refactor) still reproduce: the same command gives the same population, fitness, games and
champion. A whole study takes minutes (``slow``: ``python -m pytest -m slow``); the default set
replays the first generations of the cheapest one, which must match the committed rows exactly
(generation g never depends on how many generations follow).

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


def rows(path: Path, generations: int | None = None) -> list[list[str]]:
    """The header and the rows of the first ``generations`` generations (all: None)."""
    with open(path, newline="") as f:
        header, *body = list(csv.reader(f))
    return [header, *(r for r in body if generations is None or int(r[0]) < generations)]


def champion(path: Path) -> dict:
    d = json.loads(path.read_text())
    for key in ("run_dir", "config_hash"):
        d["metadata"]["provenance"].pop(key)
    d["metadata"].pop("selection", None)
    return d


def replay(study: str, run_dir: Path, *extra: str) -> Path:
    """Run the committed study's command (serially: any backend gives the same result)."""
    committed = RUNS / study
    overrides = yaml.safe_load((committed / ".hydra" / "overrides.yaml").read_text())
    overrides = [o for o in overrides if not o.startswith("backend=")]
    panel = "[course,wpc,greedy,random]" if "othello" in study else \
        "[course,wpc_negated,greedy,random]"
    overrides += ["yardstick.hall_of_fame_every=0", "playoff.enabled=false",  # what they did
                  f"yardstick.panel={panel}", "game.endgame_solver=negamax",
                  "ga.elite_copies=0", "ga.immigrants=0", "ga.sigma_min=0.01",
                  "ga.mutation_prob=0.1"]
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = compose("config", overrides=[*overrides, "backend=serial", "plot=false",
                                           "progress=false", *extra])
    run(cfg, run_dir=run_dir)
    return committed


def assert_same_tables(committed: Path, got: Path, generations: int | None = None) -> None:
    assert rows(got / "individuals.csv") == rows(committed / "individuals.csv", generations)
    old = rows(committed / "generations.csv", generations)
    wall, width = old[0].index("wall_seconds"), len(old[0])
    assert [r[:wall] + r[wall + 1:width] for r in rows(got / "generations.csv")] == \
        [r[:wall] + r[wall + 1:] for r in old]
    for table in ("games.csv", "yardstick_games.csv"):
        assert [r[:OLD_GAME_COLUMNS] for r in rows(got / table)] == \
            [r[:OLD_GAME_COLUMNS] for r in rows(committed / table, generations)]


@pytest.mark.slow
@pytest.mark.timeout(3600)  # a whole default study, serial
@pytest.mark.parametrize("study", ["reversed_reversi", "othello", "othello_league"])
def test_a_committed_run_reproduces(study, tmp_path):
    committed = replay(study, tmp_path)
    assert_same_tables(committed, tmp_path)
    assert champion(tmp_path / "champion.json") == champion(committed / "champion.json")


def test_the_first_generations_of_a_committed_run_reproduce(tmp_path):
    """The default set's representative: two generations of the 1-ply Othello League study
    (1520 round-robin games each, seconds)."""
    committed = replay("othello_league", tmp_path, "ga.generations=2")
    assert_same_tables(committed, tmp_path, generations=2)
    assert len(rows(tmp_path / "individuals.csv")) == 1 + 2 * 20
