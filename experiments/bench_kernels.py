"""Before/after: this tree's engines against an older checkout's, measured in one process.

    python experiments/bench_kernels.py --baseline /path/to/old/checkout [--repeats 7]
        [--out experiments/results/bench_kernels.md]

The old checkout's ``engine`` package is copied to a temporary folder as ``baseline_engine``
(imports rewritten), so both engines load side by side and every case runs old, new, old, new,
... in the same process: both see the same machine load, and the ratio new/old of the best
times is what to read. Only public APIs both trees have are used: fixed-depth alpha-beta on
fixed positions for each game, Reversi perft and the Reversi exact solver. Both must return the
same moves, values and node counts (the shared kernels must not change a result); the script
exits 1 if they do not.

The baseline is any checkout of this repository, e.g. ``git worktree add /tmp/old <commit>``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CASES = {"reversi": "Reversi alpha-beta, depth 6, 24 midgame positions",
         "reversi_solve": "Reversi exact solver, 8 positions of 16 empties",
         "perft": "Reversi perft(9) from the start",
         "pentago": "Pentago Twist alpha-beta, depth 3, 16 positions",
         "hexifence": "Hexifence N=3 alpha-beta, depth 4, 12 positions"}


def copy_baseline(checkout: Path, into: Path) -> str:
    """The old ``engine`` as the package ``baseline_engine`` under ``into``."""
    target = into / "baseline_engine"
    shutil.copytree(checkout / "engine", target, ignore=shutil.ignore_patterns("__pycache__"))
    for py in target.rglob("*.py"):
        text = py.read_text()
        text = re.sub(r"\bengine\.(core|kernels|reversi|pentago|hexifence|web)",
                      r"baseline_engine.\1", text)
        py.write_text(text.replace("from engine import", "from baseline_engine import"))
    sys.path.insert(0, str(into))
    return "baseline_engine"


def reversi_positions(rng, n, lo, hi, empties=None):
    from engine.reversi.position import PASS, Position

    out = []
    while len(out) < n:
        p = Position.start()
        if empties is None:
            for _ in range(int(rng.integers(lo, hi))):
                if not p.legal_moves():
                    break
                moves = p.legal_moves()
                p = p.play(moves[rng.integers(len(moves))])
        else:
            while p.empties > empties and p.legal_moves():
                moves = p.legal_moves()
                p = p.play(moves[rng.integers(len(moves))])
        if p.legal_moves() and p.legal_moves() != [PASS]:
            out.append(p.to_string())
    return out


def game_states(name, rng, n, lo, hi):
    from engine.core import get_game

    game, out = get_game(name), []
    while len(out) < n:
        s = game.initial_state()
        for _ in range(int(rng.integers(lo, hi))):
            if game.is_terminal(s):
                break
            legal = game.legal_moves(s)
            s = game.apply(s, legal[int(rng.integers(len(legal)))])
        if not game.is_terminal(s):
            out.append(game.state_text(s))
    return out


def case(pkg: str, name: str, inputs):
    """A zero-argument function running ``name`` on ``pkg``'s engine, returning its results."""
    imp = lambda m: importlib.import_module(f"{pkg}.{m}")  # noqa: E731
    if name in ("reversi", "reversi_solve"):
        Position = imp("reversi.position").Position
        weights = imp("reversi.weights_io").reference_weights("wpc")
        solve = name == "reversi_solve"
        s = imp("reversi.search").Searcher(weights, "othello", endgame_empties=64 if solve else 0,
                                           tt_bits=20 if solve else 18)
        positions = [Position.parse(t) for t in inputs]

        def run():
            out = []
            for p in positions:
                s.clear()
                r = s.solve(p) if solve else s.search(p, depth=6)
                out.append((r.move, round(r.score, 9), r.nodes if not solve else 0))
            return out
        return run
    if name == "perft":
        start = imp("reversi.position").Position.start()
        return lambda: imp("reversi.perft").perft(start, 9)
    if name == "pentago":
        game = imp("pentago.game").GAME
        w, ph = game.evaluation_arrays(game.reference_genome("reference"))
        s = imp("pentago.search").Searcher(w, ph, endgame_empties=0, tt_bits=18, shared=False)
        states = [game.parse_state(t) for t in inputs]

        def run():
            out = []
            for st in states:
                s.clear()
                r = s.search(*st.boards(), depth=3)
                out.append((r.move, round(r.score, 9), r.nodes))
            return out
        return run
    game = imp("hexifence.game").GAME
    W = imp("hexifence.weights")
    s = imp("hexifence.searcher").Searcher(W.weights_matrix(W.reference_genome("reference", 1), 1),
                                           3, tt_bits=18, shared=False)
    states = [game.parse_state(t) for t in inputs]

    def run():
        out = []
        for st in states:
            s.clear()
            r = s.search(st, depth=4)
            out.append((r.move, round(r.value, 9), r.nodes))
        return out
    return run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="an older checkout")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    parser.add_argument("--out", type=Path, default=None, help="also write Markdown here")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rng = np.random.default_rng(7)
    inputs = {"reversi": reversi_positions(rng, 24, 18, 36),
              "reversi_solve": reversi_positions(rng, 8, 0, 0, empties=16), "perft": None,
              "pentago": game_states("pentago_twist", rng, 16, 4, 12),
              "hexifence": game_states("hexifence", rng, 12, 10, 30)}
    rows, same_everywhere = [], True
    with tempfile.TemporaryDirectory() as tmp:
        old_pkg = copy_baseline(args.baseline.resolve(), Path(tmp))
        for name in args.cases:
            runs = {"old": case(old_pkg, name, inputs[name]), "new": case("engine", name,
                                                                         inputs[name])}
            results = {k: f() for k, f in runs.items()}  # compile, warm up, compare
            times = {k: [] for k in runs}
            for _ in range(args.repeats):
                for k, f in runs.items():
                    t0 = time.perf_counter()
                    f()
                    times[k].append(time.perf_counter() - t0)
            old, new = min(times["old"]), min(times["new"])
            same = results["old"] == results["new"]
            same_everywhere &= same
            rows.append(f"| {CASES[name]} | {old:.4f} | {new:.4f} | {new / old:.3f} | "
                        f"{'yes' if same else '**NO**'} |")
            print(rows[-1], file=sys.stderr)
    text = "\n".join([
        "# Shared kernels: before/after, measured in one process\n",
        f"command: `python experiments/bench_kernels.py --baseline <checkout of "
        f"{_commit(args.baseline)}> --repeats {args.repeats}`  ",
        f"this tree: commit {_commit(ROOT)}; {os.cpu_count()} cores "
        f"({platform.machine()}); load average before "
        f"{' '.join(f'{x:.2f}' for x in load_before)}, after "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {time.strftime('%Y-%m-%d')}\n",
        "| case | old best s | new best s | new / old | same results |", "|---|---|---|---|---|",
        *rows,
        "\nBest of the repeats, old and new interleaved in one process after a warm-up call. Same "
        "results = identical moves, values and node counts on every position (the solver: "
        "moves and exact scores)."]) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)
    return 0 if same_everywhere else 1


def _commit(tree: Path) -> str:
    out = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True)
    return out.stdout.strip() or "?"


if __name__ == "__main__":
    sys.exit(main())
