"""Speed of the COMP90054 exports (one pure-Python ``myTeam.py`` each, no numba): nodes per
second of their alpha-beta against the engine's numba search, and the share of the course's
time limit their ``SelectAction`` uses per move.

    python -m experiments.bench.exports.comp90054 --out experiments/results/bench_comp90054.md

Both committed Othello champions (square tables ``othello.json``, n-tuple network
``othello_ntuple.json``) are exported as the course gets them (``--move-ms``, default 1000).
Positions: ``--positions`` from seeded random games, midgame (20-40 plies) and a few near the
end (48-52 plies: within the exact endgame of 10 empties or close to it). Per export and
position: the file's ``TimedSearch.negamax`` to ``--depth`` against the engine's ``Searcher``
at the same depth (nodes / seconds, one run each; the engine after a warm-up call), then
``myAgent.SelectAction`` through the stand-ins' framework interface with the course's time
(seconds used / the limit; the depth it completed).
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from engine.core.champions.search import champion_search
from engine.core.records import SearchSettings
from engine.reversi.export.comp90054 import write_comp90054
from engine.reversi.files import load_evaluation
from engine.reversi.rules.state import PASS, Position
from engine.reversi.search.searcher import Searcher
from experiments.common import arguments
from experiments.stamp import ROOT, Stamp, write_result

CHAMPIONS = ROOT / "experiments" / "results" / "champions"
EXPORTS = {"square tables": CHAMPIONS / "othello.json",
           "n-tuple network": CHAMPIONS / "othello_ntuple.json"}
STANDIN_TEMPLATE = ROOT / "tests" / "engine" / "reversi" / "comp90054_standins" / "template.py"


def positions(n: int, seed: int) -> list[Position]:
    """Two thirds midgame (20-40 random plies), a third near the end (48-52), side to move
    able to move."""
    rng, out = np.random.default_rng(seed), []
    while len(out) < n:
        late = len(out) % 3 == 2
        p = Position.start()
        for _ in range(int(rng.integers(48, 53) if late else rng.integers(20, 41))):
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))] if moves else PASS)
        if p.legal_moves_mask():
            out.append(p)
    return out


def state_of(p: Position):
    """The framework's view with plain ints (-1 empty, 0 black, 1 white); agent 0 is black."""
    board = [[-1] * 8 for _ in range(8)]
    for sq in range(64):
        if p.black >> sq & 1:
            board[sq // 8][sq % 8] = 0
        elif p.white >> sq & 1:
            board[sq // 8][sq % 8] = 1
    return SimpleNamespace(board=board, agent_colors={0: 0, 1: 1})


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(source: Path, boards: list[Position], depth: int, move_ms: int, out: Path) -> dict:
    weights = load_evaluation(source)
    endgame = champion_search(source, SearchSettings()).search.endgame_empties
    agent = load(write_comp90054(weights, out, endgame, move_ms=move_ms, first_move_ms=move_ms,
                                 team=f"t_{abs(hash(source)) % 1000:03d}"), source.stem)
    engine = Searcher(weights, "othello", endgame_empties=0)
    engine.search(boards[0], depth=depth)  # compile or load the kernels
    ours = theirs = 0.0
    nodes = engine_nodes = 0
    shares, depths, exact = [], [], 0
    for p in boards:
        search = agent.TimedSearch(float("inf"))
        start = time.perf_counter()
        search.negamax(p.player, p.opponent, depth, -2 * agent.WIN ** 2, 2 * agent.WIN ** 2)
        ours += time.perf_counter() - start
        nodes += search.nodes
        result = engine.search(p, depth=depth)
        theirs += result.seconds
        engine_nodes += result.nodes
        player = agent.myAgent(0 if p.black_to_move else 1)
        player.moves_made = 1  # not the first move: the 1 s limit
        actions = [divmod(sq, 8) for sq in p.legal_moves()]
        start = time.perf_counter()
        action = player.SelectAction(actions, state_of(p))
        shares.append((time.perf_counter() - start) / (move_ms / 1000))
        assert action in actions
        depths.append(player.last_info.get("depth", 0))
        exact += bool(player.last_info.get("exact"))
    return {"file": str(source.relative_to(ROOT)), "endgame_empties": endgame,
            "nodes": nodes, "seconds": ours, "nodes_per_second": nodes / ours,
            "engine_nodes": engine_nodes, "engine_seconds": theirs,
            "engine_nodes_per_second": engine_nodes / theirs,
            "ratio": (nodes / ours) / (engine_nodes / theirs),
            "shares": shares, "share_mean": statistics.mean(shares), "share_max": max(shares),
            "depths": depths, "exact_solves": exact}


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--positions", type=int, default=9)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--move-ms", type=int, default=1000, help="the course's limit per move")
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    sys.modules["template"] = load(STANDIN_TEMPLATE, "template")  # the file's ``Agent``
    boards = positions(args.positions, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        rows = {name: measure(path, boards, args.depth, args.move_ms, Path(tmp))
                for name, path in EXPORTS.items()}
    lines = [f"{len(boards)} positions (seed {args.seed}: two thirds after 20-40 random plies, "
             f"a third after 48-52), one thread, one run each; limit {args.move_ms} ms per move "
             "(the agent stops its search at 70% of it).", "",
             f"| export | its nodes/s (depth {args.depth}) | engine nodes/s (numba) | ratio | "
             "budget used per move: mean | max | depths completed | exact solves |",
             "|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        lines.append(
            f"| {name} (`{r['file']}`) | {r['nodes_per_second']:,.0f} | "
            f"{r['engine_nodes_per_second']:,.0f} | **{r['ratio']:.4f}** "
            f"(1/{1 / r['ratio']:,.0f}) | **{100 * r['share_mean']:.1f}%** | "
            f"**{100 * r['share_max']:.1f}%** | median {statistics.median(r['depths']):.0f}, "
            f"{min(r['depths'])}-{max(r['depths'])} | {r['exact_solves']} |")
    lines += ["", "Nodes are counted by each search its own way (the engine counts the "
              "positions it evaluates one ply from the horizon; the file every call of its "
              "negamax), so the ratio is a rough speed ratio of the two searches."]
    write_result(args.out, "# The exported COMP90054 agents: speed", lines, stamp,
                 {"depth": args.depth, "move_ms": args.move_ms, "positions": len(boards),
                  "exports": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
