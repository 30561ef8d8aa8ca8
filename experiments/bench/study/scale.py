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
from evolve.ga.scoring.sampled import sampled_pairs
from evolve.ga.scoring.tournament import (
    Context,
    round_robin_tasks,
    score_round_robin,
    warm_up,
)
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


def overhead_fit(null: dict) -> tuple[float, float, float]:
    """Non-negative least-squares fit of the driver's CPU time per generation, per chunk and per
    game, from the batches that play nothing (each game's task is still pickled, shipped and
    answered). CPU time, not wall time: the machine is shared."""
    rows = np.array([(1.0, c, t) for c, t, _, _ in null.values()])
    seconds = np.array([cpu for _, _, _, cpu in null.values()])
    from scipy.optimize import nnls  # costs are never negative, however noisy the timings

    fixed, per_chunk, per_task = nnls(rows, seconds)[0]
    return float(fixed), float(per_chunk), float(per_task)


def render(out: dict, args) -> str:
    lines = [f"Ray {ray.__version__}; game {args.game}, `search.endgame_empties=8`, the GA's "
             "real initial population, generation 0's round robin with 1 opening x 2 colours per "
             "pair: n(n-1) games; yardstick off. CPU times (`time.process_time` in the process "
             "that did the work) do not depend on how busy the machine was; wall times do. "
             f"Numba first call (cache load or compile) {out['first_call']:.2f} s, not in any "
             "timing.", "",
             "## Round robin, one CPU (in-process)", "",
             "| depth | population | games/gen | wall s/gen | wall ms/game | CPU ms/game "
             "| context bytes |", "|---|---|---|---|---|---|---|"]
    for (depth, n), (games, s) in out["serial"].items():
        cpu = out["cpu"][depth, n]
        lines.append(f"| {depth} | {n} | {games} | {s:.2f} | {s / games * 1e3:.2f} "
                     f"| {cpu / games * 1e3:.2f} | {out['context_bytes'][n]} |")
    lines += ["", "## Ray (embedded, 2 CPUs): one generation's round robin", "",
              "| workers | depth | population | wall s/gen | games/s (wall) | actor CPU ms/game "
              "| games per actor CPU-second |", "|---|---|---|---|---|---|---|"]
    for (w, depth, n), (games, s, cpu) in out["ray"].items():
        lines.append(f"| {w} | {depth} | {n} | {s:.2f} | {games / s:.1f} "
                     f"| {cpu / games * 1e3:.2f} | {games / cpu:.0f} |")
    lines += ["", "## Fixed cost per generation (a batch that plays nothing)", "",
              "| workers | population | chunks | games | wall ms/gen | driver CPU ms/gen |",
              "|---|---|---|---|---|---|"]
    for (w, n), (c, t, wall, cpu) in out["null"].items():
        lines.append(f"| {w} | {n} | {c} | {t} | {wall * 1e3:.1f} | {cpu * 1e3:.1f} |")
    costs = overhead_fit(out["null"])
    lines += ["", f"Driver CPU, non-negative least-squares fit: {costs[0] * 1e3:.1f} ms per "
              f"generation + {costs[1] * 1e3:.2f} ms per chunk + {costs[2] * 1e6:.1f} us per "
              "game.", ""]
    lines += projection(out, args, *costs)
    lines += ["", *agreement(*out["full"], args.opponents, args.draws)]
    return "\n".join(lines) + "\n"


def agreement(n: int, depth: int, tasks, results, ks, draws: int) -> list[str]:
    """How well k sampled opponents rank like the full round robin: the full generation's real
    games restricted to the drawn pairs (a sampled game is the full round robin's game with the
    same seed), over ``draws`` draws of the opponents."""
    from scipy.stats import spearmanr

    full = score_round_robin(n, tasks, results, 5, 0, -5).fitness
    order = np.argsort(-full, kind="stable")
    rank_of = np.empty(n, dtype=int)
    rank_of[order] = np.arange(1, n + 1)
    lines = [f"## Sampled tournament vs full round robin (population {n}, depth {depth})", "",
             f"{draws} draws of the opponents (generation numbers 0..{draws - 1} of the draw); "
             f"full round robin champion's score {full.max():.0f}.", "",
             "| opponents k | games/gen | share of full | Spearman rho mean (min) "
             "| sampled champion's full rank: median (worst) | in full top 10% |",
             "|---|---|---|---|---|---|"]
    for k in ks:
        rhos, ranks = [], []
        for draw in range(draws):
            pairs = set(sampled_pairs(n, k, 0, draw))
            chosen = [i for i, t in enumerate(tasks)
                      if (min(t.first, t.second), max(t.first, t.second)) in pairs]
            fitness = score_round_robin(n, [tasks[i] for i in chosen],
                                        [results[i] for i in chosen], 5, 0, -5).fitness
            rhos.append(spearmanr(fitness, full).statistic)
            ranks.append(rank_of[int(np.argmax(fitness))])
        top = np.mean(np.array(ranks) <= max(1, n // 10))
        lines.append(f"| {k} | {len(chosen)} | {len(chosen) / len(tasks):.1%} "
                     f"| {np.mean(rhos):.3f} ({np.min(rhos):.3f}) "
                     f"| {np.median(ranks):.0f} ({np.max(ranks)}) | {top:.0%} |")
    return lines


def projection(out: dict, args, fixed: float, per_chunk: float, per_task: float) -> list[str]:
    """Paper projection: W workers play the games at the measured per-game CPU time (one CPU,
    in-process), plus the driver's fitted CPU cost per generation, chunk and game, counted as
    if nothing overlapped with play. Network latency and stragglers are not in it."""
    workers = args.nodes * args.cpus_per_node
    lines = [f"## Projection: {args.nodes} nodes x {args.cpus_per_node} CPUs = {workers} workers"
             f", ray.chunks_per_worker={args.chunks_per_worker}",
             "", "| depth | population | games/gen | one CPU s/gen | chunks | play s/gen "
             "| overhead s/gen | cluster s/gen | speed-up |", "|---" * 9 + "|"]
    for (depth, n), games_seconds in out["serial"].items():
        games, s = games_seconds[0], out["cpu"][depth, n]  # CPU time: what a free core costs
        n_chunks = len(chunks(range(games), workers, args.chunks_per_worker))
        play, overhead = s / workers, fixed + per_chunk * n_chunks + per_task * games
        lines.append(f"| {depth} | {n} | {games} | {s:.1f} | {n_chunks} | {play:.3f} "
                     f"| {overhead:.3f} | {play + overhead:.3f} | {s / (play + overhead):.0f}x |")
    return lines


def to_json(out: dict, args) -> dict:
    """Tuple keys become "a,b" strings; the full round robin's results are kept (for the
    sampled-tournament agreement) as winners only."""
    plain = {name: {",".join(map(str, k)) if isinstance(k, tuple) else str(k): v
                    for k, v in table.items()}
             for name, table in out.items() if isinstance(table, dict)}
    n, depth, tasks, results = out["full"]
    plain["full"] = {"n": n, "depth": depth, "winners": [r.winner for r in results]}
    plain["first_call"] = out["first_call"]
    return plain


def from_json(plain: dict) -> dict:
    from evolve.ga.scoring.tournament import GameResult

    def key(text: str):
        parts = tuple(int(p) for p in text.split(","))
        return parts if len(parts) > 1 else parts[0]

    out = {name: {key(k): tuple(v) if isinstance(v, list) else v for k, v in table.items()}
           for name, table in plain.items()
           if name not in ("full", "first_call", "command", "stamp")}
    full = plain["full"]
    tasks = round_robin_tasks(full["n"], [()], 0, 0)  # pairs and colours are all that count
    results = [GameResult(t.index, w, 0.0, 0, (), "")
               for t, w in zip(tasks, full["winners"], strict=True)]
    out["full"] = (full["n"], full["depth"], tasks, results)
    out["first_call"] = plain["first_call"]
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
