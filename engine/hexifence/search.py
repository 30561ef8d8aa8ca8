"""Negamax alpha-beta over undrawn-edge bitsets, heuristic or exact, with a transposition table.

One kernel serves both modes. Values are the final cell margin from the side to move's view:
exact mode scores only finished games (the root value is then perfect play's margin);
heuristic mode scores a node at the horizon with ``structure.evaluate`` (weights per phase).

- A capture keeps the turn: the child keeps the window and the margin grows by the cells
  taken; otherwise the window and margin are negated. Depth counts turns, not edges: moves
  that capture do not use depth, so capture sequences are always searched out (quiescence).
- Barker & Korf's chain-aware filter (``rules.capture_candidates``): while a cell is
  capturable, only capturing it and the double-deal that declines it are searched.
- Strings and coins: which boundary edge of a cell is drawn does not matter, only how many
  are left, so only one boundary edge per cell is searched and the hash counts them.
- Transposition table keyed by two Zobrist hashes of that position, canonical under the 12
  hexagon symmetries (the smallest of the 12 images' hashes; the best move is stored in that
  frame and mapped back). Exact entries store the *future* margin (value minus the margin so
  far), which depends on the edges alone, so positions reached with different scores share
  them; heuristic entries mix the margin into the key instead, since a weighted evaluation
  is not a margin plus something. Heuristic cut-offs use entries of exactly the same depth.
- Written with an explicit stack: numba's on-disk cache crashes on self-recursive functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.hexifence.rules import capture_candidates, degrees, draw, is_safe, is_undrawn
from engine.hexifence.structure import N_FEATURES, evaluate

INF = np.inf
NO_MOVE = -1
EXACT_DEPTH = 1000
BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 0, 1, 2
SHALLOW_EXACT = 3  # exact mode: no table with this few undrawn edges


def new_table(bits: int) -> tuple:
    """A transposition table of ``2**bits`` entries (about 32 bytes each)."""
    if not 4 <= bits <= 30:
        raise ValueError(f"tt_bits must be in 4..30, got {bits}")
    n = 1 << bits
    table = (np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.float64),
             np.zeros(n, np.int16), np.zeros(n, np.int8), np.zeros(n, np.int16),
             np.zeros(n, np.uint32))
    return table


@njit(cache=True)
def ground_left(words, c, cell_edges, edge_cells):
    """Undrawn boundary edges of cell ``c``."""
    k = 0
    for j in range(6):
        x = cell_edges[c, j]
        if edge_cells[x, 1] < 0 and is_undrawn(words, x):
            k += 1
    return k


@njit(cache=True)
def _root_hashes(words, cell_edges, edge_cells, zob1, zob2, zg1, zg2, sym, sym_cell, h1, h2):
    """Hashes of the strings-and-coins position under each symmetry: drawn inner edges, and
    each cell's number of undrawn boundary edges (which of them is undrawn does not matter)."""
    for s in range(sym.shape[0]):
        h1[s] = 0
        h2[s] = 0
        for e in range(edge_cells.shape[0]):
            if edge_cells[e, 1] >= 0 and not is_undrawn(words, e):
                h1[s] ^= zob1[sym[s, e]]
                h2[s] ^= zob2[sym[s, e]]
        for c in range(cell_edges.shape[0]):
            k = ground_left(words, c, cell_edges, edge_cells)
            h1[s] ^= zg1[sym_cell[s, c], k]
            h2[s] ^= zg2[sym_cell[s, c], k]


@njit(cache=True)
def _push(ply, e, u, dg, hs1, hs2, edge_cells, cell_edges, zob1, zob2, zg1, zg2, sym, sym_cell):
    """Copy frame ``ply`` into ``ply + 1`` and draw ``e`` there; returns the cells captured."""
    u[ply + 1, :] = u[ply, :]
    dg[ply + 1, :] = dg[ply, :]
    c = edge_cells[e, 0]
    if edge_cells[e, 1] < 0:
        k = ground_left(u[ply], c, cell_edges, edge_cells)
        for s in range(hs1.shape[1]):
            t = sym_cell[s, c]
            hs1[ply + 1, s] = hs1[ply, s] ^ zg1[t, k] ^ zg1[t, k - 1]
            hs2[ply + 1, s] = hs2[ply, s] ^ zg2[t, k] ^ zg2[t, k - 1]
    else:
        for s in range(hs1.shape[1]):
            hs1[ply + 1, s] = hs1[ply, s] ^ zob1[sym[s, e]]
            hs2[ply + 1, s] = hs2[ply, s] ^ zob2[sym[s, e]]
    return draw(u[ply + 1], dg[ply + 1], e, edge_cells)


@njit(cache=True, inline="always")
def _same_move(e, hint, edge_cells):
    """``e`` is the hinted move, or a boundary edge of the same cell (an identical move)."""
    if e == hint:
        return True
    return (hint >= 0 and edge_cells[e, 1] < 0 and edge_cells[hint, 1] < 0
            and edge_cells[e, 0] == edge_cells[hint, 0])


@njit(cache=True)
def _first_ground(words, e, edge_cells, cell_edges):
    """A boundary edge is searched only if it is its cell's first undrawn one: cutting any
    string from a coin to the ground gives the same strings-and-coins position."""
    c = edge_cells[e, 0]
    for j in range(6):
        x = cell_edges[c, j]
        if x < e and edge_cells[x, 1] < 0 and is_undrawn(words, x):
            return False
    return True


@njit(cache=True)
def _canonical(hs1, hs2, ply):
    best = 0
    for s in range(1, hs1.shape[1]):
        if hs1[ply, s] < hs1[ply, best]:
            best = s
    return best, hs1[ply, best], hs2[ply, best]


@njit(cache=True)
def _order(u, dg, ply, n_edges, edge_cells, cell_edges, hint, m_edge, m_key):
    """Undrawn edges (one per cell's boundary), best first: the table's move, safe edges, then
    smaller offers."""
    n = 0
    for e in range(n_edges):
        if not is_undrawn(u[ply], e):
            continue
        if edge_cells[e, 1] < 0 and not _first_ground(u[ply], e, edge_cells, cell_edges):
            continue
        if _same_move(e, hint, edge_cells):
            key = 100.0
        elif is_safe(dg[ply], e, edge_cells):
            key = 10.0
        else:
            key = 0.0
            for j in range(2):
                c = edge_cells[e, j]
                if c >= 0 and dg[ply, c] == 2:
                    key -= 1.0
        i = n
        while i > 0 and m_key[ply, i - 1] < key:
            m_key[ply, i] = m_key[ply, i - 1]
            m_edge[ply, i] = m_edge[ply, i - 1]
            i -= 1
        m_key[ply, i] = key
        m_edge[ply, i] = e
        n += 1
    return n


@njit(cache=True)
def negamax(words0, margin0, depth, exact, weights, edge_cells, cell_edges, n_edges, zob1, zob2,
            zg1, zg2, zmar1, zmar2, sym, inv_sym, sym_cell, tt_k1, tt_k2, tt_value, tt_depth,
            tt_bound, tt_move, tt_gen, gen, max_nodes, alpha0, beta0):
    """Search the position in the window (alpha0, beta0) (fail-soft); returns (best edge,
    value, nodes, aborted)."""
    n_cells = cell_edges.shape[0]
    mask = tt_k1.shape[0] - 1
    undrawn0 = 0
    for e in range(n_edges):
        if is_undrawn(words0, e):
            undrawn0 += 1
    cap = undrawn0 + 2
    n_sym = sym.shape[0]
    u = np.empty((cap, words0.shape[0]), np.uint64)
    dg = np.empty((cap, n_cells), np.int8)
    hs1 = np.zeros((cap, n_sym), np.uint64)
    hs2 = np.zeros((cap, n_sym), np.uint64)
    marg = np.empty(cap, np.int64)
    left = np.empty(cap, np.int64)
    s_alpha = np.empty(cap, np.float64)
    s_beta = np.empty(cap, np.float64)
    s_alpha0 = np.empty(cap, np.float64)
    s_depth = np.empty(cap, np.int64)
    s_best = np.empty(cap, np.float64)
    s_best_move = np.empty(cap, np.int64)
    s_n = np.empty(cap, np.int64)
    s_i = np.empty(cap, np.int64)
    s_same = np.zeros(cap, np.bool_)
    s_slot = np.full(cap, -1, np.int64)
    s_k1 = np.empty(cap, np.uint64)
    s_k2 = np.empty(cap, np.uint64)
    s_sym = np.empty(cap, np.int64)
    m_edge = np.empty((cap, n_edges), np.int64)
    m_key = np.empty((cap, n_edges), np.float64)
    buf = np.empty(N_FEATURES, np.float64)
    _root_hashes(words0, cell_edges, edge_cells, zob1, zob2, zg1, zg2, sym, sym_cell, hs1[0],
                 hs2[0])
    u[0, :] = words0
    degrees(words0, cell_edges, dg[0])
    marg[0], left[0], s_depth[0] = margin0, undrawn0, depth
    s_alpha[0], s_beta[0] = alpha0, beta0
    nodes = 0
    ply = 0
    root_expanded = False
    while True:
        # ---- enter the node at `ply`: push its first child (continue) or produce `ret`
        nodes += 1
        if nodes > max_nodes:
            return NO_MOVE, 0.0, nodes, True
        d, alpha, beta = s_depth[ply], s_alpha[ply], s_beta[ply]
        s_slot[ply] = -1
        ret = 0.0
        have_ret = True
        n = capture_candidates(u[ply], dg[ply], edge_cells, cell_edges, m_edge[ply])
        if left[ply] == 0:
            ret = 1.0 * marg[ply]
        elif not exact and d <= 0 and n == 0:
            ret = evaluate(u[ply], dg[ply], marg[ply], n_edges - left[ply], n_edges, weights,
                           edge_cells, cell_edges, buf)
        else:
            hint = NO_MOVE
            use_tt = left[ply] > SHALLOW_EXACT if exact else d >= 1
            if use_tt:
                s_sym[ply], k1, k2 = _canonical(hs1, hs2, ply)
                if not exact:
                    k1 ^= zmar1[marg[ply] + n_cells]
                    k2 ^= zmar2[marg[ply] + n_cells]
                slot = np.int64(k1 & np.uint64(mask))
                s_slot[ply], s_k1[ply], s_k2[ply] = slot, k1, k2
                if tt_gen[slot] == gen and tt_k1[slot] == k1 and tt_k2[slot] == k2:
                    if tt_move[slot] >= 0:
                        hint = inv_sym[s_sym[ply], tt_move[slot]]
                    tag = EXACT_DEPTH if exact else d
                    if tt_depth[slot] == tag and ply > 0:
                        v = tt_value[slot] + (marg[ply] if exact else 0.0)
                        b = tt_bound[slot]
                        if (b == BOUND_EXACT or (b == BOUND_LOWER and v >= beta)
                                or (b == BOUND_UPPER and v <= alpha)):
                            ret = v
                            hint = -2  # answered from the table
            if hint != -2:
                if n == 0:
                    # The root ignores the table's move: a fixed root order makes the choice
                    # among equal moves independent of what other searches left in the table
                    # (exact entries are shared by every search), so games replay exactly.
                    n = _order(u, dg, ply, n_edges, edge_cells, cell_edges,
                               hint if ply > 0 else NO_MOVE, m_edge, m_key)
                s_alpha0[ply] = alpha
                s_n[ply], s_i[ply] = n, 0
                s_best[ply], s_best_move[ply] = -INF, m_edge[ply, 0]
                have_ret = False
        i = 0
        if not have_ret and ply == 0:
            root_expanded = True
        # ---- hand `ret` up until some node has another child to search
        while have_ret:
            if ply == 0:
                return s_best_move[0] if root_expanded else NO_MOVE, ret, nodes, False
            ply -= 1
            v = ret if s_same[ply] else -ret
            i = s_i[ply]
            if v > s_best[ply]:
                s_best[ply] = v
                s_best_move[ply] = m_edge[ply, i]
                if v > s_alpha[ply]:
                    s_alpha[ply] = v
            if s_alpha[ply] >= s_beta[ply] or i + 1 == s_n[ply]:
                ret = s_best[ply]
                slot = s_slot[ply]
                if slot >= 0:
                    bound = BOUND_EXACT
                    if ret <= s_alpha0[ply]:
                        bound = BOUND_UPPER
                    elif ret >= s_beta[ply]:
                        bound = BOUND_LOWER
                    tt_k1[slot], tt_k2[slot], tt_gen[slot] = s_k1[ply], s_k2[ply], gen
                    tt_value[slot] = ret - (marg[ply] if exact else 0.0)
                    tt_bound[slot] = bound
                    tt_depth[slot] = EXACT_DEPTH if exact else s_depth[ply]
                    tt_move[slot] = sym[s_sym[ply], s_best_move[ply]]
                continue
            i += 1
            s_i[ply] = i
            have_ret = False
        # ---- push child i of the node at `ply`
        e = m_edge[ply, i]
        caps = _push(ply, e, u, dg, hs1, hs2, edge_cells, cell_edges, zob1, zob2, zg1, zg2, sym,
                     sym_cell)
        left[ply + 1] = left[ply] - 1
        s_same[ply] = caps > 0
        if caps > 0:
            marg[ply + 1] = marg[ply] + caps
            s_alpha[ply + 1], s_beta[ply + 1] = s_alpha[ply], s_beta[ply]
            s_depth[ply + 1] = s_depth[ply]
        else:
            marg[ply + 1] = -marg[ply]
            s_alpha[ply + 1], s_beta[ply + 1] = -s_beta[ply], -s_alpha[ply]
            s_depth[ply + 1] = s_depth[ply] - 1
        ply += 1
