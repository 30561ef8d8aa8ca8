"""Speed of Pentago Twist's n-tuple genomes: what a search node pays to evaluate, whether
incremental indices would pay, alpha-beta nodes per second, TD self-play games per second.

    python -m experiments.ntuple_pentago_speed                       # prints a Markdown report
    python -m experiments.ntuple_pentago_speed --out experiments/results/ntuple_pentago_speed.md

1. Per successor (every distinct successor of every position of ``--games`` random games,
   as the search's horizon scores them): the rules' checks every static value pays
   (``result`` + ``can_win_now``), the feature evaluation, the network recomputed from the
   bitboards (``evaluate_bits``, what the search does), and the network updated from its
   parent's indices (the placed cell and the twisted quadrant's changed cells through
   ``set_cell``, then the sum with colour-swapped weights: Edax's way, written here only to
   measure it). Each rate is the best of ``--repeats`` passes of one jitted loop.
2. Alpha-beta at depths 2 and 3 from a few positions: nodes per second, features vs network.
3. TD self-play (``td_learn``) games per second per layout.

It prints the report; ``--out`` writes it with the stamp (command, commit, machine, load).
Publish numbers from a quiet machine only. ``ntuple_hexifence_speed`` runs through ``speed_main``
and ``td_rate`` of this file.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from numba import njit

from engine.core import get_game
from engine.kernels import ntuple as nt
from engine.kernels.bits import lowest_bit_index, popcount
from engine.kernels.ntuple_eval import bit_state
from engine.pentago import bitboard as bb
from engine.pentago.evaluation import evaluate
from engine.pentago.search import Searcher
from experiments.common import best_of, random_game, random_walk
from experiments.stamp import Stamp, write_result

LAYOUTS = ("straight5", "straight5+corner3", "lines+square2")


def positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    game = get_game("pentago_twist")
    boards = [state.boards() for _ in range(games) for state in random_game(game, rng)]
    return np.array([b[0] for b in boards], np.uint64), np.array([b[1] for b in boards], np.uint64)


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
    return count / best_of(lambda: fn(*args), repeats, warm_up=True)[0]


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
    starts = [random_walk(game, rng, plies) for plies in (4, 10, 16)]
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


def td_rate(game, genome, games: int, alpha: float, epsilon: float) -> float:
    """TD self-play games per second (``Game.td_learn``), after a warm-up game."""
    game.td_learn(genome, 1, 0, alpha, epsilon)
    return games / best_of(lambda: game.td_learn(genome, games, 1, alpha, epsilon), 1)[0]


def td_rows(args) -> list[str]:
    rows = ["", f"TD self-play, {args.td_games:,} games from zero weights (alpha 0.3, epsilon "
            "0.1), after a warm-up game:", "", "| layout | games/s |", "|---|---:|"]
    for layout in LAYOUTS:
        game = get_game("pentago_twist", {"genome": {"kind": "ntuple", "layout": layout,
                                                     "phases": 1}})
        rate = td_rate(game, np.zeros(game.genome_spec().size), args.td_games, 0.3, 0.1)
        rows.append(f"| `{layout}` | {rate:,.0f} |")
    return rows


def speed_main(doc: str, title: str, games: int, td_games: int, sections) -> None:
    """Parse the command line, run each of ``sections`` (args -> Markdown lines), report."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--games", type=int, default=games, help="random games for the positions")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--td-games", type=int, default=td_games)
    p.add_argument("--out", type=Path, default=None, help="also write the report here")
    args = p.parse_args()
    stamp = Stamp.begin()
    write_result(args.out, title, [line for section in sections for line in section(args)],
                 stamp)


def main() -> None:
    speed_main(__doc__, "# Pentago Twist n-tuple speed", 200, 5000,
               (evaluation_rows, search_rows, td_rows))


if __name__ == "__main__":
    main()
