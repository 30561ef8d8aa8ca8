"""Speed of Hexifence's n-tuple genomes: what a leaf costs to evaluate, what one drawn edge
costs incrementally, alpha-beta nodes per second, TD self-play games per second.

    python -m experiments.ntuple_hexifence_speed
    python -m experiments.ntuple_hexifence_speed --out experiments/results/ntuple_hexifence_speed.md

1. Per position of ``--games`` random N=3 games: the feature evaluation (chains, loops, safe
   edges: ``structure.evaluate``, what the ``features`` genome pays at a leaf), the network
   from the undrawn-edge bitset (``network_value``: node states, then every instance, what the
   search pays at a leaf), and, per undrawn edge, the network's change when it is drawn
   (``drawing_gain``: the instances reading one node, what TD self-play pays per candidate).
2. Alpha-beta at depths 2 and 3 from a few N=3 positions: nodes per second by genome.
3. TD self-play games per second at N=2 and N=3, with and without the features.

It prints the report; ``--out`` writes it with the stamp (command, commit, machine, load).
Publish numbers from a quiet machine only.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from engine.core import SearchSettings, get_game
from engine.hexifence.network import nodes
from engine.hexifence.network_eval import drawing_gain, network_value
from engine.hexifence.rules import degrees, is_undrawn
from engine.hexifence.structure import N_FEATURES, evaluate
from engine.kernels import ntuple as nt
from experiments.common import best_of, random_game, random_walk
from experiments.ntuple_pentago_speed import speed_main, td_rate


def positions(size: int, games: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    game = get_game("hexifence", {"size": size})
    return np.array([state.undrawn for _ in range(games) for state in random_game(game, rng)])


@njit(cache=True)
def _features(words, edge_cells, cell_edges, weights, deg, buf):
    total = 0.0
    n_edges = edge_cells.shape[0]
    for k in range(words.shape[0]):
        degrees(words[k], cell_edges, deg)
        total += evaluate(words[k], deg, 0, 0, n_edges, weights, edge_cells, cell_edges, buf)
    return total


@njit(cache=True)
def _network(words, node_of_edge, n_edges, t, row, states):
    total = 0.0
    for k in range(words.shape[0]):
        total += network_value(words[k], node_of_edge, n_edges, t, row, states)
    return total


@njit(cache=True)
def _gains(words, node_of_edge, n_edges, t, row, states, idx):
    """Every undrawn edge's gain from each position's indices; returns (sum, gains)."""
    total, count = 0.0, 0
    for k in range(words.shape[0]):
        network_value(words[k], node_of_edge, n_edges, t, row, states)
        nt.indices_cells(states, t, idx)
        for e in range(n_edges):
            if is_undrawn(words[k], e):
                total += drawing_gain(idx, t, row, node_of_edge[e])
                count += 1
    return total, count


def best_seconds(fn, args, repeats: int) -> float:
    return best_of(lambda: fn(*args), repeats, warm_up=True)[0]


def evaluation_rows(args) -> list[str]:
    words = positions(3, args.games, 1)
    game = get_game("hexifence", {"genome": {"kind": "ntuple"}})
    b, node_set = game.board, nodes(3)
    row = np.random.default_rng(0).normal(0, 0.1, game.network.layout.n_weights)
    t = game.network.tables
    states, idx = np.empty(node_set.count, np.uint8), np.empty(len(t.offset), np.int64)
    weights = game.features_game().reference_genome("reference").reshape(3, N_FEATURES)
    feats = best_seconds(_features, (words, b.edge_cells, b.cell_edges, weights,
                                     np.empty(b.n_cells, np.int8), np.empty(N_FEATURES)),
                         args.repeats)
    net = best_seconds(_network, (words, node_set.node_of_edge, b.n_edges, t, row, states),
                       args.repeats)
    gains = best_seconds(_gains, (words, node_set.node_of_edge, b.n_edges, t, row, states,
                                  idx), args.repeats)
    count = _gains(words, node_set.node_of_edge, b.n_edges, t, row, states, idx)[1]
    return [f"{len(words):,} positions of {args.games} random N=3 games "
            f"(`{game.network.layout.describe()}`):", "", "| what | per second |", "|---|---:|",
            f"| feature evaluation (positions) | {len(words) / feats:,.0f} |",
            f"| network from the bitset (positions) | {len(words) / net:,.0f} |",
            f"| network + every undrawn edge's gain (edges) | {count / gains:,.0f} |"]


def search_rows(args) -> list[str]:
    rows = ["", "Alpha-beta on N=3 (turns; no exact endgame), nodes per second:", "",
            "| genome | depth | nodes | seconds | k nodes/s |", "|---|---:|---:|---:|---:|"]
    base = get_game("hexifence")
    rng = np.random.default_rng(3)
    starts = [random_walk(base, rng, drawn) for drawn in (10, 25, 40)]
    for label, genome in (("features", {}), ("ntuple cell+pair", {"kind": "ntuple"}),
                          ("ntuple cell+pair + features", {"kind": "ntuple",
                                                           "features": True})):
        game = base.with_settings({"genome": genome})
        weights = game.reference_genome("reference")
        for depth in (2, 3):
            nodes_, seconds = 0, 0.0
            for state in starts:
                agent = game.make_agent(weights, SearchSettings(depth=depth, endgame_empties=0))
                agent.searcher.search(state, depth=1)
                agent.searcher.clear()
                start = time.perf_counter()
                nodes_ += agent.searcher.search(state, depth=depth).nodes
                seconds += time.perf_counter() - start
            rows.append(f"| {label} | {depth} | {nodes_:,} | {seconds:.3f} | "
                        f"{nodes_ / seconds / 1e3:,.0f} |")
    return rows


def td_rows(args) -> list[str]:
    rows = ["", f"TD self-play, {args.td_games:,} games (alpha 0.1, epsilon 0.1), after a "
            "warm-up game:", "", "| board | genome | games/s |", "|---|---|---:|"]
    for size in (2, 3):
        for features in (False, True):
            game = get_game("hexifence", {"size": size, "genome": {
                "kind": "ntuple", "phases": 1, "features": features}})
            rate = td_rate(game, game.reference_genome("reference"), args.td_games, 0.1, 0.1)
            label = "cell+pair" + (" + features" if features else "")
            rows.append(f"| N={size} | {label} | {rate:,.0f} |")
    return rows


def main() -> None:
    speed_main(__doc__, "# Hexifence n-tuple speed", 100, 2000,
               (evaluation_rows, search_rows, td_rows))


if __name__ == "__main__":
    main()
