"""Speed of the exact endgame solver on FFO #20-#39 (one thread), against Edax's figures.

    python -m experiments.bench.engine.solve --out experiments/results/bench_solve.md

Measures:
- the first call in a fresh process: numba compiling everything (empty cache) and loading it
  from a filled cache, import included;
- per position: exact score and best move (checked against the file), nodes, wall-clock and
  CPU seconds (CPU time is what this process got: on a shared machine wall time also counts
  the other jobs), nodes per second;
- the load average before and after, since the machine is shared.

Reference (``shared/data/ffo/README.md``, same machine kind, one thread): Edax 4.6 with an
all-zero evaluation solves #20-#39 in 24.5 s and 792 M nodes; the goal is <= 75 s (3x).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from engine.reversi.endgame.solver import solve_exact
from engine.reversi.endgame.table import new_table
from engine.reversi.rules.state import move_name
from engine.reversi.solve import TT_BITS, read_obf
from experiments.common import ROOT, arguments, first_call_seconds, first_call_table
from experiments.stamp import Stamp, write_result

EDAX_SECONDS, EDAX_NODES = 24.5, 792e6
GOAL_SECONDS = 75.0
SETUP = ("from engine.reversi.endgame.solver import solve_exact; "
         "from engine.reversi.endgame.table import new_table; "
         "from engine.reversi.rules.state import Position")
CALL = "solve_exact(*Position.parse({pos!r}).boards, False, new_table(16), 1)"


def solve_rows(path: Path, first: int, numbers: set[int] | None, bits: int) -> list[dict]:
    table = new_table(bits)
    rows = []
    for number, (position, scores) in enumerate(read_obf(path), start=first):
        if numbers and number not in numbers:
            continue
        wall, cpu = time.perf_counter(), time.process_time()
        move, score, nodes, _ = solve_exact(*position.boards, False, table, number)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        expected = max(scores.values())
        ok = score == expected and scores.get(move_name(move), score) == score
        rows.append(dict(number=number, empties=position.empties, move=move_name(move),
                         score=score, ok=ok, nodes=nodes, wall=wall, cpu=cpu))
        print(f"#{number} {score:+d} {'ok' if ok else 'WRONG'} {nodes:,} nodes {wall:.2f} s "
              f"(cpu {cpu:.2f} s)", flush=True)
    return rows


def table_lines(rows: list[dict]) -> list[str]:
    lines = ["| # | empties | move | score | matches file | nodes | wall s | CPU s | "
             "M nodes/s (CPU) |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['number']} | {r['empties']} | {r['move']} | {r['score']:+d} | "
                     f"{'yes' if r['ok'] else '**NO**'} | {r['nodes']:,} | {r['wall']:.3f} | "
                     f"{r['cpu']:.3f} | {r['nodes'] / max(r['cpu'], 1e-9) / 1e6:.1f} |")
    nodes = sum(r["nodes"] for r in rows)
    wall, cpu = sum(r["wall"] for r in rows), sum(r["cpu"] for r in rows)
    lines.append(f"| **total** | | | | {sum(r['ok'] for r in rows)}/{len(rows)} | "
                 f"**{nodes:,}** | **{wall:.2f}** | **{cpu:.2f}** | {nodes / cpu / 1e6:.1f} |")
    return lines


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--file", type=Path, default=ROOT / "tests" / "data" / "ffo_20_39.obf")
    parser.add_argument("--first", type=int, default=20, help="number of the file's first line")
    parser.add_argument("--numbers", default="", help="comma-separated subset, e.g. 36,37")
    parser.add_argument("--tt-bits", type=int, default=TT_BITS)
    args = parser.parse_args()
    stamp = Stamp.begin()
    numbers = {int(x) for x in args.numbers.split(",") if x}
    small = read_obf(args.file)[0][0].to_string()
    first = first_call_seconds(SETUP, CALL.format(pos=small))
    solve_exact(*read_obf(args.file)[0][0].boards, False, new_table(8), 1)  # load in this process
    rows = solve_rows(args.file, args.first, numbers, args.tt_bits)
    wall, cpu = sum(r["wall"] for r in rows), sum(r["cpu"] for r in rows)
    nodes = sum(r["nodes"] for r in rows)
    report = [
        f"Table 2^{args.tt_bits} entries, one thread, one process. Wall time includes waiting "
        "for the CPU when the load exceeds the core count; CPU time is the time this process "
        "actually ran.",
        "",
        "## First call (fresh process)",
        "",
        *first_call_table(first, "first solve"),
        "",
        "## Positions (table cleared between positions)",
        "",
        *table_lines(rows),
        "",
        "## Against Edax 4.6 with an all-zero evaluation (24.5 s, 792 M nodes)",
        "",
        f"- nodes: {nodes / 1e6:.0f} M = {nodes / EDAX_NODES:.2f} x Edax's",
        f"- wall time {wall:.1f} s = {wall / EDAX_SECONDS:.2f} x Edax; CPU time {cpu:.1f} s = "
        f"{cpu / EDAX_SECONDS:.2f} x Edax",
        f"- goal <= {GOAL_SECONDS:.0f} s: wall {'met' if wall <= GOAL_SECONDS else 'NOT met'}, "
        f"CPU {'met' if cpu <= GOAL_SECONDS else 'NOT met'}",
    ]
    write_result(
        args.out, f"# Exact solver benchmark: FFO #{rows[0]['number']}-#{rows[-1]['number']}",
        report, stamp, {
            "tt_bits": args.tt_bits, "rows": rows, "nodes": nodes, "wall_seconds": wall,
            "cpu_seconds": cpu, "edax": {"seconds": EDAX_SECONDS, "nodes": EDAX_NODES},
            "goal_seconds": GOAL_SECONDS,
            "first_call": {k: {"import": i, "solve": c} for k, (i, c) in first.items()}})
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
