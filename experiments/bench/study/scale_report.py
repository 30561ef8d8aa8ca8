"""The tables of ``experiments.bench.study.scale`` from its measurements: the round robin on
one CPU and on Ray, the fixed cost per generation and its fit, the projection for a cluster,
the sampled tournament's agreement with the full round robin; and the measurements to and from
their ``.json`` (``--render`` makes the tables again from it)."""

from __future__ import annotations

import numpy as np
import ray

from evolve.execution.backends import chunks
from evolve.ga.scoring.sampled import sampled_pairs
from evolve.ga.scoring.tournament import round_robin_tasks, score_round_robin


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
