"""Temporal-difference self-play for Hexifence's ``ntuple`` genomes (numba).

``td_learn(game, genome, games, seed, alpha, epsilon)`` plays ``games`` games of the genome
against itself from the empty board and returns the genome after TD(0) on each (the contract
of ``Game.td_learn``). Values are in cells, from the side to move's view, and linear: ``V =
margin + s`` (``s`` the network's sum for the position's phase) or, with features, ``V =
features . w + s`` (the feature weights are inputs then, held fixed: the network learns around
them). The network thus learns the cells still to come, which depend on the undrawn edges alone.

Play: with probability ``epsilon`` a uniformly random undrawn edge, else the 1-ply best: the
edge whose successor is worth most to the player drawing it: ``V(successor)`` after a capture
(the same player moves again), ``-V(successor)`` otherwise, the final margin when it is the last
edge; ties to the lowest edge. Without features a successor's network sum is the position's plus
the change of the instances reading the one node the edge changes (``drawing_gain``).

Learning: after each game, TD(0) forwards along its positions (``td_step_cells`` of
``engine.kernels.ntuple.td`` on node states): position ``t`` moves towards ``V(x[t+1])`` when the
same player moves there (after a capture), ``-V(x[t+1])`` otherwise, the last one towards the
final margin from its mover's view. ``alpha`` means what it means in every game
(``engine.kernels.ntuple.td``): a step moves a position's value by ``alpha`` times its error,
shared out over its entries as normalised LMS does (a symmetric position reads one entry up to
12 times). Reproducible from ``seed``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.core.agent import Seed
from engine.hexifence.genome.evaluation import N_FEATURES, evaluate
from engine.hexifence.genome.network import nodes
from engine.hexifence.genome.network_eval import drawing_gain
from engine.hexifence.rules.bitboard import captures_of, degrees, draw, is_undrawn
from engine.hexifence.rules.board import board
from engine.kernels.ntuple.evaluation import evaluate_indices, indices_cells, set_cell
from engine.kernels.ntuple.td import (
    explores,
    learn_genome,
    squared_counts,
    td_step_cells,
    value_cells,
)
from engine.kernels.rng import below


@njit(cache=True)
def _random_edge(words, n_edges, left, rng):
    k = below(rng, left)
    for e in range(n_edges):
        if is_undrawn(words, e):
            if k == 0:
                return e
            k -= 1
    return -1


@njit(cache=True)
def _offset(words, deg, margin, drawn, n_edges, feat, edge_cells, cell_edges, buf,
            with_features):
    """The part of ``V`` that is not the network: the margin, or the weighted features."""
    if with_features:
        return evaluate(words, deg, margin, drawn, n_edges, feat, edge_cells, cell_edges, buf)
    return 1.0 * margin


@njit(cache=True)
def _choose(words, deg, margin, left, epsilon, rng, idx, t, net, feat, node_of_edge,
            edge_cells, cell_edges, with_features, s_words, s_deg, buf):
    """The edge epsilon-greedy 1-ply play draws."""
    n_edges = edge_cells.shape[0]
    if explores(rng, epsilon):
        return _random_edge(words, n_edges, left, rng)
    drawn = n_edges - left
    row = net[(drawn + 1) * net.shape[0] // (n_edges + 1)]
    base = evaluate_indices(idx, t, row)
    best, choice = -np.inf, -1
    for e in range(n_edges):
        if not is_undrawn(words, e):
            continue
        caps = captures_of(deg, e, edge_cells)
        after = margin + caps if caps > 0 else -margin  # for the side to move next
        if left == 1:
            value = 1.0 * (margin + caps)
        else:
            if with_features:
                s_words[:] = words
                s_deg[:] = deg
                draw(s_words, s_deg, e, edge_cells)
                offset = evaluate(s_words, s_deg, after, drawn + 1, n_edges, feat, edge_cells,
                                  cell_edges, buf)
            else:
                offset = 1.0 * after
            child = offset + base + drawing_gain(idx, t, row, node_of_edge[e])
            value = child if caps > 0 else -child
        if value > best:
            best, choice = value, e
    return choice


@njit(cache=True)
def _learn_game(positions, movers, offsets, phases, count, final0, alpha, t, net, idx, counts):
    """TD(0) forwards along one game; returns the sum of squared errors."""
    squared = 0.0
    for k in range(count):
        if k + 1 < count:
            after = offsets[k + 1] + value_cells(positions[k + 1], t, net[phases[k + 1]], False)
            target = after if movers[k + 1] == movers[k] else -after
        else:
            target = final0 if movers[k] == 0 else -final0
        indices_cells(positions[k], t, idx)
        step = alpha / squared_counts(idx, t, counts)
        error = td_step_cells(positions[k], target - offsets[k], step, False, t, net[phases[k]])
        squared += error * error
    return squared


@njit(cache=True)
def self_play(games, alpha, epsilon, rng, t, net, feat, node_of_edge, n_nodes, edge_cells,
              cell_edges, words0, with_features):
    """``games`` games from the empty board ``words0``, learning after each; returns each
    game's sum of squared errors and its final margin for blue (``net`` updated in place)."""
    n_edges, n_cells = edge_cells.shape[0], cell_edges.shape[0]
    positions = np.empty((n_edges, n_nodes), np.uint8)
    movers, phases = np.empty(n_edges, np.int64), np.empty(n_edges, np.int64)
    offsets, errors, results = np.empty(n_edges), np.empty(games), np.empty(games)
    idx, states = np.empty(t.offset.shape[0], np.int64), np.empty(n_nodes, np.uint8)
    scratch, counts = np.empty_like(idx), np.zeros(net.shape[1], np.int64)
    words, deg = np.empty_like(words0), np.empty(n_cells, np.int8)
    s_words, s_deg, buf = np.empty_like(words0), np.empty(n_cells, np.int8), np.empty(N_FEATURES)
    for g in range(games):
        words[:] = words0
        degrees(words, cell_edges, deg)
        states[:] = 0
        indices_cells(states, t, idx)
        margin, mover, left, count = 0, 0, n_edges, 0
        while left > 0:
            drawn = n_edges - left
            positions[count], movers[count] = states, mover
            phases[count] = drawn * net.shape[0] // (n_edges + 1)
            offsets[count] = _offset(words, deg, margin, drawn, n_edges, feat, edge_cells,
                                     cell_edges, buf, with_features)
            count += 1
            e = _choose(words, deg, margin, left, epsilon, rng, idx, t, net, feat, node_of_edge,
                        edge_cells, cell_edges, with_features, s_words, s_deg, buf)
            caps = draw(words, deg, e, edge_cells)
            node = node_of_edge[e]
            set_cell(idx, t, node, states[node], states[node] + 1)
            states[node] += 1
            left -= 1
            if caps > 0:
                margin += caps
            else:
                margin, mover = -margin, 1 - mover
        results[g] = margin if mover == 0 else -margin
        errors[g] = _learn_game(positions, movers, offsets, phases, count, results[g], alpha, t,
                                net, scratch, counts)
    return errors, results


def td_learn(game, genome: np.ndarray, games: int, seed: Seed, alpha: float,
             epsilon: float) -> np.ndarray:
    """A copy of ``genome`` (of the n-tuple ``game``) after ``games`` games of TD self-play."""
    net, feat = learn(game, genome, games, seed, alpha, epsilon)[:2]
    return game.network.join(net, feat)


def learn(game, genome: np.ndarray, games: int, seed: Seed, alpha: float, epsilon: float):
    """(network weights, feature weights, squared errors per game, blue's margin per game)."""
    network, b, node_set = game.network, board(game.size), nodes(game.size)
    words0 = np.zeros(b.words, np.uint64)
    for e in range(b.n_edges):
        words0[e >> 6] |= np.uint64(1) << np.uint64(e & 63)

    def play(games, alpha, epsilon, rng, net, feat, _generator):
        return self_play(games, alpha, epsilon, rng, network.tables, net, feat,
                         node_set.node_of_edge, node_set.count, b.edge_cells, b.cell_edges,
                         words0, network.features)

    return learn_genome(network, genome, games, seed, alpha, epsilon, play)
