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
"""

from __future__ import annotations

from numba import njit

from engine.kernels import ntuple as nt
from engine.reversi import bitboard as bb
from engine.reversi.evaluation import add_features, terminal_score

CHILD_MOVER = 2  # the node's side to move, in its children's colours


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
