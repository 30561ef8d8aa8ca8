"""Speed of the COMP 424 Java export (``--format comp424``) against the engine's numba search,
and the share of the course's time budget its moves use.

    python -m experiments.bench.exports.comp424 --out experiments/results/bench_comp424.md

Per champion file (the committed feature and n-tuple champions): the export is compiled with
the framework stand-ins (``tests/engine/pentago/comp424_standins``) and, in one JVM (after one
warm-up search), searches ``--positions`` seeded random positions (``--min-stones``..
``--max-stones``) to the fixed ``--depth``; the engine's ``Searcher`` searches the same positions
to the same depth (after its numba compile). Nodes per second of each and their ratio (one run).
Then the export with the course's budgets (2,000 ms a move, 30,000 ms the first) plays its
first move on the empty board and ``--timed`` further positions: milliseconds per move as a
share of the budget, and the depth it finished.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from engine.core import SearchSettings
from engine.pentago.export.comp424 import COURSE_FIRST_MOVE_MS, COURSE_MOVE_MS
from engine.pentago.game import GAME
from experiments.common import arguments
from experiments.stamp import ROOT, Stamp, write_result
from tests.engine.pentago import comp424_check as cc

CHAMPIONS = ("experiments/results/champions/pentago_twist.json",
             "experiments/results/champions/pentago_twist_ntuple.json")


def engine_rate(path: str, positions, depth: int) -> tuple[int, float]:
    champion = GAME.load_champion(ROOT / path)
    game = GAME.with_settings(champion.settings)
    agent = game.make_agent(champion.genome, SearchSettings(depth=depth, endgame_empties=0))
    agent.select_move(cc.replay(positions[0]))  # numba compiles (or loads) the kernels
    nodes = seconds = 0
    for moves in positions:
        P, O = cc.replay(moves).boards()
        found = agent.searcher.search(P, O, depth=depth)
        nodes, seconds = nodes + found.nodes, seconds + found.seconds
    return nodes, seconds


def java_rate(classes: Path, positions, depth: int) -> tuple[int, float]:
    lines = cc.run_harness(classes, ["nps", str(depth)],
                           [cc.sequence_line(positions[0])] +
                           [cc.sequence_line(p) for p in positions])
    rows = [line.split("\t") for line in lines[1:]]  # the first search warms the JIT up
    return sum(int(r[0]) for r in rows), sum(float(r[1]) for r in rows)


def timed_moves(classes: Path, positions) -> list[tuple[float, int]]:
    """(ms, depth) of the first move (empty board) and then of each position."""
    lines = cc.run_harness(classes, ["timed"], [""] + [cc.sequence_line(p) for p in positions])
    return [(float(ms), int(depth)) for ms, depth in (line.split("\t") for line in lines)]


def measure(path: str, args, folder: Path) -> dict:
    positions = cc.positions(args.positions, args.seed, args.min_stones, args.max_stones)
    fixed = cc.export_and_compile(ROOT / path, folder / "fixed", depth=args.depth,
                                  endgame_empties=0)
    java_nodes, java_seconds = java_rate(fixed, positions, args.depth)
    engine_nodes, engine_seconds = engine_rate(path, positions, args.depth)
    timed = cc.export_and_compile(ROOT / path, folder / "timed")
    moves = timed_moves(timed, positions[:args.timed])
    first, rest = moves[0], moves[1:]
    shares = [ms / COURSE_MOVE_MS for ms, _ in rest]
    return {"champion": path, "positions": len(positions), "depth": args.depth,
            "java_nodes": java_nodes, "java_seconds": java_seconds,
            "java_nps": java_nodes / java_seconds, "engine_nodes": engine_nodes,
            "engine_seconds": engine_seconds, "engine_nps": engine_nodes / engine_seconds,
            "ratio": (java_nodes / java_seconds) / (engine_nodes / engine_seconds),
            "first_move_ms": first[0], "first_move_share": first[0] / COURSE_FIRST_MOVE_MS,
            "first_move_depth": first[1], "move_ms": [ms for ms, _ in rest],
            "move_depths": [d for _, d in rest], "share_mean": statistics.mean(shares),
            "share_max": max(shares)}


def lines_of(row: dict) -> list[str]:
    depths = row["move_depths"]
    return [f"## `{row['champion']}`", "",
            f"- fixed depth {row['depth']} on {row['positions']} positions: Java "
            f"{row['java_nodes']:,} nodes in {row['java_seconds']:.2f} s = "
            f"**{row['java_nps']:,.0f} nodes/s**; engine (numba) {row['engine_nodes']:,} nodes in "
            f"{row['engine_seconds']:.2f} s = {row['engine_nps']:,.0f} nodes/s; ratio Java / "
            f"engine **{row['ratio']:.2f}** (one run)",
            f"- first move (empty board, {COURSE_FIRST_MOVE_MS:,} ms budget): "
            f"{row['first_move_ms']:,.0f} ms = **{100 * row['first_move_share']:.1f}%**, depth "
            f"{row['first_move_depth']}",
            f"- {len(depths)} further moves ({COURSE_MOVE_MS:,} ms budget): share used mean "
            f"**{100 * row['share_mean']:.1f}%**, max **{100 * row['share_max']:.1f}%**; depths "
            f"finished {min(depths)}-{max(depths)} (median {statistics.median(depths):.0f})", ""]


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--positions", type=int, default=30)
    p.add_argument("--timed", type=int, default=10, help="positions played with the budget")
    p.add_argument("--seed", type=int, default=424)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--min-stones", type=int, default=6)
    p.add_argument("--max-stones", type=int, default=24)
    p.add_argument("--champions", nargs="+", default=list(CHAMPIONS))
    args = p.parse_args(argv)
    if not cc.have_jdk():
        print("error: javac/java not found (the export is Java)", file=sys.stderr)
        return 1
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(path, args, Path(tmp) / str(i))
                for i, path in enumerate(args.champions)]
    head = [f"The export compiled with `javac --release 8` against the framework stand-ins, "
            f"run with `java -Xmx500m` (one thread); positions: seeded random play, "
            f"{args.min_stones}-{args.max_stones} stones (seed {args.seed}); no exact endgame in "
            "the fixed-depth part (`--endgame-empties 0`). The timed moves use the course's "
            "budgets; the export stops at 85% of a budget minus 60 ms.", ""]
    body = head + [line for row in rows for line in lines_of(row)]
    write_result(args.out, "# The COMP 424 Java export: speed and time used", body, stamp,
                 {"rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
