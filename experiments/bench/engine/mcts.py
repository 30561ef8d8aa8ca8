"""MCTS before/after: play-outs per second of Pentago Twist's and Reversi's MCTS agents (random
and guided play-outs), this tree against an older checkout, one core.

    python -m experiments.bench.engine.mcts --baseline 20e09c6c9294 [--rounds 5]
        [--playouts 20000] [--out experiments/results/bench_mcts.md]

Each round runs the same probe in a fresh process in each tree, alternating (old, new, old,
new, ...), so both see the same machine load; read the ratios new/old of the medians (single
numbers on a shared machine are noise). The baseline is an older checkout's folder or a git
revision whose ``engine`` is extracted with ``git archive`` (``20e09c6c9294``: the last commit
before the shared UCT loop, ``engine/kernels/search/mcts.py``); each probe runs in its tree's folder
(so ``import engine`` finds that tree's), with a numba cache of its own in a temporary folder
(nothing is written into the tree; neither reuses the other's compiled kernels). An agent
searches 3 fixed positions with a fixed play-out budget after a warm-up search (compilation);
play-outs/s = budget / the best of 3 CPU times (``time.process_time``). Both trees must choose
the same moves (same seeds).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from experiments.common import ROOT, arguments, baseline_tree
from experiments.stamp import Stamp, write_result

PROBE = r"""
import json, sys, time
import numpy as np
from engine.pentago.agents.mcts import MCTSAgent as PentagoMCTS
from engine.pentago.rules.state import State
from engine.reversi.agents.mcts import MCTSAgent as ReversiMCTS
from engine.reversi.rules.state import Position

playouts = int(sys.argv[1])
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
    "pentago_mcts": (lambda n: PentagoMCTS(playouts=n, seed=1), pentago),
    "pentago_mcts_h": (lambda n: PentagoMCTS(playouts=n, seed=1, weights=guide,
                                             phase_of_stones=phases), pentago),
    "reversi_mcts": (lambda n: ReversiMCTS("othello", playouts=n, seed=1), reversi),
    "reversi_mcts_guided": (lambda n: ReversiMCTS("reversed", playouts=n, seed=1,
                                                  weights=np.arange(64.0)), reversi),
}
report = {}
for name, (make, positions) in agents.items():
    make(50).select_move(positions[0])  # compile (or load from the cache)
    best = float("inf")
    for _ in range(3):
        agent = make(playouts)
        start = time.process_time()  # CPU time: other jobs on the machine count less
        moves = [int(agent.select_move(p)) for p in positions]
        best = min(best, time.process_time() - start)
    report[name] = {"playouts_per_s": playouts * len(positions) / best, "moves": moves}
print(json.dumps(report))
"""

LABELS = {"pentago_mcts": "Pentago Twist `mcts` (random play-outs)",
          "pentago_mcts_h": "Pentago Twist `mcts_h` (guided play-outs)",
          "reversi_mcts": "Othello `mcts` (random play-outs)",
          "reversi_mcts_guided": "Reversed Reversi `mcts` guided by a matrix"}


def probe(tree: Path, playouts: int, cache_dir: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", PROBE, str(playouts)], env=env, cwd=tree,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the probe failed in {tree}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = arguments(__doc__)
    parser.add_argument("--baseline", "--old", required=True,
                        help="an older checkout's folder, or a git revision of this repository "
                             "(e.g. from before engine.kernels.search.mcts)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=20_000, help="budget per search")
    args = parser.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    with tempfile.TemporaryDirectory() as tmp:
        old_tree, commit = baseline_tree(args.baseline, Path(tmp) / "tree")
        if not (old_tree / "engine" / "pentago" / "mcts.py").is_file():
            parser.error(f"--baseline {args.baseline}: not a checkout of this project")
        rates, moves = measure({"old": old_tree, "new": ROOT}, args, tmp)
    lines = [f"Baseline: commit {commit} (`--baseline {args.baseline}`); new: the stamp's "
             "commit.", "",
             "| agent | old play-outs/s | new play-outs/s | new / old | same moves |",
             "|---|---|---|---|---|"]
    rows = []
    for case, label in LABELS.items():
        old, new = statistics.median(rates["old"][case]), statistics.median(rates["new"][case])
        rows.append({"agent": case, "old": old, "new": new,
                     "same_moves": moves["old"][case] == moves["new"][case]})
        lines.append(f"| {label} | {old:,.0f} | {new:,.0f} | {new / old:.3f} | "
                     f"{'yes' if rows[-1]['same_moves'] else '**NO**'} |")
    lines.append(f"\n{args.playouts:,} play-outs per search on 3 positions (0/8/16 plies of "
                 "random moves in Pentago Twist, 0/20/40 in Reversi); the median over the rounds "
                 "of each round's best of 3.")
    write_result(args.out, "# MCTS: before/after, measured in one run", lines, stamp,
                 {"baseline": commit, "playouts": args.playouts, "rounds": args.rounds,
                  "rows": rows})
    return 0


def measure(trees: dict[str, Path], args, tmp: str) -> tuple[dict, dict]:
    """Play-outs/s per tree and agent over the rounds (old, new, old, new, ...), and the moves
    each tree chose."""
    rates = {t: {c: [] for c in LABELS} for t in trees}
    moves: dict = {}
    caches = {label: tempfile.mkdtemp(dir=tmp) for label in trees}
    for r in range(args.rounds):
        for label, tree in trees.items():
            for case, row in probe(tree, args.playouts, caches[label]).items():
                rates[label][case].append(row["playouts_per_s"])
                moves.setdefault(label, {})[case] = row["moves"]
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    return rates, moves


if __name__ == "__main__":
    sys.exit(main())
