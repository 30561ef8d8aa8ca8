"""The scenario of issue 13, as a user runs it: a 2-node cluster (head with 1 CPU, one worker
node with 1 CPU), ``python -m evolve ... ray.address=<cluster>`` at depth 5 with 16
individuals for 12 generations, and the worker node removed once the first generation is in.
Before the fix the study waited forever for a CPU that no longer existed; now it must finish on
the head alone with exactly the serial run's tables and champion. Minutes: ``-m slow``."""

from __future__ import annotations

import subprocess
import time

import pytest

from evolve.ga.loop import run
from tests.test_cluster import ROOT, evolve_process, unlisted_cluster
from tests.test_determinism import assert_same_run

SCENARIO = ["+experiment=smoke", "ga.population=16", "search.depth=5", "ga.generations=12",
            "plot=false"]


@pytest.mark.slow
def test_the_issue_scenario_finishes_with_the_serial_champion_after_losing_a_node(tmp_path):
    from hydra import compose, initialize_config_dir

    with unlisted_cluster(head_cpus=1) as cluster:
        worker = cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        run_dir = tmp_path / "cluster"
        proc = evolve_process(tmp_path, *SCENARIO, "backend=ray",
                              f"ray.address={cluster.address}", f"hydra.run.dir={run_dir}",
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 300
        while not (run_dir / "generations.csv").exists() and proc.poll() is None:
            assert time.monotonic() < deadline, "no generation finished in 300 s"
            time.sleep(0.1)
        cluster.remove_node(worker)
        lost_at = time.monotonic()
        _, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err[-3000:]
        print(f"finished {time.monotonic() - lost_at:.0f} s after the node loss")
    log = (run_dir / "evolve.log").read_text()
    assert "ray: lost a worker" in log and "the cluster now has 1 CPUs (was 2)" in log
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        serial = compose("config", overrides=[*SCENARIO, "backend=serial", "progress=false"])
    run(serial, run_dir=tmp_path / "serial")
    assert_same_run(tmp_path / "serial", run_dir)
