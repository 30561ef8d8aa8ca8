"""The Co-CMA-ES study (``+experiment=othello_cocmaes``): separable CMA-ES over the 4+2x2
Othello network from zero weights, a round robin from 7-ply openings at 1 ply; the same run
serial or on Ray, and the published scale is the same file with other numbers."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from evolve.ga.configuration.config import to_config
from evolve.ga.configuration.schema import make_game, seed_genome
from evolve.ga.loop import run
from tests.evolve.ga.test_determinism import assert_same_run

pytest.importorskip("cma")
ROOT = Path(__file__).resolve().parents[3]
SMALL = ["ga.population=4", "ga.generations=2", "yardstick.openings=1",
         "yardstick.hall_of_fame_every=1", "playoff.generations=2", "playoff.openings=1",
         "plot=false", "progress=false"]


def config(*overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return compose("config", overrides=["+experiment=othello_cocmaes", *overrides])


def test_the_study_is_the_published_recipe_and_scales_by_numbers_only():
    c = to_config(config())
    assert (c.ga.algorithm, c.ga.cma_diagonal, c.search.depth, c.search.endgame_empties) == \
        ("cmaes", True, 1, 0)
    assert (c.games.min_plies, c.games.max_plies, c.game.seed_references) == (7, 7, ["zero"])
    game = make_game(c)
    assert game.genome_spec().size == 31 * 81  # 21 straight 4-tuples + 10 2x2 squares
    np.testing.assert_array_equal(seed_genome(game, "zero"), np.zeros(31 * 81))
    big = to_config(config("ga.population=400", "ga.generations=2000"))
    assert (big.ga.population, big.ga.generations) == (400, 2000)


@pytest.fixture(scope="module")
def serial_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("cocmaes")
    run(config(*SMALL, "backend=serial"), run_dir=d)
    return d


def test_a_generation_is_a_round_robin_of_the_samples_from_7_ply_openings(serial_run):
    games = pd.read_csv(serial_run / "games.csv")
    first = games[games.generation == 0]
    assert len(first) == 4 * 3  # 6 pairs, one opening with both colours
    pairs = {tuple(sorted(p)) for p in zip(first.black_id, first.white_id, strict=True)}
    assert len(pairs) == 6
    assert (first.opening.str.split().str.len() == 7).all()


def test_ray_matches_serial_for_the_cocmaes_study(serial_run, ray_session, tmp_path):
    run(config(*SMALL, "backend=ray", "ray.workers=2"), run_dir=tmp_path)
    assert_same_run(serial_run, tmp_path)
