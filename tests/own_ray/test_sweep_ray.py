"""An Optuna sweep on Ray with Hydra's basic launcher starts Ray once for all its trials and
stops it at the end: the test owns the process's Ray."""

import pytest


def test_trials_on_ray_share_one_ray_started_once_by_the_sweep():
    ray = pytest.importorskip("ray")
    from omegaconf import OmegaConf

    from evolve.sweep.optuna_sweeper import one_ray_for_every_trial

    def config(backend, launcher="hydra._internal.core_plugins.basic_launcher.BasicLauncher"):
        return OmegaConf.create({"backend": backend, "ray": {"address": None, "num_cpus": 1},
                                 "hydra": {"launcher": {"_target_": launcher}}})

    assert not ray.is_initialized()
    with one_ray_for_every_trial(config("serial")):
        assert not ray.is_initialized()
    with one_ray_for_every_trial(config("ray", "some.other.Launcher")):
        assert not ray.is_initialized()  # trials elsewhere: each starts its own
    with one_ray_for_every_trial(config("ray")):
        assert ray.is_initialized()
        from evolve.execution.ray_backend import RayBackend

        backend = RayBackend(OmegaConf.create({"address": None, "num_cpus": 1, "workers": 1,
                                               "chunks_per_worker": 2, "max_retries": 1,
                                               "no_worker_timeout": 60}))
        assert not backend.owns_ray
        backend.close()
        assert ray.is_initialized()  # a trial's backend leaves the sweep's Ray up
    assert not ray.is_initialized()
