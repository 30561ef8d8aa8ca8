"""Speed of the exported CS303 agent, pure Python and with its numba search: nodes per second,
how deep its iterative deepening gets, how much of the time limit it uses, how fast it proves
endgames (``cs303_endgame``), what the numba compile costs and how much memory each takes.

    python -m experiments.bench.exports.cs303 --out experiments/results/bench_cs303.md
    python -m experiments.bench.exports.cs303 --before HEAD~3 --out ...  # and the file then

The agents: ``experiments/results/champions/reversed_reversi_cs303.py`` (``--agent``; the
export's default, numba once compiled) and the same champion exported with ``--numba off`` (pure
Python), each loaded as the platform loads it; ``--before REV`` adds the committed agent file as
it was at git revision ``REV``, on the same positions. Positions: ``--positions`` midgame
positions from seeded random games (20-40 plies; black to move or passed to). Per agent and
position: its ``search_root`` to a fixed ``--depth`` (nodes / seconds, iterative deepening
included), then ``AI.go`` with each of ``--time-outs`` seconds: the depth it completed
(``AI.last_search``), its nodes per second and the wall time of ``go`` as a share of the time
limit (a share over 100% would lose the game on the platform). The numba agent is measured once
compiled. Last, in a new process per agent (and for the TD network's agent,
``reversed_reversi_ntuple_cs303.py``): the seconds the numba compile takes on its own, and the
peak resident memory after the first move (pure) or after the compile and a move (numba); the
same for both numba agents in the course's Python 3.7 with numba 0.56 where it is built
(``.ci/course_python``).
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

from experiments.bench.exports import cs303_endgame
from experiments.common import arguments, rel
from experiments.stamp import ROOT, Stamp, write_result

AGENT = ROOT / "experiments" / "results" / "champions" / "reversed_reversi_cs303.py"
RUN = ROOT / "experiments" / "runs" / "reversed_reversi"
NETWORK_AGENT = AGENT.with_name("reversed_reversi_ntuple_cs303.py")
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


def searcher(ai):
    """The agent's ``search_root``: its compiled one when it has compiled, else pure Python."""
    compiled = ai.compiled_search() if hasattr(ai, "compiled_search") else None
    return ai.search_root if compiled is None else compiled.search_root


def fixed_depth(ai, board, depth: int) -> tuple[int, float]:
    P, O = ai.boards_from_chessboard(board, BLACK)
    start = time.perf_counter()
    nodes = searcher(ai)(P, O, float("inf"), lambda sq: None, depth)[1]  # (depth, nodes, ...)
    return nodes, time.perf_counter() - start


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


FRESH = """
import importlib.util, sys, time
import numpy as np
spec = importlib.util.spec_from_file_location("ai", sys.argv[1])
ai = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ai)
seconds = None
if hasattr(ai, "wait_until_compiled"):
    start = time.perf_counter()
    assert ai.wait_until_compiled(900), ai._COMPILED["error"]
    seconds = time.perf_counter() - start
board = np.zeros((8, 8), dtype=int)
board[3, 3] = board[4, 4] = 1
board[3, 4] = board[4, 3] = -1
agent = ai.AI(8, -1, 2.0)
agent.go(board)
# VmHWM: this process's peak (ru_maxrss would carry over the parent's, across fork and exec)
peak = [int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM")]
print(seconds, peak[0] / 1024, agent.last_search)
"""


SWITCH = """
import importlib.util, sys, time
import numpy as np
spec = importlib.util.spec_from_file_location("ai", sys.argv[1])
ai = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ai)
board = np.zeros((8, 8), dtype=int)
board[3, 3] = board[4, 4] = 1
board[3, 4] = board[4, 3] = -1
players = {-1: ai.AI(8, -1, 2.0), 1: ai.AI(8, 1, 2.0)}
start, colour, moves = time.perf_counter(), -1, 0
while moves < 60:
    agent = players[colour]
    agent.go(board.copy())
    if agent.last_search["numba"]:
        break
    moves += 1
    if agent.candidate_list:
        P, O = ai.boards_from_chessboard(board, colour)
        r, c = agent.candidate_list[-1]
        flipped = ai.flips(P, O, 8 * r + c) | 1 << (8 * r + c)
        for sq in range(64):
            if flipped >> sq & 1:
                board[sq // 8, sq % 8] = colour
    colour = -colour
print(moves, time.perf_counter() - start)
"""


def moves_before_numba(path: Path) -> dict:
    """In a new process, a game of the agent against itself at 2 s a move from the start: the
    moves played in pure Python while the compile runs beside them, and their seconds."""
    out = subprocess.run([sys.executable, "-c", SWITCH, str(path)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.split()
    return {"pure_moves": int(out[0]), "seconds": float(out[1])}


def course_python() -> str | None:
    """The CS303 course's interpreter (Python 3.7, numpy 1.21, numba 0.56):
    ``$BOARD_EVOLVE_COURSE_PYTHON``, else the one ``.ci/course_python`` builds, if built."""
    built = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"), "board-evolve",
                 "cs303-python3.7", "bin", "python")
    return os.environ.get("BOARD_EVOLVE_COURSE_PYTHON") or (str(built) if built.exists()
                                                             else None)


def fresh_process(path: Path, python: str = sys.executable) -> dict:
    """In a new process of ``python``: seconds of the numba compile alone (None for a pure
    agent) and the peak resident memory (MB) after one 2-second move from the start position."""
    out = subprocess.run([python, "-c", FRESH, str(path)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.split(maxsplit=2)
    return {"compile_seconds": None if out[0] == "None" else float(out[0]),
            "peak_rss_mb": float(out[1]), "first_move": out[2].strip()}


def pure_twin(folder: Path) -> Path:
    """The committed champion exported with ``--numba off``."""
    out = folder / "pure_ai.py"
    subprocess.run([sys.executable, "-m", "evolve.export", str(RUN), "--format", "cs303",
                    "--numba", "off", "--out", str(out)], cwd=ROOT, check=True,
                   capture_output=True)
    return out


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
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--time-outs", type=float, nargs="+", default=[2.0, 5.0],
                   help="the platform's seconds per move (the course's default is 5)")
    p.add_argument("--endgame-positions", type=int, default=10,
                   help="endgame positions per number of empty squares")
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    with tempfile.TemporaryDirectory() as tmp:
        agents = {"pure Python (--numba off)": pure_twin(Path(tmp)), "numba": args.agent}
        if args.before:
            agents = {f"before ({args.before})": file_at(args.before, AGENT, Path(tmp)),
                      **agents}
        modules = {label: load(path, f"cs303_{i}") for i, (label, path) in
                   enumerate(agents.items())}
        for module in modules.values():
            if hasattr(module, "wait_until_compiled"):
                assert module.wait_until_compiled(900), module._COMPILED["error"]
        boards = midgame(next(iter(modules.values())), args.positions, args.seed)
        rows = measure(modules, boards, args.depth, args.time_outs)
        endgame = cs303_endgame.measure(modules["pure Python (--numba off)"], modules["numba"],
                                        boards, args.endgame_positions, args.seed)
        fresh = {label: fresh_process(path) for label, path in agents.items()}
        fresh["TD network (numba)"] = fresh_process(NETWORK_AGENT)
        course = course_python()
        if course:  # the platform's versions: numba 0.56 compiles less and holds less
            fresh["numba, course Python 3.7 + numba 0.56"] = fresh_process(args.agent, course)
            fresh["TD network, course Python 3.7 + numba 0.56"] = fresh_process(NETWORK_AGENT,
                                                                                course)
        switch = moves_before_numba(args.agent)
    data = {"agent": rel(args.agent), "before": args.before, "positions": len(boards),
            "seed": args.seed, "agents": rows, "fresh_process": fresh,
            "moves_before_numba": switch, "endgame": {str(e): r for e, r in endgame.items()}}
    lines = [f"Agent `{data['agent']}` (numba, once compiled) and the same champion exported "
             "with `--numba off`" + (f", and `{rel(AGENT)}` at `{args.before}`" if args.before
                                     else "")
             + f"; {len(boards)} midgame positions (seed {args.seed}, 20-40 random plies). "
             "Nodes/s of `go` counts the nodes of its whole search; the share is the wall "
             "time of `go` over time_out (over 100% would lose the game).", "",
             "| agent | search | result | nodes/s | time used (mean) | time used (max) |",
             "|---|---|---|---:|---:|---:|"]
    for label, row in rows.items():
        lines += lines_for(label, row)
    pure, numba = rows["pure Python (--numba off)"], rows["numba"]
    lines += ["", f"Nodes per second to depth {args.depth}, numba over pure Python: "
              f"**{numba['nodes_per_second'] / pure['nodes_per_second']:.1f}x** (this run).", "",
              "In a new process per agent, one 2 s move from the start position:", "",
              "| agent | numba compile alone (s) | peak resident memory (MB) |", "|---|---:|---:|"]
    for label, f in fresh.items():
        compiled = "-" if f["compile_seconds"] is None else f"{f['compile_seconds']:.1f}"
        lines.append(f"| {label} | {compiled} | {f['peak_rss_mb']:.0f} |")
    lines += cs303_endgame.lines(endgame, args.endgame_positions)
    lines += ["", "On the platform the compile runs beside the first moves, which are pure Python: "
              f"in a new process, the numba agent against itself at 2 s a move played "
              f"**{switch['pure_moves']} moves** ({switch['seconds']:.1f} s, both sides) before "
              "its search was compiled."]
    write_result(args.out, "# The exported CS303 agent: speed and use of the time limit", lines,
                 stamp, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
