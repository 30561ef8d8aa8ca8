"""How one generation's cost grows with the population: the full round robin is n(n-1) games per
opening (every pair, both colours), measured at populations 16..128, plus the execution layer's
fixed cost per generation and a projection for a 64-node cluster.

    python -m experiments.bench.study.scale --depths 2 3 --out experiments/results/bench_scale.md
    # the same tables again from the raw measurements, e.g. projected with one chunk per worker:
    python -m experiments.bench.study.scale --render experiments/results/bench_scale.json \
        --chunks-per-worker 1

1. Per-game cost: every round-robin game of generation 0 (the GA's real initial population,
   seeded + random) played in-process, one CPU, per population size and depth.
2. Ray, embedded with 2 CPUs: the same generation on 1 and 2 warm actors (games/s per worker).
3. Fixed cost per generation: the same batches with a context that ships the same genomes but
   plays nothing (``ray.put`` of the genomes, chunking, one round trip per chunk).
4. Projection: t(n, W) = games(n) * per-game cost / W + fixed + per-chunk cost * chunks(W).
5. Sampled tournament (``evolve.ga.scoring.sampled``, k opponents each): how its ranking agrees
   with the full round robin's, from the largest population's real games at the first depth.

The tables, and the measurements' ``.json``, are ``scale_report``'s.
"""

from __future__ import annotations

import argparse
import functools
import json
import pickle
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import ray
from hydra import compose, initialize_config_dir

from engine.core.commands.helptext import summary
from evolve.execution.backends import RayConfig, chunks, make_backend
from evolve.ga.configuration.config import resolve, to_config
from evolve.ga.loop import Study
from evolve.ga.scoring.tournament import Context, round_robin_tasks, warm_up
from experiments.bench.study.scale_report import from_json, render, to_json
from experiments.stamp import ROOT, Stamp, write_json, write_markdown

CONF = str(ROOT / "conf")


@dataclass(frozen=True)
class NullContext:
    """Ships like a generation's context (same genomes) but plays nothing: what is left of a
    generation's time is the execution layer's own cost."""

    genomes: np.ndarray

    def play(self, tasks: list) -> list:
        return [None] * len(tasks)


@dataclass(frozen=True)
class CpuTimedContext:
    """A generation's context that also reports the CPU time its actor spent on each chunk
    (shared out over the chunk's games): the machine is shared, so wall time alone says little
    about what a worker costs."""

    context: Context

    def play(self, tasks: list) -> list:
        start = time.process_time()
        results = self.context.play(tasks)
        share = (time.process_time() - start) / max(1, len(tasks))
        return [(r, share) for r in results]


@functools.cache  # composed once: the config files may change while the benchmark runs
def generation(n: int, depth: int, game: str):
    with initialize_config_dir(config_dir=CONF, version_base="1.3"):
        cfg = to_config(compose("config", overrides=[
            f"game={game}", f"ga.population={n}", "games.openings=1", f"search.depth={depth}",
            "yardstick.enabled=false", "plot=false", "progress=false"]))
    study = Study(resolve(cfg), Path("/tmp/bench_scale_unused"))
    pop = study.initial_state().population
    ctx = Context(game, cfg.game.settings, study.search, pop.genomes)
    openings = study.ctx.openings("games.openings", 0, 1)
    return ctx, round_robin_tasks(n, openings, cfg.seed, 0)


def timed(play, context, tasks) -> tuple[float, float, list]:
    """Wall seconds, this process's CPU seconds, and the results."""
    start, cpu = time.perf_counter(), time.process_time()
    results = play(context, tasks)
    return time.perf_counter() - start, time.process_time() - cpu, results


def measure(args) -> dict:
    out = {"serial": {}, "cpu": {}, "ray": {}, "null": {}, "context_bytes": {}}
    t0 = time.perf_counter()
    warm_up(args.game, {})
    out["first_call"] = time.perf_counter() - t0
    for depth in args.depths:
        for n in args.sizes:
            ctx, tasks = generation(n, depth, args.game)
            out["context_bytes"][n] = len(pickle.dumps(ctx))
            seconds, cpu, results = timed(Context.play, ctx, tasks)
            out["serial"][depth, n] = (len(tasks), seconds)
            out["cpu"][depth, n] = cpu
            if depth == args.depths[0] and n == max(args.sizes):
                out["full"] = (n, depth, tasks, results)
            print(f"serial depth {depth} n {n:4d}: {len(tasks):6d} games {seconds:8.2f} s "
                  f"{seconds / len(tasks) * 1e3:6.2f} ms/game, CPU {cpu / len(tasks) * 1e3:6.2f} "
                  "ms/game", flush=True)
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="WARNING")
    for workers in (1, 2):
        backend = make_backend("ray", RayConfig(workers=workers),
                               warm_up=lambda: warm_up(args.game, {}))
        for depth in args.depths:
            for n in args.ray_sizes:
                ctx, tasks = generation(n, depth, args.game)
                seconds, _, timed_results = timed(backend.play, CpuTimedContext(ctx), tasks)
                actor_cpu = sum(share for _, share in timed_results)
                out["ray"][workers, depth, n] = (len(tasks), seconds, actor_cpu)
                print(f"ray-{workers} depth {depth} n {n:4d}: {seconds:7.2f} s "
                      f"{len(tasks) / seconds:7.1f} games/s, actor CPU "
                      f"{actor_cpu / len(tasks) * 1e3:.2f} ms/game", flush=True)
        for n in args.sizes:
            ctx, tasks = generation(n, args.depths[0], args.game)
            null = NullContext(ctx.genomes)
            runs = np.array([timed(backend.play, null, tasks)[:2] for _ in range(5)])
            wall, cpu = np.median(runs, axis=0)
            out["null"][workers, n] = (len(chunks(tasks, workers, 2)), len(tasks), float(wall),
                                       float(cpu))
            print(f"ray-{workers} nothing-to-play n {n:4d}: {wall * 1e3:7.1f} ms, driver CPU "
                  f"{cpu * 1e3:.1f} ms ({out['null'][workers, n][0]} chunks)", flush=True)
        backend.close()
    ray.shutdown()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 32, 64, 128])
    parser.add_argument("--ray-sizes", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--depths", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--game", default="reversed_reversi")
    parser.add_argument("--nodes", type=int, default=64)
    parser.add_argument("--cpus-per-node", type=int, default=8)
    parser.add_argument("--chunks-per-worker", type=int, default=2,
                        help="ray.chunks_per_worker assumed by the projection")
    parser.add_argument("--opponents", type=int, nargs="+", default=[4, 8, 16, 32, 64])
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--out", type=Path, default=None,
                        help="the tables (Markdown); the raw measurements go next to it (.json)")
    parser.add_argument("--render", type=Path, default=None,
                        help="render the tables again from a raw .json instead of measuring")
    args = parser.parse_args()
    stamp = Stamp.begin()
    source = ""
    if args.render:
        raw = json.loads(args.render.read_text())
        out = from_json(raw)
        made_by = raw.get("stamp", {}).get("command") or raw.get("command", "unknown")
        made_by = made_by if made_by.startswith("python") else f"python {made_by}"
        source = f"Rendered from the measurements in `{args.render}` (made by `{made_by}`).\n\n"
    else:
        out = measure(args)
        if args.out:
            write_json(args.out.with_suffix(".json"), to_json(out, args), stamp)
    table = source + render(out, args)
    print(table)
    if args.out:
        write_markdown(args.out, "# Scale: one generation's cost vs population size, Ray "
                       "overheads, a cluster projection", table, stamp)


if __name__ == "__main__":
    main()
