"""Loaded by pytest before any test module.

- numba's cache is keyed by the sources it compiles (``tests/numba_cache.py``), so a local run
  never tests stale kernels.
- One Ray per test process (``tests/ray_once.py``): started by the first test that asks for
  ``ray_session``, never restarted; a test that starts or stops Ray by itself fails with one
  line saying what to do instead.
- Under ``pytest-xdist`` the Ray tests go to two groups of whole modules (at most two workers
  start a Ray), and every test module with an expensive shared fixture stays on one worker
  (``tests/xdist_groups.py``).
- A command line run in the test process (Hydra's job logging) adds root log handlers on that
  test's captured stderr; they are removed after the test, or the next test's log lines would
  meet a closed stream and print a logging error into what it reads.
"""

import logging
import os

import pytest

from tests import ray_once, xdist_groups
from tests.numba_cache import use_keyed_cache

KEYED_CACHE = use_keyed_cache()


def pytest_configure(config):
    ray_once.guard()
    if not hasattr(config, "workerinput"):  # the run's first process; xdist workers inherit it
        ray_once.use_private_temp_dir()


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        ray_once.remove_private_temp_dir()


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than cores, so that a core whose worker waits on a clock, a
    browser or a starting Ray runs another test meanwhile (``--maxprocesses`` still caps it)."""
    return (os.cpu_count() or 1) + 1


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups into the test ids
def pytest_collection_modifyitems(config, items):
    without_slow = (config.option.markexpr or "").strip() == "not slow"  # the default tier
    xdist_groups.assign(items, lambda item: without_slow and item.get_closest_marker("slow"))
    if hasattr(config, "workerinput"):  # an xdist worker; with -n 0 the order stays as written
        xdist_groups.long_first(items)


@pytest.fixture(scope="session")
def ray_session():
    """The test process's one embedded Ray (2 CPUs), stopped once when the session ends."""
    ray = pytest.importorskip("ray")
    ray_once.start()
    yield ray
    ray_once.stop()


@pytest.fixture(autouse=True)
def _root_log_handlers_restored():
    root = logging.getLogger()
    before, level = set(root.handlers), root.level
    yield
    for handler in root.handlers[:]:
        if handler not in before and not type(handler).__module__.startswith("_pytest"):
            root.removeHandler(handler)
    root.setLevel(level)
