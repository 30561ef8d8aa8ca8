"""How fast does a study stop when its Ray cluster loses every node? The time from removing the
last worker node to the one-line ``ClusterLostError``, next to its bound
``ray.no_worker_timeout``. ``tests/own_ray/test_cluster.py`` checks that
the run stops in one line and that ``resume=`` then finishes it; how long the stop takes is a
figure of the machine, so it is measured here instead of asserted there.

A local multi-node cluster (``ray.cluster_utils.Cluster``: a head without CPUs and two one-CPU
worker nodes, all on this machine) runs a tiny study; once its first generation is
checkpointed, every worker node is removed.

    python -m experiments.bench.study.cluster_loss --timeout 3 --repeats 3 \
        --out experiments/results/bench_cluster_loss.md
"""

from __future__ import annotations

import functools
import tempfile
import time
from pathlib import Path

from hydra import compose, initialize_config_dir

from evolve.execution.cluster import ClusterLostError
from evolve.execution.ray_backend import RayBackend
from evolve.ga.configuration.config import to_config
from evolve.ga.loop import run
from evolve.ga.scoring.tournament import warm_up
from experiments.common import arguments
from experiments.stamp import ROOT, Stamp, write_json, write_markdown

TINY = ["+experiment=smoke", "search.depth=2", "search.endgame_empties=6", "ga.population=5",
        "ga.generations=4", "ga.elites=1", "games.openings=2", "plot=false", "progress=false",
        "backend=ray"]


class LosingBackend(RayBackend):
    """Removes every worker node before collecting the first chunk after ``run_dir``'s first
    checkpoint, and notes when."""

    def __init__(self, cfg, cluster, run_dir: Path):
        super().__init__(cfg.ray, warm_up=functools.partial(warm_up, cfg.game.name,
                                                            cfg.game.settings))
        self.cluster, self.state = cluster, run_dir / "checkpoint" / "checkpoint.json"
        self.lost_at: float | None = None

    def _collect(self, ref) -> None:
        if self.lost_at is None and self.state.exists():
            for node in list(self.cluster.worker_nodes):
                self.cluster.remove_node(node)
            self.lost_at = time.monotonic()
        super()._collect(ref)


def one_stop(cluster, timeout: float) -> float:
    for _ in range(2):
        cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = to_config(compose("config", overrides=[
            *TINY, f"ray.address={cluster.address}", f"ray.no_worker_timeout={timeout}"]))
    with tempfile.TemporaryDirectory() as tmp:
        backend = LosingBackend(cfg, cluster, Path(tmp))
        try:
            run(cfg, run_dir=tmp, backend=backend)
        except ClusterLostError:
            return time.monotonic() - backend.lost_at
    raise RuntimeError("the study finished before its nodes were lost: raise ga.generations")


def main() -> None:
    p = arguments(__doc__)
    p.add_argument("--timeout", type=float, default=3.0, help="ray.no_worker_timeout, seconds")
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    stamp = Stamp.begin()
    import ray
    from ray import cluster_utils

    ray._private.utils.write_ray_address = lambda *a, **k: None  # no other process finds it
    cluster = cluster_utils.Cluster(initialize_head=True, connect=False, head_node_args={
        "num_cpus": 0, "include_dashboard": False})
    try:
        stops = [one_stop(cluster, args.timeout) for _ in range(args.repeats)]
    finally:
        cluster.shutdown()
    line = (f"every node lost -> ClusterLostError after {min(stops):.1f} s (best), "
            f"{max(stops):.1f} s (worst) of {len(stops)}; ray.no_worker_timeout={args.timeout:g} s")
    print(line)
    if args.out:
        write_markdown(args.out, "# A study that loses every Ray node: time to the one-line stop",
                       ["A local cluster (`ray.cluster_utils.Cluster`: a head without CPUs and "
                        "two one-CPU worker nodes on this machine) runs a tiny study; once its "
                        "first generation is checkpointed every worker node is removed.", "",
                        f"- {line}"], stamp)
        write_json(args.out.with_suffix(".json"), {"timeout": args.timeout, "stops": stops},
                   stamp)


if __name__ == "__main__":
    main()
