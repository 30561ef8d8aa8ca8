"""A study's config is resolved once: one ``resolve`` validates it and builds its game, genome
spec, bounds and panel, and a whole study builds no other game from its config."""

import inspect
from pathlib import Path

import numpy as np

from engine.core import registry
from evolve.ga.config import ResolvedConfig, resolve
from evolve.ga.loop import run
from tests.evolve.ga.test_determinism import config

GA_DIR = Path(__file__).resolve().parents[3] / "evolve" / "ga"


def test_resolve_returns_the_config_with_its_game_spec_bounds_and_panel():
    r = resolve(config("ga.bound_scale=2.0"))
    assert isinstance(r, ResolvedConfig)
    assert r.game.name == r.config.game.name
    assert r.spec.names == r.game.genome_spec().names
    low, high = r.spec.default_bounds()
    np.testing.assert_array_equal(r.bounds[0], 2.0 * np.asarray(low, dtype=np.float64))
    np.testing.assert_array_equal(r.bounds[1], 2.0 * np.asarray(high, dtype=np.float64))
    assert r.panel == tuple(r.config.yardstick.panel or r.game.default_panel)
    assert resolve(config("yardstick.enabled=false")).panel == ()


def test_a_smoke_study_builds_its_game_from_the_config_once(tmp_path, monkeypatch):
    """Every ``get_game`` the study's own code (``evolve/ga``) makes is counted; the workers'
    game cache (``evolve.execution``) is not the config's."""
    real, callers = registry.get_game, []

    def counting(*args, **kwargs):
        callers.append(Path(inspect.stack()[1].filename).resolve())
        return real(*args, **kwargs)

    monkeypatch.setattr(registry, "get_game", counting)
    run(config("backend=serial"), run_dir=tmp_path)
    from_config = [f for f in callers if f.is_relative_to(GA_DIR)]
    assert len(from_config) == 1, from_config
