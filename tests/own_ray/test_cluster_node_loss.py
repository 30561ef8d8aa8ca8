"""Losing a node mid-study, as a user runs it: a 2-node cluster (head with 1 CPU, one worker
node with 1 CPU), ``python -m evolve ... ray.address=<cluster>`` at depth 5 with 16
individuals for 12 generations, and the worker node removed once the first generation is in.
The study must not wait for a CPU that no longer exists: it finishes on the head alone with
exactly the serial run's tables and champion. Minutes: ``-m slow``."""

from __future__ import annotations

import subprocess
import time

import pytest

from tests.evolve.ga.test_determinism import assert_same_run
from tests.own_ray.test_cluster import evolve_process, unlisted_cluster

SCENARIO = ["+experiment=smoke", "ga.population=16", "search.depth=5", "ga.generations=12",
            "plot=false"]


@pytest.mark.slow
@pytest.mark.timeout(3600)  # two depth-5 studies at once: ~10 min on a loaded 2-CPU machine
def test_the_issue_scenario_finishes_with_the_serial_champion_after_losing_a_node(tmp_path):
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "text": True}
    # the uninterrupted serial run starts with the cluster run: both run the same code
    serial = evolve_process(tmp_path, *SCENARIO, "backend=serial",
                            f"hydra.run.dir={tmp_path / 'serial'}", **quiet)
    with unlisted_cluster(head_cpus=1) as cluster:
        worker = cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        run_dir = tmp_path / "cluster"
        proc = evolve_process(tmp_path, *SCENARIO, "backend=ray",
                              f"ray.address={cluster.address}", f"hydra.run.dir={run_dir}",
                              **quiet)
        deadline = time.monotonic() + 600
        while not (run_dir / "generations.csv").exists() and proc.poll() is None:
            assert time.monotonic() < deadline, "no generation finished in 600 s"
            time.sleep(0.1)
        cluster.remove_node(worker)
        lost_at = time.monotonic()
        _, err = proc.communicate(timeout=3000)
        assert proc.returncode == 0, err[-3000:]
        print(f"finished {time.monotonic() - lost_at:.0f} s after the node loss")
    _, err = serial.communicate(timeout=3000)
    assert serial.returncode == 0, err[-3000:]
    log = (run_dir / "evolve.log").read_text()
    assert "ray: lost a worker" in log and "the cluster now has 1 CPUs (was 2)" in log
    assert_same_run(tmp_path / "serial", run_dir)
