"""Memory and time to fit an Edax-like n-tuple network to labelled positions (``game.fit_network``,
the least-squares fit of ``python -m evolve.fit``), against the number of positions.

    python -m experiments.bench.learners.fit --positions 100000 1000000 10000000 --phases 60 \\
        --iterations 20 --out experiments/results/bench_fit.md

The positions are **synthetic**, not from play: per position a fill level drawn uniformly from
0..1, each square taken with that chance (the four centre squares always), each disc own or
opponent at random, the ply the discs less 4 (at most 60); the label is a fixed
random network of the same layout (``edax``, ``--phases`` phases; entries normal with standard
deviation 1) plus normal noise of 4 discs. What a real dataset costs differs only through which
weights its positions read (real positions read fewer distinct entries, so the cache serves
them better). Each size runs in a fresh process (``--one``), so its peak resident memory
(``ru_maxrss``) is its own: the positions (64 bytes each), their weight indices (4 bytes per
pattern instance: 84 for ``edax``) and the weight-sized CG vectors. The fit runs a fixed
``--iterations`` CG passes (tolerance 0), so the time per pass is comparable across sizes;
one thread (the fit is sequential, for the same bits every run).
"""

from __future__ import annotations

import argparse
import json
import resource
import time

import numpy as np

from experiments.common import arguments, run
from experiments.stamp import Stamp, write_result

LAYOUT = "edax"
NOISE = 4.0
CHUNK = 1_000_000


def synthetic(game, n: int, seed: int) -> dict[str, np.ndarray]:
    """``n`` synthetic positions (module docstring) and their labels."""
    from engine.kernels.ntuple import fit
    from engine.reversi.genome.layout import MIN_DISCS, phase_of_discs_table
    from engine.reversi.genome.network import index_tables

    rng = np.random.default_rng(seed)
    network = game.network
    layout = network.layout
    truth = rng.normal(0.0, 1.0, (network.phases, layout.n_weights))
    cells = np.empty((n, 64), np.uint8)
    ply = np.empty(n, np.int16)
    target = np.empty(n, np.float32)
    centre = np.zeros(64, bool)
    centre[[27, 28, 35, 36]] = True
    for lo in range(0, n, CHUNK):
        hi = min(n, lo + CHUNK)
        fill = rng.random((hi - lo, 1))  # each square taken with this chance, the centre always
        discs = (rng.random((hi - lo, 64)) < fill) | centre
        colour = rng.integers(1, 3, (hi - lo, 64), dtype=np.uint8)
        cells[lo:hi] = np.where(discs, colour, 0)
        ply[lo:hi] = np.minimum(discs.sum(axis=1) - MIN_DISCS, 60)
        phase = phase_of_discs_table(game.phase_bounds)[ply[lo:hi].astype(np.int64) + MIN_DISCS]
        idx = fit.position_indices(cells[lo:hi], phase, index_tables(layout), layout.n_weights,
                                   network.phases)
        target[lo:hi] = fit.predict(idx, truth.ravel()) + rng.normal(0.0, NOISE, hi - lo)
    return {"cells": cells, "ply": ply, "target": target, "source": np.ones(n, np.uint8),
            "depth": np.full(n, 4, np.int8)}


def one(n: int, phases: int, iterations: int) -> dict:
    """Fit ``n`` positions in this process; what it cost."""
    from engine.core.registry import get_game

    game = get_game("othello", {"genome": {"kind": "ntuple", "layout": LAYOUT,
                                           "phases": phases, "features": []}})
    started = time.perf_counter()
    columns = synthetic(game, n, seed=n)
    made = time.perf_counter() - started
    passes = []
    started = time.perf_counter()
    _, report = game.fit_network(columns, {"iterations": iterations, "tolerance": 0.0,
                                           "l2": 1.0, "holdout": 0.1,
                                           "progress": lambda it, *_: passes.append(it)})
    total = time.perf_counter() - started
    return {"positions": n, "phases": phases, "weights": report["weights"],
            "weights_read": report["weights_read"], "make_seconds": round(made, 1),
            "index_seconds": report["index_seconds"], "index_bytes": report["index_bytes"],
            "passes": len(passes), "seconds_per_pass": report["seconds_per_pass"],
            "fit_seconds": round(total, 1),
            "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "train_rmse": report["overall"]["train_rmse"],
            "held_out_rmse": report["overall"]["held_out_rmse"], "noise": NOISE}


def table(rows: list[dict]) -> list[str]:
    lines = ["| positions | weights read | indices | peak memory | making the indices | "
             "per CG pass | fit (passes) | train / held-out RMSE |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['positions']:,} | {r['weights_read']:,} of {r['weights']:,} | "
            f"{r['index_bytes'] / 2**30:.2f} GiB | {r['peak_rss_bytes'] / 2**30:.2f} GiB | "
            f"{r['index_seconds']:.1f} s | {r['seconds_per_pass']:.2f} s | "
            f"{r['fit_seconds']:.0f} s ({r['passes']}) | "
            f"{r['train_rmse']:.2f} / {r['held_out_rmse']:.2f} |")
    return lines


def per_million(row: dict) -> str:
    scale = 1e6 / row["positions"]
    return (f"Per million positions at {row['positions']:,}: {row['seconds_per_pass'] * scale:.2f} "
            f"s per CG pass, {row['index_seconds'] * scale:.1f} s to make the indices, "
            f"{row['peak_rss_bytes'] * scale / 2**30:.2f} GiB of peak memory (the whole process), "
            f"{row['fit_seconds'] * scale:.1f} s for the whole fit of {row['passes']} passes.")


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--positions", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--phases", type=int, default=60)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:  # one size, in this (fresh) process
        print(json.dumps(one(args.one, args.phases, args.iterations)))
        return
    stamp = Stamp.begin()
    rows = []
    for n in args.positions:
        text = run(["python", "-m", "experiments.bench.learners.fit", "--one", str(n), "--phases",
                    str(args.phases), "--iterations", str(args.iterations)], echo=True)
        rows.append(json.loads(text.strip().splitlines()[-1]))
    lines = [f"Layout `{LAYOUT}` ({rows[-1]['weights'] // args.phases:,} weights per phase), "
             f"{args.phases} phases, {args.iterations} CG passes, synthetic positions (see the "
             "script's docstring), one thread; label noise "
             f"{NOISE:g} discs (the least held-out RMSE possible).", "", *table(rows), "",
             per_million(rows[-1])]
    write_result(args.out, "# Fitting benchmark", lines, stamp, {"rows": rows})


if __name__ == "__main__":
    main()
