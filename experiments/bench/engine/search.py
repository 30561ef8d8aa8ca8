"""Speed of the alpha-beta search and the exact solver.

    python -m experiments.bench.engine.search --out experiments/results/bench_search.md

Measures, single-threaded:
- first-call cost in a fresh process: with an empty numba cache (compile) and a filled one;
- nodes per second with the full evaluation (every feature weighted, stability included);
- median time per move at depth 5 and 7 over fixed midgame positions (seeded random play,
  20..40 plies), table cleared before each position;
- iterative deepening with a time budget: how far it gets and how much it overshoots;
- exact-solve time of the FFO positions #1-#19 (checked against their known scores).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from engine.reversi.files import reference_weights
from engine.reversi.genome.weights import FEATURE_NAMES, Weights, default_phase_bounds
from engine.reversi.rules.state import PASS, Position, move_name
from engine.reversi.search.searcher import Searcher
from engine.reversi.solve import read_obf
from experiments.common import ROOT, arguments, first_call_seconds, first_call_table
from experiments.stamp import Stamp, write_result

FFO = ROOT / "tests" / "data" / "ffo_1_19.obf"
SETUP = ("from engine.reversi.search.searcher import Searcher; "
         "from engine.reversi.files import reference_weights; "
         "from engine.reversi.rules.state import Position")
CALL = "Searcher(reference_weights('wpc'), tt_bits=16).search(Position.start(), depth=3)"


def midgame_positions(rng, n: int, low: int = 20, high: int = 41) -> list[Position]:
    """``n`` positions after ``low`` to ``high - 1`` random plies (a pass is a move), each with
    a move to make (``bench_kernels`` samples its positions here too)."""
    out = []
    while len(out) < n:
        p = Position.start()
        for _ in range(int(rng.integers(low, high))):
            moves = p.legal_moves()
            if not moves:
                break
            p = p.play(moves[rng.integers(len(moves))])
        if p.legal_moves() and p.legal_moves() != [PASS]:
            out.append(p)
    return out


def full_weights() -> Weights:
    rng = np.random.default_rng(2024)
    return Weights(
        default_phase_bounds(3),
        rng.uniform(-1, 1, (3, 64)),
        rng.uniform(-0.5, 0.5, (3, len(FEATURE_NAMES))),
        name="random-full",
    )


def per_move(searcher: Searcher, positions, depth: int) -> tuple[float, float, float, float]:
    """(median ms, p90 ms, mean nodes, nodes/s) at a fixed depth."""
    times, nodes = [], 0
    for p in positions:
        searcher.clear()
        t = time.perf_counter()
        r = searcher.search(p, depth=depth)
        times.append(time.perf_counter() - t)
        nodes += r.nodes
    return (
        1000 * float(np.median(times)),
        1000 * float(np.percentile(times, 90)),
        nodes / len(positions),
        nodes / sum(times),
    )


def time_budget(searcher: Searcher, positions, limit: float) -> tuple[float, float, float]:
    """(median depth reached, median seconds used, max seconds used) per move."""
    depths, used = [], []
    for p in positions:
        searcher.clear()
        t = time.perf_counter()
        r = searcher.search(p, time_limit=limit)
        used.append(time.perf_counter() - t)
        depths.append(r.depth)
    return float(np.median(depths)), float(np.median(used)), float(max(used))


def ffo_rows(searcher: Searcher) -> list[dict]:
    rows = []
    problems = read_obf(FFO)
    searcher.solve(problems[0][0])  # compile / load, untimed
    for number, (p, scores) in enumerate(problems, start=1):
        searcher.clear()
        t = time.perf_counter()
        r = searcher.solve(p)
        seconds = time.perf_counter() - t
        ok = r.score == max(scores.values()) and scores.get(move_name(r.move)) == r.score
        rows.append({"number": number, "empties": p.empties, "move": move_name(r.move),
                     "score": int(r.score), "ok": bool(ok), "nodes": int(r.nodes),
                     "seconds": seconds})
    return rows


def ffo_lines(rows: list[dict]) -> list[str]:
    return [f"| {r['number']} | {r['empties']} | {r['move']} | {r['score']:+d} | "
            f"{'yes' if r['ok'] else '**NO**'} | {r['nodes']:,} | {r['seconds']:.3f} | "
            f"{r['nodes'] / r['seconds'] / 1e6:.1f} |" for r in rows]


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    stamp = Stamp.begin()

    first = first_call_seconds(SETUP, CALL)
    positions = midgame_positions(np.random.default_rng(args.seed), args.positions)
    data = {"first_call": {k: {"import": i, "search": c} for k, (i, c) in first.items()},
            "fixed_depth": [], "time_budget": [], "ffo": []}
    lines = [
        "Single thread.",
        "",
        "## First call (fresh process)",
        "",
        *first_call_table(first, "first search"),
        "",
        f"## Fixed depth, {len(positions)} midgame positions "
        f"(seed {args.seed}, 20-40 random plies)",
        "",
        "Table (2^20 entries) cleared before each position. Nodes = positions entered, leaves "
        "included; ordering evaluations are not counted.",
        "",
        "| weights | depth | median ms/move | p90 ms/move | mean nodes | nodes/s |",
        "|---|---|---|---|---|---|",
    ]
    for name, weights in (
        ("full evaluation (all 6 features, 3 phases)", full_weights()),
        ("wpc (positional only)", reference_weights("wpc")),
    ):
        searcher = Searcher(weights, "othello", endgame_empties=0)
        searcher.search(positions[0], depth=2)  # load the compiled code
        for depth in (5, 7):
            med, p90, nodes, rate = per_move(searcher, positions, depth)
            data["fixed_depth"].append({"weights": name, "depth": depth, "median_ms": med,
                                        "p90_ms": p90, "mean_nodes": nodes,
                                        "nodes_per_second": rate})
            lines.append(
                f"| {name} | {depth} | {med:.2f} | {p90:.2f} | {nodes:,.0f} | {rate / 1e6:.2f} M |"
            )
    lines += [
        "",
        "## Time budget (iterative deepening, full evaluation)",
        "",
        "| limit (s) | median depth | median used (s) | max used (s) |",
        "|---|---|---|---|",
    ]
    searcher = Searcher(full_weights(), "othello", endgame_empties=0)
    for limit in (0.01, 0.1, 0.5):
        depth, med, worst = time_budget(searcher, positions[:20], limit)
        data["time_budget"].append({"limit": limit, "median_depth": depth,
                                    "median_seconds": med, "max_seconds": worst})
        lines.append(f"| {limit} | {depth:.0f} | {med:.3f} | {worst:.3f} |")
    if FFO.is_file():
        lines += [
            "",
            "## Exact solve, FFO #1-#19 (Othello rules)",
            "",
            "| # | empties | move | score | matches file | nodes | seconds | M nodes/s |",
            "|---|---|---|---|---|---|---|---|",
        ]
        data["ffo"] = ffo_rows(Searcher(reference_weights("wpc"), "othello",
                                        endgame_empties=64))
        lines += ffo_lines(data["ffo"])
    else:
        lines += ["", f"(FFO file not found at {FFO}: exact-solve timings skipped)"]
    write_result(args.out, "# Search benchmark", lines, stamp, data)
    return 0 if all(r["ok"] for r in data["ffo"]) else 1


if __name__ == "__main__":
    sys.exit(main())
