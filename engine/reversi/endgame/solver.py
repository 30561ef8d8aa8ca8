"""Exact endgame solver: the final disc difference under perfect play (numba).

From 8 empties, ``search`` is an Edax-style principal-variation search (explicit stack):

- **transposition table** (``engine.reversi.endgame.table``): lower and upper bounds of the
  exact value per position, the best move first in the ordering, and before searching, each
  child is looked up (enhanced transposition cut-off, from ``ETC_MIN`` empties);
- **stability cut-off**: the side to move cannot score more than ``64 - 2 x`` the opponent's
  stable discs; tried only when ``alpha`` is high enough for that to cut (``STABILITY_FROM``);
- **fastest-first ordering** (``engine.reversi.endgame.order``);
- **null windows**: after the first move of a PV node the others are only tested against the
  best so far and searched with the full window when they beat it; the root value itself comes
  from null-window searches only (MTD(f), ``root_value``).

At most 7 empties go to ``engine.reversi.endgame.small.solve_small`` (no table, no arrays).
Values are exact: each shortcut is either a sound bound or an exact sub-solver, and
``tests/engine/reversi/test_endgame.py`` checks each against brute force.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.reversi.endgame.order import order_moves, pick_next
from engine.reversi.endgame.shallow import final_score
from engine.reversi.endgame.small import STABILITY_FROM, solve_small, stability_bound
from engine.reversi.endgame.table import NO_SQUARE, probe, store
from engine.reversi.rules.bitboard import NO_MOVE, ONE, PASS, U64, ZERO, legal_moves, popcount

MAX_MOVES = 36  # more than the most legal moves of any reachable Othello position (33)
SMALL_MAX = 7  # positions with this few empties go to ``solve_small`` (no stack frame)
ETC_MIN = 10  # enhanced transposition cut-offs from this many empties
ENTER, NEXT, RETURN, VALUE = 0, 1, 2, 3
MOVE_NODE, PASS_NODE = 0, 1


@njit(cache=True)
def search(P0, O0, alpha0, beta0, sign, table, gen, stats, passed0):
    """Exact fail-soft value of ``(P0, O0)`` over ``(alpha0, beta0)`` (explicit stack).

    Numba's cache cannot hold recursive functions (numba/numba#6061: a process loading one
    segfaults), so the recursion is a loop over frames indexed by ply and four states:
    ENTER a node, try its NEXT move, RETURN a node's value to its parent, and take a child's
    VALUE. Children with at most ``SMALL_MAX`` empties are solved by ``solve_small`` in place.
    """
    cap = 2 * 64 + 2
    # a frame's fields, one row (indexed by ply) each, allocated together per dtype
    sP, sO = np.empty((2, cap), np.uint64)
    s_alpha, s_beta, s_alpha0, s_best, s_best_move, s_n, s_i, s_kind = np.empty((8, cap),
                                                                              np.int64)
    s_passed, s_null = np.empty((2, cap), np.bool_)
    m_sq = np.empty((cap, MAX_MOVES), np.int64)
    m_f = np.empty((cap, MAX_MOVES), np.uint64)
    m_key = np.empty((cap, MAX_MOVES), np.int64)
    sP[0], sO[0], s_alpha[0], s_beta[0], s_passed[0] = P0, O0, alpha0, beta0, passed0
    ply = 0
    state = ENTER
    ret = 0
    v = 0
    while True:
        if state == ENTER:
            P, O, alpha, beta = sP[ply], sO[ply], s_alpha[ply], s_beta[ply]
            n_empty = popcount(~(P | O))
            state = RETURN
            if n_empty <= SMALL_MAX:
                ret, nodes = solve_small(P, O, alpha, beta, sign)
                stats[0] += nodes
                continue
            stats[0] += 1
            if stats[0] > stats[1]:
                return 0  # over the node budget: the caller discards the result
            moves = legal_moves(P, O)
            if moves == ZERO:
                if s_passed[ply]:
                    ret = final_score(P, O, sign)
                    continue
                s_kind[ply] = PASS_NODE
                ply += 1
                sP[ply], sO[ply], s_alpha[ply], s_beta[ply] = O, P, -beta, -alpha
                s_passed[ply] = True
                state = ENTER
                continue
            s_kind[ply] = MOVE_NODE
            if alpha >= STABILITY_FROM[n_empty]:
                bound = stability_bound(P, O, sign)
                if bound <= alpha:
                    ret = bound
                    continue
            lower, upper, hash_move = probe(table, P, O, gen)
            if lower >= beta:
                ret = lower
                continue
            if upper <= alpha or lower == upper:
                ret = upper
                continue
            alpha = max(alpha, lower)
            beta = min(beta, upper)
            n = order_moves(P, O, moves, hash_move, m_key, m_sq, m_f, ply)
            if n_empty >= ETC_MIN:
                ret = etc_cut(P, O, beta, table, gen, m_sq, m_f, ply, n)
                if ret > -100:
                    store(table, P, O, gen, alpha, beta, ret, NO_SQUARE, n_empty)
                    continue
            s_alpha[ply], s_beta[ply], s_alpha0[ply] = alpha, beta, alpha
            s_best[ply], s_best_move[ply], s_n[ply], s_i[ply] = -100, NO_SQUARE, n, -1
            state = NEXT
        if state == NEXT:
            i = s_i[ply] + 1
            if i == s_n[ply]:
                ret = s_best[ply]
                state = RETURN
                if stats[0] <= stats[1]:  # (helpers taking arrays cost atomic refcounts)
                    store(table, sP[ply], sO[ply], gen, s_alpha0[ply], s_beta[ply], ret,
                          s_best_move[ply], popcount(~(sP[ply] | sO[ply])))
                continue
            s_i[ply] = i
            P, O = sP[ply], sO[ply]
            pick_next(m_key, m_sq, m_f, ply, i, s_n[ply])
            f = m_f[ply, i]
            a, b = s_alpha[ply], s_beta[ply]
            null = i > 0 and b - a > 1  # principal variation search: test with a null window
            s_null[ply] = null
            nP, nO = O ^ f, P ^ f ^ (ONE << U64(m_sq[ply, i]))
            child_alpha, child_beta = (-a - 1 if null else -b), -a
            if popcount(~(nP | nO)) <= SMALL_MAX:
                v, nodes = solve_small(nP, nO, child_alpha, child_beta, sign)
                v = -v
                stats[0] += nodes
                state = VALUE
            else:
                ply += 1
                sP[ply], sO[ply], s_alpha[ply], s_beta[ply] = nP, nO, child_alpha, child_beta
                s_passed[ply] = False
                state = ENTER
                continue
        if state == RETURN:
            if ply == 0:
                return ret
            ply -= 1
            if s_kind[ply] == PASS_NODE:
                ret = -ret
                continue
            v = -ret
            state = VALUE
        if state == VALUE:  # the value `v` of move s_i[ply] of the node at `ply`
            a, b = s_alpha[ply], s_beta[ply]
            i = s_i[ply]
            if s_null[ply] and a < v < b:  # it beats the best so far: search it fully
                s_null[ply] = False
                P, O, f = sP[ply], sO[ply], m_f[ply, i]
                nP, nO = O ^ f, P ^ f ^ (ONE << U64(m_sq[ply, i]))
                if popcount(~(nP | nO)) <= SMALL_MAX:
                    v, nodes = solve_small(nP, nO, -b, -a, sign)
                    v = -v
                    stats[0] += nodes
                else:
                    ply += 1
                    sP[ply], sO[ply], s_alpha[ply], s_beta[ply] = nP, nO, -b, -a
                    s_passed[ply] = False
                    state = ENTER
                    continue
            state = NEXT
            if v > s_best[ply]:
                s_best[ply], s_best_move[ply] = v, m_sq[ply, i]
                if v > a:
                    s_alpha[ply] = v
                    if v >= b:
                        ret = v
                        state = RETURN
                        if stats[0] <= stats[1]:
                            store(table, sP[ply], sO[ply], gen, s_alpha0[ply], b, v, m_sq[ply, i],
                                  popcount(~(sP[ply] | sO[ply])))


@njit(cache=True, inline="always")
def etc_cut(P, O, beta, table, gen, squares, flipped, row, n):
    """Enhanced transposition cut-off: a value >= ``beta`` proven by a child's table entry."""
    for i in range(n):
        f = flipped[row, i]
        _, child_upper, _ = probe(table, O ^ f, P ^ f ^ (ONE << U64(squares[row, i])), gen)
        if -child_upper >= beta:
            return -child_upper
    return -100


@njit(cache=True)
def root_value(P, O, guess, sign, table, gen, stats):
    """Exact value by MTD(f): null-window searches from ``guess`` until the bounds meet.

    Null windows cut far more than open ones, and each search leaves bounds and best moves in
    the table for the next, so a few of them cost less than one open-window search.
    """
    lower, upper, g = -64, 64, guess
    while lower < upper:
        b = g + 1 if g == lower else g  # test: value >= b ?
        g = search(P, O, b - 1, b, sign, table, gen, stats, False)
        if stats[0] > stats[1]:
            return 0
        if g < b:
            upper = g
        else:
            lower = g
    return lower


@njit(cache=True)
def solve_root(P, O, sign, table, gen, stats):
    """(best move, exact score) for the side to move; ``stats = [nodes, node budget]``.

    The score comes from ``root_value``. The best move is then the first move, in the order
    of the ordering key without the table's move (so it depends on the position alone), whose
    null-window test reaches the score: what it returns never depends on what the table held.
    Returns ``PASS`` when the side to move must pass and ``NO_MOVE`` when the game is over (or
    when the node budget ran out: the caller checks ``stats``).
    """
    moves = legal_moves(P, O)
    if moves == ZERO:
        if legal_moves(O, P) == ZERO:
            stats[0] += 1
            return NO_MOVE, final_score(P, O, sign)
        return PASS, root_value(P, O, 0, sign, table, gen, stats)
    value = root_value(P, O, 0, sign, table, gen, stats)
    keys = np.empty((1, MAX_MOVES), np.int64)
    squares = np.empty((1, MAX_MOVES), np.int64)
    flipped = np.empty((1, MAX_MOVES), np.uint64)
    n = order_moves(P, O, moves, NO_SQUARE, keys, squares, flipped, 0)
    for i in range(n):
        pick_next(keys, squares, flipped, 0, i, n)
        nP, nO = O ^ flipped[0, i], P ^ flipped[0, i] ^ (ONE << U64(squares[0, i]))
        if -search(nP, nO, -value, -value + 1, sign, table, gen, stats, False) >= value:
            return squares[0, i], value
        if stats[0] > stats[1]:
            break
    return NO_MOVE, 0  # only when over budget: some move always reaches the value


def solve_exact(P, O, reversed_rules: bool, table, generation: int, max_nodes: int = 2**62):
    """(best move, exact score, nodes, aborted) for boards ``P`` (to move) and ``O``.

    ``aborted`` is True when more than ``max_nodes`` nodes were needed (move and score are then
    meaningless). Everything the table holds stays sound after an abort: nothing is stored
    once the budget is exceeded.
    """
    stats = np.array([0, max_nodes], dtype=np.int64)
    sign = -1 if reversed_rules else 1
    move, score = solve_root(U64(P), U64(O), sign, table, U64(generation), stats)
    return int(move), int(score), int(stats[0]), bool(stats[0] > max_nodes)
