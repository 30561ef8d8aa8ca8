"""TD(0) self-play of an n-tuple network (numba): how ``ReversiGame.td_learn`` trains a genome.

Each game starts from the standard position and is played by the network itself at 1 ply,
epsilon-greedy: with probability ``epsilon`` a uniformly random legal move, else the move whose
child the search's 1-ply agent would pick (best negated child value, a finished child scored by
its result, the first such move in square order). Values are learnt online, as in Lucas &
Runarsson (2006) and Jaskowski (2014): after every move, the position the mover left is moved
towards the value of the next position its mover faces (negated when the other side moves
there, kept after a pass), and the last position towards the game's result (+1 win, 0 draw,
-1 loss, from its mover's view). The value of a position and one step on it (what ``alpha``
means, as in every game) are ``engine.reversi.td.step``'s. Everything is reproducible from the
seed: the random moves come from the kernels' splitmix64 RNG seeded from it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from engine.core.agent import Seed
from engine.kernels import ntuple as nt
from engine.kernels.ntuple.genome import NetworkGenome
from engine.kernels.ntuple.td import explores, learn_genome
from engine.kernels.rng import random_bit
from engine.reversi.genome.evaluation import N_ALL_FEATURES
from engine.reversi.genome.layout import CATALOGUE_INDEX, phase_of_discs_table
from engine.reversi.genome.network_eval import best_child_from, greedy_move, new_child_scratch
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import Position
from engine.reversi.td.opponents import opponent_schedule
from engine.reversi.td.step import (
    advance,
    count_features,
    counted_step,
    counted_value,
    first_position,
)
from engine.reversi.td.step_rules import largest_weights, step_rule_arrays, track_step

MAX_RECORD = 64  # positions one game leaves for learning: at most 60 moves


def new_scratch(t, n_weights):
    """The arrays a game of ``self_play_game`` writes: a node's indices, the entry counts of a
    step, two positions' counted inputs (indices, features), ``best_child``'s arrays, the
    occupancy's indices (``advance``)."""
    return (np.empty(t.offset.shape[0], np.int64), np.zeros(n_weights, np.int64),
            np.empty((2, t.offset.shape[0]), np.int64), np.zeros((2, N_ALL_FEATURES)),
            new_child_scratch(t), np.empty(t.offset.shape[0], np.int64))


def needed_features(features: np.ndarray, learnable: np.ndarray) -> np.ndarray:
    """The catalogue features a run counts: those that learn or weigh something."""
    return learnable | np.any(features != 0.0, axis=0)


@njit(cache=True)
def self_play_game(P, O, alpha, epsilon, rng, phase_of_discs, t, weights, features, learnable,
                   needed, largest, reversed_rules, scratch, record_P, record_O, record_mover,
                   opponent_side, opp_phase_of_discs, opp_t, opp_weights, opp_features,
                   opp_indices, rule):
    """One game from ``(P, O)`` (player 0 to move) learning as it goes (module docstring).
    With ``opponent_side`` 0 or 1 that player's moves are a fixed opponent's (the ``opp_*``
    arrays, never learnt; epsilon-greedy too; ``opp_indices`` its scratch), the other's the
    network's; -1: self-play (pass the network's own arrays as ``opp_*``).
    ``needed``: the features counted (``needed_features``); ``largest``: per phase an upper
    bound of ``|weights|`` (``largest_weights``, kept one as the weights learn); ``scratch``:
    ``new_scratch``'s arrays; ``rule``: the step rule (``td_rules``; ``no_rule()``: plain).
    The network's moves are ``best_child``'s (the 1-ply agent's).
    Each position's inputs are counted once (row ``count % 2``): for its value as the previous
    position's target, then for its own step; its indices are the last position's changed by
    the move (``advance``), exactly those a full count gives. The positions learnt from,
    in order, go to the ``record_*`` arrays; returns their number, the sum of squared errors
    and the result for player 0 (1 win, 0 draw, -1 loss)."""
    indices, counts, inputs, counted, children, occupied = scratch
    mover, count, squared, last_phase = 0, 0, 0.0, 0
    first_position(P, O, t, inputs[0], occupied)
    while True:
        moves = bb.legal_moves(P, O)
        if moves == bb.ZERO:
            if bb.legal_moves(O, P) == bb.ZERO:
                break
            nt.swapped_states(inputs[count % 2], occupied, inputs[count % 2])
            P, O, mover = O, P, 1 - mover  # a pass: nobody learns here
            continue
        now, before = count % 2, 1 - count % 2
        phase = count_features(P, O, phase_of_discs, needed, counted[now])
        if count > 0:
            value = math.tanh(counted_value(inputs[now], counted[now], phase, t, weights,
                                            features))
            target = value if mover == record_mover[count - 1] else -value
            error = counted_step(inputs[before], counted[before], last_phase, target, alpha, t,
                                 weights, features, learnable, counts, rule)
            track_step(inputs[before], t, weights, largest, last_phase, rule)
            squared += error * error
        last_phase = phase
        # the children's colours, into the row the step above has finished with
        nt.swapped_states(inputs[now], occupied, inputs[before])
        if explores(rng, epsilon):
            sq = random_bit(rng, moves)
        elif mover == opponent_side:
            sq = greedy_move(P, O, moves, opp_phase_of_discs, opp_t, opp_weights, opp_features,
                             reversed_rules, opp_indices)
        else:
            sq = best_child_from(P, O, moves, phase_of_discs, t, weights, features,
                                 reversed_rules, inputs[before], children, largest)
        record_P[count], record_O[count], record_mover[count] = P, O, mover
        count += 1
        nP, nO = bb.make_move(P, O, sq, bb.flips(P, O, sq))
        advance(inputs[before], occupied, t, O, P, nP, nO)
        P, O = nP, nO
        mover = 1 - mover
    score = bb.final_score(P, O, reversed_rules)  # for ``mover``, who would move now
    result = 1.0 if score > 0 else -1.0 if score < 0 else 0.0
    if count > 0:
        target = result if mover == record_mover[count - 1] else -result
        last = (count - 1) % 2
        error = counted_step(inputs[last], counted[last], last_phase, target, alpha, t, weights,
                             features, learnable, counts, rule)
        track_step(inputs[last], t, weights, largest, last_phase, rule)
        squared += error * error
    return count, squared, result if mover == 0 else -result


@njit(cache=True)
def play_games(games, P0, O0, alpha, epsilon, rng, phase_of_discs, t, weights, features,
               learnable, needed, largest, reversed_rules, scratch, against, opp_phase_of_discs,
               opp_t, opp_weights, opp_features, rule):
    """``games`` games of ``self_play_game`` from ``(P0, O0)``: self-play (``against`` False;
    pass the network's own arrays as ``opp_*``) or against a fixed opponent, the network first
    in even games and second in odd ones. Returns each game's mean squared TD error (a learning
    curve) and its result for the first player."""
    record_P = np.empty(MAX_RECORD, np.uint64)
    record_O = np.empty(MAX_RECORD, np.uint64)
    record_mover = np.empty(MAX_RECORD, np.int64)
    opp_indices = np.empty(opp_t.offset.shape[0], np.int64) if against else scratch[0]
    curve, results = np.zeros(games), np.zeros(games)
    for g in range(games):
        count, squared, results[g] = self_play_game(
            P0, O0, alpha, epsilon, rng, phase_of_discs, t, weights, features, learnable,
            needed, largest, reversed_rules, scratch, record_P, record_O, record_mover,
            1 - g % 2 if against else -1, opp_phase_of_discs, opp_t, opp_weights, opp_features,
            opp_indices, rule)
        curve[g] = squared / max(count, 1)
    return curve, results


def td_learn(network: NetworkGenome, genome: np.ndarray, games: int, seed: Seed, alpha: float,
             epsilon: float, phase_bounds, reversed_rules: bool, opponents=(),
             self_play_share: float = 0.5, rule=None) -> np.ndarray:
    """A copy of ``genome`` (of the n-tuple ``network``, phases by ``phase_bounds``) after
    ``games`` games of TD(0) self-play (module docstring)."""
    net, feat = learn(network, genome, games, seed, alpha, epsilon, phase_bounds,
                      reversed_rules, opponents, self_play_share, rule)[:2]
    return network.join(net, feat)


def learn(network: NetworkGenome, genome: np.ndarray, games: int, seed: Seed, alpha: float,
          epsilon: float, phase_bounds, reversed_rules: bool, opponents=(),
          self_play_share: float = 0.5, rule=None) -> tuple:
    """(network weights, feature weights, mean squared error per game, result per game for the
    first player), reproducible from ``seed``. ``opponents``: fixed ``NtupleWeights``
    (``opponent_network``) that play some blocks of games instead of the network itself
    (``opponent_schedule``: a share ``self_play_share`` stays self-play); the network learns
    from every position of those games as of its own. ``rule``: a ``StepRule``
    (``engine.kernels.ntuple.td``; None: plain normalised LMS), its state learnt in place.
    ``ValueError`` if an argument is out of
    range. (With tanh squashing every step is bounded: weights cannot run away, a too large
    ``alpha`` only learns worse.)"""
    if not 0.0 <= self_play_share <= 1.0:
        raise ValueError(f"self_play_share={self_play_share!r} must satisfy 0 <= share <= 1")
    phase_of_discs = phase_of_discs_table(tuple(phase_bounds))
    columns = [CATALOGUE_INDEX[n] for n in network.feature_names]
    start = Position.start()
    P0, O0 = np.uint64(start.player), np.uint64(start.opponent)
    fixed = [o.numba_arrays() for o in opponents]

    def play(games, alpha, epsilon, rng, net, feat, generator):
        catalogue = np.zeros((network.phases, N_ALL_FEATURES))  # learnt in place
        catalogue[:, columns] = feat[:, :len(columns)]
        learnable = np.zeros(N_ALL_FEATURES, np.bool_)
        learnable[columns] = True
        curves, results = [], []
        largest, scratch = largest_weights(net), new_scratch(network.tables, net.shape[1])
        arrays = step_rule_arrays(rule, net, catalogue)
        blocks = opponent_schedule(games, len(fixed), self_play_share, generator) if fixed \
            else [(-1, games)]
        for who, n in blocks:
            opponent = (phase_of_discs, network.tables, net, catalogue) if who < 0 else fixed[who]
            curve, result = play_games(n, P0, O0, alpha, epsilon, rng, phase_of_discs,
                                       network.tables, net, catalogue, learnable,
                                       needed_features(catalogue, learnable), largest,
                                       bool(reversed_rules), scratch, who >= 0, *opponent,
                                       arrays)
            curves.append(curve)
            results.append(result)
        feat[:, :len(columns)] = catalogue[:, columns]
        return np.concatenate([np.zeros(0), *curves]), np.concatenate([np.zeros(0), *results])

    return learn_genome(network, genome, games, seed, alpha, epsilon, play)
