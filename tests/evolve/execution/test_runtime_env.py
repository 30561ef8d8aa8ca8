"""``ray.runtime_env`` (``evolve.execution.runtime_env``): checked at start in one line naming
the field, passed to ``ray.init`` as Ray's own dict, with the driver's games for workers that do
not have the project installed. No Ray starts here (a stand-in records what ``ray.init`` got);
tests/test_install.py plays a study on a worker node without the project."""

from __future__ import annotations

import json

import pytest

from engine.core import registry
from evolve.errors import ConfigError
from evolve.execution.backends import RayConfig
from evolve.execution.cluster import init_ray
from evolve.execution.runtime_env import GAMES_ENV, check_runtime_env, for_ray, from_option


class RecordingRay:
    def __init__(self):
        self.calls = []

    def init(self, **kwargs):
        self.calls.append(kwargs)


def test_the_default_passes_no_runtime_env_to_ray(monkeypatch):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # no token set-up for a stand-in
    ray = RecordingRay()
    init_ray(ray, RayConfig(num_cpus=1))
    assert ray.calls[0]["runtime_env"] is None


def test_py_modules_by_package_name_ship_the_packages_folders_and_the_drivers_games(monkeypatch):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    ray = RecordingRay()
    init_ray(ray, RayConfig(num_cpus=1, runtime_env={"py_modules": ["engine", "evolve"],
                                                     "working_dir": None}))
    env = ray.calls[0]["runtime_env"]
    import engine
    import evolve

    assert env["py_modules"] == [str(p.__path__[0]) for p in (engine, evolve)]
    assert "working_dir" not in env  # null fields are not Ray's
    assert env["excludes"] == ["__pycache__/"]  # the driver's caches stay home
    games = json.loads(env["env_vars"][GAMES_ENV])
    assert next(iter(games)) == registry.default_game()
    assert games["othello"] == "engine.reversi.game:OTHELLO"


def test_a_users_env_vars_are_kept_as_strings_beside_the_games():
    env = for_ray({"env_vars": {"NUMBA_CACHE_DIR": "/var/tmp/numba", "N": 3}})
    assert env["env_vars"]["NUMBA_CACHE_DIR"] == "/var/tmp/numba"
    assert env["env_vars"]["N"] == "3" and GAMES_ENV in env["env_vars"]


def test_uris_and_existing_folders_pass_unchanged(tmp_path):
    env = check_runtime_env({"working_dir": "s3://bucket/code.zip",
                             "py_modules": [str(tmp_path), "gs://b/m.zip"], "pip": ["numba"]})
    assert env["py_modules"] == [str(tmp_path), "gs://b/m.zip"] and env["pip"] == ["numba"]


@pytest.mark.parametrize("value, start", [
    ("foo", "ray.runtime_env=foo must be a mapping"),
    ({"working_dir": "/no/such/folder"}, "ray.runtime_env.working_dir=/no/such/folder: no such"),
    ({"py_modules": ["no_such_package_here"]}, "ray.runtime_env.py_modules: no_such_package"),
    ({"py_modules": "evolve"}, "ray.runtime_env.py_modules=evolve must be a list"),
    ({"pip": 5}, "ray.runtime_env.pip=5 must be"),
    ({"env_vars": [1]}, "ray.runtime_env.env_vars=[1] must be a mapping"),
])
def test_a_bad_field_is_refused_in_one_line_naming_it(value, start):
    with pytest.raises(ConfigError) as err:
        check_runtime_env(value)
    assert str(err.value).startswith(start) and "\n" not in str(err.value)


def test_the_command_line_option_takes_json_or_a_yaml_file(tmp_path):
    file = tmp_path / "env.yaml"
    file.write_text("py_modules: [evolve]\nenv_vars: {A: b}\n")
    assert from_option(str(file))["env_vars"] == {"A": "b"}
    assert from_option('{"pip": ["numba"]}') == {"pip": ["numba"]}
    with pytest.raises(ValueError, match=r"^--runtime-env pip=5 must be"):
        from_option('{"pip": 5}')
    with pytest.raises(ValueError, match=r"^--runtime-env missing.yaml: not a JSON object"):
        from_option("missing.yaml")


def test_evaluate_refuses_a_bad_runtime_env_before_any_game(capsys):
    from evolve.arena.evaluate import main

    code = main(["wpc1", "--vs", "random", "--runtime-env", '{"working_dir": "/no/such"}'])
    assert code != 0
    assert "--runtime-env working_dir=/no/such: no such folder" in capsys.readouterr().err


def test_a_worker_without_the_project_finds_the_drivers_games_by_name(monkeypatch):
    monkeypatch.setattr(registry, "entry_points", lambda group: [])  # nothing installed
    monkeypatch.setenv(GAMES_ENV, json.dumps({"othello": "engine.reversi.game:OTHELLO",
                                              "reversed_reversi":
                                              "engine.reversi.game:REVERSED_REVERSI"}))
    registry._entry_points.cache_clear()
    registry.default_game.cache_clear()
    try:
        assert registry.game_names() == ["othello", "reversed_reversi"]
        assert registry.get_game("reversed_reversi").name == "reversed_reversi"
    finally:
        registry._entry_points.cache_clear()
        registry.default_game.cache_clear()


def test_a_ray_runtime_env_field_the_defaults_do_not_list_needs_a_plus(capsys):
    from evolve.__main__ import check_overrides

    check_overrides(["+ray.runtime_env.excludes=[outputs]", "ray.runtime_env.pip=[numba]"])
    with pytest.raises(SystemExit):
        check_overrides(["ray.runtime_env.excludes=[outputs]"])
    assert "+ray.runtime_env.excludes=..." in capsys.readouterr().err


def test_a_sweeps_omegaconf_node_is_taken_as_a_plain_dict():
    from omegaconf import OmegaConf

    node = OmegaConf.create({"runtime_env": {"py_modules": ["evolve"], "pip": None}})
    assert list(for_ray(node.runtime_env)) == ["py_modules", "excludes", "env_vars"]
    assert for_ray({"py_modules": ["evolve"], "excludes": []})["excludes"] == []
