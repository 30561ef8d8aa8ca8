"""A champion file as a seed reference (``game.seed_references=[file.json]``): a study starts
from a TD-trained network or an earlier champion; a file of another genome stops the run at
start with one line naming it."""

import numpy as np
import pytest

from evolve.ga.configuration.config import ConfigError, resolve, to_config
from evolve.ga.study import Study
from tests.evolve.ga import toy_game
from tests.evolve.ga.test_local_search import config


@pytest.fixture(scope="module", autouse=True)
def toy():
    with toy_game.registered() as game:
        yield game


def saved(game, path, seed=3):
    genome = np.random.default_rng(seed).uniform(-0.5, 0.5, game.genome_spec().size)
    game.save_champion(path, genome, "a trained network")
    return genome


@pytest.mark.parametrize("algorithm", ["ga", "es"])
def test_the_first_population_starts_from_the_file(toy, tmp_path, algorithm):
    cfg = config(game={"name": toy_game.NAME, "genome": {"n": 2}},
                 ga={"local_search": "none", "algorithm": algorithm, "population": 7})
    game = toy.with_settings({"genome": {"n": 2}})
    genome = saved(game, tmp_path / "net.json")
    cfg["game"]["seed_references"] = [str(tmp_path / "net.json")]
    study = Study(resolve(cfg), tmp_path / "run")
    genomes = study.initial_state().population.genomes
    if algorithm == "ga":  # the first seeded individual is the file's genome
        np.testing.assert_array_equal(genomes[0], genome)
    else:  # the ES's centre
        np.testing.assert_allclose(genomes[0], genome)


def test_a_file_of_another_genome_is_one_line_at_start(toy, tmp_path):
    saved(toy.with_settings({"genome": {"n": 3}}), tmp_path / "big.json")
    cfg = config(game={"name": toy_game.NAME, "genome": {"n": 2},
                       "seed_references": [str(tmp_path / "big.json")]})
    with pytest.raises(ConfigError) as err:
        to_config(cfg)
    message = str(err.value)
    assert message.startswith(f"game.seed_references: {tmp_path / 'big.json'}: its genome")
    assert "\n" not in message


def test_a_missing_file_is_named(tmp_path):
    cfg = config(game={"name": toy_game.NAME, "genome": {"n": 2},
                       "seed_references": [str(tmp_path / "none.json")]})
    with pytest.raises(ConfigError, match=r"game.seed_references: .*none.json"):
        to_config(cfg)
