"""The committed study runs (``experiments/runs/<study>``) still reproduce: the command their
``PROVENANCE.md`` names (``experiments.provenance.today_command``: the recorded overrides with
the settings added since pinned back) gives the same population, fitness, games and champion. A
whole study takes minutes (``slow``); the default set replays the first generations of the
cheapest one, which must match the committed rows exactly (generation g never depends on how
many generations follow).

Allowed differences: ``wall_seconds``, the champion's run directory and config hash, and for the
legacy runs the columns the tables gained since they were made."""

import csv
import json
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

from evolve.ga.loop import run
from experiments.provenance import RUNS, today_command

ROOT = Path(__file__).resolve().parents[3]


def rows(path: Path, generations: int | None = None) -> list[list[str]]:
    """The header and the rows of the first ``generations`` generations (all: None)."""
    with open(path, newline="") as f:
        header, *body = list(csv.reader(f))
    return [header, *(r for r in body if generations is None or int(r[0]) < generations)]


def champion(path: Path) -> dict:
    d = json.loads(path.read_text())
    for key in ("run_dir", "config_hash"):
        d["metadata"]["provenance"].pop(key)
    return d


def replay(committed: Path, run_dir: Path, *extra: str) -> None:
    """Run the committed study's provenance command serially (any backend gives the same
    result)."""
    overrides = [o for o in today_command(committed)
                 if not o.startswith(("backend=", "hydra."))]
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = compose("config", overrides=[*overrides, "backend=serial", "plot=false",
                                           "progress=false", *extra])
    run(cfg, run_dir=run_dir)


def assert_same_tables(committed: Path, got: Path, generations: int | None = None) -> None:
    """Every committed column matches (a legacy run has fewer: the later ones are ignored)."""
    for table in ("individuals.csv", "generations.csv", "games.csv", "yardstick_games.csv"):
        old = rows(committed / table, generations)
        new = rows(got / table)
        width = len(old[0])
        assert new[0][:width] == old[0], table
        skip = old[0].index("wall_seconds") if "wall_seconds" in old[0] else width
        assert [without(r, skip, width) for r in new] == [without(r, skip, width) for r in old], \
            table


def without(row: list[str], skip: int, width: int) -> list[str]:
    """The first ``width`` cells but the one at ``skip`` (the wall time)."""
    return row[:skip] + row[skip + 1:width]


@pytest.mark.slow
@pytest.mark.timeout(3600)  # a whole default study, serial
@pytest.mark.parametrize("study", ["reversed_reversi", "othello",
                                   pytest.param("othello_league", marks=pytest.mark.claims)])
def test_a_committed_run_reproduces(study, tmp_path):
    committed = RUNS / study
    replay(committed, tmp_path)
    assert_same_tables(committed, tmp_path)
    assert champion(tmp_path / "champion.json") == champion(committed / "champion.json")


@pytest.mark.parametrize("study", ["othello_league", "legacy/othello_league"])
def test_the_first_generations_of_a_committed_run_reproduce(study, tmp_path):
    """The default set's representative: two generations of the 1-ply Othello League study
    (1520 round-robin games each, seconds), as made today and as made before issue 22."""
    committed = RUNS / study
    replay(committed, tmp_path, "ga.generations=2", "playoff.enabled=false")
    assert_same_tables(committed, tmp_path, generations=2)
    assert len(rows(tmp_path / "individuals.csv")) == 1 + 2 * 20
