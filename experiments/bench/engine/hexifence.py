"""Hexifence's own kernels: numba's first call, the exact solver, and what the n-tuple network
pays per leaf and per drawn edge. What every game shares (agents' time per move, nodes/s, TD
games/s) is ``experiments.bench.engine.contract``.

    python -m experiments.bench.engine.hexifence --out experiments/results/bench_hexifence.md

The exact solves: the empty N=2 board (the issue's goal: a few minutes on one core), and N=3
positions with 20 and 26 undrawn edges reached by two chain-aware agents (seeded games). The
network, per position of ``--games`` random N=3 games: the feature evaluation (chains, loops,
safe edges: what the ``features`` genome pays at a leaf), the network from the undrawn-edge
bitset (``network_value``: what the search pays at a leaf), and, per undrawn edge, the
network's change when it is drawn (``drawing_gain``: what TD self-play pays per candidate).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from engine.core import SearchSettings, get_game
from engine.hexifence.agents.chain import ChainAgent
from engine.hexifence.game import GAME
from engine.hexifence.genome.evaluation import N_FEATURES, evaluate
from engine.hexifence.genome.network import nodes
from engine.hexifence.genome.network_eval import drawing_gain, network_value
from engine.hexifence.rules.bitboard import degrees, is_undrawn
from engine.hexifence.rules.state import initial_state
from engine.hexifence.search.searcher import Searcher
from engine.kernels import ntuple as nt
from experiments.common import arguments, best_of, random_game
from experiments.stamp import Stamp, write_result


def first_call() -> float:
    start = time.perf_counter()
    Searcher(np.zeros((1, N_FEATURES)), 1, tt_bits=8, shared=False).solve(initial_state(1))
    GAME.with_settings({"size": 1}).make_panel_agent("chain", SearchSettings()).select_move(
        initial_state(1))
    return time.perf_counter() - start


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


def network_rows(games: int, repeats: int) -> list[str]:
    words = positions(3, games, 1)
    game = get_game("hexifence", {"genome": {"kind": "ntuple"}})
    b, node_set = game.board, nodes(3)
    row = np.random.default_rng(0).normal(0, 0.1, game.network.layout.n_weights)
    t = game.network.tables
    states, idx = np.empty(node_set.count, np.uint8), np.empty(len(t.offset), np.int64)
    weights = game.features_game().reference_genome("reference").reshape(3, N_FEATURES)
    feats = best_seconds(_features, (words, b.edge_cells, b.cell_edges, weights,
                                     np.empty(b.n_cells, np.int8), np.empty(N_FEATURES)),
                         repeats)
    net = best_seconds(_network, (words, node_set.node_of_edge, b.n_edges, t, row, states),
                       repeats)
    gains = best_seconds(_gains, (words, node_set.node_of_edge, b.n_edges, t, row, states,
                                  idx), repeats)
    count = _gains(words, node_set.node_of_edge, b.n_edges, t, row, states, idx)[1]
    return [f"{len(words):,} positions of {games} random N=3 games "
            f"(`{game.network.layout.describe()}`):", "", "| what | per second |", "|---|---:|",
            f"| feature evaluation (positions) | {len(words) / feats:,.0f} |",
            f"| network from the bitset (positions) | {len(words) / net:,.0f} |",
            f"| network + every undrawn edge's gain (edges) | {count / gains:,.0f} |"]


def chain_position(size: int, empties: int, seed: int):
    agent, state = ChainAgent(seed), initial_state(size)
    while state.empty_edges > empties:
        state = state.play(agent.select_move(state))
    return state


def solve_time(state, tt_bits: int = 22) -> tuple[float, int, float]:
    searcher = Searcher(np.zeros((1, N_FEATURES)), state.size, tt_bits, shared=False)
    start = time.perf_counter()
    result = searcher.solve(state)
    return result.value, result.nodes, time.perf_counter() - start


def main(argv=None) -> int:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=100, help="random games: network rows")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    data = {"first_call": first_call(), "solves": []}
    lines = ["One core; on a shared machine the times are upper bounds.", "",
             f"- numba first call (compile or cache load): {data['first_call']:.2f} s"]
    lines += ["", "## Exact solver (one core, 2^22-entry table)", "",
              "| position | undrawn edges | value (side to move) | nodes | seconds |",
              "|---|---|---|---|---|"]
    value, nodes_, seconds = solve_time(initial_state(2))
    data["solves"].append({"position": "empty N=2", "undrawn": 30, "value": value,
                           "nodes": nodes_, "seconds": seconds})
    lines.append(f"| empty N=2 board (blue to move) | 30 | {value:+.0f} | {nodes_} | "
                 f"{seconds:.1f} |")
    for empties in (20, 26):
        for seed in range(3):
            state = chain_position(3, empties, seed)
            value, nodes_, seconds = solve_time(state)
            data["solves"].append({"position": f"N=3 chain game seed {seed}",
                                   "undrawn": empties, "value": value, "nodes": nodes_,
                                   "seconds": seconds})
            lines.append(f"| N=3, chain vs chain game seed {seed} | {empties} | {value:+.0f} | "
                         f"{nodes_} | {seconds:.2f} |")
    lines += ["", "## The n-tuple network", "", *network_rows(args.games, args.repeats)]
    write_result(args.out, "# Hexifence benchmark", lines, stamp, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
