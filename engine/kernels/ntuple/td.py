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

**One meaning of alpha in every game** (``Game.td_learn``): ``alpha`` is the share of the error
one step moves the position's sum ``s`` by, ``alpha * (target - V) * dV/ds``, shared out over
the entries it reads as normalised LMS does: each moves by that over ``sum(count**2)``
(``squared_counts``; ``count``: the instances reading the entry, up to the number of symmetries
on a symmetric position, where a fixed per-entry step overshoots and diverges). The kernels
above take a per-entry ``alpha``; a game passes ``alpha / squared_counts(...)``, or moves the
entries itself with ``add_to_entries``. ``0 < alpha <= 1``: 1 moves a linear value onto its
target in one step.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.core.agent import Seed, make_rng
from engine.kernels.ntuple.evaluation import bit_state, evaluate_bits, evaluate_cells
from engine.kernels.rng import new_state, uniform


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


@njit(cache=True)
def squared_counts(indices, t, counts):
    """The sum over the entries a position reads (its instances' ``indices``) of the number of
    instances reading each, squared: how far a unit step on each of them moves its sum.
    ``counts``: int64 zeros of ``n_weights``, left zero (scratch: nothing is allocated)."""
    total = 0
    for i in range(indices.shape[0]):
        k = t.offset[i] + indices[i]
        total += 2 * counts[k] + 1
        counts[k] += 1
    for i in range(indices.shape[0]):
        counts[t.offset[i] + indices[i]] = 0
    return total


@njit(cache=True)
def add_to_entries(indices, t, weights, step):
    """Every entry the position reads moves by ``step`` (an entry two instances share, twice)."""
    for i in range(indices.shape[0]):
        weights[t.offset[i] + indices[i]] += step


@njit(cache=True)
def explores(rng, epsilon):
    """Whether an epsilon-greedy player moves at random now (one draw of the kernel RNG, none
    when ``epsilon`` is 0)."""
    return epsilon > 0.0 and uniform(rng) < epsilon


def check_td_args(games, alpha, epsilon) -> None:
    """One-line ``ValueError`` naming the bad argument of ``Game.td_learn``."""
    if isinstance(games, bool) or not isinstance(games, int | np.integer) or games < 0:
        raise ValueError(f"games={games!r} must be an integer >= 0")
    if isinstance(alpha, bool) or not isinstance(alpha, float | int) or not 0.0 < alpha <= 1.0:
        raise ValueError(f"alpha={alpha!r} must satisfy 0 < alpha <= 1 (the share of the TD "
                         "error a step moves the position's value by)")
    if isinstance(epsilon, bool) or not isinstance(epsilon, float | int) or not (
            0.0 <= epsilon <= 1.0):
        raise ValueError(f"epsilon={epsilon!r} must satisfy 0 <= epsilon <= 1")


def td_rng(seed: Seed) -> np.ndarray:
    """The kernel RNG state a self-play run draws from, seeded from ``seed`` (an int or a
    ``SeedSequence``): the same seed, the same games."""
    return new_state(make_rng(seed))


def learn_genome(network, genome, games, seed: Seed, alpha, epsilon, play) -> tuple:
    """What every game's ``td_learn`` does around its jitted self-play: check the arguments,
    split the genome of ``network`` (a ``NetworkGenome``) into fresh arrays, and run
    ``play(games, alpha, epsilon, rng, net, feat, generator)`` on them (it learns in place and
    returns its per-game squared errors and results; ``rng`` is the kernel RNG state, drawn from
    the numpy ``generator``, which is there for any draws the caller makes in Python, such as
    a schedule of opponents). Returns ``(net, feat, errors, results)``."""
    check_td_args(games, alpha, epsilon)
    net, feat = network.split(genome)
    generator = make_rng(seed)
    rng = new_state(generator)  # what td_rng(seed) gives
    errors, results = play(int(games), float(alpha), float(epsilon), rng, net, feat, generator)
    return net, feat, errors, results
