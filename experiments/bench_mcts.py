"""MCTS speed, old code against new: play-outs per second of Pentago Twist's and Reversi's MCTS
agents (random and guided play-outs), one core.

    python experiments/bench_mcts.py --old /work/baseline --out experiments/results/bench_mcts.md

``--old`` is a checkout of the code to compare with (e.g. before the UCT loop moved to
``engine.kernels.mcts``); this repository is the new code. Each measurement runs in a fresh
subprocess with that checkout first on ``sys.path`` and its own numba cache (so neither checkout
is written to and neither reuses the other's compiled kernels); old and new alternate,
``--repeats`` times, and the best of each is kept. An agent searches each position with a fixed
play-out budget after a warm-up search (compilation); play-outs/s = budget / CPU seconds of
the searches (``time.process_time``, so other jobs on the machine count less).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
from engine.pentago.mcts import MCTSAgent as PentagoMCTS
from engine.pentago.state import State
from engine.reversi.agents.mcts import MCTSAgent as ReversiMCTS
from engine.reversi.position import Position

playouts = int(sys.argv[2])
rng = np.random.default_rng(0)

def walk(state, plies, legal, play):
    for _ in range(plies):
        moves = legal(state)
        state = play(state, moves[int(rng.integers(len(moves)))])
    return state

pentago = [walk(State(), p, State.legal_moves, State.apply) for p in (0, 8, 16)]
reversi = [walk(Position.start(), p, Position.legal_moves, Position.play) for p in (0, 20, 40)]
guide = np.random.default_rng(1).normal(size=(3, 18))
phases = np.minimum(np.arange(37) * 3 // 37, 2).astype(np.int64)
agents = {
    "pentago_twist mcts": (lambda n: PentagoMCTS(playouts=n, seed=1), pentago),
    "pentago_twist mcts_h": (lambda n: PentagoMCTS(playouts=n, seed=1, weights=guide,
                                                   phase_of_stones=phases), pentago),
    "reversi mcts": (lambda n: ReversiMCTS("othello", playouts=n, seed=1), reversi),
    "reversi mcts_guided": (lambda n: ReversiMCTS("reversed", playouts=n, seed=1,
                                                  weights=np.arange(64.0)), reversi),
}
for name, (make, positions) in agents.items():
    make(50).select_move(positions[0])  # compile (or load from the cache)
    agent = make(playouts)
    start = time.process_time()  # CPU time: other jobs on the machine do not count
    for position in positions:
        agent.select_move(position)
    seconds = time.process_time() - start
    print(json.dumps({"agent": name, "playouts_per_s": playouts * len(positions) / seconds}))
"""


def measure(code: Path, playouts: int, cache_dir: str) -> dict[str, float]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, "-c", WORKER, str(code), str(playouts)], env=env,
                         cwd=tempfile.gettempdir(), check=True, capture_output=True,
                         text=True).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return {row["agent"]: row["playouts_per_s"] for row in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="checkout of the old code")
    parser.add_argument("--playouts", type=int, default=20_000, help="budget per search")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="write the markdown here too")
    args = parser.parse_args()
    if not (args.old / "engine" / "pentago" / "mcts.py").is_file():
        sys.exit(f"error: --old {args.old}: not a checkout of this project (no engine/)")
    best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
    with tempfile.TemporaryDirectory() as old_cache, tempfile.TemporaryDirectory() as new_cache:
        for _ in range(args.repeats):
            for label, code, cache in (("old", args.old, old_cache), ("new", ROOT, new_cache)):
                for agent, rate in measure(code.resolve(), args.playouts, cache).items():
                    best[label][agent] = max(best[label].get(agent, 0.0), rate)
    command = "python experiments/bench_mcts.py " + " ".join(sys.argv[1:])
    lines = ["# MCTS play-outs per second, old code against new", "", f"Command: `{command}`",
             "", f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
             f"{platform.python_version()}, one thread. Date: "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Load averages (1/5/15 "
             f"min) at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}.", "",
             f"Budget {args.playouts:,} play-outs per search on 3 positions per game; best of "
             f"{args.repeats} runs each.", "", "| agent | old play-outs/s | new play-outs/s | "
             "new / old |", "|---|---:|---:|---:|"]
    for agent, old in best["old"].items():
        new = best["new"][agent]
        lines.append(f"| {agent} | {old:,.0f} | {new:,.0f} | {new / old:.3f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
