"""One TD step on a Reversi position, as self-play (``engine.reversi.td.selfplay``) and the
TD rounds (``engine.reversi.td.rounds``) learn: the network plus the feature weights of the
genome's groups, squashed,

    V(x) = tanh(s(x)),  s(x) = network(x) + features . counts(x)   (targets in [-1, 1])
    s(x) moves by alpha * (target - V(x)) * (1 - V(x)**2)

``alpha`` means what it means in every game (``engine.kernels.ntuple.td``): the share of the
error the sum moves by, shared out as normalised LMS does. Every entry ``x`` reads moves by
``step`` and every learnable feature weight of the genome's groups by ``step * c / 64`` (its
input is its count ``c`` scaled by ``1 / FEATURE_SCALE``: a count of 8 weighs as much as one
instance), ``step = alpha * (target - V) * (1 - V**2) / (sum(count**2) + sum((c / 8)**2))``
(``count``: the instances reading an entry), which moves ``s`` by exactly the numerator.
(Until the three games shared this meaning, Reversi's ``alpha`` was that per-entry ``step``
over the error: its best value for ``straight2``, 0.0001, is about ``alpha = 0.07`` now, since
``sum(count**2)`` is about 710 on the positions of its games; docs/patterns.md.)

``td_step`` reads the whole position (every index recounted: the reference); the others work
from inputs counted once and kept up to date move by move (``first_position``, ``advance``,
``count_features``), with the same arithmetic to the bit (``counted_value``, ``counted_step``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.kernels import ntuple as nt
from engine.kernels.ntuple.td import add_to_entries, squared_counts
from engine.reversi.genome.evaluation import (
    add_feature_counts,
    add_features,
    feature_counts_into,
    feature_vector,
)
from engine.reversi.rules import bitboard as bb
from engine.reversi.td.step_rules import FEATURE_SCALE, is_plain, ruled_step


@njit(cache=True)
def td_step(P, O, target, alpha, phase_of_discs, t, weights, features, learnable, indices,
            counts):
    """One step of ``V(P, O)`` (side to move's view, tanh-squashed) towards ``target``
    (module docstring); returns the error before it. ``learnable[k]``: catalogue feature ``k``
    learns; ``counts``: int64 zeros of ``n_weights`` (scratch, left zero)."""
    mob_own = bb.popcount(bb.legal_moves(P, O))
    mob_opp = bb.popcount(bb.legal_moves(O, P))
    phase = phase_of_discs[bb.popcount(P | O)]
    row = weights[phase]
    nt.indices_bits(P, O, t, indices)
    total = add_features(nt.evaluate_indices(indices, t, row), P, O, features[phase],
                         mob_own, mob_opp)
    value = math.tanh(total)
    error = target - value
    learns_features = learnable.any()
    inputs = feature_vector(P, O) / FEATURE_SCALE if learns_features else np.zeros(0)
    norm = float(squared_counts(indices, t, counts))
    for k in range(learnable.shape[0]):
        if learnable[k]:
            norm += inputs[k] * inputs[k]
    # the per-entry rate first: the kernel's td_step_bits at rate alpha / norm, to the bit
    step = alpha / norm * error * (1.0 - value * value)
    add_to_entries(indices, t, row, step)
    for k in range(learnable.shape[0]):
        if learnable[k]:
            features[phase, k] += step * inputs[k] / FEATURE_SCALE
    return error


@njit(cache=True)
def count_features(P, O, phase_of_discs, needed, x):
    """What a position's value and its TD step read besides its instances' indices (kept up to
    date move by move: ``advance``), counted once: its feature counts (``needed``:
    ``feature_counts_into``); returns its phase."""
    feature_counts_into(P, O, needed, x)
    return phase_of_discs[bb.popcount(P | O)]


@njit(cache=True)
def first_position(P, O, t, indices, occupied):
    """The indices of a game's first position and of its occupancy (``advance``'s state)."""
    nt.indices_bits(P, O, t, indices)
    nt.indices_bits(P | O, bb.ZERO, t, occupied)


@njit(cache=True)
def advance(indices, occupied, t, from_P, from_O, P1, O1):
    """``indices`` of ``(from_P, from_O)`` become those of ``(P1, O1)``, and ``occupied`` (the
    occupancy's indices) that of ``(P1, O1)``: a move's cells only, the same integers as
    recounting every index (``nt.indices_bits``) at a fraction of its cost."""
    nt.change_bits(indices, t, from_P, from_O, P1, O1)
    nt.change_bits(occupied, t, from_P | from_O, bb.ZERO, P1 | O1, bb.ZERO)


@njit(cache=True)
def counted_value(indices, x, phase, t, weights, features):
    """``network_value`` of a position that is not finished, from its counted inputs: the
    same sums in the same order, so the same value to the bit."""
    return add_feature_counts(nt.evaluate_indices(indices, t, weights[phase]), features[phase],
                              x)


@njit(cache=True)
def counted_step(indices, x, phase, target, alpha, t, weights, features, learnable, counts,
                 rule):
    """``td_step`` from counted inputs (indices, ``count_features``): the same arithmetic, to
    the bit, under ``no_rule()``; another ``rule`` (``engine.reversi.td.step_rules``) moves each
    weight by its own rate and/or the neighbouring phases too."""
    row = weights[phase]
    value = math.tanh(counted_value(indices, x, phase, t, weights, features))
    error = target - value
    norm = float(squared_counts(indices, t, counts))
    for k in range(learnable.shape[0]):
        if learnable[k]:
            norm += (x[k] / FEATURE_SCALE) * (x[k] / FEATURE_SCALE)
    step = alpha / norm * error * (1.0 - value * value)
    if not is_plain(rule):
        ruled_step(indices, x, phase, alpha, error * (1.0 - value * value) / norm, t, weights,
                   features, learnable, rule)
        return error
    add_to_entries(indices, t, row, step)
    for k in range(learnable.shape[0]):
        if learnable[k]:
            features[phase, k] += step * (x[k] / FEATURE_SCALE) / FEATURE_SCALE
    return error
