"""Perft speed of the bitboard kernels, with the numba first-call cost made visible.

    python experiments/bench_perft.py --max-depth 11 --out experiments/results/bench_perft.md

First-call times are measured in fresh subprocesses: once with an empty numba cache (a real
compile) and once with the cache filled (what every later run pays). Warm timings are the best of
``--repeats`` runs in this process, single-threaded.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from experiments.stamp import Stamp, write_json, write_markdown  # noqa: E402

# the published Othello perft table from the start position (engine/reversi/perft.py follows
# its convention; tests/engine/reversi/test_perft.py holds the same numbers): an independent
# check of the move generator, index = depth
KNOWN = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800]
FIRST_CALL = (
    "import time; t=time.perf_counter(); from engine.reversi.perft import perft; "
    "from engine.reversi.position import Position; t1=time.perf_counter(); "
    "perft(Position.start(), 1); "
    "print(time.perf_counter()-t1, t1-t)"
)


def first_call_seconds(cache_dir: str) -> tuple[float, float]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-depth", type=int, default=11, choices=range(1, len(KNOWN)))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="write the markdown table here too")
    args = parser.parse_args()
    stamp = Stamp.begin()

    with tempfile.TemporaryDirectory() as cache:
        cold, import_s = first_call_seconds(cache)
        cached, _ = first_call_seconds(cache)

    from engine.reversi.perft import perft
    from engine.reversi.position import Position

    perft(Position.start(), 1)
    rows = []
    for depth in range(1, args.max_depth + 1):
        best = float("inf")
        for _ in range(args.repeats if depth < 11 else 1):
            t = time.perf_counter()
            leaves = perft(Position.start(), depth)
            best = min(best, time.perf_counter() - t)
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
    print("\n".join(lines))
    if args.out:
        write_markdown(args.out, "# Perft benchmark", lines, stamp)
        write_json(args.out.with_suffix(".json"), {
            "import_seconds": import_s, "first_call_compile_seconds": cold,
            "first_call_cached_seconds": cached,
            "rows": [{"depth": d, "leaves": n, "published": KNOWN[d], "seconds": s,
                      "leaves_per_second": r} for d, n, s, r in rows]}, stamp)
    return 0 if all(n == KNOWN[d] for d, n, _, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
