"""Speed of the exported CS303 agent (one pure-Python file, no numba): nodes per second of its
alpha-beta and how deep its iterative deepening gets within the platform's time limit.

    python -m experiments.bench.cs303 --out experiments/results/bench_cs303.md

The agent is ``experiments/results/champions/reversed_reversi_cs303.py`` (``--agent``), loaded
as a module the way the platform loads it. Positions: ``--positions`` midgame positions from
seeded random games (20-40 plies; black to move or passed to). Per position: the agent's own
``Searcher.negamax`` to a fixed ``--depth`` (nodes / seconds), then ``AI.go`` with
``--time-out`` seconds (the depths it completed: the moves it appended after the legal list).
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from experiments.common import arguments
from experiments.stamp import ROOT, Stamp, write_result

AGENT = ROOT / "experiments" / "results" / "champions" / "reversed_reversi_cs303.py"
BLACK, WHITE = -1, 1
START = {27: WHITE, 36: WHITE, 28: BLACK, 35: BLACK}  # d4/e5 white, e4/d5 black (row-major)


def load(path: Path):
    spec = importlib.util.spec_from_file_location("cs303_agent", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def depth_in_time(ai, board, time_out: float) -> tuple[int, float]:
    agent = ai.AI(8, BLACK, time_out)
    P, O = ai.boards_from_chessboard(board, BLACK)
    legal = bin(ai.legal_moves(P, O)).count("1")
    start = time.perf_counter()
    candidates = agent.go(board)
    return len(candidates) - legal, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--agent", type=Path, default=AGENT)
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--time-out", type=float, default=5.0, help="the platform's seconds per move")
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    ai = load(args.agent)
    boards = midgame(ai, args.positions, args.seed)
    searched = [fixed_depth(ai, b, args.depth) for b in boards]
    nodes, seconds = sum(n for n, _ in searched), sum(s for _, s in searched)
    timed = [depth_in_time(ai, b, args.time_out) for b in boards]
    depths = [d for d, _ in timed]
    shares = [s / args.time_out for _, s in timed]
    data = {"agent": str(args.agent.resolve().relative_to(ROOT)
                         if args.agent.resolve().is_relative_to(ROOT) else args.agent),
            "positions": len(boards), "depth": args.depth, "nodes": nodes, "seconds": seconds,
            "nodes_per_second": nodes / seconds, "time_out": args.time_out,
            "depths_completed": depths, "go_seconds": [s for _, s in timed],
            "share_mean": statistics.mean(shares), "share_max": max(shares)}
    lines = [f"Agent `{data['agent']}`, {len(boards)} midgame positions (seed {args.seed}, 20-40 "
             "random plies), one thread.", "",
             f"- fixed depth {args.depth} (`Searcher.negamax`): {nodes:,} nodes in {seconds:.2f} s "
             f"= **{nodes / seconds:,.0f} nodes/s**",
             f"- `AI.go` with time_out = {args.time_out:g} s (it stops at 80% of it): depths "
             f"completed median {statistics.median(depths):.0f}, range {min(depths)}-"
             f"{max(depths)}; longest call {max(data['go_seconds']):.2f} s",
             f"- time used per call as a share of time_out (issue 29: none over 100%, mean above "
             f"60%): mean **{100 * statistics.mean(shares):.1f}%**, min {100 * min(shares):.1f}%, "
             f"max **{100 * max(shares):.1f}%**"]
    write_result(args.out, "# The exported CS303 agent: speed", lines, stamp, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
