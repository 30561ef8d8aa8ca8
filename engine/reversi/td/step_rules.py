"""Per-weight step-size rules of Reversi's TD (numba): what ``counted_step`` does when a
``StepRule`` (``engine.kernels.ntuple.td``) other than plain normalised LMS is asked for.

- **tcl** (temporal coherence learning, Beal & Smith 1999; as in Jaskowski's TC(0) for 2048):
  each weight ``k`` keeps ``E[k]``, the sum of the changes TD asked of it, and ``A[k]``, the sum
  of their sizes; its change is the asked one times ``|E[k]| / A[k]`` (1 before its first
  change). A weight asked the same way again and again keeps its full rate; one pushed to and
  fro slows down by itself, so rare and noisy entries settle without a global schedule.
  ``E`` and ``A`` accumulate the change per unit of ``alpha`` (a stage's rate does not rescale
  them) and are learner state: checkpoints keep them.
- **phase share** ``s`` (several phases): a step on phase ``p``'s entries also moves the same
  entries of phases ``p - 1`` and ``p + 1`` by ``s`` times the change, so that neighbouring
  phases learn from each other's positions (a phase whose positions are rare still learns from
  the positions next to it); 0 keeps the phases apart.

``rule`` is a tuple ``(E, A, feature_E, feature_A, share)``: ``E, A`` shaped like the network's
weights, ``feature_*`` like the catalogue's feature weights, or all four ``(0, 0)`` for no TCL.
"""

from __future__ import annotations

import numpy as np
from numba import njit

FEATURE_SCALE = 8.0


def no_rule() -> tuple:
    """Plain normalised LMS, phases apart: ``counted_step``'s arithmetic of before, to the bit."""
    empty = np.zeros((0, 0))
    return empty, empty, empty, empty, 0.0


def rule_arrays(name: str, share: float, state: dict, weights: np.ndarray,
                features: np.ndarray) -> tuple:
    """The kernel's ``rule`` tuple for a rule ``name`` (``nlms`` | ``tcl``) over these shapes;
    TCL's arrays are taken from ``state`` (and put there, zeros, on the first call: the caller's
    dict then holds them as they learn)."""
    empty = np.zeros((0, 0))
    if name != "tcl":
        return empty, empty, empty, empty, float(share)
    shapes = {"E": weights.shape, "A": weights.shape, "feature_E": features.shape,
              "feature_A": features.shape}
    for key, shape in shapes.items():
        if key not in state:
            state[key] = np.zeros(shape)
        elif state[key].shape != shape:
            raise ValueError(f"TCL state {key}: shape {state[key].shape}, this network needs "
                             f"{shape}")
    return state["E"], state["A"], state["feature_E"], state["feature_A"], float(share)


@njit(cache=True, inline="always")
def _coherent(E, A, phase, k, asked):
    """The rate of entry ``k`` (1 before its first change), then its statistics updated."""
    rate = 1.0
    if A[phase, k] > 0.0:
        rate = abs(E[phase, k]) / A[phase, k]
    E[phase, k] += asked
    A[phase, k] += abs(asked)
    return rate


@njit(cache=True, inline="always")
def _move(array, phase, k, change, share):
    """Entry ``k`` of ``phase`` moved by ``change``, its neighbouring phases by ``share`` of it."""
    array[phase, k] += change
    if share > 0.0:
        if phase > 0:
            array[phase - 1, k] += share * change
        if phase + 1 < array.shape[0]:
            array[phase + 1, k] += share * change


@njit(cache=True)
def ruled_step(indices, x, phase, alpha, asked, t, weights, features, learnable, rule):
    """The entries ``indices`` read (and the learnable features, inputs ``x``) of ``phase``
    moved by ``alpha * asked`` each under ``rule`` (module docstring)."""
    E, A, feature_E, feature_A, share = rule
    tcl = E.shape[0] > 0
    for i in range(indices.shape[0]):
        k = t.offset[i] + indices[i]
        rate = _coherent(E, A, phase, k, asked) if tcl else 1.0
        _move(weights, phase, k, alpha * rate * asked, share)
    for k in range(learnable.shape[0]):
        if learnable[k]:
            wanted = asked * (x[k] / FEATURE_SCALE) / FEATURE_SCALE
            rate = _coherent(feature_E, feature_A, phase, k, wanted) if tcl else 1.0
            _move(features, phase, k, alpha * rate * wanted, share)


@njit(cache=True)
def is_plain(rule) -> bool:
    return rule[0].shape[0] == 0 and rule[4] == 0.0


def step_rule_arrays(rule, net: np.ndarray, catalogue: np.ndarray) -> tuple:
    """The kernels' ``rule`` tuple of a ``StepRule`` (None: plain)."""
    if rule is None or rule.is_plain:
        return no_rule()
    return rule_arrays(rule.name, rule.phase_share, rule.state, net, catalogue)


# the bound best_child rounds by (per phase, the largest |weight|), kept one as a step moves
# the weights, of every phase the rule moves
def largest_weights(weights: np.ndarray) -> np.ndarray:
    """Per phase, the largest ``|weight|``: what ``best_child`` bounds its rounding by."""
    return np.abs(weights).max(axis=1, initial=0.0)


@njit(cache=True)
def track_largest(indices, t, row, largest, phase):
    """After a step moved the entries ``indices`` read: ``largest[phase]`` stays an upper
    bound of ``|row|``."""
    for i in range(indices.shape[0]):
        w = abs(row[t.offset[i] + indices[i]])
        if w > largest[phase]:
            largest[phase] = w


@njit(cache=True)
def track_step(indices, t, weights, largest, phase, rule):
    """``track_largest`` for every phase a step under ``rule`` moved."""
    track_largest(indices, t, weights[phase], largest, phase)
    if rule[4] > 0.0:
        if phase > 0:
            track_largest(indices, t, weights[phase - 1], largest, phase - 1)
        if phase + 1 < weights.shape[0]:
            track_largest(indices, t, weights[phase + 1], largest, phase + 1)
