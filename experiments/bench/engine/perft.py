"""Perft speed of the bitboard kernels, with the numba first-call cost made visible.

    python -m experiments.bench.engine.perft --max-depth 11 --out experiments/results/bench_perft.md

First-call times are measured in fresh subprocesses: once with an empty numba cache (a real
compile) and once with the cache filled (what every later run pays). Warm timings are the best of
``--repeats`` runs in this process, single-threaded.
"""

from __future__ import annotations

import json
import sys

from experiments.common import arguments, best_of, first_call_seconds
from experiments.stamp import Stamp, write_result

# the published Othello perft table from the start position (engine/reversi/perft.py follows
# its convention; tests/engine/reversi/test_perft.py holds the same numbers): an independent
# check of the move generator, index = depth
KNOWN = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800]
SETUP = "from engine.reversi.perft import perft; from engine.reversi.rules.state import Position"


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--max-depth", type=int, default=11, choices=range(1, len(KNOWN)))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    stamp = Stamp.begin()

    first = first_call_seconds(SETUP, "perft(Position.start(), 1)")
    (import_s, cold), (_, cached) = first["compile"], first["cached"]

    from engine.reversi.perft import perft
    from engine.reversi.rules.state import Position

    perft(Position.start(), 1)
    rows = []
    for depth in range(1, args.max_depth + 1):
        best, leaves = best_of(lambda d=depth: perft(Position.start(), d),
                               args.repeats if depth < 11 else 1)
        rows.append((depth, leaves, best, leaves / best))
        print(json.dumps({"depth": depth, "leaves": leaves, "seconds": best,
                          "leaves_per_second": leaves / best}), flush=True)

    lines = [
        "Single thread; leaves counted from the standard start position (Othello rules).",
        "",
        f"- import of engine modules: {import_s:.2f} s",
        f"- first perft call, empty numba cache (compile): {cold:.2f} s",
        f"- first perft call, numba cache filled (every later run): {cached:.3f} s",
        "",
        "| depth | leaves | published count | seconds | leaves/s |",
        "|---:|---:|---|---:|---:|",
        *[f"| {d} | {n:,} | {'same' if n == KNOWN[d] else f'**{KNOWN[d]:,}**'} | {s:.4f} "
          f"| {r / 1e6:,.1f} M |" for d, n, s, r in rows],
    ]
    write_result(args.out, "# Perft benchmark", lines, stamp, {
        "import_seconds": import_s, "first_call_compile_seconds": cold,
        "first_call_cached_seconds": cached,
        "rows": [{"depth": d, "leaves": n, "published": KNOWN[d], "seconds": s,
                  "leaves_per_second": r} for d, n, s, r in rows]})
    return 0 if all(n == KNOWN[d] for d, n, _, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
