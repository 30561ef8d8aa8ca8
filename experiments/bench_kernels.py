"""Before/after: the engines of this tree against an older checkout, measured in one run.

    python experiments/bench_kernels.py --baseline /path/to/old/checkout [--rounds 5]
        [--out experiments/results/bench_kernels.md]

Each round runs the same probe in a fresh process in each tree, alternating (old, new, old,
new, ...), so both see the same machine load; the ratios new/old of the median times are what
to read (single numbers on a shared machine are noise). The probe uses only public APIs both
trees have: fixed-depth alpha-beta on fixed positions for each game, Reversi perft and the
Reversi exact solver. It also checks that both trees return the same moves, values and node
counts (the shared kernels must not change a result).

The baseline is any checkout of this repository, e.g. ``git worktree add /tmp/old <commit>``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r'''
import json, sys, time
import numpy as np

def best_of(f, repeats=3):
    f()  # compile / warm up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); out = f(); times.append(time.perf_counter() - t0)
    return min(times), out

def reversi():
    from engine.reversi.position import PASS, Position
    from engine.reversi.search import Searcher
    from engine.reversi.weights_io import reference_weights
    rng = np.random.default_rng(7)
    positions = []
    while len(positions) < 24:
        p = Position.start()
        for _ in range(int(rng.integers(18, 36))):
            moves = p.legal_moves()
            if not moves: break
            p = p.play(moves[rng.integers(len(moves))])
        if p.legal_moves() and p.legal_moves() != [PASS]:
            positions.append(p)
    s = Searcher(reference_weights("wpc"), "othello", endgame_empties=0, tt_bits=18)
    def run():
        out = []
        for p in positions:
            s.clear()
            r = s.search(p, depth=6)
            out.append((r.move, round(r.score, 9), r.nodes))
        return out
    return best_of(run)

def reversi_solve():
    from engine.reversi.position import PASS, Position
    from engine.reversi.search import Searcher
    from engine.reversi.weights_io import reference_weights
    rng = np.random.default_rng(11)
    positions = []
    while len(positions) < 12:
        p = Position.start()
        while p.empties > 16 and p.legal_moves():
            moves = p.legal_moves()
            p = p.play(moves[rng.integers(len(moves))])
        if p.legal_moves():
            positions.append(p)
    s = Searcher(reference_weights("wpc"), "othello", endgame_empties=64, tt_bits=20)
    def run():
        out = []
        for p in positions:
            s.clear()
            r = s.solve(p)
            out.append((r.move, r.score))
        return out
    return best_of(run, 2)

def perft():
    from engine.reversi.perft import perft as count
    from engine.reversi.position import Position
    return best_of(lambda: count(Position.start(), 9))

def pentago():
    from engine.core import get_game
    from engine.pentago.search import Searcher
    game = get_game("pentago_twist")
    w, ph = game.evaluation_arrays(game.reference_genome("reference"))
    rng = np.random.default_rng(3)
    states = []
    while len(states) < 16:
        s = game.initial_state()
        for _ in range(int(rng.integers(4, 12))):
            if game.is_terminal(s): break
            legal = game.legal_moves(s); s = game.apply(s, legal[int(rng.integers(len(legal)))])
        if not game.is_terminal(s): states.append(s)
    searcher = Searcher(w, ph, endgame_empties=0, tt_bits=18, shared=False)
    def run():
        out = []
        for s in states:
            searcher.clear()
            r = searcher.search(*s.boards(), depth=3)
            out.append((r.move, round(r.score, 9), r.nodes))
        return out
    return best_of(run)

def hexifence():
    from engine.core import get_game
    from engine.hexifence.searcher import Searcher
    from engine.hexifence.weights import reference_genome, weights_matrix
    game = get_game("hexifence")
    weights = weights_matrix(reference_genome("reference", 1), 1)
    rng = np.random.default_rng(5)
    states = []
    while len(states) < 12:
        s = game.initial_state()
        for _ in range(int(rng.integers(10, 30))):
            if game.is_terminal(s): break
            legal = game.legal_moves(s); s = game.apply(s, legal[int(rng.integers(len(legal)))])
        if not game.is_terminal(s): states.append(s)
    searcher = Searcher(weights, 3, tt_bits=18, shared=False)
    def run():
        out = []
        for s in states:
            searcher.clear()
            r = searcher.search(s, depth=4)
            out.append((r.move, round(r.value, 9), r.nodes))
        return out
    return best_of(run)

which = sys.argv[1:]
report = {}
for name in which:
    seconds, out = globals()[name]()
    report[name] = {"seconds": seconds, "result": out}
print(json.dumps(report))
'''

CASES = ("reversi", "reversi_solve", "perft", "pentago", "hexifence")
LABELS = {"reversi": "Reversi alpha-beta, depth 6, 24 midgame positions",
          "reversi_solve": "Reversi exact solver, 12 positions of 16 empties",
          "perft": "Reversi perft(9) from the start",
          "pentago": "Pentago Twist alpha-beta, depth 3, 16 positions",
          "hexifence": "Hexifence N=3 alpha-beta, depth 4, 12 positions"}


def probe(tree: Path, cases) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", PROBE, *cases], cwd=tree, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the probe failed in {tree}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="an older checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=CASES)
    parser.add_argument("--out", type=Path, default=None, help="also write Markdown here")
    args = parser.parse_args(argv)
    trees = {"old": args.baseline.resolve(), "new": ROOT}
    times = {t: {c: [] for c in args.cases} for t in trees}
    results = {}
    for r in range(args.rounds):
        for label, tree in trees.items():
            rep = probe(tree, args.cases)
            for c in args.cases:
                times[label][c].append(rep[c]["seconds"])
                results.setdefault(label, {})[c] = rep[c]["result"]
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    lines = ["# Shared kernels: before/after, measured in one run\n",
             f"command: `python experiments/bench_kernels.py --baseline <checkout of "
             f"{_commit(args.baseline)}> --rounds {args.rounds}`  ",
             f"new tree: commit {_commit(ROOT)}; machine: {os.cpu_count()} cores, "
             f"{platform.processor() or platform.machine()}, load average before "
             f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {time.strftime('%Y-%m-%d')}\n",
             "| case | old median s | new median s | new / old | same results |",
             "|---|---|---|---|---|"]
    for c in args.cases:
        old, new = statistics.median(times["old"][c]), statistics.median(times["new"][c])
        same = results["old"][c] == results["new"][c]
        lines.append(f"| {LABELS[c]} | {old:.3f} | {new:.3f} | {new / old:.3f} | "
                     f"{'yes' if same else '**NO**'} |")
    lines.append("\nEach time is the best of 3 repeats in one process after a warm-up call; the "
                 "median is over the rounds. Same results = identical moves, values and node "
                 "counts on every position.")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)
    return 0 if all(results["old"][c] == results["new"][c] for c in args.cases) else 1


def _commit(tree: Path) -> str:
    out = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True)
    return out.stdout.strip() or "?"


if __name__ == "__main__":
    sys.exit(main())
