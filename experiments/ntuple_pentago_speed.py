"""Speed of Pentago Twist's n-tuple genomes: what a search node pays to evaluate, whether
incremental indices would pay, alpha-beta nodes per second, TD self-play games per second.

    python experiments/ntuple_pentago_speed.py                       # prints a Markdown report
    python experiments/ntuple_pentago_speed.py --out experiments/results/ntuple_pentago_speed.md

1. Per successor (every distinct successor of every position of ``--games`` random games,
   as the search's horizon scores them): the rules' checks every static value pays
   (``result`` + ``can_win_now``), the feature evaluation, the network recomputed from the
   bitboards (``evaluate_bits``, what the search does), and the network updated from its
   parent's indices (the placed cell and the twisted quadrant's changed cells through
   ``set_cell``, then the sum with colour-swapped weights: Edax's way, written here only to
   measure it). Each rate is the best of ``--repeats`` passes of one jitted loop.
2. Alpha-beta at depths 2 and 3 from a few positions: nodes per second, features vs network.
3. TD self-play (``td_learn``) games per second per layout.

It prints the command, commit, cores and load average; publish numbers from a quiet machine
only.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core import get_game  # noqa: E402
from engine.kernels import ntuple as nt  # noqa: E402
from engine.kernels.bits import lowest_bit_index, popcount  # noqa: E402
from engine.kernels.ntuple_eval import bit_state  # noqa: E402
from engine.pentago import bitboard as bb  # noqa: E402
from engine.pentago.evaluation import evaluate  # noqa: E402
from engine.pentago.search import Searcher  # noqa: E402

LAYOUTS = ("straight5", "straight5+corner3", "lines+square2")


def positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    game = get_game("pentago_twist")
    P, O = [], []
    for _ in range(games):
        state = game.initial_state()
        while not state.is_over():
            p, o = state.boards()
            P.append(p)
            O.append(o)
            moves = state.legal_moves()
            state = state.apply(moves[int(rng.integers(len(moves)))])
    return np.array(P, np.uint64), np.array(O, np.uint64)


@njit(cache=True)
def _rules(P, O, c_P, c_O, c_m, dedup):
    total = 0
    for k in range(P.shape[0]):
        for i in range(bb.distinct_children_into(P[k], O[k], c_P, c_O, c_m, dedup)):
            total += bb.result(c_P[i], c_O[i]) + bb.can_win_now(c_P[i], c_O[i])
    return total


@njit(cache=True)
def _features(P, O, c_P, c_O, c_m, dedup, weights, phases):
    total = 0.0
    for k in range(P.shape[0]):
        for i in range(bb.distinct_children_into(P[k], O[k], c_P, c_O, c_m, dedup)):
            total += evaluate(c_P[i], c_O[i], weights, phases)
    return total


@njit(cache=True)
def _full(P, O, c_P, c_O, c_m, dedup, t, net, phases):
    total = 0.0
    for k in range(P.shape[0]):
        for i in range(bb.distinct_children_into(P[k], O[k], c_P, c_O, c_m, dedup)):
            total += nt.evaluate_bits(c_P[i], c_O[i], t, net[phases[popcount(c_P[i] | c_O[i])]])
    return total


@njit(cache=True)
def _incremental(P, O, c_P, c_O, c_m, dedup, t, swapped, phases, parent, child):
    """Indices in the parent's frame (its mover = state 1); a child's changed cells moved
    through ``set_cell``; its value from its mover's (state 2's) side: the swapped weights."""
    total = 0.0
    for k in range(P.shape[0]):
        nt.indices_bits(P[k], O[k], t, parent)
        for i in range(bb.distinct_children_into(P[k], O[k], c_P, c_O, c_m, dedup)):
            child[:] = parent
            mover, other = c_O[i], c_P[i]  # after the move, in the parent's frame
            changed = (P[k] ^ mover) | (O[k] ^ other)
            while changed:
                c = lowest_bit_index(changed)
                changed &= changed - np.uint64(1)
                old = bit_state(P[k], O[k], c)
                new = bit_state(mover, other, c)
                nt.set_cell(child, t, c, old, new)
            stones = popcount(mover | other)
            total += nt.evaluate_indices(child, t, swapped[phases[stones]])
    return total


def best_rate(fn, args, count, repeats) -> float:
    fn(*args)
    best = min(_timed(fn, args) for _ in range(repeats))
    return count / best


def _timed(fn, args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def evaluation_rows(args) -> list[str]:
    P, O = positions(args.games, 1)
    scratch = (np.empty(bb.MOVES, np.uint64), np.empty(bb.MOVES, np.uint64),
               np.empty(bb.MOVES, np.int64), np.empty(bb.DEDUP_SLOTS, np.int64))
    count = sum(bb.distinct_children(p, o, *scratch[:3]) for p, o in zip(P, O, strict=True))
    features = get_game("pentago_twist")
    weights, phases = features.evaluation_arrays(features.reference_genome("reference"))
    rules = best_rate(_rules, (P, O, *scratch), count, args.repeats)
    feats = best_rate(_features, (P, O, *scratch, weights, phases), count, args.repeats)
    rows = [f"{len(P):,} positions, {count:,} distinct successors; millions of successors per "
            "second:", "", "| what | M/s |", "|---|---:|",
            f"| rules' checks (result + can_win_now) | {rules / 1e6:.2f} |",
            f"| feature evaluation | {feats / 1e6:.2f} |"]
    for layout in LAYOUTS:
        game = get_game("pentago_twist", {"genome": {"kind": "ntuple", "layout": layout}})
        net, _ = game.network.split(np.random.default_rng(0).normal(
            0, 0.1, game.genome_spec().size))
        t = game.network.tables
        swapped = nt.colour_swapped(net, game.network.layout)
        buffers = (np.empty(len(t.offset), np.int64), np.empty(len(t.offset), np.int64))
        full = best_rate(_full, (P, O, *scratch, t, net, phases), count, args.repeats)
        inc = best_rate(_incremental, (P, O, *scratch, t, swapped, phases, *buffers), count,
                        args.repeats)
        rows.append(f"| network `{layout}`, recomputed / incremental | {full / 1e6:.2f} / "
                    f"{inc / 1e6:.2f} |")
    return rows


def search_rows(args) -> list[str]:
    rows = ["", "Alpha-beta, nodes per second (fresh table, same positions):", "",
            "| genome | depth | nodes | seconds | M nodes/s |", "|---|---:|---:|---:|---:|"]
    rng = np.random.default_rng(2)
    game = get_game("pentago_twist")
    starts = []
    for plies in (4, 10, 16):
        state = game.initial_state()
        while state.stones < plies:
            moves = state.legal_moves()
            state = state.apply(moves[int(rng.integers(len(moves)))])
        starts.append(state)
    for label, settings in (("features", {}), ("ntuple straight5+corner3",
                                               {"genome": {"kind": "ntuple"}})):
        configured = game.with_settings(settings)
        genome = configured.reference_genome("reference")
        for depth in (2, 3):
            nodes = seconds = 0.0
            for state in starts:
                searcher = Searcher(*configured.evaluation_arrays(genome), endgame_empties=0,
                                    shared=False, network=configured.search_network(genome))
                searcher.search(*state.boards(), depth=1)
                searcher.clear()
                result = searcher.search(*state.boards(), depth=depth)
                nodes, seconds = nodes + result.nodes, seconds + result.seconds
            rows.append(f"| {label} | {depth} | {int(nodes):,} | {seconds:.3f} | "
                        f"{nodes / seconds / 1e6:.2f} |")
    return rows


def td_rows(args) -> list[str]:
    rows = ["", f"TD self-play, {args.td_games:,} games from zero weights (alpha 0.3, epsilon "
            "0.1), after a warm-up game:", "", "| layout | games/s |", "|---|---:|"]
    for layout in LAYOUTS:
        game = get_game("pentago_twist", {"genome": {"kind": "ntuple", "layout": layout,
                                                     "phases": 1}})
        zero = np.zeros(game.genome_spec().size)
        game.td_learn(zero, 1, 0, 0.3, 0.1)
        seconds = _timed(game.td_learn, (zero, args.td_games, 1, 0.3, 0.1))
        rows.append(f"| `{layout}` | {args.td_games / seconds:,.0f} |")
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=200, help="random games for the positions")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--td-games", type=int, default=5000)
    p.add_argument("--out", default=None, help="also write the report here")
    args = p.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    head = ["# Pentago Twist n-tuple speed", "",
            f"`python experiments/ntuple_pentago_speed.py {' '.join(sys.argv[1:])}` at commit "
            f"{commit}; {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())} at the start.", ""]
    text = "\n".join(head + evaluation_rows(args) + search_rows(args) + td_rows(args)) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
