"""Speed of the exported CS303 agent (one pure-Python file, no numba): nodes per second of its
alpha-beta, how deep its iterative deepening gets and how much of the time limit it uses.

    python -m experiments.bench.exports.cs303 --out experiments/results/bench_cs303.md
    python -m experiments.bench.exports.cs303 --before HEAD~3 --out ...  # and the file then

The agent is ``experiments/results/champions/reversed_reversi_cs303.py`` (``--agent``), loaded
as a module the way the platform loads it; ``--before REV`` also measures the committed agent
file as it was at git revision ``REV``, on the same positions. Positions: ``--positions``
midgame positions from seeded random games (20-40 plies; black to move or passed to). Per
agent and position: the agent's own ``Searcher.negamax`` to a fixed ``--depth`` (nodes /
seconds), then ``AI.go`` with each of ``--time-outs`` seconds: the depth it completed
(``AI.last_search`` when the file keeps it, else the moves it appended after the legal list,
one per finished depth), its nodes per second (when kept) and the wall time of ``go`` as a
share of the time limit (a share over 100% would lose the game on the platform). Last, what a
numba path would cost first: the engine's own numba alpha-beta, imported and compiled in a
fresh process with an empty numba cache, until its first search returns.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from experiments.common import arguments, rel
from experiments.stamp import ROOT, Stamp, write_result

AGENT = ROOT / "experiments" / "results" / "champions" / "reversed_reversi_cs303.py"
BLACK, WHITE = -1, 1
START = {27: WHITE, 36: WHITE, 28: BLACK, 35: BLACK}  # d4/e5 white, e4/d5 black (row-major)


def load(path: Path, name: str = "cs303_agent"):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def file_at(revision: str, path: Path, folder: Path) -> Path:
    """``path`` as it was at git ``revision``, written into ``folder``."""
    source = subprocess.run(["git", "show", f"{revision}:{rel(path)}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    out = folder / f"before_{path.name}"
    out.write_text(source)
    return out


def midgame(ai, n: int, seed: int) -> list[np.ndarray]:
    """``n`` boards (8x8, -1 black, 1 white) after 20-40 random plies, black to move."""
    rng, out = np.random.default_rng(seed), []
    while len(out) < n:
        board = np.zeros(64, dtype=int)
        for sq, colour in START.items():
            board[sq] = colour
        colour = BLACK
        for _ in range(int(rng.integers(20, 41))):
            P, O = ai.boards_from_chessboard(board.reshape(8, 8), colour)
            moves = ai.legal_moves(P, O)
            if moves:
                squares = [s for s in range(64) if moves >> s & 1]
                sq = squares[int(rng.integers(len(squares)))]
                for s in range(64):
                    if ai.flips(P, O, sq) >> s & 1:
                        board[s] = colour
                board[sq] = colour
            colour = -colour
        P, O = ai.boards_from_chessboard(board.reshape(8, 8), BLACK)
        if ai.legal_moves(P, O):
            out.append(board.reshape(8, 8))
    return out


def fixed_depth(ai, board, depth: int) -> tuple[int, float]:
    P, O = ai.boards_from_chessboard(board, BLACK)
    searcher = ai.Searcher(float("inf"))
    start = time.perf_counter()
    searcher.negamax(P, O, depth, -2 * ai.WIN * ai.WIN, 2 * ai.WIN * ai.WIN)
    return searcher.nodes, time.perf_counter() - start


def timed_go(ai, board, time_out: float) -> dict:
    """One ``AI.go``: depth completed, nodes (None when the file does not say), seconds."""
    agent = ai.AI(8, BLACK, time_out)
    P, O = ai.boards_from_chessboard(board, BLACK)
    legal = bin(ai.legal_moves(P, O)).count("1")
    start = time.perf_counter()
    candidates = agent.go(board)
    seconds = time.perf_counter() - start
    kept = getattr(agent, "last_search", None)
    if kept:
        return {"depth": kept["depth"], "nodes": kept["nodes"], "seconds": seconds}
    return {"depth": len(candidates) - legal, "nodes": None, "seconds": seconds}


def measure(modules: dict, boards, depth: int, time_outs: list[float]) -> dict:
    """Every agent on every position, the agents in turn position by position (a change of
    the machine's load then falls on all of them alike)."""
    searched = {label: [] for label in modules}
    calls = {label: {t: [] for t in time_outs} for label in modules}
    for board in boards:
        for label, ai in modules.items():
            searched[label].append(fixed_depth(ai, board, depth))
        for t in time_outs:
            for label, ai in modules.items():
                calls[label][t].append(timed_go(ai, board, t))
    return {label: summary(searched[label], calls[label], depth) for label in modules}


def summary(searched, calls: dict, depth: int) -> dict:
    nodes, seconds = sum(n for n, _ in searched), sum(s for _, s in searched)
    row = {"depth": depth, "nodes": nodes, "seconds": seconds, "nodes_per_second": nodes / seconds,
           "timed": {}}
    for t, timed in calls.items():
        shares = [c["seconds"] / t for c in timed]
        counted = [c for c in timed if c["nodes"] is not None]
        rate = (sum(c["nodes"] for c in counted) / sum(c["seconds"] for c in counted)
                if counted else None)
        row["timed"][str(t)] = {
            "depths_completed": [c["depth"] for c in timed],
            "go_seconds": [c["seconds"] for c in timed], "nodes_per_second": rate,
            "share_mean": statistics.mean(shares), "share_min": min(shares),
            "share_max": max(shares)}
    return row


COMPILE = """
import time
start = time.perf_counter()
from engine.reversi.rules.state import Position
from engine.reversi.search.searcher import Searcher
from engine.reversi.files import reference_weights
imported = time.perf_counter()
Searcher(reference_weights("wpc"), "reversed", endgame_empties=0).search(Position.start(), depth=1)
print(imported - start, time.perf_counter() - imported)
"""


def numba_first_search(folder: Path) -> dict:
    """Seconds to import the engine's numba search and to compile it (its first search), in a
    new process whose numba cache is empty."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "numba_cache")}
    out = subprocess.run([sys.executable, "-c", COMPILE], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return {"import_seconds": float(out[-2]), "compile_seconds": float(out[-1])}


def lines_for(label: str, row: dict) -> list[str]:
    out = [f"| {label} | fixed depth {row['depth']} | {row['nodes']:,} nodes in "
           f"{row['seconds']:.2f} s | **{row['nodes_per_second']:,.0f}** | | |"]
    for t, r in row["timed"].items():
        d = r["depths_completed"]
        rate = "-" if r["nodes_per_second"] is None else f"{r['nodes_per_second']:,.0f}"
        out.append(f"| {label} | `go`, time_out {float(t):g} s | depth mean "
                   f"**{statistics.mean(d):.2f}**, median {statistics.median(d):g}, range "
                   f"{min(d)}-{max(d)} | {rate} | "
                   f"**{100 * r['share_mean']:.1f}%** (min {100 * r['share_min']:.1f}%) | "
                   f"{100 * r['share_max']:.1f}% |")
    return out


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--agent", type=Path, default=AGENT)
    p.add_argument("--before", metavar="REV",
                   help="also measure the committed agent file as it was at this git revision")
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--time-outs", type=float, nargs="+", default=[2.0, 5.0],
                   help="the platform's seconds per move (the course's default is 5)")
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    with tempfile.TemporaryDirectory() as tmp:
        agents = {"after": args.agent}
        if args.before:
            agents = {f"before ({args.before})": file_at(args.before, AGENT, Path(tmp)),
                      "after": args.agent}
        modules = {label: load(path, f"cs303_{i}") for i, (label, path) in
                   enumerate(agents.items())}
        boards = midgame(next(iter(modules.values())), args.positions, args.seed)
        rows = measure(modules, boards, args.depth, args.time_outs)
        numba = numba_first_search(Path(tmp))
    data = {"agent": rel(args.agent), "before": args.before, "positions": len(boards),
            "seed": args.seed, "agents": rows, "numba_first_search": numba}
    lines = [f"Agent `{data['agent']}`"
             + (f" after, and before: `{rel(AGENT)}` at `{args.before}`" if args.before else "")
             + f", {len(boards)} midgame positions (seed {args.seed}, 20-40 random plies), one "
             "thread. Nodes/s of `go` counts the nodes of its whole search; the share is the wall "
             "time of `go` over time_out (over 100% would lose the game).", "",
             "| agent | search | result | nodes/s | time used (mean) | time used (max) |",
             "|---|---|---|---:|---:|---:|"]
    for label, row in rows.items():
        lines += lines_for(label, row)
    lines += ["", f"A numba path would first pay for compiling: the engine's numba alpha-beta "
              f"(`engine.reversi.search.searcher`) in a new process with an empty numba cache took "
              f"{numba['import_seconds']:.1f} s to import and **{numba['compile_seconds']:.1f} s** "
              "to compile (its first search, depth 1)."]
    write_result(args.out, "# The exported CS303 agent: speed and use of the time limit", lines,
                 stamp, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
