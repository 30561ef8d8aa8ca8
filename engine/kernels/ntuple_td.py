"""Temporal-difference learning of an n-tuple network (numba).

The network is linear in its weights, ``s(x) = sum_i w[offset_i + index_i(x)]``, so the
gradient of ``s`` with respect to ``w[k]`` is the number of instances whose entry is ``k``: a
learning step touches only the active entries. The value is ``V = s`` or, with ``squash``,
``V = tanh(s)`` (the squashing of Jaskowski's Othello networks; targets then lie in
[-1, 1]), whose gradient is ``(1 - V**2)`` times the counts. One step towards ``target``:

    w[offset_i + index_i(x)] += alpha * (target - V(x)) * dV/ds      for every instance i

(an entry shared by two instances moves twice). What is learnt are **state values from the
side to move's view** (the negamax convention of the evaluations: ``V(P, O)`` with ``P`` to
move); the value of the position after a move is the afterstate value for the player who did
not move, so a 1-ply agent maximising ``-V(child)`` is an afterstate agent.

TD(0) along a finished game (``td_game_bits`` / ``td_game_cells``): positions ``x_0 .. x_{T-1}``
(the non-terminal positions in the order played), ``mover[t]`` the player (0 or 1) to move in
``x_t``, ``result`` the final outcome from player 0's view. The target of ``x_t`` is
``+-V(x_{t+1})`` (sign +1 when the same player moves in both, as after a pass) and that of the
last position the result from its mover's view. Steps run forwards, each target read with the
weights as they are at that moment: exactly online TD(0) applied while the game was played, so
a game can call ``td_step_*`` move by move instead and get the same weights.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.kernels.ntuple_eval import bit_state, evaluate_bits, evaluate_cells


@njit(cache=True, inline="always")
def _squashed(total, squash):
    """``(V, dV/ds)`` of the raw sum."""
    if squash:
        value = math.tanh(total)
        return value, 1.0 - value * value
    return total, 1.0


@njit(cache=True)
def value_bits(P, O, t, weights, squash):
    return _squashed(evaluate_bits(P, O, t, weights), squash)[0]


@njit(cache=True)
def value_cells(states, t, weights, squash):
    return _squashed(evaluate_cells(states, t, weights), squash)[0]


@njit(cache=True)
def td_step_bits(P, O, target, alpha, squash, t, weights):
    """One step of ``V(P, O)`` towards ``target``; returns the error ``target - V`` before it."""
    value, slope = _squashed(evaluate_bits(P, O, t, weights), squash)
    error = target - value
    step = alpha * error * slope
    for i in range(t.offset.shape[0]):
        index = 0
        for j in range(t.length[i]):
            index = index * 3 + bit_state(P, O, t.cells[i, j])
        weights[t.offset[i] + index] += step
    return error


@njit(cache=True)
def td_step_cells(states, target, alpha, squash, t, weights):
    """``td_step_bits`` for a ``uint8`` cell-state vector."""
    value, slope = _squashed(evaluate_cells(states, t, weights), squash)
    error = target - value
    step = alpha * error * slope
    for i in range(t.offset.shape[0]):
        index = 0
        for j in range(t.length[i]):
            index += np.int64(states[t.cells[i, j]]) * t.powers[i, j]
        weights[t.offset[i] + index] += step
    return error


@njit(cache=True, inline="always")
def _final_target(mover, result):
    return result if mover == 0 else -result


@njit(cache=True)
def td_game_bits(players, opponents, mover, result, alpha, squash, t, weights):
    """TD(0) along one game of ``(P, O)`` positions (module docstring); returns the sum of
    squared errors before each step (a learning curve for the caller)."""
    count = players.shape[0]
    squared = 0.0
    for k in range(count):
        if k + 1 < count:
            after = value_bits(players[k + 1], opponents[k + 1], t, weights, squash)
            target = after if mover[k + 1] == mover[k] else -after
        else:
            target = _final_target(mover[k], result)
        error = td_step_bits(players[k], opponents[k], target, alpha, squash, t, weights)
        squared += error * error
    return squared


@njit(cache=True)
def td_game_cells(positions, mover, result, alpha, squash, t, weights):
    """``td_game_bits`` for a game of cell-state vectors (``uint8 [T, n_cells]``, each from
    its mover's view)."""
    count = positions.shape[0]
    squared = 0.0
    for k in range(count):
        if k + 1 < count:
            after = value_cells(positions[k + 1], t, weights, squash)
            target = after if mover[k + 1] == mover[k] else -after
        else:
            target = _final_target(mover[k], result)
        error = td_step_cells(positions[k], target, alpha, squash, t, weights)
        squared += error * error
    return squared
