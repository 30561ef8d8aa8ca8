"""Loaded by pytest before any test module: numba's cache is keyed by the sources it compiles
(``tests/numba_cache.py``), so a local run never tests stale kernels."""

import pytest

from tests.numba_cache import use_keyed_cache

KEYED_CACHE = use_keyed_cache()


# One CI run (clean clone, 2,512 tests) ended with a segmentation fault after pytest had printed
# its summary, in the interpreter's shutdown (threads of Ray, chromium's driver or numba still
# alive), which turned the run's result into exit code 139. The result is known once the
# session finishes: leave with it, skipping the shutdown.
_exit_status: list[int] = []


def pytest_sessionfinish(session, exitstatus):
    _exit_status.append(int(exitstatus))


@pytest.hookimpl(trylast=True)  # after every other plugin has finished its own
def pytest_unconfigure(config):
    import os
    import sys

    if _exit_status and not os.environ.get("BOARD_EVOLVE_TEST_SHUTDOWN"):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status[-1])
