"""Cost of the optional evaluation feature groups (``game.genome.features``).

    python -m experiments.bench.engine.features --out experiments/results/bench_features.md

Measures, single-threaded, after compilation:
- ``evaluate()`` calls per second with each group on or off, inside one numba loop over a fixed
  set of positions from seeded random games (10..55 plies, finished games left out), so the
  Python call overhead is not counted; the weights of unused groups are 0, which is what the
  evaluation tests to skip a group;
- alpha-beta at depth 5 over midgame positions with the default groups and with every group
  (median ms/move and nodes/s, each position's best of several searches; node counts differ
  because the evaluations differ, and ordering evaluations are not counted as nodes).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from engine.reversi.genome.evaluation import evaluate
from engine.reversi.genome.weights import GenomeLayout, Weights, default_phase_bounds
from engine.reversi.rules.state import PASS, Position
from engine.reversi.search.searcher import Searcher
from experiments.common import arguments
from experiments.stamp import Stamp, write_result

SETTINGS = [  # (label, feature groups)
    ("positional only", ()),
    ("mobility", ("mobility",)),
    ("mobility, stability (default)", ("mobility", "stability")),
    ("corners", ("corners",)),
    ("parity", ("parity",)),
    ("mobility, stability, corners", ("mobility", "stability", "corners")),
    ("mobility, stability, parity", ("mobility", "stability", "parity")),
    ("all four groups", ("mobility", "stability", "corners", "parity")),
]


@njit
def evaluate_all(players, opponents, phase_of, positional, features, repeats):
    total = 0.0
    for _ in range(repeats):
        for i in range(players.shape[0]):
            total += evaluate(players[i], opponents[i], phase_of, positional, features, True)
    return total


def positions(n: int, seed: int, low: int, high: int) -> list[Position]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        p = Position.start()
        for _ in range(int(rng.integers(low, high + 1))):
            moves = p.legal_moves()
            if not moves:
                break
            p = p.play(moves[rng.integers(len(moves))] if moves != [PASS] else PASS)
        if not p.is_game_over():
            out.append(p)
    return out


def weights(groups: tuple[str, ...], seed: int) -> Weights:
    """Random non-zero weights (3 symmetric phases) for the genes of ``groups``."""
    layout = GenomeLayout(3, True, groups)
    genome = np.random.default_rng(seed).uniform(-1, 1, layout.size)
    return Weights.from_genome(genome, default_phase_bounds(3), True, groups=groups)


def evaluate_rate(sample: list[Position], groups, repeats: int, rounds: int) -> float:
    players = np.array([p.player for p in sample], np.uint64)
    opponents = np.array([p.opponent for p in sample], np.uint64)
    arrays = weights(groups, 0).numba_arrays()
    evaluate_all(players[:2], opponents[:2], *arrays, 1)  # compile
    best = float("inf")
    for _ in range(rounds):  # best of several rounds: the machine is shared
        t0 = time.perf_counter()
        evaluate_all(players, opponents, *arrays, repeats)
        best = min(best, time.perf_counter() - t0)
    return len(sample) * repeats / best


def search_row(sample: list[Position], groups, depth: int, rounds: int) -> tuple[float, float]:
    """Median ms/move and nodes/s; each position's time is its best of ``rounds`` searches
    (the same nodes every time: the table is cleared), as the machine is shared."""
    searcher = Searcher(weights(groups, 1), variant="reversed", endgame_empties=0)
    searcher.search(sample[0], depth=2)  # compile / load
    times, nodes = [], 0
    for p in sample:
        best = float("inf")
        for _ in range(rounds):
            searcher.clear()
            r = searcher.search(p, depth=depth)
            best = min(best, r.seconds)
        times.append(best)
        nodes += r.nodes
    return 1000 * float(np.median(times)), nodes / sum(times)


def main(argv=None) -> int:
    ap = arguments(__doc__)
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--search-positions", type=int, default=30)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    data = {"evaluate": [], "search": []}

    sample = positions(args.positions, args.seed, 10, 55)
    lines = [
        "Single thread.", "",
        f"## evaluate() calls per second ({len(sample)} positions from seeded random games, "
        f"10-55 plies, x {args.repeats}, best of {args.rounds})", "",
        "| feature groups | M calls/s | ns/call |", "|---|---|---|",
    ]
    for label, groups in SETTINGS:
        rate = evaluate_rate(sample, groups, args.repeats, args.rounds)
        data["evaluate"].append({"groups": label, "calls_per_second": rate})
        lines.append(f"| {label} | {rate / 1e6:.2f} | {1e9 / rate:.0f} |")
        print(lines[-1], flush=True)
    search_sample = positions(args.search_positions, args.seed + 1, 20, 40)
    lines += ["", f"## Alpha-beta, depth {args.depth}, {len(search_sample)} midgame positions "
              f"(20-40 plies), table cleared before each search, best of {args.rounds}", "",
              "| feature groups | median ms/move | nodes/s |", "|---|---|---|"]
    for label, groups in (SETTINGS[2], SETTINGS[-1]):
        ms, rate = search_row(search_sample, groups, args.depth, args.rounds)
        data["search"].append({"groups": label, "median_ms": ms, "nodes_per_second": rate})
        lines.append(f"| {label} | {ms:.2f} | {rate / 1e6:.2f} M |")
        print(lines[-1], flush=True)
    write_result(args.out, "# Feature groups benchmark", lines, stamp, data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
