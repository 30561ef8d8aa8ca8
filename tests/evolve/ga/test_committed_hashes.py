"""Every committed run (``experiments/runs``) keeps the ``config_hash`` its champion records:
the command its ``PROVENANCE.md`` names composes, with today's code, a config of that hash
(settings added since hold their old values there, and at those values the hash leaves them
out: ``LATER_KEYS``, ``LATER_GAME_KEYS``). Only configs are composed: no study is run."""

import json
import shlex
from pathlib import Path

import pytest
import yaml
from omegaconf import OmegaConf

from evolve.ga.configuration.config import config_hash, to_config
from experiments.provenance import FILE, RUNS, composed, config_matches, flat, runs

# on one worker with tests/experiments/test_provenance.py: both compose every committed run's
# command, and the composes are cached in the process (experiments.provenance.composed)
pytestmark = pytest.mark.xdist_group("committed-run-configs")

# keys that entered every hash when they were added, before LATER_KEYS existed: a run made before
# one of them hashed fewer keys, and leaving them out again at their values would change the hash
# of every run made since (which hashed them at the same values)
HASHED_SINCE_ADDED = (
    "games.margin", "games.opponents_per_individual", "ga.sharing_radius", "ga.algorithm",
    "ga.cma_sigma0", "ga.elite_copies", "ga.immigrants", "ga.immigrant_below",
    "game.genome.features", "game.endgame_solver", "fitness.population", "fitness.references",
    "fitness.hall_of_fame", "fitness.opponents", "fitness.openings", "fitness.hall_of_fame_size",
    "yardstick.hall_of_fame_every", "yardstick.hall_of_fame_size", "playoff.enabled",
    "playoff.generations", "playoff.openings")


def recorded_hash(run: Path) -> str | None:
    champion = run / "champion.json"
    if not champion.is_file():
        return None
    return json.loads(champion.read_text())["metadata"]["provenance"].get("config_hash")


def provenance_command(run: Path) -> list[str]:
    """The overrides of the last command ``PROVENANCE.md`` names (today's, pins included)."""
    text = (run / FILE).read_text()
    command = [line for line in text.splitlines() if line.startswith("python -m evolve")][-1]
    return [o for o in shlex.split(command)[3:] if not o.startswith("hydra.")]


def hashed_runs() -> list[Path]:
    return [run for run in runs() if (run / FILE).is_file() and recorded_hash(run)]


def keys_it_predates(run: Path, cfg) -> list[str]:
    """The keys of ``HASHED_SINCE_ADDED`` that today's config ``cfg`` holds and the run's did not
    (a game without that setting holds it in neither)."""
    saved = flat(yaml.safe_load((run / ".hydra" / "config.yaml").read_text()))
    now = flat(OmegaConf.to_container(cfg, resolve=True))
    return [key for key in HASHED_SINCE_ADDED if key in now and key not in saved]


@pytest.mark.parametrize("run", hashed_runs(), ids=lambda run: str(run.relative_to(RUNS)))
def test_a_committed_run_keeps_its_config_hash_under_todays_code(run):
    overrides = provenance_command(run)
    if run.relative_to(RUNS).parts[0] == "legacy":
        changed = config_matches(run, overrides)
        if changed:
            pytest.skip(f"made by old defaults its command no longer describes ({changed[0]})")
    cfg = composed(overrides)
    predates = keys_it_predates(run, cfg)
    if predates:
        pytest.skip(f"hashed before {', '.join(predates)} entered every config_hash: its hash "
                    "counts fewer keys than any config of today's code")
    assert config_hash(to_config(cfg)) == recorded_hash(run)
