"""Studies and evaluations on a real multi-node Ray cluster (``ray.cluster_utils.Cluster``: a
head without CPUs and one-CPU worker nodes, all on this machine, each node its own raylet):
joining by address, a node lost mid-generation, a node joining mid-run, every node lost (a
bounded wait, then resume), the driver killed with SIGKILL and resumed on the same cluster, and
``evolve.evaluate`` on the cluster. Every run must end exactly like the serial run.

The tests share one cluster (starting a head costs seconds) and run in file order; each leaves
the cluster with its two worker nodes, except the last, which removes them all."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

from evolve.arena import evaluate as ev
from evolve.execution.cluster import ClusterLostError
from evolve.execution.ray_backend import RayBackend
from evolve.ga.configuration.config import to_config
from evolve.ga.loop import run
from evolve.ga.scoring.tournament import warm_up
from tests.evolve.ga.test_determinism import assert_same_run, kill_at_the_first_checkpoint
from tests.sessions import session_processes, stop_session

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

ROOT = Path(__file__).resolve().parents[2]
TINY = ["+experiment=smoke", "search.depth=2", "search.endgame_empties=6", "ga.population=5",
        "ga.generations=2", "ga.elites=1", "games.openings=2", "plot=false", "progress=false"]


def config(*overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return compose("config", overrides=[*TINY, *overrides])


@contextlib.contextmanager
def unlisted_cluster(head_cpus: int):
    """A ``Cluster`` on this machine that is not written to Ray's ``ray_current_cluster``, where
    a plain ``ray.init()`` in another process would find and join it (the tests name it by
    address); shut down however the block ends."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ray._private.utils, "write_ray_address", lambda *a, **k: None)
        patch.setattr(ray._common.utils, "reset_ray_address", lambda *a, **k: None)
        c = cluster_utils.Cluster(initialize_head=True, connect=False, head_node_args={
            "num_cpus": head_cpus, "include_dashboard": False})
        try:
            yield c
        finally:
            c.shutdown()


@pytest.fixture(scope="module")
def cluster():
    """A head that plays nothing (0 CPUs) and two worker nodes with one CPU each."""
    if ray.is_initialized():
        ray.shutdown()
    with unlisted_cluster(head_cpus=0) as c:
        for _ in range(2):
            c.add_node(num_cpus=1)
        c.wait_for_nodes()
        yield c


@pytest.fixture(scope="module")
def serial_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("serial")
    run(config(), run_dir=d)
    return d


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


# a head of its own: ~50 s on a loaded 2-CPU machine; the default set keeps a study joining a
# cluster by its address
@pytest.mark.slow
def test_the_documented_path_ray_start_head_then_a_study_with_address_auto(serial_run,
                                                                          tmp_path):
    """``ray start --head --port ...`` as a user would (in its own session, so the test can stop
    exactly its processes), then ``python -m evolve ... ray.address=auto``."""
    from ray._private.services import get_node_ip_address

    port, ip, log = free_port(), get_node_ip_address(), tmp_path / "ray-start.log"
    # where `ray start` writes its address (below RAY_TMPDIR when set: tests/ray_once.py)
    started = Path(ray._common.utils.get_default_ray_temp_dir()) / "ray_current_cluster"
    head = subprocess.Popen(
        ["ray", "start", "--head", f"--port={port}", "--num-cpus=1", "--include-dashboard=false",
         "--disable-usage-stats", "--block"], start_new_session=True,
        stdout=log.open("w"), stderr=subprocess.STDOUT)
    try:
        # ``auto`` finds the cluster ``ray start`` last started on this machine (and, like
        # it, turns on Ray's token authentication when ~/.ray/auth_token exists)
        deadline = time.monotonic() + 90
        while not (started.exists() and started.read_text().strip() == f"{ip}:{port}"):
            assert head.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
            time.sleep(0.5)
        study = evolve_process(tmp_path, *TINY, "backend=ray", "ray.address=auto",
                               f"hydra.run.dir={tmp_path / 'run'}", stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               drop_env=("RAY_ADDRESS",))
        _, err = study.communicate(timeout=300)
        assert study.returncode == 0, err
    finally:
        stop_session(head.pid)
        if started.exists() and started.read_text().strip() == f"{ip}:{port}":
            started.unlink()  # what `ray stop` would do: no later ray.init() looks for it
    assert head.wait(timeout=10) is not None and not session_processes(head.pid)
    assert_same_run(serial_run, tmp_path / "run")


class ClusterEventBackend(RayBackend):
    """A Ray backend that calls ``event()`` once, just before collecting the first finished
    chunk for which ``when(chunks collected so far)`` holds: the cluster changes while games
    are in flight. ``sizes``: the pool's size when each chunk came back."""

    def __init__(self, cfg, when, event):
        super().__init__(cfg.ray, warm_up=functools.partial(warm_up, cfg.game.name,
                                                            cfg.game.settings))
        self.when, self.event, self.collected, self.sizes = when, event, 0, []

    def _collect(self, ref) -> None:
        self.collected += 1
        self.sizes.append(self.pool.size())
        if self.event is not None and self.when(self.collected):
            self.event()
            self.event = None
        super()._collect(ref)


def wait_for_cpus(cpus: int, timeout: float = 30) -> None:
    """Until the cluster's live nodes have ``cpus`` CPUs (a node loss takes ~1 s to show)."""
    deadline = time.monotonic() + timeout
    while ray.cluster_resources().get("CPU", 0) != cpus:
        assert time.monotonic() < deadline, f"the cluster never showed {cpus} CPUs"
        time.sleep(0.1)


def cluster_config(cluster, *overrides):
    return to_config(config("backend=ray", f"ray.address={cluster.address}", *overrides))


def execution_log(caplog) -> str:
    return "\n".join(r.getMessage() for r in caplog.records if r.name == "evolve.execution")


def test_a_study_joining_a_cluster_by_address_matches_the_serial_run(cluster, serial_run,
                                                                   tmp_path):
    run(config("backend=ray", f"ray.address={cluster.address}"), run_dir=tmp_path)
    assert_same_run(serial_run, tmp_path)
    assert not ray.is_initialized()  # the run left the cluster again


def test_a_node_lost_mid_generation_loses_no_game_and_the_pool_shrinks(cluster, serial_run,
                                                                      tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="evolve.execution")
    doomed = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()

    def lose_the_node():
        cluster.remove_node(doomed)
        wait_for_cpus(2)

    cfg = cluster_config(cluster)
    backend = ClusterEventBackend(cfg, when=lambda n: n == 3, event=lose_the_node)
    assert backend.pool.size() == 3
    run(cfg, run_dir=tmp_path, backend=backend)
    assert_same_run(serial_run, tmp_path)
    text = execution_log(caplog)
    assert "ray: lost a worker" in text and "the cluster has 2 CPUs" in text
    assert backend.sizes[-1] == 2 and backend.pool.cpus == 2


def test_a_node_joining_mid_run_grows_the_pool(cluster, serial_run, tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="evolve.execution")
    joined = []
    cfg = cluster_config(cluster)

    def add_a_node_and_wait_for_its_worker():
        joined.append(cluster.add_node(num_cpus=1))
        cluster.wait_for_nodes()
        wait_for_cpus(3)
        backend.pool.resize()
        backend.pool.wait_warm(60)

    backend = ClusterEventBackend(cfg, when=lambda n: n == 1,
                                  event=add_a_node_and_wait_for_its_worker)
    assert backend.pool.size() == 2
    try:
        run(cfg, run_dir=tmp_path, backend=backend)
    finally:
        for node in joined:
            cluster.remove_node(node)
    assert_same_run(serial_run, tmp_path)
    assert backend.sizes[0] == 2 and backend.sizes[-1] == 3
    assert "the cluster now has 3 CPUs (was 2)" in execution_log(caplog)
    assert "a worker joined; 3 workers playing" in execution_log(caplog)


def test_evaluate_on_the_cluster_gives_the_serial_results(cluster, tmp_path, capsys):
    argv = ["greedy", "--vs", "random", "wpc1", "--games", "8", "--depth", "1", "--seed", "3",
            "--variant", "reversed"]
    assert ev.main([*argv, "--backend", "serial", "--json", str(tmp_path / "serial.json")]) == 0
    assert ev.main([*argv, "--ray-address", cluster.address,
                    "--json", str(tmp_path / "cluster.json")]) == 0
    serial, on_cluster = ((tmp_path / f"{n}.json").read_text() for n in ("serial", "cluster"))
    assert ev_matches(serial) == ev_matches(on_cluster)


def ev_matches(text: str) -> list:
    import json

    return json.loads(text)["matches"]


def evolve_process(tmp_path: Path, *args: str, drop_env=(), **kwargs):
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {k: v for k, v in os.environ.items() if k not in drop_env} | {"PYTHONPATH": path}
    return subprocess.Popen([sys.executable, "-m", "evolve", *args], cwd=tmp_path, env=env,
                            **kwargs)


# two drivers start in subprocesses: ~25 s here. The default set keeps kill -9 + resume on a
# local Ray (tests/evolve/ga/test_determinism.py) and every node lost then resume on this
# cluster. Three generations, so that generations are still to play after the first checkpoint
# (the kill must come mid-run)
@pytest.mark.slow
def test_the_driver_killed_then_resumed_on_the_same_cluster_matches(cluster, tmp_path):
    longer = [*TINY, "ga.generations=3"]
    run(config("ga.generations=3"), run_dir=tmp_path / "serial")
    run_dir = tmp_path / "killed"
    proc = evolve_process(tmp_path, *longer, "backend=ray", f"ray.address={cluster.address}",
                          f"hydra.run.dir={run_dir}", stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    kill_at_the_first_checkpoint(proc, run_dir, last=2)
    resumed = evolve_process(tmp_path, f"resume={run_dir}", f"ray.address={cluster.address}",
                             f"hydra.run.dir={tmp_path / 'resume-log'}", stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    _, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert_same_run(tmp_path / "serial", run_dir)


def test_every_node_lost_stops_in_one_line_then_resume_finishes_the_run(cluster, serial_run,
                                                                       tmp_path, caplog):
    """Last test: it removes every worker node of the shared cluster."""
    caplog.set_level(logging.WARNING, logger="evolve.execution")
    cfg = cluster_config(cluster, "ray.no_worker_timeout=3")

    def lose_every_node():
        for node in list(cluster.worker_nodes):
            cluster.remove_node(node)

    checkpoint = tmp_path / "checkpoint" / "checkpoint.json"
    backend = ClusterEventBackend(cfg, when=lambda n: checkpoint.exists(), event=lose_every_node)
    # how fast it stops: experiments/bench/study/cluster_loss.py
    with pytest.raises(ClusterLostError) as err:
        run(cfg, run_dir=tmp_path, backend=backend)
    message = str(err.value)
    assert "\n" not in message and "the cluster has had no CPU for 3 s" in message
    assert "no worker left and no CPU in the cluster; waiting up to 3 s" in execution_log(caplog)
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    run(config("backend=ray", f"ray.address={cluster.address}", f"resume={tmp_path}"))
    assert_same_run(serial_run, tmp_path)
