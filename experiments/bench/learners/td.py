"""TD self-play speed of Reversi's networks: games per CPU-second on one core, this tree against
an older checkout's, measured in one process (old, new, old, new, ...: the same machine load).

    python -m experiments.bench.learners.td --baseline fa485de --games 20000 [--repeats 3]
        [--out experiments/results/bench_td.md]

For each network (``--layouts`` x ``--features``, Othello, ``--phases`` phases) and the same
start (small random weights from a fixed seed):

- ``online``: ``Game.td_learn`` (the network learns after every move), the baseline's and
  this tree's; the learnt genomes must be the same to the bit (the script exits 1 otherwise:
  faster must not mean different);
- ``rounds``: this tree's ``td_play`` (the games, a fixed network) then ``td_learn_games``
  (learning from them in game order): what ``python -m evolve.td --round-games`` does on one
  core, and each half alone.

Rates are games per CPU-second of the fastest of ``--repeats`` runs (``time.process_time``).
The first call of each (numba compiling or loading its cache) is not timed.

``--workers 0 1 2``: distributed TD as ``python -m evolve.td --round-games`` runs it (the first
network and features of the lists, ``--round-games`` per round, tasks of ``--chunk-games``),
in this process (0: the serial backend, one core) or on that many Ray actors (the driver
learning on a core of its own while they play): wall-clock games per second after the actors
are warm, and whether every way learnt the same bits (the script exits 1 otherwise). For each
``--learners`` (``driver``: the driver learns every game; ``workers``: ``--learner workers``,
each task learns its own games); the driver's CPU-seconds give the games/s no number of
workers can pass (games / driver CPU-s: the driver's one core is then busy all the time).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from experiments.bench.engine.kernels import load_baseline
from experiments.common import baseline_arguments, baseline_tree, best_of
from experiments.stamp import Stamp, write_result

ALPHA, EPSILON, SEED = 0.05, 0.1, 3


def best_cpu(fn, repeats: int):
    """(fewest CPU seconds of ``repeats`` calls, the last call's value), after one untimed."""
    return best_of(fn, repeats, warm_up=True, clock=time.process_time)


def games_of(module: str, settings: dict):
    """The Othello game of a package (``engine`` or the baseline's) with these settings."""
    import importlib

    return importlib.import_module(f"{module}.reversi.game").OTHELLO.with_settings(settings)


def measure(old_pkg: str, settings: dict, games: int, repeats: int) -> dict:
    new, old = games_of("engine", settings), games_of(old_pkg, settings)
    genome = np.random.default_rng(SEED).uniform(-0.02, 0.02, new.genome_spec().size)
    seconds, learnt = {}, {}
    for name, game in (("online, baseline", old), ("online", new)):
        seconds[name], learnt[name] = best_cpu(
            lambda g=game: g.td_learn(genome.copy(), games, SEED, ALPHA, EPSILON), repeats)
    seconds["rounds: play"], record = best_cpu(
        lambda: new.td_play(genome, games, SEED, EPSILON), repeats)
    seconds["rounds: learn"], _ = best_cpu(
        lambda: new.td_learn_games(genome, [record], ALPHA), repeats)
    seconds["rounds"] = seconds["rounds: play"] + seconds["rounds: learn"]
    return {"rates": {k: games / v for k, v in seconds.items()},
            "same_bits": bool(np.array_equal(learnt["online, baseline"], learnt["online"]))}


def distributed(settings: dict, games: int, round_games: int, chunk_games: int,
                workers: list[int], learner: str = "driver") -> list[dict]:
    """Wall-clock games/s of rounds on ``workers`` Ray actors each, the driver's CPU-seconds,
    and the learnt genomes' equality."""
    import functools
    import json

    from engine.core.registry import get_game
    from evolve.execution.backends import RayConfig, make_backend
    from evolve.td import warm_up
    from evolve.td_training import Schedule, train

    game = get_game("othello", settings)
    schedule = Schedule(game.name, json.dumps(game.settings(), sort_keys=True),
                        ((games, ALPHA),), SEED, EPSILON, round_games, chunk_games,
                        learner=learner)
    rows, first = [], None
    for n in workers:
        warm = functools.partial(warm_up, game.name, game.settings())
        if n == 0:
            warm()
        backend = make_backend("serial" if n == 0 else "ray", RayConfig(num_cpus=n, workers=n),
                               warm_up=warm)
        try:
            start = time.perf_counter()
            genome, done = train(game, np.zeros(game.genome_spec().size), schedule, backend)
            seconds = time.perf_counter() - start
        finally:
            backend.close()
        first = genome if first is None else first
        rows.append({"learner": learner, "workers": n, "games_per_second": games / seconds,
                     "driver_cpu_seconds": done.cpu_seconds,
                     "same_bits": bool(np.array_equal(genome, first))})
    return rows


def main(argv=None) -> int:
    parser = baseline_arguments(__doc__)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--phases", type=int, default=3)
    parser.add_argument("--layouts", nargs="+", default=["straight2", "square2", "straight4"])
    parser.add_argument("--features", nargs="+", default=["mobility,stability", "none"],
                        help="feature groups per network, comma-separated (none: no groups)")
    parser.add_argument("--workers", type=int, nargs="*", default=[],
                        help="also time distributed TD on these numbers of Ray actors")
    parser.add_argument("--learners", nargs="+", choices=("driver", "workers"),
                        default=["driver"], help="with --workers: who learns (evolve.td "
                        "--learner), each timed on every --workers")
    parser.add_argument("--round-games", type=int, default=2000)
    parser.add_argument("--chunk-games", type=int, default=250)
    parser.add_argument("--distributed-games", type=int, default=60000)
    args = parser.parse_args(argv)
    if min(args.games, args.repeats, args.phases) < 1:
        parser.error("--games, --repeats and --phases must be >= 1")
    stamp = Stamp.begin()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tree, commit = baseline_tree(args.baseline, Path(tmp) / "tree")
        old_pkg = load_baseline(tree / "engine", Path(tmp))
        for layout in args.layouts:
            for groups in args.features:
                features = [] if groups == "none" else groups.split(",")
                settings = {"genome": {"kind": "ntuple", "layout": layout,
                                       "phases": args.phases, "features": features}}
                print(f"{layout}, features {groups} ...", flush=True)
                rows.append({"layout": layout, "features": groups,
                             **measure(old_pkg, settings, args.games, args.repeats)})
    names = list(rows[0]["rates"])
    lines = [f"Baseline: commit {commit} (`--baseline {args.baseline}`); Othello, "
             f"{args.phases} phases, {args.games:,} games from small random weights, alpha "
             f"{ALPHA}, epsilon {EPSILON}; games per CPU-second (best of {args.repeats}).", "",
             "| network | features | " + " | ".join(names) + " | online vs baseline | "
             "rounds vs baseline online | same bits |",
             "|---|---|" + "---:|" * (len(names) + 2) + "---|"]
    for r in rows:
        rates = r["rates"]
        lines.append(f"| {r['layout']} | {r['features']} | "
                     + " | ".join(f"{rates[n]:,.0f}" for n in names)
                     + f" | {rates['online'] / rates['online, baseline']:.2f}x"
                     + f" | {rates['rounds'] / rates['online, baseline']:.2f}x"
                     + f" | {'yes' if r['same_bits'] else 'NO'} |")
    spread = []
    if args.workers:
        groups = args.features[0]
        settings = {"genome": {"kind": "ntuple", "layout": args.layouts[0],
                               "phases": args.phases,
                               "features": [] if groups == "none" else groups.split(",")}}
        spread = [row for learner in args.learners
                  for row in distributed(settings, args.distributed_games, args.round_games,
                                         args.chunk_games, args.workers, learner)]
        base = spread[0]["games_per_second"]
        lines += ["", f"Distributed TD (`--round-games {args.round_games} --chunk-games "
                  f"{args.chunk_games}`), {args.layouts[0]}, features {groups}, "
                  f"{args.distributed_games:,} games, wall clock after the actors are warm; "
                  "same bits: as the first row of the same learner; the driver's cap: games "
                  "per driver CPU-second (what no number of workers passes):", "",
                  "| learner | Ray workers (0: serial) | games/s | vs the first row | "
                  "driver CPU-s | driver's cap, games/s | same bits |",
                  "|---|---:|---:|---:|---:|---:|---|",
                  *[f"| {r['learner']} | {r['workers']} | {r['games_per_second']:,.0f} | "
                    f"{r['games_per_second'] / base:.2f}x | {r['driver_cpu_seconds']:.1f} | "
                    f"{args.distributed_games / max(r['driver_cpu_seconds'], 1e-9):,.0f} | "
                    f"{'yes' if r['same_bits'] else 'NO'} |" for r in spread]]
    write_result(args.out, "# TD self-play speed (Reversi networks)", lines, stamp.finish(),
                 {"baseline": commit, "games": args.games, "rows": rows, "distributed": spread})
    return 0 if all(r["same_bits"] for r in rows + spread) else 1


if __name__ == "__main__":
    raise SystemExit(main())
