"""Pentago Twist's parts of the shared alpha-beta (``engine.kernels.search.alphabeta``).

A node's children are its *distinct* successor positions (``bb.distinct_children``): the 8
twists of one placement often coincide. Finished positions are scored by ``terminal_value`` (a
win dominates any heuristic value), leaves whose side to move can win at once
(``bb.can_win_now``, a cheap exact test) as that win, other leaves by ``evaluate``. Searching to
the number of empty cells is exact: every leaf is a finished game.

Move ordering: the table's move first (except at the root), then children by their static value
(a winning child first). One ply from the horizon the children are scored in place. The table is
used 2+ plies from the horizon.

``ctx`` = (sP, sO, c_P, c_O, c_move, c_key, order, weights, phase_of_stones, dedup, tables,
net, mode): each ply's boards, its distinct children and their order, the feature weights, the
scratch set ``distinct_children_into`` needs (the callbacks allocate nothing: see
engine.kernels.search.alphabeta), and the n-tuple network (index tables, weights per phase) with the
evaluation mode of ``engine.pentago.genome.network``: features only (the ``features`` genome, whose
network is never read), the network, or both summed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bits import popcount
from engine.kernels.ntuple.evaluation import evaluate_bits
from engine.kernels.search import alphabeta as ab
from engine.kernels.search.tt import slot_of_pair
from engine.pentago.genome.evaluation import WIN_SCORE, evaluate, terminal_value
from engine.pentago.genome.network import FEATURES_ONLY, NETWORK_AND_FEATURES
from engine.pentago.rules import bitboard as bb

INF = np.inf
NO_MOVE = ab.NO_MOVE
MAX_CHILDREN = bb.MOVES


@njit(cache=True, inline="always")
def heuristic(P, O, weights, phase_of_stones, tables, net, mode):
    """The evaluation of an unfinished position for the side to move: the weighted features,
    the network of its phase, or both."""
    if mode == FEATURES_ONLY:
        return evaluate(P, O, weights, phase_of_stones)
    value = evaluate_bits(P, O, tables, net[phase_of_stones[popcount(P | O)]])
    if mode == NETWORK_AND_FEATURES:
        value += evaluate(P, O, weights, phase_of_stones)
    return value


@njit(cache=True, inline="always")
def _static(P, O, ctx):
    """Value for the side to move: exact if the game is over or won in one move (the value a
    search one ply deeper would find), else the evaluation."""
    if bb.result(P, O) != bb.ONGOING:
        return terminal_value(P, O)
    if bb.can_win_now(P, O):
        return WIN_SCORE + 35 - popcount(P | O)
    return heuristic(P, O, ctx[7], ctx[8], ctx[10], ctx[11], ctx[12])


@njit(cache=True, _nrt=False)
def _enter(ctx, ply, d, exact):
    P, O = ctx[0][ply], ctx[1][ply]
    if bb.result(P, O) != bb.ONGOING or d == 0:
        return True, _static(P, O, ctx)
    return False, 0.0


@njit(cache=True, _nrt=False)
def _tt_key(ctx, ply, d, exact, shift, mask):
    P, O = ctx[0][ply], ctx[1][ply]
    return d >= 2, P, O, slot_of_pair(P, O, shift), 0.0


@njit(cache=True, _nrt=False)
def _horizon(ctx, ply, alpha, beta):
    """One ply from the horizon: the distinct children's static values in place."""
    c_P, c_O, c_move = ctx[2][ply], ctx[3][ply], ctx[4][ply]
    n = bb.distinct_children_into(ctx[0][ply], ctx[1][ply], c_P, c_O, c_move, ctx[9])
    best, best_move = -INF, NO_MOVE
    for i in range(n):
        v = -_static(c_P[i], c_O[i], ctx)
        if v > best:
            best, best_move = v, c_move[i]
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    return True, best, best_move, i + 1
    return True, best, best_move, n


@njit(cache=True, _nrt=False)
def _expand(ctx, ply, d, exact, hint):
    """The distinct children, best first: the hint, then ascending value for the opponent
    (stable: ties keep move order)."""
    c_P, c_O, c_move, c_key = ctx[2][ply], ctx[3][ply], ctx[4][ply], ctx[5][ply]
    order = ctx[6][ply]
    n = bb.distinct_children_into(ctx[0][ply], ctx[1][ply], c_P, c_O, c_move, ctx[9])
    for i in range(n):  # a stable insertion sort by ascending key (no allocation here)
        key = -INF if c_move[i] == hint else _static(c_P[i], c_O[i], ctx)
        j = i
        while j > 0 and c_key[j - 1] > key:
            c_key[j], order[j] = c_key[j - 1], order[j - 1]
            j -= 1
        c_key[j], order[j] = key, i
    return n


@njit(cache=True, _nrt=False)
def _push(ctx, ply, i, exact):
    k = ctx[6][ply, i]
    ctx[0][ply + 1], ctx[1][ply + 1] = ctx[2][ply, k], ctx[3][ply, k]
    return ctx[4][ply, k], False, 1


@njit(cache=True)
def negamax(P0, O0, depth, weights, phase_of_stones, tables, net, mode, table, gen, max_nodes,
            root_hint=ab.NO_MOVE):
    """Search ``(P0, O0)`` (unfinished) to ``depth`` plies; returns (best move, value, nodes,
    aborted). ``aborted``: ``max_nodes`` was exceeded (the move and value are then the best
    root child's searched to the end, ``root_hint`` searched first: a timed search's previous
    best move; ``engine.kernels.search.alphabeta.negamax``)."""
    cap = depth + 2
    ctx = (np.empty(cap, np.uint64), np.empty(cap, np.uint64),
           np.empty((cap, MAX_CHILDREN), np.uint64), np.empty((cap, MAX_CHILDREN), np.uint64),
           np.empty((cap, MAX_CHILDREN), np.int64), np.empty((cap, MAX_CHILDREN)),
           np.empty((cap, MAX_CHILDREN), np.int64), weights, phase_of_stones,
           np.empty(bb.DEDUP_SLOTS, np.int64), tables, net, mode)
    ctx[0][0], ctx[1][0] = P0, O0
    return ab.negamax(_enter, _tt_key, ab.same_move, ab.same_move, _horizon, _expand, _push,
                      ctx, cap, depth, False, True, table, gen, max_nodes, -INF, INF, root_hint)
