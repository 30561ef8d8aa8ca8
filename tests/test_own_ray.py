"""The tests that own a Ray or a cluster (``tests/own_ray/``), each file in a pytest process of
its own: the main test process keeps one Ray for its whole life (``tests/ray_once.py``).

A failure shows the child's own report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ray_once import OWNS_RAY

ROOT = Path(__file__).resolve().parent.parent
OWN_RAY = ROOT / "tests" / "own_ray"
RUNS = [  # (files, the tier of their tests that this run selects): processes that can run side
    # by side under xdist. The sweep shares the cluster's process: a pytest process of its own
    # costs seconds before its first test
    pytest.param(("test_cluster.py",), "slow", id="cluster-slow", marks=pytest.mark.slow),
    pytest.param(("test_sweep_ray.py", "test_cluster.py"), "not slow", id="cluster"),
    pytest.param(("test_cluster_node_loss.py",), "slow", id="node-loss",
                 marks=pytest.mark.slow),
]


def test_every_file_that_owns_ray_is_run():
    assert {n for p in RUNS for n in p.values[0]} == {p.name for p in OWN_RAY.glob("test_*.py")}


@pytest.mark.timeout(3600)
@pytest.mark.parametrize("names, tier", RUNS)
def test_tests_that_own_ray_pass_in_a_process_of_their_own(names, tier):
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q",
         "-m", tier, *(str(OWN_RAY / name) for name in names)],
        cwd=ROOT, env={**os.environ, OWNS_RAY: "1"}, capture_output=True, text=True,
        timeout=3500)
    # 5 would mean no test ran: a run that defends nothing fails too
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
