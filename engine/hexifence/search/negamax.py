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
- Leaves are scored by the features, by the cell margin plus an n-tuple network
  (``engine.hexifence.genome.network``: it reads strings and coins, so positions the table or the
  move list treat alike get the same value), or by both.
- The search itself is the shared kernel (``engine.kernels.search.alphabeta``); this module supplies
  Hexifence's frames (``ctx``, below) and the seven functions it asks for.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.hexifence.genome.evaluation import N_FEATURES, evaluate
from engine.hexifence.genome.network import FEATURES_ONLY, NETWORK_AND_FEATURES
from engine.hexifence.genome.network_eval import network_value
from engine.hexifence.rules.bitboard import capture_candidates, degrees, draw, is_safe, is_undrawn
from engine.kernels.search import alphabeta as ab

INF = np.inf
NO_MOVE = ab.NO_MOVE
SHALLOW_EXACT = 3  # exact mode: no table with this few undrawn edges


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
def _draw_edge(ply, e, u, dg, hs1, hs2, edge_cells, cell_edges, zob1, zob2, zg1, zg2, sym,
               sym_cell):
    """Copy frame ``ply`` into ``ply + 1`` and draw ``e`` there; returns the cells captured.
    (Element loops, not slice copies: the search's callbacks run without reference counting.)"""
    for k in range(u.shape[1]):
        u[ply + 1, k] = u[ply, k]
    for k in range(dg.shape[1]):
        dg[ply + 1, k] = dg[ply, k]
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


# ``ctx`` = (u, dg, hs1, hs2, marg, left, m_edge, m_key, cand, s_sym, buf, weights, edge_cells,
# cell_edges, n_edges, zob1, zob2, zg1, zg2, zmar1, zmar2, sym, inv_sym, sym_cell, node_of_edge,
# tables, net, mode, nodes): per ply the undrawn edges, cell degrees, symmetric hashes, margin,
# edges left, ordered moves, capture candidates and canonical symmetry; then the board's tables
# and the Zobrist keys; then the n-tuple network (node of each edge, index tables, weights per
# phase), the evaluation mode and a node-state scratch vector.
U, DG, HS1, HS2, MARG, LEFT, M_EDGE, M_KEY, CAND, S_SYM, BUF, WEIGHTS = range(12)
EDGE_CELLS, CELL_EDGES, N_EDGES, ZOB1, ZOB2, ZG1, ZG2, ZMAR1, ZMAR2, SYM, INV_SYM, SYM_CELL = \
    range(12, 24)
NODE_OF_EDGE, TABLES, NET, MODE, NODES = range(24, 29)


@njit(cache=True)
def _heuristic(ctx, ply):
    """The evaluation of a leaf with nothing to capture, for the side to move."""
    u, dg, marg, n_edges = ctx[U], ctx[DG], ctx[MARG], ctx[N_EDGES]
    drawn = n_edges - ctx[LEFT][ply]
    if ctx[MODE] == FEATURES_ONLY:
        return evaluate(u[ply], dg[ply], marg[ply], drawn, n_edges, ctx[WEIGHTS],
                        ctx[EDGE_CELLS], ctx[CELL_EDGES], ctx[BUF])
    net = ctx[NET]
    value = network_value(u[ply], ctx[NODE_OF_EDGE], n_edges, ctx[TABLES],
                          net[drawn * net.shape[0] // (n_edges + 1)], ctx[NODES])
    if ctx[MODE] == NETWORK_AND_FEATURES:
        return value + evaluate(u[ply], dg[ply], marg[ply], drawn, n_edges, ctx[WEIGHTS],
                                ctx[EDGE_CELLS], ctx[CELL_EDGES], ctx[BUF])
    return value + marg[ply]


@njit(cache=True)
def _enter(ctx, ply, d, exact):
    u, dg, left, marg = ctx[U], ctx[DG], ctx[LEFT], ctx[MARG]
    n = capture_candidates(u[ply], dg[ply], ctx[EDGE_CELLS], ctx[CELL_EDGES], ctx[M_EDGE][ply])
    ctx[CAND][ply] = n
    if left[ply] == 0:
        return True, 1.0 * marg[ply]
    if not exact and d <= 0 and n == 0:
        return True, _heuristic(ctx, ply)
    return False, 0.0


@njit(cache=True, _nrt=False)
def _tt_key(ctx, ply, d, exact, shift, mask):
    marg = ctx[MARG][ply]
    if not (ctx[LEFT][ply] > SHALLOW_EXACT if exact else d >= 1):
        return False, np.uint64(0), np.uint64(0), np.int64(0), 0.0
    s, k1, k2 = _canonical(ctx[HS1], ctx[HS2], ply)
    ctx[S_SYM][ply] = s
    if not exact:  # a weighted evaluation is not a margin plus something: the margin is keyed
        n_cells = ctx[CELL_EDGES].shape[0]
        k1 ^= ctx[ZMAR1][marg + n_cells]
        k2 ^= ctx[ZMAR2][marg + n_cells]
    return True, k1, k2, np.int64(k1 & mask), 1.0 * marg if exact else 0.0


@njit(cache=True, _nrt=False)
def _hint_of(ctx, ply, stored):
    return ctx[INV_SYM][ctx[S_SYM][ply], stored] if stored >= 0 else NO_MOVE


@njit(cache=True, _nrt=False)
def _move_to_store(ctx, ply, move):
    return ctx[SYM][ctx[S_SYM][ply], move]


@njit(cache=True, _nrt=False)
def _expand(ctx, ply, d, exact, hint):
    n = ctx[CAND][ply]
    if n == 0:
        n = _order(ctx[U], ctx[DG], ply, ctx[N_EDGES], ctx[EDGE_CELLS], ctx[CELL_EDGES], hint,
                   ctx[M_EDGE], ctx[M_KEY])
    return n


@njit(cache=True, _nrt=False)
def _push(ctx, ply, i, exact):
    e = ctx[M_EDGE][ply, i]
    caps = _draw_edge(ply, e, ctx[U], ctx[DG], ctx[HS1], ctx[HS2], ctx[EDGE_CELLS],
                      ctx[CELL_EDGES], ctx[ZOB1], ctx[ZOB2], ctx[ZG1], ctx[ZG2], ctx[SYM],
                      ctx[SYM_CELL])
    ctx[LEFT][ply + 1] = ctx[LEFT][ply] - 1
    if caps > 0:  # a capture keeps the turn and costs no depth
        ctx[MARG][ply + 1] = ctx[MARG][ply] + caps
        return e, True, 0
    ctx[MARG][ply + 1] = -ctx[MARG][ply]
    return e, False, 1


@njit(cache=True)
def negamax(words0, margin0, depth, exact, weights, edge_cells, cell_edges, n_edges, zob1, zob2,
            zg1, zg2, zmar1, zmar2, sym, inv_sym, sym_cell, node_of_edge, tables, net, mode,
            table, gen, max_nodes, alpha0, beta0, root_hint=ab.NO_MOVE):
    """Search the position in the window (alpha0, beta0) (fail-soft); returns (best edge,
    value, nodes, aborted). ``root_hint``: a timed search's previous best edge, searched first
    (``engine.kernels.search.alphabeta.negamax``: then an aborted search's edge is usable)."""
    n_cells = cell_edges.shape[0]
    undrawn0 = 0
    for e in range(n_edges):
        if is_undrawn(words0, e):
            undrawn0 += 1
    cap = undrawn0 + 2
    n_sym = sym.shape[0]
    ctx = (np.empty((cap, words0.shape[0]), np.uint64), np.empty((cap, n_cells), np.int8),
           np.zeros((cap, n_sym), np.uint64), np.zeros((cap, n_sym), np.uint64),
           np.empty(cap, np.int64), np.empty(cap, np.int64),
           np.empty((cap, n_edges), np.int64), np.empty((cap, n_edges), np.float64),
           np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(N_FEATURES, np.float64),
           weights, edge_cells, cell_edges, n_edges, zob1, zob2, zg1, zg2, zmar1, zmar2, sym,
           inv_sym, sym_cell, node_of_edge, tables, net, mode,
           np.empty(tables.cell_start.shape[0] - 1, np.uint8))
    _root_hashes(words0, cell_edges, edge_cells, zob1, zob2, zg1, zg2, sym, sym_cell,
                 ctx[HS1][0], ctx[HS2][0])
    ctx[U][0, :] = words0
    degrees(words0, cell_edges, ctx[DG][0])
    ctx[MARG][0], ctx[LEFT][0] = margin0, undrawn0
    return ab.negamax(_enter, _tt_key, _hint_of, _move_to_store, ab.no_horizon, _expand, _push,
                      ctx, cap, depth, exact, False, table, gen, max_nodes, alpha0, beta0,
                      root_hint)
