"""The Hexifence network on the kernels' position (numba): undrawn-edge bitset -> node states
-> value, and the change one drawn edge makes (``engine.hexifence.genome.network`` says what the
nodes are). Used by the search at its leaves and by TD self-play for every candidate move."""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from engine.hexifence.rules.bitboard import is_undrawn
from engine.kernels import ntuple as nt
from engine.kernels.ntuple.evaluation import evaluate_cells


@njit(cache=True)
def node_states(words, node_of_edge, n_edges, out):
    """Fill ``out`` (uint8 per node): an inner edge's node 1 when it is drawn, a rim cell's
    ground node the number of its boundary edges drawn."""
    out[:] = 0
    for e in range(n_edges):
        if not is_undrawn(words, e):
            out[node_of_edge[e]] += 1


@njit(cache=True)
def network_value(words, node_of_edge, n_edges, tables, weights, states):
    """The network's sum for the position (``weights``: the row of its phase); ``states`` is
    scratch of one uint8 per node."""
    node_states(words, node_of_edge, n_edges, states)
    return evaluate_cells(states, tables, weights)


@njit(cache=True)
def drawing_gain(indices, tables, weights, node):
    """How much the network's sum changes when ``node``'s state grows by one (an edge of it is
    drawn), from the position whose instance indices are ``indices``: only the instances
    reading that node change, each by one step of its digit."""
    total = 0.0
    for k in range(tables.cell_start[node], tables.cell_start[node + 1]):
        i = tables.cell_instance[k]
        entry = tables.offset[i] + indices[i]
        total += weights[entry + tables.cell_power[k]] - weights[entry]
    return total


@cache
def no_network(n_edges: int) -> tuple:
    """(node of each edge, tables, weights) of a one-node network the features-only search never
    reads: the kernels take the same argument types whatever the genome."""
    layout = nt.layout_from_tuples(1, 2, [(0,)])
    return np.zeros(n_edges, np.int64), nt.index_tables(layout), np.zeros((1, layout.n_weights))
