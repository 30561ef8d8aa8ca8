"""Reversi's alpha-beta (``engine.reversi.negamax``) evaluating with an n-tuple network.

The frames, the table, passes, exact mode and the move ordering are those of
``engine.reversi.negamax`` (its ``_tt_key`` and ``_push`` are used as they are); only the
static values differ: ``engine.reversi.ntuple_value`` (network + features). Where a node scores
all its children statically (one ply from the horizon, and the ordering 3+ plies from it) the
children are evaluated incrementally when ``incremental`` is set: the node's indices once,
then each move's stone and flips on top (``move_value``). The values, the moves and the node
counts are the same either way (the tests compare them); only the speed differs
(``experiments/bench_ntuple_search.py``).

``ctx`` = (sP, sO, moves, m_key, m_sq, m_P, m_O, reversed_rules, phase_of_discs, tables,
weights, features, incremental, indices): ``negamax``'s frames, the rules, the
network and a scratch array for the indices (nothing below a callback may allocate).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels import alphabeta as ab
from engine.reversi import bitboard as bb
from engine.reversi.bitboard import NO_MOVE, PASS
from engine.reversi.evaluation import terminal_score
from engine.reversi.negamax import (
    MAX_MOVES,
    MAX_PLY,
    SHALLOW_EXACT,
    _insert_sorted,
    _push,
    _tt_key,
)
from engine.reversi.ntuple_value import children_indices, move_value, network_value

INF = np.inf


@njit(cache=True, _nrt=False)
def _enter(ctx, ply, d, exact):
    P, O = ctx[0][ply], ctx[1][ply]
    moves = bb.legal_moves(P, O)
    ctx[2][ply] = moves
    rev = ctx[7]
    if not exact and d == 0:
        return True, network_value(P, O, ctx[8], ctx[9], ctx[10], ctx[11], rev)
    if moves == bb.ZERO and bb.legal_moves(O, P) == bb.ZERO:
        return True, (bb.final_score(P, O, rev) * 1.0 if exact else terminal_score(P, O, rev))
    return False, 0.0


@njit(cache=True, _nrt=False)
def _child(ctx, P, O, sq, f, nP, nO):
    """The child's static value for the node's side to move."""
    return -move_value(ctx[13], sq, f, nP, nO, ctx[8], ctx[9], ctx[10], ctx[11], ctx[7],
                       ctx[12])


@njit(cache=True, _nrt=False)
def _horizon(ctx, ply, alpha, beta):
    """One ply from the horizon: the children's static values, best first found."""
    x = ctx[2][ply]
    if x == bb.ZERO:
        return False, 0.0, NO_MOVE, 0
    P, O = ctx[0][ply], ctx[1][ply]
    if ctx[12]:
        children_indices(P, O, ctx[9], ctx[13])
    best, best_move, n = -INF, NO_MOVE, 0
    while x:
        sq = bb.lowest_bit_index(x)
        x &= x - bb.ONE
        f = bb.flips(P, O, sq)
        nP, nO = bb.make_move(P, O, sq, f)
        n += 1
        v = _child(ctx, P, O, sq, f, nP, nO)
        if v > best:
            best, best_move = v, sq
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return True, best, best_move, n


@njit(cache=True, _nrt=False)
def _expand(ctx, ply, d, exact, hint):
    """The children of the node at ``ply``, best first (a pass when the side must pass)."""
    P, O = ctx[0][ply], ctx[1][ply]
    keys, moves, cP, cO = ctx[3][ply], ctx[4][ply], ctx[5][ply], ctx[6][ply]
    x = ctx[2][ply]
    if x == bb.ZERO:
        moves[0], cP[0], cO[0] = PASS, O, P
        return 1
    n = 0
    empties = 64 - bb.popcount(P | O)
    static = not exact and d >= 3
    if static and ctx[12]:
        children_indices(P, O, ctx[9], ctx[13])
    while x:
        sq = bb.lowest_bit_index(x)
        x &= x - bb.ONE
        f = bb.flips(P, O, sq)
        nP, nO = bb.make_move(P, O, sq, f)
        if sq == hint:
            key = INF
        elif exact:
            key = 0.0 if empties <= SHALLOW_EXACT else -1.0 * bb.popcount(bb.legal_moves(nP, nO))
        elif static:
            key = _child(ctx, P, O, sq, f, nP, nO)
        else:
            key = -1.0 * bb.popcount(bb.legal_moves(nP, nO))
        _insert_sorted(keys, moves, cP, cO, n, key, sq, nP, nO)
        n += 1
    return n


@njit(cache=True)
def negamax(P0, O0, depth, exact, reversed_rules, phase_of_discs, tables, weights, features,
            incremental, table, gen, max_nodes):
    """Search ``(P0, O0)`` with the network; returns (best move, value, nodes, aborted), as
    ``engine.reversi.negamax.negamax``."""
    empties0 = 64 - bb.popcount(P0 | O0)
    cap = min(MAX_PLY, 2 * min(depth, empties0) + 3)
    ctx = (np.empty(cap, np.uint64), np.empty(cap, np.uint64), np.empty(cap, np.uint64),
           np.empty((cap, MAX_MOVES)), np.empty((cap, MAX_MOVES), np.int64),
           np.empty((cap, MAX_MOVES), np.uint64), np.empty((cap, MAX_MOVES), np.uint64),
           reversed_rules, phase_of_discs, tables, weights, features, incremental,
           np.empty(tables.offset.shape[0], np.int64))
    ctx[0][0], ctx[1][0] = P0, O0
    return ab.negamax(_enter, _tt_key, ab.same_move, ab.same_move, _horizon, _expand, _push,
                      ctx, cap, depth, exact, True, table, gen, max_nodes, -INF, INF)
