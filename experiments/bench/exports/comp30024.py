"""Speed of the COMP30024 Java export: nodes per second of its alpha-beta against the engine's
numba search, and the share of its per-move budget it uses.

    python -m experiments.bench.exports.comp30024 --out experiments/results/bench_comp30024.md

The champion (``--champion``, the committed Hexifence feature champion) is exported with
``--format comp30024`` and compiled (``javac --release 8``) against the tests' stand-ins of the
course's classes. Positions: ``--positions`` per board size from seeded games of the hand-built
agents (every phase). Speed: each position searched to ``--depth`` turns with no exact endgame,
by ``Searcher.search`` and by the Java driver, each run twice from a cleared table and the
second run timed (numba compiled, the JIT warmed up); the ratio is Java's nodes per second over
the engine's. Budget: the exported player's own move choice (iterative deepening, the
champion's exact endgame) with ``--move-ms`` per move, in one cold JVM, as in a game: the time
``makeMove`` took over the budget.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from engine.hexifence.export.comp30024 import recorded_endgame
from engine.hexifence.game import GAME
from engine.hexifence.search.searcher import Searcher
from evolve.export import export
from experiments.common import arguments, rel
from experiments.stamp import ROOT, Stamp, write_result
from tests.engine.hexifence import comp30024_check as check

CHAMPION = ROOT / "experiments" / "results" / "champions" / "hexifence.json"
STANDINS = ROOT / "tests" / "engine" / "hexifence" / "comp30024_standins" / "aiproj" / "hexifence"


def engine_speed(champion: Path, positions, depth: int) -> tuple[int, float]:
    """Nodes and seconds of the engine's fixed-depth search (second of two runs each)."""
    weights = GAME.load_champion(champion).genome
    searchers, nodes, seconds = {}, 0, 0.0
    for state in positions:
        if state.size not in searchers:
            searchers[state.size] = Searcher(weights.reshape(-1, 11), state.size)
        searcher = searchers[state.size]
        searcher.clear()
        searcher.search(state, depth=depth)
        searcher.clear()
        t0 = time.perf_counter()
        result = searcher.search(state, depth=depth)
        seconds += time.perf_counter() - t0
        nodes += result.nodes
    return nodes, seconds


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--champion", type=Path, default=CHAMPION)
    p.add_argument("--positions", type=int, default=100, help="positions per board size")
    p.add_argument("--depth", type=int, default=3, help="turns, for nodes per second")
    p.add_argument("--move-ms", type=int, default=200, help="the export's budget per move")
    p.add_argument("--seed", type=int, default=2016)
    args = p.parse_args(argv)
    stamp = Stamp.begin()
    if not check.have_java():
        raise SystemExit("javac/java not found: install a JDK")
    endgame = recorded_endgame(args.champion)
    rows, data = [], {"champion": rel(args.champion), "depth": args.depth,
                      "move_ms": args.move_ms, "endgame_empties": endgame, "sizes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        export(args.champion, "comp30024", out / "src", move_ms=args.move_ms)
        check.compile_java([*STANDINS.glob("*.java"), *(out / "src").rglob("*.java")],
                           out / "classes")
        for size in (2, 3):
            positions = check.sample_positions(size, args.positions, args.seed)
            e_nodes, e_seconds = engine_speed(args.champion, positions, args.depth)
            fixed = [check.driver_line(s, args.depth, 0) for s in positions]
            java = check.java_moves(out / "classes", "EvolvedPlayer", fixed, warmup=True)
            j_nodes, j_seconds = sum(r[1] for r in java), sum(r[2] for r in java) / 1e9
            timed = [check.driver_line(s, 0, endgame, args.move_ms) for s in positions]
            used = [r[2] / 1e6 / args.move_ms
                    for r in check.java_moves(out / "classes", "EvolvedPlayer", timed)]
            e_rate, j_rate = e_nodes / e_seconds, j_nodes / j_seconds
            ordered = sorted(used)
            share = {"median": statistics.median(used), "p95": ordered[int(0.95 * len(used))],
                     "max": max(used), "over": sum(u > 1.0 for u in used)}
            data["sizes"][size] = {"engine_nodes": e_nodes, "engine_seconds": e_seconds,
                                   "java_nodes": j_nodes, "java_seconds": j_seconds,
                                   "ratio": j_rate / e_rate, "budget_share": share}
            rows.append(f"| N={size} | {e_rate:,.0f} | {j_rate:,.0f} | {j_rate / e_rate:.2f} | "
                        f"{share['median']:.2f} | {share['p95']:.2f} | {share['max']:.2f} | "
                        f"{share['over']} of {len(used)} |")
    lines = [f"Champion `{rel(args.champion)}`, {args.positions} positions per size (seed "
             f"{args.seed}, every phase). Nodes per second: depth {args.depth}, no exact "
             "endgame, second of two runs per position from a cleared table. Budget: the "
             f"export's own choice with {args.move_ms} ms per move (exact from {endgame} "
             "undrawn edges), one cold JVM, time of `makeMove` over the budget.", "",
             "| board | engine nodes/s (numba) | Java nodes/s | ratio | budget used, median | "
             "p95 | max | moves over budget |", "|---|---|---|---|---|---|---|---|", *rows]
    write_result(args.out, "# COMP30024 Java export: speed", lines, stamp, data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
