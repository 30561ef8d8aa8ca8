"""One Ray per test process, started once and never restarted in it.

Ray keeps native gRPC and GCS threads alive after ``ray.shutdown()`` and leaks more with each
init/shutdown cycle; a process that restarts Ray can crash in the interpreter's shutdown
(ray-project/ray#31145). So a test that needs Ray asks for the ``ray_session`` fixture; the
code under test finds Ray running and leaves it up (a backend stops only a Ray it started).
Tests that must own a Ray or a cluster (join one by address, stop it, lose its nodes) live in
``tests/own_ray/`` and run in a pytest process of their own (``tests/test_own_ray.py``), where
``OWNS_RAY`` turns this guard off.
"""

from __future__ import annotations

import os
import shutil
import tempfile

OWNS_RAY = "BOARD_EVOLVE_TEST_OWNS_RAY"
NUM_CPUS = 2
_state = {"real_init": None, "real_shutdown": None, "started": False, "temp": None}


def use_private_temp_dir() -> None:
    """Every Ray the test run starts (its own, those of the commands it runs, the clusters of
    ``tests/own_ray``) keeps its session files under one folder of the run's, removed at the
    end (``remove_private_temp_dir``), instead of piling up in /tmp/ray. Kept short: Ray's
    socket paths must fit in 107 characters. A ``RAY_TMPDIR`` set by the user is left alone."""
    if "RAY_TMPDIR" in os.environ:
        return
    base = tempfile.gettempdir()
    _state["temp"] = tempfile.mkdtemp(prefix="be-ray-", dir=base if len(base) <= 40 else "/tmp")
    os.environ["RAY_TMPDIR"] = _state["temp"]


def remove_private_temp_dir() -> None:
    if _state["temp"] is not None:
        shutil.rmtree(_state["temp"], ignore_errors=True)
        os.environ.pop("RAY_TMPDIR", None)
        _state["temp"] = None


def guard() -> None:
    """Make ``ray.init`` and ``ray.shutdown`` outside this module fail with one line."""
    if os.environ.get(OWNS_RAY) or _state["real_init"] is not None:
        return
    try:
        import ray
    except ImportError:
        return
    _state.update(real_init=ray.init, real_shutdown=ray.shutdown)

    def init(*args, **kwargs):
        raise RuntimeError(
            "a test started Ray by itself: ask for the `ray_session` fixture (one Ray per test "
            "process), or move the test to tests/own_ray/ if it must own a Ray or a cluster")

    def shutdown(*args, **kwargs):
        raise RuntimeError(
            "a test stopped the test process's Ray: the code under test should leave a Ray it "
            "did not start running; tests that must stop Ray belong in tests/own_ray/")

    ray.init, ray.shutdown = init, shutdown


def start() -> None:
    import ray

    if ray.is_initialized():
        return
    init = _state["real_init"] or ray.init
    init(address="local", num_cpus=NUM_CPUS, include_dashboard=False, log_to_driver=False)
    _state["started"] = True


def stop() -> None:
    import ray

    if _state["started"]:
        (_state["real_shutdown"] or ray.shutdown)()
        _state["started"] = False
