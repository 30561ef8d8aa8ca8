"""Labelling throughput: exact and search labels per CPU-second at a few exact-solve empties E
and search depths D, and the dataset builder on 1 and 2 Ray workers against serial (the same
batches, the same bits).

    python -m experiments.bench.learners.labels --out experiments/results/bench_labels.md

1. Per CPU-second, in this process (``Labels.label_positions``): positions sampled as
   ``python -m evolve.label`` samples them (seed 1, the default options); exact labels timed on
   positions with exactly E empties (every exact label of a dataset has at most E), search
   labels on positions with more than 20 empties. The evaluation's scale is measured before
   the clock starts (once per evaluation and depth).
2. ``evolve.labels.builder.build`` on the same settings, serial, then Ray with 1 and 2 warm
   workers (an embedded Ray with 2 CPUs): wall seconds of the build alone (workers warmed
   before), its speed-up over 1 worker, and whether every batch file has the serial run's
   SHA-256. The machine is shared: the load average is in the stamp.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from engine.core.champions.files import load_champion
from engine.core.registry import get_game
from evolve import label
from evolve.labels import builder, dataset
from experiments.common import ROOT, arguments
from experiments.stamp import Stamp, write_result

CHAMPIONS = {"othello": "experiments/results/champions/othello_ntuple.json",
             "reversed_reversi": "experiments/results/champions/reversed_reversi_ntuple.json"}


def cpu_rate(fn, n: int) -> tuple[float, float]:
    """(labels per CPU-second, CPU seconds) of ``fn()`` labelling ``n`` positions."""
    cpu = time.process_time()
    fn()
    spent = max(time.process_time() - cpu, 1e-9)
    return n / spent, spent


def throughput(name: str, exact: list[int], depths: list[int], positions: int) -> list[dict]:
    game = get_game(name)
    champion = load_champion(ROOT / CHAMPIONS[name], game)
    sample = game.sample_positions(60 * positions, 1, champion, {})
    empties = 60 - sample["ply"].astype(int)
    rows = []
    for e in exact:
        at = np.flatnonzero(empties == e)[:positions]
        game.label_positions(sample["cells"][at[:1]], sample["ply"][at[:1]], champion, 1, e)
        rate, cpu = cpu_rate(lambda at=at, e=e: game.label_positions(
            sample["cells"][at], sample["ply"][at], champion, 1, e), len(at))
        rows.append({"game": name, "kind": "exact", "E or D": e, "positions": len(at),
                     "per_cpu_second": rate, "cpu_seconds": cpu})
        print(rows[-1], flush=True)
    mid = np.flatnonzero(empties > 20)[:positions]
    for d in depths:
        game.label_positions(sample["cells"][mid[:1]], sample["ply"][mid[:1]], champion, d, 0)
        rate, cpu = cpu_rate(lambda d=d: game.label_positions(
            sample["cells"][mid], sample["ply"][mid], champion, d, 0), len(mid))
        rows.append({"game": name, "kind": "search", "E or D": d, "positions": len(mid),
                     "per_cpu_second": rate, "cpu_seconds": cpu})
        print(rows[-1], flush=True)
    return rows


def workers(args) -> list[dict]:
    argv = ["--game", "othello", "--champion", str(ROOT / CHAMPIONS["othello"]),
            "--positions", str(args.build_positions), "--batch-positions",
            str(args.batch_positions), "--exact-empties", str(args.build_exact),
            "--depth", str(args.build_depth), "--seed", "1"]
    rows, first = [], None
    with tempfile.TemporaryDirectory() as tmp:
        for backend, n in (("serial", None), ("ray", 1), ("ray", 2)):
            options = argv + ["--backend", backend, "--out", str(Path(tmp) / f"{backend}{n}")]
            if n:
                options += ["--workers", str(n)]
            run = label.parse_args(options)
            game = get_game(run.game)
            champion = load_champion(run.champion, game)
            settings = label.settings_of(run, game)
            made = label.make_backend(run, game.name, champion, settings)  # warms workers
            start = time.perf_counter()
            try:
                manifest = builder.build(settings, champion, run.out, made, False,
                                         {"command": "bench", "commit": "bench"})
            finally:
                made.close()
            seconds = time.perf_counter() - start
            shas = [e["sha256"] for e in manifest["batches"]]
            first = shas if first is None else first
            rows.append({"backend": backend, "workers": n or 0, "seconds": seconds,
                         "positions": manifest["positions"],
                         "exact": int(np.sum(dataset.read_dataset(run.out).source
                                             == dataset.EXACT)),
                         "same_bits": shas == first})
            print(rows[-1], flush=True)
    return rows


def main(argv=None) -> int:
    p = arguments(__doc__)
    p.add_argument("--exact", type=int, nargs="+", default=[10, 14, 16])
    p.add_argument("--depths", type=int, nargs="+", default=[2, 4, 6])
    p.add_argument("--positions", type=int, default=400, help="positions per measurement")
    p.add_argument("--games", nargs="+", default=list(CHAMPIONS))
    p.add_argument("--build-positions", type=int, default=20000)
    p.add_argument("--batch-positions", type=int, default=2000)
    p.add_argument("--build-exact", type=int, default=14)
    p.add_argument("--build-depth", type=int, default=6)
    args = p.parse_args(argv)
    stamp = Stamp.begin()
    rows = [r for name in args.games
            for r in throughput(name, args.exact, args.depths, args.positions)]
    built = workers(args)
    lines = ["Labels per CPU-second (`Labels.label_positions`, one process; the champions "
             f"{', '.join(f'`{CHAMPIONS[g]}`' for g in args.games)}; positions sampled as "
             "`python -m evolve.label` does, seed 1). Exact: positions with exactly E empties; "
             "search: positions with more than 20 empties, depth D.", "",
             "| game | label | E or D | positions | labels / CPU-s | CPU s |",
             "|---|---|---:|---:|---:|---:|"]
    lines += [f"| {r['game']} | {r['kind']} | {r['E or D']} | {r['positions']} | "
              f"{r['per_cpu_second']:,.0f} | {r['cpu_seconds']:.2f} |" for r in rows]
    one = next(r["seconds"] for r in built if r["workers"] == 1)
    lines += ["", f"The dataset builder (`evolve.labels.builder.build`), Othello, "
              f"{args.build_positions:,} positions in batches of {args.batch_positions}, "
              f"E {args.build_exact}, D {args.build_depth}, seed 1; wall seconds of the build "
              "(Ray workers warmed before).", "",
              "| backend | workers | positions | exact labels | wall s | positions/s | "
              "vs 1 worker | same bits as serial |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    lines += [f"| {r['backend']} | {r['workers'] or '-'} | {r['positions']:,} | {r['exact']:,} | "
              f"{r['seconds']:.1f} | {r['positions'] / r['seconds']:,.0f} | "
              f"{one / r['seconds']:.2f}x | {'yes' if r['same_bits'] else 'NO'} |"
              for r in built]
    write_result(args.out, "# Labelling throughput", lines, stamp,
                 {"throughput": rows, "workers": built})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
