"""Static evaluation with an n-tuple network (numba), from the side to move's view:

    value = network(phase) + the weighted features of that phase (``evaluation.add_features``)

with ``phase = phase_of_discs[discs on the board]``; a finished game is scored exactly
(``evaluation.terminal_score``), as by ``evaluation.evaluate``. Two ways to the same value:

- ``network_value``: every index recomputed from the bitboards (the reference);
- ``move_value``: a node's child, Edax's way. The node computes its indices once *in its
  children's colours* (``children_indices``: state 1 = the node's opponent, who moves next);
  each child is then the node's indices plus its move (``play_bits``: the mover's stone and
  flips turned to state 2), evaluated with the plain weights, then undone. The sum runs over
  the same entries in the same order as ``network_value``'s, so the values are identical to
  the bit. (Keeping the indices in the children's colours, rather than in absolute colours
  with colour-swapped weights, needs no second copy of the weights: TD self-play changes them
  between moves.)

Nothing here allocates: the search's callbacks (compiled without reference counting) call it,
so the indices live in a scratch array the caller owns.

``best_child`` is the 1-ply agent's choice (TD self-play's) at the cost of about one full sum
per node instead of one per child: each child is first valued by the node's sum plus its
move's change (``engine.kernels.ntuple.evaluation.move_delta``), which can differ from its exact
value by rounding only (``rounding_bound``); only the children within twice that bound of the
best are valued exactly, so the move is the one scoring every child by ``move_value`` picks, to
the bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels import ntuple as nt
from engine.kernels.ntuple.evaluation import move_delta
from engine.reversi.genome.evaluation import add_features, terminal_score
from engine.reversi.genome.layout import MAX_FEATURE_COUNT
from engine.reversi.rules import bitboard as bb

CHILD_MOVER = 2  # the node's side to move, in its children's colours
MAX_CHILDREN = 40  # the most legal moves in any Othello position is 33
UNIT_ROUNDOFF = 2.0 ** -53


@njit(cache=True)
def network_value(P, O, phase_of_discs, t, weights, features, reversed_rules):
    """The value of ``(P, O)`` for the side to move (module docstring)."""
    mob_own = bb.popcount(bb.legal_moves(P, O))
    mob_opp = bb.popcount(bb.legal_moves(O, P))
    if mob_own == 0 and mob_opp == 0:
        return terminal_score(P, O, reversed_rules)
    phase = phase_of_discs[bb.popcount(P | O)]
    value = nt.evaluate_bits(P, O, t, weights[phase])
    return add_features(value, P, O, features[phase], mob_own, mob_opp)


@njit(cache=True)
def children_indices(P, O, t, indices):
    """The indices of ``(P, O)`` in its children's colours (the opponent ``O`` is state 1),
    the base ``move_value`` updates."""
    nt.indices_bits(O, P, t, indices)


@njit(cache=True)
def move_value(indices, sq, f, nP, nO, phase_of_discs, t, weights, features, reversed_rules,
               incremental):
    """The value of the child ``(nP, nO)`` that square ``sq`` flipping ``f`` makes, for the
    child's side to move (negate it for the parent). ``incremental``: ``indices`` hold the
    parent's from ``children_indices``; they are updated for the child and restored. Else
    recomputed from the bits; the same value either way."""
    if not incremental:
        return network_value(nP, nO, phase_of_discs, t, weights, features, reversed_rules)
    mob_own = bb.popcount(bb.legal_moves(nP, nO))
    mob_opp = bb.popcount(bb.legal_moves(nO, nP))
    if mob_own == 0 and mob_opp == 0:
        return terminal_score(nP, nO, reversed_rules)
    phase = phase_of_discs[bb.popcount(nP | nO)]
    nt.play_bits(indices, t, sq, f, CHILD_MOVER)
    value = nt.evaluate_indices(indices, t, weights[phase])
    nt.undo_bits(indices, t, sq, f, CHILD_MOVER)
    return add_features(value, nP, nO, features[phase], mob_own, mob_opp)


def new_child_scratch(t) -> tuple:
    """``best_child``'s arrays: marks and touched instances, then per child its square, flips,
    boards and first value."""
    n = t.offset.shape[0]
    return (np.zeros(n, np.int64), np.empty(n, np.int64), np.empty(MAX_CHILDREN, np.int64),
            np.empty(MAX_CHILDREN, np.uint64), np.empty(MAX_CHILDREN, np.uint64),
            np.empty(MAX_CHILDREN, np.uint64), np.empty(MAX_CHILDREN))


@njit(cache=True, inline="always")
def next_child(P, O, x):
    """The lowest move of ``x``: (its square, the other moves, its flips, the child's P, O)."""
    sq = bb.lowest_bit_index(x)
    f = bb.flips(P, O, sq)
    nP, nO = bb.make_move(P, O, sq, f)
    return sq, x & (x - bb.ONE), f, nP, nO


@njit(cache=True)
def rounding_bound(instances, largest_weight, f):
    """How far two ways of summing a child's value (``network_value``'s, and the node's sum
    plus a move's change) can be apart: twice the classic bound ``n u sum|terms|`` of each,
    with ``n`` = 3 x instances + 20 additions and every partial sum below 3 x instances x the
    largest ``|weight|`` plus the features' largest part; then doubled again for safety."""
    features = 0.0
    for k in range(f.shape[0]):
        features += abs(f[k])
    scale = 3.0 * instances * largest_weight + MAX_FEATURE_COUNT * features
    return 4.0 * (3.0 * instances + 20.0) * UNIT_ROUNDOFF * scale


@njit(cache=True)
def best_child(P, O, moves, phase_of_discs, t, weights, features, reversed_rules, indices,
               scratch, largest_weight):
    """The 1-ply agent's move from ``(P, O)`` (``moves`` its legal moves, not empty): the
    child of best negated value, the first in square order among equals, exactly as valuing
    every child by ``move_value`` chooses (module docstring). ``largest_weight[phase]``: an
    upper bound of ``|weights[phase]|``; ``scratch``: ``new_child_scratch``'s arrays."""
    children_indices(P, O, t, indices)
    return best_child_from(P, O, moves, phase_of_discs, t, weights, features, reversed_rules,
                           indices, scratch, largest_weight)


@njit(cache=True)
def best_child_from(P, O, moves, phase_of_discs, t, weights, features, reversed_rules, indices,
                    scratch, largest_weight):
    """``best_child`` when ``indices`` already hold the node's in its children's colours (as
    ``children_indices`` computes them; TD self-play keeps them up to date move by move); they
    are left as they were."""
    marks, touched, sqs, fls, cPs, cOs, values = scratch
    phase = phase_of_discs[bb.popcount(P | O) + 1]  # every child has one disc more
    row, f = weights[phase], features[phase]
    base = nt.evaluate_indices(indices, t, row)
    n, best = 0, -np.inf
    x = moves
    while x:
        sq, x, flips, nP, nO = next_child(P, O, x)
        mob_own = bb.popcount(bb.legal_moves(nP, nO))
        mob_opp = bb.popcount(bb.legal_moves(nO, nP))
        if mob_own == 0 and mob_opp == 0:
            v = -terminal_score(nP, nO, reversed_rules)
        else:
            net = base + move_delta(indices, t, row, sq, flips, CHILD_MOVER, marks, touched)
            v = -add_features(net, nP, nO, f, mob_own, mob_opp)
        sqs[n], fls[n], cPs[n], cOs[n], values[n] = sq, flips, nP, nO, v
        best = max(best, v)
        n += 1
    slack = 2.0 * rounding_bound(t.offset.shape[0], largest_weight[phase], f)
    chosen, exact_best, candidates = -1, -np.inf, 0
    for k in range(n):
        if values[k] >= best - slack:
            candidates += 1
            chosen = sqs[k]
    if candidates == 1:
        return chosen
    for k in range(n):  # a near tie: the exact values decide, as move_value would
        if values[k] >= best - slack:
            v = -move_value(indices, sqs[k], fls[k], cPs[k], cOs[k], phase_of_discs, t,
                            weights, features, reversed_rules, True)
            if v > exact_best:
                exact_best, chosen = v, sqs[k]
    return chosen


@njit(cache=True)
def greedy_move(P, O, moves, phase_of_discs, t, weights, features, reversed_rules, indices):
    """The 1-ply agent's move: the best negated child value, the first in square order (every
    child valued exactly: ``best_child``'s reference)."""
    children_indices(P, O, t, indices)
    best, best_sq = -np.inf, -1
    x = moves
    while x:
        sq, x, f, nP, nO = next_child(P, O, x)
        v = -move_value(indices, sq, f, nP, nO, phase_of_discs, t, weights, features,
                        reversed_rules, True)
        if v > best:
            best, best_sq = v, sq
    return best_sq
