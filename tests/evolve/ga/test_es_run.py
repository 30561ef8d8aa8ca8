"""``ga.algorithm=es`` behind the GA's config, fitness and outputs: the centre and its antithetic
pairs scored in the same tournament (here against references and the hall of fame too, with
epsilon-random moves), the state checkpointed as JSON, the same champion whatever the backend,
after a crash and resume, or extended on resume; bad settings refused in one line."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from evolve.ga.configuration.config import ConfigError, to_config
from evolve.ga.loop import run
from evolve.ga.run_files import checkpoint
from tests.evolve.ga.test_determinism import (
    FlakyBackend,
    Interrupted,
    assert_same_run,
    kill_at_the_first_checkpoint,
)

ROOT = Path(__file__).resolve().parents[3]
ES = ["+experiment=smoke", "ga.algorithm=es", "ga.population=5", "ga.generations=5",
      "search.depth=1", "search.endgame_empties=3", "plot=false", "progress=false",
      "games.openings=1", "ga.es_sigma=0.1", "ga.es_learning_rate=0.05",
      "fitness.references=1", "fitness.hall_of_fame=1", "fitness.opponents=[wpc_negated]",
      "fitness.openings=1", "yardstick.hall_of_fame_every=1", "yardstick.panel=[wpc_negated]",
      "games.epsilon=0.1"]


def config(*overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return compose("config", overrides=[*ES, *overrides])


@pytest.fixture(scope="module")
def es_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("es")
    run(config(), run_dir=d)
    return d


def test_each_generation_scores_the_centre_and_mirrored_pairs(es_run):
    ind = pd.read_csv(es_run / "individuals.csv")
    genes = [c for c in ind.columns if c.startswith("p")]
    for _, rows in ind.groupby("generation"):
        assert list(rows["operator"]) == ["es_centre", "es_plus", "es_minus", "es_plus",
                                          "es_minus"]
        x = rows[genes].to_numpy()
        inside = (np.abs(x[1:]) < 1.0).all(axis=0)  # genes no pair clipped at a bound
        assert np.allclose((x[1::2] + x[2::2])[:, inside] / 2, x[0, inside])
    assert ind["parent_a"].eq(-1).all()


def test_the_checkpoint_holds_the_centre_moments_and_step_as_json(es_run):
    saved = checkpoint.load(es_run)
    state = saved.algorithm_state["es"]
    genes = saved.population.genomes.shape[1]
    assert len(state["centre"]) == len(state["m"]) == len(state["v"]) == genes
    assert state["step"] == 5  # one Adam step per generation
    # the next population's centre is the checkpointed centre, mapped back to the bounds
    assert np.allclose(saved.population.genomes[0], 2 * np.array(state["centre"]) - 1)


def test_the_es_plays_the_references_and_the_hall_of_fame(es_run):
    games = pd.read_csv(es_run / "games.csv")
    players = set(games["black_id"].astype(str)) | set(games["white_id"].astype(str))
    assert "wpc_negated" in players
    assert any(p.startswith("hof_gen") for p in players)


def test_the_champion_of_each_generation_is_its_best_individual(es_run):
    ind = pd.read_csv(es_run / "individuals.csv")
    gens = pd.read_csv(es_run / "generations.csv")
    assert list(ind.groupby("generation")["fitness"].max()) == list(gens["best_fitness"])


# waits: 1, 2, 4, 6, 8 = fitness games of generations 0..4; 3, 5, 7, 9, 10 = their yardsticks;
# 11 = the playoff
@pytest.mark.parametrize("fail_at", [2, 7, 11])
def test_resume_after_a_crash_equals_the_uninterrupted_es_run(es_run, tmp_path, fail_at):
    with pytest.raises(Interrupted):
        run(config(), run_dir=tmp_path, backend=FlakyBackend(fail_at))
    if not (tmp_path / "checkpoint" / "checkpoint.json").exists():
        run(config(), run_dir=tmp_path)
    else:
        run(config(f"resume={tmp_path}"))
    assert_same_run(es_run, tmp_path)


def test_kill_9_then_resume_from_the_command_line_equals_the_uninterrupted_es_run(es_run,
                                                                                 tmp_path):
    run_dir = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT),
                                                        os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "evolve", *ES, f"hydra.run.dir={run_dir}"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    kill_at_the_first_checkpoint(proc, run_dir, last=4)
    resumed = subprocess.run([sys.executable, "-m", "evolve", f"resume={run_dir}",
                              f"hydra.run.dir={tmp_path / 'resume-log'}"],
                             cwd=tmp_path, env=env, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert_same_run(es_run, run_dir)


def test_a_finished_es_run_extended_on_resume_equals_the_longer_run(es_run, tmp_path):
    run(config("ga.generations=2"), run_dir=tmp_path)
    run(config(f"resume={tmp_path}"))  # ga.generations=5, as in ES
    assert_same_run(es_run, tmp_path)


def test_ray_matches_serial_for_the_es_run(es_run, ray_session, tmp_path):
    run(config("backend=ray", "ray.workers=2"), run_dir=tmp_path)
    assert_same_run(es_run, tmp_path)


def test_another_seed_gives_another_es_run(es_run, tmp_path):
    run(config("seed=1", "ga.generations=1", "playoff.enabled=false"), run_dir=tmp_path)
    first = pd.read_csv(tmp_path / "individuals.csv")
    mine = pd.read_csv(es_run / "individuals.csv")
    genes = [c for c in first.columns if c.startswith("p")]
    assert np.array_equal(first[genes].to_numpy()[0], mine[genes].to_numpy()[0])  # same centre
    assert not np.array_equal(first[genes].to_numpy()[1:5], mine[genes].to_numpy()[1:5])


@pytest.mark.parametrize("override, message", [
    ("ga.population=6", "ga.population=6 must satisfy an odd population >= 3 for "
                        "ga.algorithm=es"),
    ("ga.es_sigma=0", "ga.es_sigma=0.0 must satisfy 0 < es_sigma <= 1"),
    ("ga.es_learning_rate=0", "ga.es_learning_rate=0.0 must satisfy es_learning_rate > 0"),
    ("ga.es_optimizer=rmsprop", "ga.es_optimizer=rmsprop must be one of: adam, sgd"),
    ("ga.es_shaping=fitness", "ga.es_shaping=fitness must be one of: ranks, none"),
    ("ga.algorithm=nes", "ga.algorithm=nes must be one of: ga, cmaes, es"),
    ("games.epsilon=1.5", "games.epsilon=1.5 must satisfy 0 <= epsilon <= 1"),
])
def test_bad_es_settings_stop_the_run_at_start_with_one_line(override, message):
    with pytest.raises(ConfigError) as err:
        to_config(config(override))
    assert str(err.value).startswith(message) and "\n" not in str(err.value)
