"""Connect Four's parts of the shared alpha-beta (``engine.kernels.search.alphabeta``) and its
evaluation: what a game writes to get a transposition-table search for free.

Evaluation (side to move's view), per game phase: for every line of four cells holding stones
of one player only, a weight by how many (1, 2, 3) and whose, plus the centre column's stones.
A won game scores ``WIN`` (sooner wins score more); a full board 0.

``ctx`` = (sP, sO, moves, n_moves, weights, phase_of_stones): each ply's boards and ordered
columns, and the evaluation weights.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from connect_four.rules import CELLS, CENTRE, COLUMNS, ORDER, WINDOWS, can_play, four, play
from engine.kernels.bits import popcount
from engine.kernels.search import alphabeta as ab
from engine.kernels.search.tt import slot_of_pair

INF = np.inf
WIN = 1000.0
FEATURES = ("own1", "own2", "own3", "opp1", "opp2", "opp3", "centre")


@njit(cache=True)
def features(P, O, out):
    """The ``FEATURES`` counts of the position, for the side to move, into ``out``."""
    out[:] = 0.0
    for w in WINDOWS:
        mine, theirs = popcount(P & w), popcount(O & w)
        if mine and not theirs:
            out[min(mine, 3) - 1] += 1.0
        elif theirs and not mine:
            out[2 + min(theirs, 3)] += 1.0
    out[6] = popcount(P & CENTRE) - popcount(O & CENTRE)


@njit(cache=True)
def evaluate(P, O, weights, phase_of_stones):
    buf = np.empty(len(FEATURES))
    features(P, O, buf)
    row = weights[phase_of_stones[popcount(P | O)]]
    v = 0.0
    for k in range(buf.shape[0]):
        v += row[k] * buf[k]
    return v


@njit(cache=True, _nrt=False)
def _terminal(P, O):
    """(finished, value): the side that just moved (``O``) won, or the board is full."""
    if four(O):
        return True, -(WIN + CELLS - popcount(P | O))
    if popcount(P | O) == CELLS:
        return True, 0.0
    return False, 0.0


@njit(cache=True)
def _enter(ctx, ply, d, exact):
    P, O = ctx[0][ply], ctx[1][ply]
    done, value = _terminal(P, O)
    if done:
        return True, value
    if d == 0:
        return True, evaluate(P, O, ctx[4], ctx[5])
    return False, 0.0


@njit(cache=True, _nrt=False)
def _tt_key(ctx, ply, d, exact, shift, mask):
    P, O = ctx[0][ply], ctx[1][ply]
    return d >= 2, P, O, slot_of_pair(P, O, shift), 0.0


@njit(cache=True, _nrt=False)
def _expand(ctx, ply, d, exact, hint):
    """Playable columns, the table's first, then centre-out."""
    P, O, moves = ctx[0][ply], ctx[1][ply], ctx[2][ply]
    n = 0
    if hint >= 0 and can_play(P, O, hint):
        moves[0] = hint
        n = 1
    for k in range(COLUMNS):
        c = ORDER[k]
        if c != hint and can_play(P, O, c):
            moves[n] = c
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _push(ctx, ply, i, exact):
    c = ctx[2][ply, i]
    ctx[0][ply + 1], ctx[1][ply + 1] = play(ctx[0][ply], ctx[1][ply], c)
    return c, False, 1


@njit(cache=True)
def negamax(P0, O0, depth, weights, phase_of_stones, table, gen, max_nodes):
    """Search to ``depth`` plies; returns (best column, value, nodes, aborted)."""
    cap = depth + 2
    ctx = (np.empty(cap, np.uint64), np.empty(cap, np.uint64),
           np.empty((cap, COLUMNS), np.int64), np.empty(cap, np.int64), weights,
           phase_of_stones)
    ctx[0][0], ctx[1][0] = P0, O0
    return ab.negamax(_enter, _tt_key, ab.same_move, ab.same_move, ab.no_horizon, _expand,
                      _push, ctx, cap, depth, False, False, table, gen, max_nodes, -INF, INF)
