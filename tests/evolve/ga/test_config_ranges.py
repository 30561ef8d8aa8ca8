"""Every key of the run configuration has its allowed range, and a value outside it is refused at
start with one line naming the key.

``REFUSED`` is the range table: each key of ``conf/`` (the defaults, every game's config group,
every experiment) and of the schema's dataclasses has at least one value that must be refused,
or an entry in ``EXEMPT`` saying why not. A new key with neither fails
``test_every_key_has_a_value_that_is_refused_or_a_reason_why_not``: give it a range in
``evolve.ga.configuration.validation`` and a row here.

Checked by hand: with the ``ga.sigma_decay`` check of ``evolve.ga.configuration.validation``
commented out, both ``ga.sigma_decay`` rows fail (0 and 1.5 are accepted), as does its command
line test.
"""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from evolve.ga.configuration.config import ConfigError, to_config
from evolve.ga.configuration.schema import Config

ROOT = Path(__file__).resolve().parents[3]
CONF = ROOT / "conf"

# key, the overrides (the key's bad value last; others give it a context), and what the one line
# starts with when it is not the key itself (a relation between keys names one of them)
REFUSED = [
    ("seed", "seed=-1"),
    ("backend", "backend=spark"),
    ("plot", "plot=maybe"),
    ("progress", "progress=maybe"),
    ("game.name", "game.name=chess"),
    ("game.seed_references", "game.seed_references=[bogus]"),
    ("game.size", "game=hexifence game.size=0"),
    ("game.size", "game=hexifence game.size=13"),
    ("game.genome.phases", "game.genome.phases=0"),
    ("game.genome.phases", "game.genome.phases=61"),
    ("game.genome.phases", "game=pentago_twist game.genome.phases=37"),
    ("game.genome.phase_bounds", "game.genome.phase_bounds=[4,20]"),
    ("game.genome.phase_bounds", "game.genome.phase_bounds=[20,65]"),
    ("game.genome.kind", "game.genome.kind=foo"),
    ("game.genome.layout", "game.genome.kind=ntuple game.genome.layout=foo"),
    ("game.genome.symmetry", "game.genome.kind=ntuple game.genome.symmetry=foo"),
    ("game.genome.symmetric", "game.genome.symmetric=maybe"),
    ("game.genome.features", "game.genome.features=[foo]"),
    ("game.endgame_solver", "game.endgame_solver=foo"),
    ("search.depth", "search.depth=0"),
    ("search.endgame_empties", "search.endgame_empties=-1"),
    ("search.endgame_empties", "search.endgame_empties=65"),
    ("ga.population", "ga.population=1"),
    ("ga.generations", "ga.generations=0"),
    ("ga.elites", "ga.elites=-1"),
    ("ga.elites", "ga.elites=14"),
    ("ga.seeded_fraction", "ga.seeded_fraction=-0.1"),
    ("ga.seeded_fraction", "ga.seeded_fraction=1.1"),
    ("ga.seed_noise", "ga.seed_noise=-0.1"),
    ("ga.random_scope", "ga.random_scope=-0.1"),
    ("ga.random_scope", "ga.random_scope=1.1"),
    ("ga.bound_scale", "ga.bound_scale=0"),
    ("ga.selection", "ga.selection=roulette"),
    ("ga.tournament_size", "ga.tournament_size=1"),
    ("ga.crossover", "ga.crossover=foo"),
    ("ga.crossover_prob", "ga.crossover_prob=-0.1"),
    ("ga.crossover_prob", "ga.crossover_prob=1.1"),
    ("ga.uniform_prob", "ga.uniform_prob=-0.1"),
    ("ga.uniform_prob", "ga.uniform_prob=1.1"),
    ("ga.blend_alpha", "ga.blend_alpha=-0.1"),
    ("ga.mutation_prob", "ga.mutation_prob=-0.1"),
    ("ga.mutation_prob", "ga.mutation_prob=1.1"),
    ("ga.sigma", "ga.sigma=-0.1"),
    ("ga.sigma_decay", "ga.sigma_decay=0"),
    ("ga.sigma_decay", "ga.sigma_decay=1.5"),
    ("ga.sigma_min", "ga.sigma_min=-0.1"),
    ("ga.elite_copies", "ga.elite_copies=-1"),
    ("ga.elite_copies", "ga.elite_copies=13"),
    ("ga.immigrants", "ga.immigrants=-1"),
    ("ga.immigrants", "ga.immigrants=13"),
    ("ga.immigrant_below", "ga.immigrant_below=-0.1"),
    ("ga.immigrant_below", "ga.immigrant_below=1.1"),
    ("ga.sharing_radius", "ga.sharing_radius=-0.1"),
    ("ga.sharing_radius", "ga.sharing_radius=1.1"),
    ("ga.algorithm", "ga.algorithm=foo"),
    ("ga.cma_sigma0", "ga.cma_sigma0=0"),
    ("ga.cma_sigma0", "ga.cma_sigma0=1.1"),
    ("ga.mutation_genes", "ga.mutation_genes=-1"),
    ("ga.mutation_genes", "ga.mutation_genes=100000"),
    ("ga.mutation_blocks", "ga.mutation_blocks=-1"),
    ("ga.mutation_blocks", "ga.mutation_blocks=100000"),
    ("ga.cma_diagonal", "ga.cma_diagonal=maybe"),
    ("ga.es_sigma", "ga.es_sigma=0"),
    ("ga.es_sigma", "ga.es_sigma=1.1"),
    ("ga.es_learning_rate", "ga.es_learning_rate=0"),
    ("ga.es_optimizer", "ga.es_optimizer=foo"),
    ("ga.es_shaping", "ga.es_shaping=foo"),
    ("ga.local_search", "ga.local_search=foo"),
    ("ga.td_games", "ga.td_games=0"),
    ("ga.td_alpha", "ga.td_alpha=0"),
    ("ga.td_alpha", "ga.td_alpha=1.1"),
    ("ga.td_epsilon", "ga.td_epsilon=-0.1"),
    ("ga.td_epsilon", "ga.td_epsilon=1.1"),
    ("ga.td_learners", "ga.td_learners=foo"),
    ("games.openings", "games.openings=0"),
    ("games.min_plies", "games.min_plies=0"),
    ("games.min_plies", "games.min_plies=9", "games.max_plies=8 must satisfy 1 <= min_plies (9)"),
    ("games.max_plies", "games.max_plies=21"),
    ("games.win", "games.win=-10"),
    ("games.draw", "games.draw=10"),
    ("games.draw", "games.draw=-10"),
    ("games.loss", "games.loss=10", "games.win=5.0 must satisfy win >= draw (0.0) >= loss (10.0)"),
    ("games.margin", "games.margin=-1"),
    ("games.opponents_per_individual", "games.opponents_per_individual=0"),
    ("games.opponents_per_individual", "games.opponents_per_individual=14"),
    ("games.epsilon", "games.epsilon=-0.1"),
    ("games.epsilon", "games.epsilon=1.1"),
    ("fitness.population", "fitness.population=-1"),
    ("fitness.population", "fitness.population=0"),  # and no other source
    ("fitness.references", "fitness.references=-1"),
    ("fitness.hall_of_fame", "fitness.hall_of_fame=-1"),
    ("fitness.hall_of_fame", "yardstick.hall_of_fame_every=0 fitness.hall_of_fame=1"),
    ("fitness.opponents", "fitness.references=1 fitness.opponents=[foo]"),
    ("fitness.openings", "fitness.openings=0"),
    ("fitness.hall_of_fame_size", "fitness.hall_of_fame_size=0"),
    ("yardstick.enabled", "yardstick.enabled=maybe"),
    ("yardstick.panel", "yardstick.panel=[foo]"),
    ("yardstick.openings", "yardstick.openings=0"),
    ("yardstick.hall_of_fame_every", "yardstick.hall_of_fame_every=-1"),
    ("yardstick.hall_of_fame_size", "yardstick.hall_of_fame_size=-1"),
    ("playoff.enabled", "playoff.enabled=maybe"),
    ("playoff.generations", "playoff.generations=0"),
    ("playoff.openings", "playoff.openings=0"),
    ("ray.num_cpus", "ray.num_cpus=0"),
    ("ray.workers", "ray.workers=0"),
    ("ray.workers", "ray.num_cpus=2 ray.workers=3"),
    ("ray.chunks_per_worker", "ray.chunks_per_worker=0"),
    ("ray.max_retries", "ray.max_retries=-1"),
    ("ray.no_worker_timeout", "ray.no_worker_timeout=0"),
    ("ray.runtime_env", "ray.runtime_env=foo"),
    ("ray.runtime_env.working_dir", "ray.runtime_env.working_dir=/no/such/folder"),
    ("ray.runtime_env.py_modules", "ray.runtime_env.py_modules=[no_such_package_here]"),
    ("ray.runtime_env.pip", "ray.runtime_env.pip=5"),
    ("ray.runtime_env.env_vars", "ray.runtime_env.env_vars=5"),
    ("objective.metric", "objective.metric=foo"),
    ("objective.direction", "objective.direction=foo"),
    ("tracking.backend", "tracking.backend=foo"),
]

# keys with no range of their own, and why
EXEMPT = {
    "resume": "a run directory, checked when the run resumes from it (tests/test_cli.py)",
    "ray.address": "a Ray address, checked when the run reaches it (tests/test_cli.py)",
    "tracking.uri": "any MLflow tracking URI; MLflow reads it when the run starts",
    "tracking.experiment": "any MLflow experiment name",
}


def leaves(node: dict, prefix: str = ""):
    for key, value in node.items():
        if isinstance(value, dict) and value:
            yield from leaves(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}"


def yaml_keys(path: Path, prefix: str = "") -> set[str]:
    node = OmegaConf.to_container(OmegaConf.load(path))
    node.pop("defaults", None)
    node.pop("hydra", None)
    return set(leaves(node, prefix))


def schema_keys(cls=Config, prefix: str = "") -> set[str]:
    keys = set()
    for f in dataclasses.fields(cls):
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else None
        if dataclasses.is_dataclass(default):
            keys |= schema_keys(type(default), f"{prefix}{f.name}.")
        elif f.name != "settings":  # game.settings: the game's own keys, from conf/game/
            keys.add(f"{prefix}{f.name}")
    return keys


def every_key() -> set[str]:
    """The leaf keys of the schema, the defaults, every game's group and every experiment."""
    keys = schema_keys() | yaml_keys(CONF / "config.yaml")
    for path in sorted((CONF / "game").glob("*.yaml")):
        keys |= yaml_keys(path, "game.")
    for path in sorted((CONF / "experiment").glob("*.yaml")):
        keys |= yaml_keys(path)
    return keys


def composed(*overrides):
    with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
        return compose("config", overrides=list(overrides))


def test_every_key_has_a_value_that_is_refused_or_a_reason_why_not():
    keys = every_key()
    ranged = {row[0] for row in REFUSED}
    missing = sorted(keys - ranged - set(EXEMPT))
    assert not missing, (f"keys with no refused value in REFUSED nor a reason in EXEMPT: "
                         f"{missing} (give each a range in evolve.ga.configuration.validation "
                         "and a row here)")
    assert not (ranged | set(EXEMPT)) - keys, "rows for keys that no longer exist"
    assert not ranged & set(EXEMPT)


def test_the_keys_are_found_in_every_source():
    """The enumeration itself: keys only the schema, a game's group or an experiment has."""
    keys = every_key()
    assert {"ga.sigma_decay", "ray.chunks_per_worker", "game.size", "game.genome.layout",
            "game.endgame_solver", "tracking.uri"} <= keys
    assert len(keys) > 80


@pytest.mark.parametrize("row", REFUSED, ids=[row[1] for row in REFUSED])
def test_a_value_outside_the_keys_range_is_refused_with_one_line_naming_it(row):
    key, overrides, *expected = row
    with pytest.raises(ConfigError) as err:
        to_config(composed(*overrides.split()))
    text = str(err.value)
    assert "\n" not in text, text
    if expected:
        assert text.startswith(expected[0]), text
    else:
        assert re.match(rf"{re.escape(key)}[=:]", text), text


def test_the_defaults_and_every_row_without_its_bad_value_are_accepted():
    """Each row is refused for its bad value, not for its context."""
    assert to_config(composed())
    contexts = {" ".join(row[1].split()[:-1]) for row in REFUSED} - {""}
    for context in sorted(contexts):
        assert to_config(composed(*context.split())), context


def evolve(tmp_path, *args):
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "evolve", *args], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True,
                          timeout=600)


def test_the_command_line_refuses_an_out_of_range_value_in_one_line(tmp_path):
    """The same path through ``python -m evolve`` (more of them: tests/test_cli.py)."""
    proc = evolve(tmp_path, "+experiment=smoke", "ga.sigma_decay=1.5",
                  f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: ga.sigma_decay=1.5 must satisfy 0 < sigma_decay <= 1"
    assert "Traceback" not in proc.stdout + proc.stderr
