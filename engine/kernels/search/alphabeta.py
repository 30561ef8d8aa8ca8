"""Negamax alpha-beta with a transposition table, written once for every game (numba).

A fail-soft negamax over an explicit stack (numba's on-disk cache crashes on self-recursive
functions): frame arrays indexed by ply hold each node's window, depth, child count and progress,
while the *game* keeps its positions and ordered children in arrays of its own (``ctx``, a tuple
of arrays indexed by ply). The game supplies seven jitted functions, all taking ``ctx`` first:

- ``enter(ctx, ply, depth, exact) -> (is_leaf, value)``: called on entering the node at ``ply``;
  a leaf (game over, or the horizon of a heuristic search) comes with its value for the side to
  move. The game may cache what it computed (its moves) for the calls that follow.
- ``tt_key(ctx, ply, depth, exact, shift, mask) -> (use, k1, k2, slot, offset)``: whether this
  node uses the table, its two keys and slot, and an ``offset`` added to values read from the
  table (stored values are ``value - offset``: Hexifence stores future margins).
- ``hint_of(ctx, ply, stored_move) -> move`` and ``move_to_store(ctx, ply, move) -> int``: the
  table's move in and out of the node's frame (identity, or a board symmetry).
- ``horizon(ctx, ply, alpha, beta) -> (handled, value, best_move, nodes)``: one ply from the
  horizon, score the children in place without pushing frames (``use_horizon``); a game may
  decline (``handled`` False, e.g. a forced pass).
- ``expand(ctx, ply, depth, exact, hint) -> n``: the node's children, best first (the table's
  ``hint`` first when it is one of them), stored in the game's frame ``ply``; n >= 1.
- ``push(ctx, ply, i, exact) -> (move, same_side, depth_cost)``: make child ``i`` the node at
  ``ply + 1``. ``same_side``: the same player moves again (a Hexifence capture), so the child's
  value is not negated and the window is kept; ``depth_cost`` 0 searches the child at the same
  depth (a pass, captures, exact mode).

The table is used for cut-offs only at *exactly* the remaining depth (``EXACT_TAG`` in exact
mode), so the root value is exactly the fixed-depth minimax value whatever the table holds, and a
search never depends on earlier searches except in speed; deeper entries only order moves. The
root ignores the table's move and never cuts off from it: among equally valued moves the first
in the game's order is played, so agents are reproducible whatever other searches left behind.
Only a timed search passes ``root_hint`` (its previous iteration's move, searched first); a
fixed-depth search never does, so its moves, values and node counts do not depend on it.

Each game calls ``negamax`` from a ``@njit(cache=True)`` entry point of its own that names its
functions as globals; the kernel is inlined there. That keeps numba's on-disk cache working (a
cached kernel that receives dispatchers from Python lowers them as dynamic addresses and is
recompiled in every process). The callbacks of the inner loop are best compiled without
reference counting (``_nrt=False``): reading arrays out of ``ctx`` otherwise costs two atomic
operations each, 1.8x the whole search's time for Reversi. Such a callback must not allocate,
nor anything it calls (numba compiles callees with the caller's flags): docs/architecture.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.search.tt import EXACT_TAG, MOVE, cutoff, probe, store

INF = np.inf
NO_MOVE = -1


@njit(cache=True, inline="always")
def negamax(enter, tt_key, hint_of, move_to_store, horizon, expand, push, ctx, cap, depth,
            exact, use_horizon, table, gen, max_nodes, alpha0, beta0, root_hint=NO_MOVE):
    """Search the node at ply 0 of ``ctx`` in the window (``alpha0``, ``beta0``); returns
    (best move, value, nodes, aborted). Best move is ``NO_MOVE`` when the root is a leaf.
    ``aborted``: more than ``max_nodes`` nodes were needed; the move and value are then those
    of the best root child searched to the end (``NO_MOVE`` if none was), so with
    ``root_hint`` (searched first, e.g. the previous iteration's best move) an aborted
    iteration's move is proven at least as good as the hint at this depth (the PV-first rule).
    ``root_hint`` ``NO_MOVE`` (the default): the root in the game's order, as always.
    ``cap``: frames available (the game's ``ctx`` arrays must have as many)."""
    n_slots = table[0].shape[0]
    shift = np.uint64(64 - int(np.log2(n_slots)))
    mask = np.uint64(n_slots - 1)
    s_alpha, s_beta, s_alpha0 = np.empty(cap), np.empty(cap), np.empty(cap)
    s_best, s_off = np.empty(cap), np.empty(cap)
    s_depth, s_n, s_i = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.int64)
    s_move, s_best_move = np.empty(cap, np.int64), np.empty(cap, np.int64)
    s_slot = np.empty(cap, np.int64)
    s_k1, s_k2 = np.empty(cap, np.uint64), np.empty(cap, np.uint64)
    s_same = np.zeros(cap, np.bool_)

    s_alpha[0], s_beta[0], s_depth[0] = alpha0, beta0, depth
    nodes, ply, root_move, root_done = 0, 0, NO_MOVE, 0
    while True:
        # ---- enter the node at `ply`: either expand it (then push a child) or produce `ret`
        nodes += 1
        if nodes > max_nodes:
            if root_done > 0:
                return s_best_move[0], s_best[0], nodes, True
            return NO_MOVE, 0.0, nodes, True
        d, alpha, beta = s_depth[ply], s_alpha[ply], s_beta[ply]
        s_slot[ply] = -1
        have_ret, ret = enter(ctx, ply, d, exact)
        if not have_ret:
            tag = EXACT_TAG if exact else d
            hint = NO_MOVE
            use, k1, k2, slot, offset = tt_key(ctx, ply, d, exact, shift, mask)
            if use:
                s_slot[ply], s_k1[ply], s_k2[ply], s_off[ply] = slot, k1, k2, offset
                if probe(table, slot, k1, k2, gen):
                    hint = hint_of(ctx, ply, np.int64(table[MOVE][slot]))
                    if ply > 0:
                        have_ret, ret = cutoff(table, slot, tag, alpha, beta, offset)
            if not have_ret:
                s_alpha0[ply] = alpha
                if use_horizon and not exact and d == 1:
                    have_ret, ret, best_move, evaluated = horizon(ctx, ply, alpha, beta)
                    nodes += evaluated
                    if have_ret and ply == 0:
                        root_move = best_move
            if not have_ret:
                s_n[ply] = expand(ctx, ply, d, exact, hint if ply > 0 else root_hint)
                s_i[ply], s_best[ply] = 0, -INF
        # ---- hand `ret` up until some node has another child to search
        while have_ret:
            if ply == 0:
                return root_move, ret, nodes, False
            ply -= 1
            if ply == 0:
                root_done += 1
            v = ret if s_same[ply] else -ret
            i = s_i[ply]
            if v > s_best[ply]:
                s_best[ply] = v
                s_best_move[ply] = s_move[ply]
                if v > s_alpha[ply]:
                    s_alpha[ply] = v
            if s_alpha[ply] >= s_beta[ply] or i + 1 == s_n[ply]:
                ret = s_best[ply]
                if ply == 0:
                    root_move = s_best_move[0]
                slot = s_slot[ply]
                if slot >= 0:
                    store(table, slot, s_k1[ply], s_k2[ply], gen, ret, s_alpha0[ply],
                          s_beta[ply], EXACT_TAG if exact else s_depth[ply],
                          move_to_store(ctx, ply, s_best_move[ply]), s_off[ply])
                continue
            s_i[ply] = i + 1
            have_ret = False
        # ---- push child s_i[ply] of the node at `ply`
        i = s_i[ply]
        move, same, cost = push(ctx, ply, i, exact)
        s_move[ply], s_same[ply] = move, same
        if i == 0:
            s_best_move[ply] = move
        if same:
            s_alpha[ply + 1], s_beta[ply + 1] = s_alpha[ply], s_beta[ply]
        else:
            s_alpha[ply + 1], s_beta[ply + 1] = -s_beta[ply], -s_alpha[ply]
        s_depth[ply + 1] = s_depth[ply] - cost
        ply += 1


@njit(cache=True, _nrt=False)
def same_move(ctx, ply, move):
    """``hint_of`` / ``move_to_store`` of games whose moves need no mapping."""
    return move


@njit(cache=True, _nrt=False)
def no_horizon(ctx, ply, alpha, beta):
    """``horizon`` of games that always push their children."""
    return False, 0.0, NO_MOVE, 0


@njit(cache=True, inline="always")
def insert_sorted(keys, items, n, key, item):
    """Insert ``item`` into ``items[:n]`` kept in descending ``keys`` order (stable: an item
    goes after those with an equal key)."""
    i = n
    while i > 0 and keys[i - 1] < key:
        keys[i] = keys[i - 1]
        items[i] = items[i - 1]
        i -= 1
    keys[i] = key
    items[i] = item
