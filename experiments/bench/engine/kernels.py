"""Before/after: this tree's engines against an older checkout's, measured in one process.

    python -m experiments.bench.engine.kernels --baseline a214400a0c57 [--repeats 7]
        [--out experiments/results/bench_kernels.md]

The old checkout's ``engine`` package is copied to a temporary folder as ``baseline_engine``
(imports rewritten), so both engines load side by side and every case runs old, new, old, new,
... in the same process: both see the same machine load, and the ratio new/old of the best
times is what to read. Only public APIs both trees have are used: fixed-depth alpha-beta on
fixed positions for each game, Reversi perft and the Reversi exact solver. Both must return the
same moves, values and node counts (the shared kernels must not change a result); the script
exits 1 if they do not.

The baseline is any checkout of this repository (its folder), or a git revision whose
``engine`` is extracted with ``git archive`` (``a214400a0c57``: the last commit before the shared
kernels, ``engine/kernels``).
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from experiments.bench.engine.search import midgame_positions
from experiments.common import baseline_arguments, baseline_tree, random_walk
from experiments.stamp import Stamp, write_result

CASES = {"reversi": "Reversi alpha-beta, depth 6, 24 midgame positions",
         "reversi_solve": "Reversi exact solver, 8 positions of 16 empties",
         "perft": "Reversi perft(9) from the start",
         "pentago": "Pentago Twist alpha-beta, depth 3, 16 positions",
         "hexifence": "Hexifence N=3 alpha-beta, depth 4, 12 positions"}


def load_baseline(engine: Path, into: Path) -> str:
    """The old ``engine`` as the package ``baseline_engine`` (a copy under ``into``, imports
    rewritten), imported from its folder."""
    target = into / "baseline_engine"
    shutil.copytree(engine, target, ignore=shutil.ignore_patterns("__pycache__"))
    for py in target.rglob("*.py"):
        text = py.read_text()
        text = re.sub(r"\bengine\.(core|kernels|reversi|pentago|hexifence|web)",
                      r"baseline_engine.\1", text)
        py.write_text(text.replace("from engine import", "from baseline_engine import"))
    spec = importlib.util.spec_from_file_location("baseline_engine", target / "__init__.py",
                                                  submodule_search_locations=[str(target)])
    sys.modules["baseline_engine"] = module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return "baseline_engine"


def endgame_positions(rng, n: int, empties: int) -> list[str]:
    """``n`` positions of random play down to ``empties`` empty squares, each with a move."""
    from engine.reversi.rules.state import PASS, Position

    out = []
    while len(out) < n:
        p = Position.start()
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
        state = random_walk(game, rng, int(rng.integers(lo, hi)))
        if state is not None:
            out.append(game.state_text(state))
    return out


def case(pkg: str, name: str, inputs):
    """A zero-argument function running ``name`` on ``pkg``'s engine, returning its results."""

    def imp(*names):
        """The first of ``names`` (today's layout first, then older ones) that ``pkg`` has."""
        for m in names:
            try:
                return importlib.import_module(f"{pkg}.{m}")
            except ModuleNotFoundError as e:
                if not f"{pkg}.{m}".startswith(e.name or "?"):
                    raise
        raise ModuleNotFoundError(f"{pkg} has none of {names}")

    if name in ("reversi", "reversi_solve"):
        Position = imp("reversi.rules.state", "reversi.position").Position
        weights = imp("reversi.files", "reversi.weights_io").reference_weights("wpc")
        solve = name == "reversi_solve"
        searcher = imp("reversi.search.searcher", "reversi.search")
        s = searcher.Searcher(weights, "othello", endgame_empties=64 if solve else 0,
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
        start = imp("reversi.rules.state", "reversi.position").Position.start()
        return lambda: imp("reversi.perft").perft(start, 9)
    if name == "pentago":
        game = imp("pentago.game").GAME
        w, ph = game.evaluation_arrays(game.reference_genome("reference"))
        searcher = imp("pentago.search.searcher", "pentago.search")
        s = searcher.Searcher(w, ph, endgame_empties=0, tt_bits=18, shared=False)
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
    W = imp("hexifence.genome.weights", "hexifence.weights")
    searcher = imp("hexifence.search.searcher", "hexifence.searcher")
    s = searcher.Searcher(W.weights_matrix(W.reference_genome("reference", 1), 1),
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
    parser = baseline_arguments(__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    args = parser.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    rng = np.random.default_rng(7)
    inputs = {"reversi": [p.to_string() for p in midgame_positions(rng, 24, 18, 36)],
              "reversi_solve": endgame_positions(rng, 8, 16), "perft": None,
              "pentago": game_states("pentago_twist", rng, 16, 4, 12),
              "hexifence": game_states("hexifence", rng, 12, 10, 30)}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tree, commit = baseline_tree(args.baseline, Path(tmp) / "tree")
        old_pkg = load_baseline(tree / "engine", Path(tmp))
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
            rows.append({"case": name, "old": old, "new": new,
                         "same": results["old"] == results["new"]})
            print(rows[-1], file=sys.stderr)
    lines = [f"Baseline: commit {commit} (`--baseline {args.baseline}`); this tree: the stamp's "
             "commit.", "",
             "| case | old best s | new best s | new / old | same results |",
             "|---|---|---|---|---|",
             *(f"| {CASES[r['case']]} | {r['old']:.4f} | {r['new']:.4f} | "
               f"{r['new'] / r['old']:.3f} | {'yes' if r['same'] else '**NO**'} |" for r in rows),
             "",
             "Best of the repeats, old and new interleaved in one process after a warm-up call. "
             "Same results = identical moves, values and node counts on every position (the "
             "solver: moves and exact scores)."]
    write_result(args.out, "# Shared kernels: before/after, measured in one process", lines,
                 stamp, {"baseline": commit, "cases": args.cases, "rows": rows})
    return 0 if all(r["same"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
