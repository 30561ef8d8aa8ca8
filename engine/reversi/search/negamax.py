"""Reversi's parts of the shared alpha-beta (``engine.kernels.search.alphabeta``): its frames,
its move ordering, and the entry point ``negamax``.

Two modes:

- heuristic: fixed depth; a node at depth 0 is scored by its static value: the square tables
  and features (``engine.reversi.genome.evaluation.evaluate``) or an n-tuple network and features
  (``engine.reversi.genome.network_eval``), whichever the evaluation ``mode`` says;
- exact: no depth limit; only finished games are scored, by the final disc difference under
  the variant (``bb.final_score``), so the root value is the exact result of perfect play.
  ``Searcher.solve`` uses the much faster dedicated solver of ``engine.reversi.endgame.solver``;
  this exact mode stays as an independent cross-check for its tests.

A pass is a child of its own (move ``PASS``, boards swapped) searched at the same depth (Edax's
convention); two passes end the game; a passing node never uses the table.

Move ordering: the table's move first (except at the root), then, 3+ plies from the horizon,
children by their static value; 2 plies from it, fewest opponent replies first. One ply from the
horizon the children are evaluated in place without pushing frames. In exact mode: fewest
opponent replies first while more than ``SHALLOW_EXACT`` squares are empty. The table is used
2+ plies from the horizon (exact mode: with more than ``SHALLOW_EXACT`` empties).

With a network, where a node scores all its children statically (one ply from the horizon,
and the ordering 3+ plies from it) the children are evaluated incrementally in mode
``NETWORK_INCREMENTAL``: the node's indices once, then each move's stone and flips on top
(``move_value``). The values, the moves and the node counts are the same as in mode
``NETWORK`` (the tests compare them); only the speed differs.

``ctx`` = (sP, sO, moves, m_key, m_sq, m_P, m_O, reversed_rules, phase_of_discs, positional,
features, tables, net, mode, indices): the boards and legal moves of each ply, each ply's
ordered children, the rules, the evaluation (square tables, feature weights over the whole
catalogue, the network's index tables and weights, the mode) and a scratch array for the
network's indices (nothing below a callback may allocate). The square-table search has no
network (``None``); a network search's square tables are a placeholder (``NO_SQUARE_TABLES``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.search import alphabeta as ab
from engine.kernels.search.tt import slot_of_pair
from engine.reversi.genome.evaluation import evaluate, terminal_score
from engine.reversi.genome.network_eval import children_indices, move_value, network_value
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.bitboard import NO_MOVE, PASS

U64 = np.uint64
INF = np.inf
MAX_PLY = 130  # 60 moves + passes (never two in a row)
MAX_MOVES = 40  # the most legal moves in any Othello position is 33
EXACT_DEPTH = 100  # the depth given in exact mode (never decremented)
SHALLOW_EXACT = 6  # exact mode: no table and no ordering with this few empties
# the evaluation modes: square tables, a network (children recomputed or incremental)
SQUARE_TABLES, NETWORK, NETWORK_INCREMENTAL = 0, 1, 2


NO_SQUARE_TABLES = np.zeros((1, 64))  # the positional argument of a network search


# The square-table search passes ``tables = net = None``: each helper below is compiled for
# that type with its network branch pruned, so that search pays nothing for the network mode
# (``inline="always"`` would inline before the pruning, hence plain calls).
@njit(cache=True)
def _static(ctx, P, O, tables):
    """The heuristic value of an unfinished or finished position for its side to move."""
    if tables is None:
        return evaluate(P, O, ctx[8], ctx[9], ctx[10], ctx[7])
    return network_value(P, O, ctx[8], tables, ctx[12], ctx[10], ctx[7])


@njit(cache=True)
def _prepare_children(ctx, P, O, tables):
    """Before a node scores its children: their common indices (incremental network only)."""
    if tables is None:
        return
    if ctx[13] == NETWORK_INCREMENTAL:
        children_indices(P, O, tables, ctx[14])


@njit(cache=True)
def _child(ctx, sq, f, nP, nO, tables):
    """The static value of the child that ``sq`` (flipping ``f``) makes, for the node's side to
    move (after ``_prepare_children``)."""
    if tables is None:
        return -evaluate(nP, nO, ctx[8], ctx[9], ctx[10], ctx[7])
    return -move_value(ctx[14], sq, f, nP, nO, ctx[8], tables, ctx[12], ctx[10], ctx[7],
                       ctx[13] == NETWORK_INCREMENTAL)


@njit(cache=True)
def _scratch_indices(tables):
    if tables is None:
        return np.empty(0, np.int64)
    return np.empty(tables.offset.shape[0], np.int64)


@njit(cache=True, _nrt=False)
def _enter(ctx, ply, d, exact):
    P, O = ctx[0][ply], ctx[1][ply]
    moves = bb.legal_moves(P, O)
    ctx[2][ply] = moves
    rev = ctx[7]
    if not exact and d == 0:
        return True, _static(ctx, P, O, ctx[11])
    if moves == bb.ZERO and bb.legal_moves(O, P) == bb.ZERO:
        return True, (bb.final_score(P, O, rev) * 1.0 if exact else terminal_score(P, O, rev))
    return False, 0.0


@njit(cache=True, _nrt=False)
def _tt_key(ctx, ply, d, exact, shift, mask):
    P, O = ctx[0][ply], ctx[1][ply]
    if ctx[2][ply] == bb.ZERO:  # a pass: no table
        return False, P, O, np.int64(0), 0.0
    use = 64 - bb.popcount(P | O) > SHALLOW_EXACT if exact else d >= 2
    return use, P, O, slot_of_pair(P, O, shift), 0.0


@njit(cache=True, _nrt=False)
def _horizon(ctx, ply, alpha, beta):
    """One ply from the horizon: the children's static values, best first found."""
    x = ctx[2][ply]
    if x == bb.ZERO:
        return False, 0.0, NO_MOVE, 0
    P, O = ctx[0][ply], ctx[1][ply]
    _prepare_children(ctx, P, O, ctx[11])
    best, best_move, n = -INF, NO_MOVE, 0
    while x:
        sq = bb.lowest_bit_index(x)
        x &= x - bb.ONE
        f = bb.flips(P, O, sq)
        nP, nO = bb.make_move(P, O, sq, f)
        n += 1
        v = _child(ctx, sq, f, nP, nO, ctx[11])
        if v > best:
            best, best_move = v, sq
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return True, best, best_move, n


@njit(cache=True, inline="always")
def _insert_sorted(keys, moves, cP, cO, n, key, sq, nP, nO):
    """Insert one move into the lists kept in descending key order (stable for equal keys)."""
    i = n
    while i > 0 and keys[i - 1] < key:
        keys[i], moves[i], cP[i], cO[i] = keys[i - 1], moves[i - 1], cP[i - 1], cO[i - 1]
        i -= 1
    keys[i], moves[i], cP[i], cO[i] = key, sq, nP, nO


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
    if static:
        _prepare_children(ctx, P, O, ctx[11])
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
            key = _child(ctx, sq, f, nP, nO, ctx[11])
        else:
            key = -1.0 * bb.popcount(bb.legal_moves(nP, nO))
        _insert_sorted(keys, moves, cP, cO, n, key, sq, nP, nO)
        n += 1
    return n


@njit(cache=True, _nrt=False)
def _push(ctx, ply, i, exact):
    ctx[0][ply + 1], ctx[1][ply + 1] = ctx[5][ply, i], ctx[6][ply, i]
    move = ctx[4][ply, i]
    return move, False, 0 if exact or move == PASS else 1


@njit(cache=True)
def negamax(P0, O0, depth, exact, reversed_rules, phase_of_discs, positional, features, tables,
            net, mode, table, gen, max_nodes, root_hint=ab.NO_MOVE):
    """Search ``(P0, O0)``; returns (best move, value, nodes, aborted).

    The evaluation: ``mode`` ``SQUARE_TABLES`` (``positional`` and ``features`` per phase;
    ``tables`` and ``net`` None), or ``NETWORK`` / ``NETWORK_INCREMENTAL`` (the network's index
    ``tables`` and weights ``net`` per phase, ``features`` as for square tables;
    ``positional`` unused: ``NO_SQUARE_TABLES``). ``Weights.search_arrays()`` / ``NtupleWeights.
    search_arrays()`` give ``phase_of_discs .. mode``.
    Best move is ``PASS`` when the root must pass and ``NO_MOVE`` when the game is over.
    ``aborted`` is True when ``max_nodes`` was exceeded (the other outputs are then unusable).
    Exact mode: give ``depth`` = ``EXACT_DEPTH``. ``root_hint``: a timed search's previous
    best move, searched first (``engine.kernels.search.alphabeta.negamax``)."""
    empties0 = 64 - bb.popcount(P0 | O0)
    # frames needed: one per move and per pass (never two passes in a row) below the root
    cap = min(MAX_PLY, 2 * min(depth, empties0) + 3)
    ctx = (np.empty(cap, np.uint64), np.empty(cap, np.uint64), np.empty(cap, np.uint64),
           np.empty((cap, MAX_MOVES)), np.empty((cap, MAX_MOVES), np.int64),
           np.empty((cap, MAX_MOVES), np.uint64), np.empty((cap, MAX_MOVES), np.uint64),
           reversed_rules, phase_of_discs, positional, features, tables, net, mode,
           _scratch_indices(tables))
    ctx[0][0], ctx[1][0] = P0, O0
    return ab.negamax(_enter, _tt_key, ab.same_move, ab.same_move, _horizon, _expand, _push,
                      ctx, cap, depth, exact, True, table, gen, max_nodes, -INF, INF, root_hint)
