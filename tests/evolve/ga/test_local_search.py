"""Lamarckian local search (``ga.local_search=td``) on a toy game whose genome learns by TD
(``tests/evolve/ga/toy_game.py``): the learnt genomes are the game's ``td_learn`` of the bred
ones, seeded per individual, written back before scoring; serial == Ray; a run killed (by an
exception mid-generation, or ``kill -9``) then resumed equals the uninterrupted one; a genome
that cannot learn is refused in one line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evolve.execution.backends import RayConfig, SerialBackend, make_backend
from evolve.ga.configuration.config import ConfigError, resolve, to_config
from evolve.ga.local_search import TD_STREAM, learn, learners
from evolve.ga.loop import run
from evolve.ga.population import Population
from evolve.ga.study import Study
from tests.evolve.ga import toy_game
from tests.evolve.ga.test_determinism import (
    FlakyBackend,
    Interrupted,
    assert_same_run,
    kill_at_the_first_checkpoint,
)

ROOT = Path(__file__).resolve().parents[3]
TD = {"game": {"name": toy_game.NAME, "genome": {"n": 2}}, "backend": "serial", "plot": False,
      "progress": False, "search": {"depth": 1, "endgame_empties": 0},
      "ga": {"population": 6, "generations": 3, "elites": 2, "local_search": "td",
             "td_games": 3, "td_alpha": 0.05, "td_epsilon": 0.2, "mutation_genes": 8},
      "games": {"openings": 1, "min_plies": 1, "max_plies": 2},
      "yardstick": {"openings": 2}}


def config(**changes) -> dict:
    """``TD`` with ``changes`` (``ga={"td_learners": "elites"}``) merged into its sections."""
    out = json.loads(json.dumps(TD))
    for section, values in changes.items():
        if isinstance(values, dict):
            out.setdefault(section, {}).update(values)
        else:
            out[section] = values
    return out


@pytest.fixture(scope="module", autouse=True)
def toy():
    with toy_game.registered() as game:
        yield game


@pytest.fixture(scope="module")
def td_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("td")
    run(config(), run_dir=d)
    return d


def fresh_study(cfg: dict, run_dir: Path) -> Study:
    return Study(resolve(cfg), run_dir)


def expected_learnt(game, genome, seed, generation, index, bounds) -> np.ndarray:
    ss = np.random.SeedSequence([seed, generation, TD_STREAM, index])
    return np.clip(game.td_learn(genome, 3, ss, 0.05, 0.2), *bounds)


def test_the_learners_are_everyone_or_the_elites():
    none = np.full(4, -1)
    pop = Population(np.zeros((4, 2)), np.arange(4), none, none,
                     ["elite", "elite", "block+mutation", "elite_copy"])
    assert learners(pop, "all") == [0, 1, 2, 3]
    assert learners(pop, "elites") == [0, 1]


def test_learning_writes_back_each_individuals_own_td_learn(toy, tmp_path):
    study = fresh_study(config(), tmp_path)
    pop = study.initial_state().population
    learnt = learn(study.ctx, SerialBackend(), pop, generation=4)
    for i in range(len(pop)):
        assert np.array_equal(learnt.genomes[i],
                              expected_learnt(toy.with_settings({"genome": {"n": 2}}),
                                              pop.genomes[i], 0, 4, i, study.bounds))
        assert not np.array_equal(learnt.genomes[i], pop.genomes[i])  # it did learn
    assert learnt.operator == [f"{o}+td" for o in pop.operator]
    assert np.array_equal(learnt.ids, pop.ids)
    assert np.array_equal(pop.genomes, study.initial_state().population.genomes)  # untouched


def test_generation_zero_is_scored_after_it_learnt(toy, td_run, tmp_path):
    study = fresh_study(config(), tmp_path)
    pop = study.initial_state().population
    game = toy.with_settings({"genome": {"n": 2}})
    ind = pd.read_csv(td_run / "individuals.csv")
    first = ind[ind["generation"] == 0]
    genes = first[list(game.genome_spec().names)].to_numpy()
    for i in range(len(pop)):
        assert np.array_equal(genes[i], expected_learnt(game, pop.genomes[i], 0, 0, i,
                                                        study.bounds))
    assert all(o.endswith("+td") for o in ind["operator"])


def test_only_the_elites_learn_when_asked(tmp_path):
    run(config(ga={"td_learners": "elites"}), run_dir=tmp_path)
    ind = pd.read_csv(tmp_path / "individuals.csv")
    learnt = ind[ind["operator"].str.endswith("+td")]
    assert set(learnt["operator"]) == {"elite+td"}
    assert (learnt["generation"] > 0).all()  # generation 0 has no elites
    assert len(learnt) == 2 * 2  # two elites in generations 1 and 2


# waits: 1 = generation 0's learning, 2 = its fitness games, 3 = generation 1's learning (bred
# after generation 0), 4 = generation 1's fitness games, 5 = generation 2's learning, 6 =
# generation 0's yardstick (then its checkpoint), 7, 8 = generation 2's fitness games and the
# learning after it, 9, 10 = the yardsticks of generations 1 and 2
@pytest.mark.parametrize("fail_at", [1, 5, 8, 10])
def test_resume_after_a_crash_equals_the_uninterrupted_td_run(td_run, tmp_path, fail_at):
    with pytest.raises(Interrupted):
        run(config(), run_dir=tmp_path, backend=FlakyBackend(fail_at))
    if not (tmp_path / "checkpoint" / "checkpoint.json").exists():
        run(config(), run_dir=tmp_path)
    else:
        run(config(resume=str(tmp_path)))
    assert_same_run(td_run, tmp_path)


def test_ray_matches_serial_for_the_td_run(td_run, ray_session, tmp_path):
    backend = make_backend("ray", RayConfig(workers=2), warm_up=toy_game.register)
    run(config(backend="ray"), run_dir=tmp_path, backend=backend)
    assert_same_run(td_run, tmp_path)


CMAES = {"ga": {"algorithm": "cmaes", "elites": 0}}


@pytest.fixture(scope="module")
def cmaes_td_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("cmaes_td")
    run(config(**CMAES), run_dir=d)
    return d


def test_cmaes_scores_its_samples_after_they_learnt_and_is_told_of_its_own(toy, cmaes_td_run,
                                                                            tmp_path):
    """Baldwinian: each generation's individuals are the td_learn of what CMA-ES asked, and
    replaying CMA-ES with the fitness it was told asks for exactly those samples again."""
    from evolve.ga import algorithms
    from evolve.ga.run_files.checkpoint import load

    study = fresh_study(config(**CMAES), tmp_path)
    game = toy.with_settings({"genome": {"n": 2}})
    ind = pd.read_csv(cmaes_td_run / "individuals.csv")
    told = load(cmaes_td_run).algorithm_state["told"]
    search = algorithms.new(study.ctx, None).search
    for g in range(3):
        asked = search.ask()
        genes = ind[ind["generation"] == g][list(game.genome_spec().names)].to_numpy()
        for i in range(len(asked)):
            assert np.array_equal(genes[i], expected_learnt(game, asked[i], 0, g, i,
                                                            study.bounds))
            assert not np.array_equal(genes[i], asked[i])
        search.tell(told[g])
    assert set(ind["operator"]) == {"cmaes+td"}


@pytest.mark.parametrize("fail_at", [1, 5, 10])
def test_a_cmaes_td_run_resumed_after_a_crash_equals_the_uninterrupted_one(cmaes_td_run,
                                                                          tmp_path, fail_at):
    with pytest.raises(Interrupted):
        run(config(**CMAES), run_dir=tmp_path, backend=FlakyBackend(fail_at))
    if not (tmp_path / "checkpoint" / "checkpoint.json").exists():
        run(config(**CMAES), run_dir=tmp_path)
    else:
        run(config(**CMAES, resume=str(tmp_path)))
    assert_same_run(cmaes_td_run, tmp_path)


def test_an_es_td_run_resumed_after_a_crash_equals_the_uninterrupted_one(tmp_path):
    es = {"ga": {"algorithm": "es", "elites": 0, "population": 5}}
    run(config(**es), run_dir=tmp_path / "whole")
    with pytest.raises(Interrupted):
        run(config(**es), run_dir=tmp_path / "crashed", backend=FlakyBackend(10))
    run(config(**es, resume=str(tmp_path / "crashed")))
    assert_same_run(tmp_path / "whole", tmp_path / "crashed")


def test_ray_matches_serial_for_the_cmaes_td_run(cmaes_td_run, ray_session, tmp_path):
    backend = make_backend("ray", RayConfig(workers=2), warm_up=toy_game.register)
    run(config(**CMAES, backend="ray"), run_dir=tmp_path, backend=backend)
    assert_same_run(cmaes_td_run, tmp_path)


KILLED = """
import json, sys
from tests.evolve.ga import toy_game
from evolve.ga.loop import run
toy_game.register()
run(json.loads(sys.argv[1]), run_dir=sys.argv[2])
"""


def test_kill_9_during_a_td_run_then_resume_equals_the_uninterrupted_run(td_run, tmp_path):
    run_dir = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT),
                                                        os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", KILLED, json.dumps(config()), str(run_dir)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    kill_at_the_first_checkpoint(proc, run_dir, last=2)
    run(config(resume=str(run_dir)))
    assert_same_run(td_run, run_dir)


@pytest.mark.parametrize("changes, message", [
    ({"game": {"genome": {"n": 2, "td": False}}},
     "ga.local_search=td needs a genome that learns by temporal differences, and toy_ttt's "
     "cannot with these settings"),
    ({"ga": {"algorithm": "cmaes", "td_learners": "elites"}},
     "ga.td_learners=elites works with ga.algorithm=ga only (got cmaes, which keeps no "
     "elites)"),
    ({"ga": {"td_learners": "elites", "elites": 0}}, "ga.td_learners=elites needs ga.elites >= 1"),
    ({"ga": {"local_search": "sgd"}}, "ga.local_search=sgd must be one of: none, td"),
    ({"ga": {"td_learners": "best"}}, "ga.td_learners=best must be one of: all, elites"),
    ({"ga": {"td_games": 0}}, "ga.td_games=0 must satisfy td_games >= 1"),
    ({"ga": {"td_alpha": 0.0}}, "ga.td_alpha=0.0 must satisfy 0 < td_alpha <= 1"),
    ({"ga": {"td_alpha": 1.5}}, "ga.td_alpha=1.5 must satisfy 0 < td_alpha <= 1 (the share"),
    ({"ga": {"td_epsilon": 1.5}}, "ga.td_epsilon=1.5 must satisfy 0 <= td_epsilon <= 1"),
])
def test_bad_local_search_settings_stop_the_run_at_start_with_one_line(changes, message):
    with pytest.raises(ConfigError) as err:
        to_config(config(**changes))
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_a_game_whose_genome_cannot_learn_is_refused_for_td():
    cfg = {"game": {"name": "reversed_reversi"}, "ga": {"local_search": "td"}}
    with pytest.raises(ConfigError, match=r"^ga.local_search=td needs a genome that learns by "
                                          r"temporal differences, and reversed_reversi's"):
        to_config(cfg)


def test_the_warm_up_of_a_learning_run_plays_a_game_of_td_self_play_too():
    from evolve.execution.games import warm_up

    warm_up(toy_game.NAME, {"genome": {"n": 1}}, learns=True)
    warm_up(toy_game.NAME, {"genome": {"n": 1, "td": False}})  # no learning asked: no TD
    with pytest.raises(ValueError, match="cannot learn by temporal differences"):
        warm_up(toy_game.NAME, {"genome": {"n": 1, "td": False}}, learns=True)
