"""Static evaluation from the side to move's view (numba), and stable-disc detection.

    value = sum(positional[phase, s] for own discs s)
          - sum(positional[phase, s] for opponent discs s)
          + features[phase] . (the ``ALL_FEATURE_NAMES`` values, in that order)

with ``phase = phase_of_discs[number of discs on the board]``. ``features`` has one column per
name of ``ALL_FEATURE_NAMES`` (the catalogue); a genome uses some *groups* of it
(``engine.reversi.genome.weights.FEATURE_GROUPS``) and the others weigh 0. A group whose weights are
all 0 in a phase is not computed at all, so an unused group costs nothing. A 6-column row (the
layout before the optional groups) is accepted too: the groups after ``stability`` weigh 0.

- ``mobility_own`` / ``mobility_opp``: number of legal moves of the side to move / opponent;
- ``potential_mobility_own``: opponent discs next to at least one empty square (the opponent's
  frontier: where the side to move may later find moves); ``potential_mobility_opp``: own discs
  next to an empty square (own frontier);
- ``stability_own`` / ``stability_opp``: discs that ``stable_discs`` proves can never be flipped;
- ``x_empty_corner_own`` / ``x_empty_corner_opp``: own / opponent discs on an X square (b2, g2,
  b7, g7) whose diagonal corner (a1, h1, a8, h8) is empty;
- ``c_empty_corner_own`` / ``c_empty_corner_opp``: own / opponent discs on a C square (b1 and
  a2 next to a1; g1, h2 next to h1; a7, b8 next to a8; h7, g8 next to h8) whose corner is empty.
  With the positional weight of the square (which applies whatever the corner holds) these
  let the evaluation value an X or C square differently once its corner is taken;
- ``parity_odd_regions`` / ``parity_even_regions``: the empty squares split into *regions*
  (connected components under the 8-neighbourhood: squares touching by a side or a corner);
  the number of regions with an odd / even number of squares. The idea (region parity): if
  the two sides alternate inside a region until it is full, whoever plays first there also
  plays last (the last move of a region is often the safe one, and in Reversed Reversi the
  one that gives fewest discs away), so the side to move benefits from odd regions. It is an
  approximation: moves are not forced to alternate within a region (a side may be unable to
  move into it, or pass, or play elsewhere), and both counts are the same whichever side is to
  move; the weights (per phase) decide what they are worth. At most 16 regions fit on a board
  (no two of them touching), so both counts stay below 64.

Every feature is a count of at most 64 (``engine.reversi.genome.weights.MAX_FEATURE_COUNT``).

A finished game (neither side can move) is not evaluated heuristically: it scores
``+-(WIN_SCORE + |final disc difference|)`` (0 for a draw) under the variant given by
``reversed_rules``, so won and lost positions dominate any heuristic value: ``Weights`` refuses
weights whose heuristic could reach ``WIN_SCORE``
(``engine.reversi.genome.weights.check_magnitude``), and every array that reaches this function
comes from a ``Weights``. The weights carry the heuristic's sign; the variant matters only there.

Stability (Edax's method, a sound lower bound of true stability) is
``engine.reversi.endgame.stability``'s, the one the exact solver uses: a disc is stable if, in
each of the 4 line directions, its line is full or a neighbour along that direction is a stable disc
of the same colour; edge discs are exact under a one-line model (a 256x256 table). Discs this misses
are counted unstable; a disc it reports stable is truly stable.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# EDGE_STABLE: for the CS303 export's test; edge_stable: its callers' name
from engine.reversi.endgame.stability import (  # noqa: F401
    EDGE_STABLE,
    full_lines,
    stable_discs,
    stable_with_lines,
)
from engine.reversi.endgame.stability import stable_edges as edge_stable  # noqa: F401
from engine.reversi.rules import bitboard as bb

U64 = np.uint64
WIN_SCORE = 1e6
# The columns of a features row, in the order evaluate() sums them (see the module docstring).
ALL_FEATURE_NAMES: tuple[str, ...] = (
    "mobility_own",
    "mobility_opp",
    "potential_mobility_own",
    "potential_mobility_opp",
    "stability_own",
    "stability_opp",
    "x_empty_corner_own",
    "x_empty_corner_opp",
    "c_empty_corner_own",
    "c_empty_corner_opp",
    "parity_odd_regions",
    "parity_even_regions",
)
N_ALL_FEATURES = len(ALL_FEATURE_NAMES)
N_LEGACY_FEATURES = 6  # the catalogue before the optional groups: mobility and stability
A1, H1, A8, H8 = U64(1) << U64(0), U64(1) << U64(7), U64(1) << U64(56), U64(1) << U64(63)
@njit(cache=True)
def terminal_score(P, O, reversed_rules):
    """Value of a finished game: the win/loss bonus plus the final disc difference."""
    s = bb.final_score(P, O, reversed_rules)
    if s > 0:
        return WIN_SCORE + s
    if s < 0:
        return -WIN_SCORE + s
    return 0.0


@njit(cache=True)
def positional_sum(P, O, row):
    """sum of ``row`` over P's discs minus over O's discs (``row`` = one phase's 64 weights)."""
    total = 0.0
    x = P
    while x:
        total += row[bb.lowest_bit_index(x)]
        x &= x - bb.ONE
    x = O
    while x:
        total -= row[bb.lowest_bit_index(x)]
        x &= x - bb.ONE
    return total


@njit(cache=True)
def squares_next_to_empty_corners(occupied):
    """(X squares, C squares) whose corner is empty: b2 for a1, b1 and a2 for a1, and so on."""
    a1, h1 = ~occupied & A1, ~occupied & H1
    a8, h8 = ~occupied & A8, ~occupied & H8
    x = (a1 << bb.S9) | (h1 << bb.S7) | (a8 >> bb.S7) | (h8 >> bb.S9)
    c = (a1 << bb.S1) | (a1 << bb.S8) | (h1 >> bb.S1) | (h1 << bb.S8)
    c |= (a8 << bb.S1) | (a8 >> bb.S8) | (h8 >> bb.S1) | (h8 >> bb.S8)
    return x, c


@njit(cache=True)
def parity_regions(empty):
    """(odd, even): regions of ``empty`` (8-connected components) of odd / even size."""
    odd = 0
    even = 0
    while empty:
        region = empty & (bb.ZERO - empty)  # its lowest square, grown until it stops
        while True:
            grown = (region | bb.neighbours(region)) & empty
            if grown == region:
                break
            region = grown
        empty ^= region
        if bb.popcount(region) & 1:
            odd += 1
        else:
            even += 1
    return odd, even


@njit(cache=True)
def evaluate(P, O, phase_of_discs, positional, features, reversed_rules):
    """Heuristic value of ``(P, O)`` for the side to move (P); finished games are scored exactly.
    Each feature group is computed only when one of its weights in this phase is not 0."""
    mob_own = bb.popcount(bb.legal_moves(P, O))
    mob_opp = bb.popcount(bb.legal_moves(O, P))
    if mob_own == 0 and mob_opp == 0:
        return terminal_score(P, O, reversed_rules)
    phase = phase_of_discs[bb.popcount(P | O)]
    value = positional_sum(P, O, positional[phase])
    return add_features(value, P, O, features[phase], mob_own, mob_opp)


@njit(cache=True)
def add_features(value, P, O, f, mob_own, mob_opp):
    """``value`` plus the weighted features of one phase's row ``f`` (12 catalogue columns, or
    the 6 of the legacy layout), group by group in catalogue order (the order every evaluation
    sums them in: the CS303 export reproduces it bit for bit); a group whose weights are all 0
    is not computed. ``mob_own`` / ``mob_opp``: the legal moves of each side, counted already."""
    value += f[0] * mob_own + f[1] * mob_opp
    if f[2] != 0.0 or f[3] != 0.0:
        value += f[2] * bb.popcount(bb.frontier(O, P)) + f[3] * bb.popcount(bb.frontier(P, O))
    if f[4] != 0.0 or f[5] != 0.0:  # the costly feature: skipped when it weighs nothing
        h, v, d9, d7 = full_lines(P | O)
        value += f[4] * bb.popcount(stable_with_lines(P, O, h, v, d9, d7))
        value += f[5] * bb.popcount(stable_with_lines(O, P, h, v, d9, d7))
    if f.shape[0] == N_LEGACY_FEATURES:
        return value
    if f[6] != 0.0 or f[7] != 0.0 or f[8] != 0.0 or f[9] != 0.0:
        x, c = squares_next_to_empty_corners(P | O)
        value += f[6] * bb.popcount(P & x) + f[7] * bb.popcount(O & x)
        value += f[8] * bb.popcount(P & c) + f[9] * bb.popcount(O & c)
    if f[10] != 0.0 or f[11] != 0.0:
        odd, even = parity_regions(~(P | O))
        value += f[10] * odd + f[11] * even
    return value


@njit(cache=True)
def feature_vector(P, O):
    """Every feature value of ``(P, O)``, in ``ALL_FEATURE_NAMES`` order (for tests and
    inspection), float64[12]."""
    out = np.empty(N_ALL_FEATURES, np.float64)
    out[0] = bb.popcount(bb.legal_moves(P, O))
    out[1] = bb.popcount(bb.legal_moves(O, P))
    out[2] = bb.popcount(bb.frontier(O, P))
    out[3] = bb.popcount(bb.frontier(P, O))
    out[4] = bb.popcount(stable_discs(P, O))
    out[5] = bb.popcount(stable_discs(O, P))
    x, c = squares_next_to_empty_corners(P | O)
    out[6] = bb.popcount(P & x)
    out[7] = bb.popcount(O & x)
    out[8] = bb.popcount(P & c)
    out[9] = bb.popcount(O & c)
    odd, even = parity_regions(~(P | O))
    out[10] = odd
    out[11] = even
    return out


@njit(cache=True)
def feature_counts_into(P, O, needed, x):
    """The feature values of ``(P, O)`` that ``needed`` marks (catalogue order, 12 columns;
    mobility always) into ``x``, as ``feature_vector`` counts them: what ``add_feature_counts``
    and a TD step read, counted once for both."""
    x[0] = bb.popcount(bb.legal_moves(P, O))
    x[1] = bb.popcount(bb.legal_moves(O, P))
    if needed[2] or needed[3]:
        x[2] = bb.popcount(bb.frontier(O, P))
        x[3] = bb.popcount(bb.frontier(P, O))
    if needed[4] or needed[5]:
        h, v, d9, d7 = full_lines(P | O)
        x[4] = bb.popcount(stable_with_lines(P, O, h, v, d9, d7))
        x[5] = bb.popcount(stable_with_lines(O, P, h, v, d9, d7))
    if needed[6] or needed[7] or needed[8] or needed[9]:
        xs, cs = squares_next_to_empty_corners(P | O)
        x[6], x[7] = bb.popcount(P & xs), bb.popcount(O & xs)
        x[8], x[9] = bb.popcount(P & cs), bb.popcount(O & cs)
    if needed[10] or needed[11]:
        x[10], x[11] = parity_regions(~(P | O))


@njit(cache=True)
def add_feature_counts(value, f, x):
    """``add_features`` from counted features (``feature_counts_into``; ``f``: 12 catalogue
    columns): the same sums in the same order, so the same value to the bit."""
    value += f[0] * x[0] + f[1] * x[1]
    if f[2] != 0.0 or f[3] != 0.0:
        value += f[2] * x[2] + f[3] * x[3]
    if f[4] != 0.0 or f[5] != 0.0:
        value += f[4] * x[4]
        value += f[5] * x[5]
    if f[6] != 0.0 or f[7] != 0.0 or f[8] != 0.0 or f[9] != 0.0:
        value += f[6] * x[6] + f[7] * x[7]
        value += f[8] * x[8] + f[9] * x[9]
    if f[10] != 0.0 or f[11] != 0.0:
        value += f[10] * x[10] + f[11] * x[11]
    return value
