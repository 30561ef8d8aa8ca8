"""CMA-ES behind the GA's config and outputs: seeded from the run's seed only (never numpy's
global state), rebuilt exactly on resume from the fitness saved in the checkpoint."""

from pathlib import Path

import numpy as np
import pytest
from hydra import compose, initialize_config_dir

from evolve.ga.cmaes import CmaSearch, rebuilt
from evolve.ga.configuration.config import ConfigError, to_config
from evolve.ga.loop import run
from evolve.ga.run_files import checkpoint
from tests.evolve.ga.test_determinism import FlakyBackend, Interrupted, assert_same_run

pytest.importorskip("cma")
ROOT = Path(__file__).resolve().parents[3]
CMA = ["+experiment=smoke", "ga.algorithm=cmaes", "ga.population=5", "ga.generations=4",
       "search.depth=1", "search.endgame_empties=3", "plot=false", "progress=false",
       "yardstick.panel=[wpc_negated]", "fitness.references=1",
       "fitness.opponents=[wpc_negated]", "fitness.openings=1"]
BOUNDS = (np.full(4, -1.0), np.full(4, 2.0))


def config(*overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return compose("config", overrides=[*CMA, *overrides])


def es(seed: int = 3) -> CmaSearch:
    return CmaSearch(seed, BOUNDS, np.array([0.5, 0.0, -0.5, 1.0]), 0.3, 6)


def test_samples_come_from_the_seed_alone_and_stay_in_bounds():
    np.random.seed(1)
    a = es().ask()
    np.random.seed(2)
    b = es().ask()
    assert np.array_equal(a, b)
    assert not np.array_equal(a, es(seed=4).ask())
    assert a.shape == (6, 4) and (a >= -1.0).all() and (a <= 2.0).all()


def test_replaying_the_told_fitness_rebuilds_the_same_strategy():
    search, told = es(), []
    for g in range(3):
        genomes = search.ask()
        fitness = [float(-np.sum((x - g) ** 2)) for x in genomes]
        search.tell(fitness)
        told.append(fitness)
    expected = search.ask()
    again, asked = rebuilt(es(), told, lambda x: np.array_equal(x, expected))
    assert np.array_equal(asked, expected)
    assert np.array_equal(again.ask(), search.ask())  # and it goes on identically
    with pytest.raises(ValueError, match="does not reproduce"):
        rebuilt(es(), told[:-1], lambda x: np.array_equal(x, expected))


def test_a_bad_algorithm_stops_the_run_at_start_with_one_line():
    with pytest.raises(ConfigError, match=r"^ga.algorithm=nsga must be one of: ga, cmaes, es$"):
        to_config(config("ga.algorithm=nsga"))
    with pytest.raises(ConfigError, match=r"^ga.cma_sigma0=0.0 must satisfy"):
        to_config(config("ga.cma_sigma0=0"))


@pytest.fixture(scope="module")
def cma_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("cma")
    run(config(), run_dir=d)
    return d


def test_the_checkpoint_holds_the_told_fitness_as_json(cma_run):
    saved = checkpoint.load(cma_run)
    assert len(saved.algorithm_state["told"]) == 4
    assert all(len(f) == 5 for f in saved.algorithm_state["told"])
    assert saved.population.operator == ["cmaes"] * 5


# waits: fitness games of generation g = 2g + 1 (g >= 1: 2g), yardsticks after them; 9 = playoff
@pytest.mark.parametrize("fail_at", [4, 6, 9])
def test_resume_after_a_crash_equals_the_uninterrupted_cma_run(cma_run, tmp_path, fail_at):
    with pytest.raises(Interrupted):
        run(config(), run_dir=tmp_path, backend=FlakyBackend(fail_at))
    run(config(f"resume={tmp_path}"))
    assert_same_run(cma_run, tmp_path)


def test_a_finished_cma_run_extended_on_resume_equals_the_longer_run(cma_run, tmp_path):
    run(config("ga.generations=2"), run_dir=tmp_path)
    run(config(f"resume={tmp_path}"))  # ga.generations=4, as in CMA
    assert_same_run(cma_run, tmp_path)


def test_ray_matches_serial_for_the_cma_run(cma_run, ray_session, tmp_path):
    run(config("backend=ray", "ray.workers=2"), run_dir=tmp_path)
    assert_same_run(cma_run, tmp_path)
