"""Config: the composed defaults and experiments are valid; each bad value is refused with one
line naming the key and what is allowed."""

from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

from evolve.config import Config, ConfigError, config_hash, to_config

CONF = str(Path(__file__).resolve().parent.parent / "conf")


def composed(*overrides):
    with initialize_config_dir(config_dir=CONF, version_base="1.3"):
        return compose("config", overrides=list(overrides))


@pytest.mark.parametrize("experiment", ["smoke", "reversed_reversi", "othello"])
def test_experiments_compose_into_valid_typed_configs(experiment):
    c = to_config(composed(f"+experiment={experiment}"))
    assert isinstance(c, Config)
    assert 0 <= c.ga.elites < c.ga.population


def test_experiments_pick_their_game():
    assert to_config(composed("+experiment=othello")).game.name == "othello"
    assert to_config(composed("+experiment=reversed_reversi")).game.name == "reversed_reversi"
    assert to_config(composed("game=othello")).game.seed_references == ["wpc"]


def test_command_line_overrides_reach_the_typed_config():
    c = to_config(composed("ga.population=20", "ga.generations=30", "ga.elites=2",
                           "search.depth=4", "ga.phases=4", "backend=serial"))
    got = (c.ga.population, c.ga.generations, c.ga.elites, c.search.depth, c.ga.phases)
    assert got == (20, 30, 2, 4, 4)


@pytest.mark.parametrize("override, message", [
    ("ga.population=1", "ga.population=1 must satisfy population >= 2"),
    ("ga.elites=14", "ga.elites=14 must satisfy 0 <= elites < population (14)"),
    ("ga.elites=-1", "ga.elites=-1 must satisfy 0 <= elites < population (14)"),
    ("ga.generations=0", "ga.generations=0 must satisfy generations >= 1"),
    ("search.depth=0", "search.depth=0 must satisfy depth >= 1"),
    ("ga.mutation_prob=1.5", "ga.mutation_prob=1.5 must satisfy 0 <= value <= 1"),
    ("ga.crossover_prob=-0.1", "ga.crossover_prob=-0.1 must satisfy 0 <= value <= 1"),
    ("games.min_plies=9", "games.max_plies=8 must satisfy 1 <= min_plies (9) <= max_plies <= 20"),
    ("games.loss=10", "games.win=5.0 must satisfy win >= draw (0.0) >= loss (10.0) and win > loss"),
    ("backend=spark", "backend=spark must be one of: serial, ray"),
    ("ga.selection=roulette", "ga.selection=roulette must be one of: tournament, rank"),
    ("game.name=chess", "game.name=chess must be one of: othello, reversed_reversi"),
    ("ga.population=many", "ga.population"),
    ("ga.symmetric=maybe", "ga.symmetric"),
])
def test_bad_values_are_refused_with_one_line_naming_the_key(override, message):
    with pytest.raises(ConfigError) as err:
        to_config(composed(override))
    text = str(err.value)
    assert message in text and "\n" not in text


def test_unknown_keys_are_refused():
    with pytest.raises(ConfigError, match="populaton"):
        to_config({"ga": {"populaton": 3}})


def test_config_hash_ignores_where_the_run_executes_but_not_what_it_computes():
    base = to_config(composed("+experiment=smoke"))
    assert config_hash(base) == config_hash(to_config(composed("+experiment=smoke", "backend=ray")))
    assert config_hash(base) != config_hash(to_config(composed("+experiment=smoke", "seed=1")))
