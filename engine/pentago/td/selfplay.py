"""Temporal-difference self-play for Pentago Twist's ``ntuple`` genomes (numba).

``td_learn(network, genome, games, seed, alpha, epsilon)`` plays ``games`` games of the genome
against itself and returns the genome after TD(0) on each (the contract of
``Game.td_learn``). The value of a position for the side to move is ``V = tanh(s)``, ``s`` the
network's sum for the position's phase (plus the weighted features when the genome has them:
they are inputs then, held fixed, and the network learns around them).

Play: each move is random with probability ``epsilon`` (a uniformly random move id, as the
course's random player), else the 1-ply best: the distinct successor whose value for the
player who moved is highest, ties to the lowest move id. A successor's value for that player
is exact when the game is over there: +1 when only the mover has five, -1 when only the
opponent has five (the mover's twist completed it), 0 when both have five or the board is full
without one, -1 when the opponent can win at once (``bb.can_win_now``: what the search scores
its leaves by, so the network learns what the search asks of it); otherwise
``-V(successor)``.

Learning: after each game, TD(0) forwards along its positions (online TD(0) as if applied
during play, ``engine.kernels.ntuple.td``): position ``t`` moves towards ``-V(x[t+1])`` (the
players alternate, no passes; -1 when the side to move there can win at once), the last one
towards the result from its mover's view (+1 win, 0 draw, -1 loss); a position whose side to
move can win at once is worth that win and is not learnt. ``alpha`` means what it means in every
game (``engine.kernels.ntuple.td``): a step moves the sum ``s`` by ``alpha`` times the error
(times the slope of tanh), shared out over the entries as normalised LMS does. Only the
network's entries move. Reproducible from ``seed``: every random draw comes from one kernel RNG
seeded from it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.core.agent import Seed
from engine.kernels.bits import popcount
from engine.kernels.ntuple.evaluation import evaluate_indices, indices_bits
from engine.kernels.ntuple.td import add_to_entries, explores, learn_genome, squared_counts
from engine.pentago.genome.evaluation import evaluate, phase_table
from engine.pentago.rules import bitboard as bb

MAX_PLIES = 36


@njit(cache=True)
def _sum(P, O, t, net, feat, phase_of_stones, with_features, idx):
    """The network's sum ``s`` (plus the weighted features) for the side to move; leaves the
    instances' indices in ``idx``."""
    indices_bits(P, O, t, idx)
    s = evaluate_indices(idx, t, net[phase_of_stones[popcount(P | O)]])
    if with_features:
        s += evaluate(P, O, feat, phase_of_stones)
    return s


@njit(cache=True)
def _afterstate(nP, nO, t, net, feat, phase_of_stones, with_features, idx):
    """The value of successor ``(nP, nO)`` for the player who moved into it."""
    r = bb.result(nP, nO)
    if r == bb.TO_MOVE_LOSES:
        return 1.0
    if r == bb.TO_MOVE_WINS:
        return -1.0
    if r == bb.DRAWN:
        return 0.0
    if bb.can_win_now(nP, nO):
        return -1.0
    return -math.tanh(_sum(nP, nO, t, net, feat, phase_of_stones, with_features, idx))


@njit(cache=True)
def _choose(P, O, epsilon, rng, t, net, feat, phase_of_stones, with_features, idx, c_P, c_O,
            c_move, dedup):
    if explores(rng, epsilon):
        return bb.random_move(P, O, rng)
    n = bb.distinct_children_into(P, O, c_P, c_O, c_move, dedup)
    best, move = -np.inf, c_move[0]
    for i in range(n):
        v = _afterstate(c_P[i], c_O[i], t, net, feat, phase_of_stones, with_features, idx)
        if v > best:
            best, move = v, c_move[i]
    return move


@njit(cache=True)
def _final_result(P, O, plies):
    """The result for player 0 (white) of the finished game ``(P, O)`` after ``plies``."""
    r = bb.result(P, O)
    if r == bb.DRAWN:
        return 0.0
    to_move_won = 1.0 if r == bb.TO_MOVE_WINS else -1.0
    return to_move_won if plies % 2 == 0 else -to_move_won


@njit(cache=True)
def _learn_game(players, opponents, plies, result, alpha, t, net, feat, phase_of_stones,
                with_features, idx, counts):
    """TD(0) forwards along the game's positions; returns the sum of squared errors."""
    squared = 0.0
    for k in range(plies):
        P, O = players[k], opponents[k]
        if bb.can_win_now(P, O):
            continue  # worth a win, exactly: the search never asks the network here
        if k + 1 == plies:
            target = result if k % 2 == 0 else -result
        elif bb.can_win_now(players[k + 1], opponents[k + 1]):
            target = -1.0
        else:
            target = -math.tanh(_sum(players[k + 1], opponents[k + 1], t, net, feat,
                                     phase_of_stones, with_features, idx))
        value = math.tanh(_sum(P, O, t, net, feat, phase_of_stones, with_features, idx))
        error = target - value
        step = alpha * error * (1.0 - value * value) / squared_counts(idx, t, counts)
        # idx holds (P, O)'s indices: _sum just computed them
        add_to_entries(idx, t, net[phase_of_stones[popcount(P | O)]], step)
        squared += error * error
    return squared


@njit(cache=True)
def self_play(games, alpha, epsilon, rng, t, net, feat, phase_of_stones, with_features):
    """``games`` games of self-play, learning after each; returns each game's sum of squared
    TD errors and its result for white (``net`` is updated in place)."""
    idx, counts = np.empty(t.offset.shape[0], np.int64), np.zeros(net.shape[1], np.int64)
    c_P, c_O = np.empty(bb.MOVES, np.uint64), np.empty(bb.MOVES, np.uint64)
    c_move, dedup = np.empty(bb.MOVES, np.int64), np.empty(bb.DEDUP_SLOTS, np.int64)
    players, opponents = np.empty(MAX_PLIES, np.uint64), np.empty(MAX_PLIES, np.uint64)
    errors, results = np.empty(games), np.empty(games)
    for g in range(games):
        P, O, plies = np.uint64(0), np.uint64(0), 0
        while bb.result(P, O) == bb.ONGOING:
            players[plies], opponents[plies] = P, O
            plies += 1
            move = _choose(P, O, epsilon, rng, t, net, feat, phase_of_stones, with_features,
                           idx, c_P, c_O, c_move, dedup)
            P, O = bb.play(P, O, move)
        results[g] = _final_result(P, O, plies)
        errors[g] = _learn_game(players, opponents, plies, results[g], alpha, t, net, feat,
                                phase_of_stones, with_features, idx, counts)
    return errors, results


def td_learn(network, genome: np.ndarray, games: int, seed: Seed, alpha: float,
             epsilon: float) -> np.ndarray:
    """A copy of ``genome`` (of the n-tuple ``network``) after ``games`` games of TD self-play."""
    net, feat = learn(network, genome, games, seed, alpha, epsilon)[:2]
    return network.join(net, feat)


def learn(network, genome: np.ndarray, games: int, seed: Seed, alpha: float, epsilon: float):
    """(network weights, feature weights, squared errors per game, white's result per game)."""
    def play(games, alpha, epsilon, rng, net, feat, _generator):
        return self_play(games, alpha, epsilon, rng, network.tables, net, feat,
                         phase_table(network.phases), network.features)

    return learn_genome(network, genome, games, seed, alpha, epsilon, play)
