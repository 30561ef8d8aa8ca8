"""A test run ends with its own exit status and leaves nothing behind: a small pytest session
that uses the process's Ray, numba kernels, the web server and chromium, run several times in
a subprocess, exits 0 every time (no crash in the interpreter's shutdown: Ray is started once
and stopped once, ``tests/ray_once.py``) and leaves its temporary folder as pytest's own."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.engine.web.server import chromium_available

ROOT = Path(__file__).resolve().parent.parent
SESSION = [
    "tests/evolve/arena/test_schedule.py::test_ray_backend_gives_the_serial_results",
    "tests/engine/web/test_web_browser.py::test_undo_takes_the_position_back_to_the_persons_turn",
    "tests/engine/reversi/test_perft.py",
]
RUNS = 3


@pytest.mark.slow  # three sessions, each starting Ray and chromium: about a minute
@pytest.mark.skipif(not chromium_available(),
                    reason="needs Debian's chromium (.ci/run installs it)")
def test_a_session_with_ray_numba_and_chromium_exits_0_and_leaves_no_files():
    for attempt in range(RUNS):
        with tempfile.TemporaryDirectory(prefix="be-exit-", dir="/tmp") as folder:
            leaves_nothing_but_pytests_own(attempt, Path(folder))


def leaves_nothing_but_pytests_own(attempt: int, temp: Path) -> None:
    """A session whose temporary folder is ``temp`` (short: Ray's socket paths must fit)."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_TMPDIR"} | {"TMPDIR": str(temp)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q",
         f"--basetemp={temp / 'pytest'}", *SESSION],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (attempt, proc.stdout[-4000:], proc.stderr[-4000:])
    assert " passed" in proc.stdout.splitlines()[-1]
    assert sorted(p.name for p in temp.iterdir()) == ["pytest"], attempt
