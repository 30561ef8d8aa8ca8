"""Texel-style tuning of a Reversi n-tuple genome: the engine authors' usual alternative to
evolution, as the learning-efficiency baseline (issue 21 item 5).

In rounds: the current network plays ``GAMES_PER_ROUND`` self-play games at 1 ply,
epsilon-greedy (the TD games' sampling, without learning); their positions join a data set
labelled with each game's result from the mover's view (+1, 0, -1); then ``EPOCHS`` passes of
stochastic gradient descent in a shuffled order fit ``tanh(s(x))`` to those labels (squared
error of the tanh: a logistic-style regression of outcomes on positions), with the same
normalised step as TD (``engine.reversi.td.td_step``; a Monte Carlo target instead of
TD's bootstrap). The set keeps the newest ``KEEP`` positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.reversi.layout import CATALOGUE_INDEX
from engine.reversi.position import Position
from engine.reversi.td import MAX_RECORD, self_play_game, td_step

GAMES_PER_ROUND = 500
EPOCHS = 2
KEEP = 300_000


@njit(cache=True)
def record_games(games, P0, O0, epsilon, rng, phase_of_discs, t, weights, features, learnable,
                 reversed_rules, out_P, out_O, out_target):
    """Play ``games`` games without learning; their positions and labels go to ``out_*``;
    returns how many were written."""
    indices = np.empty(t.offset.shape[0], np.int64)
    counts = np.zeros(weights.shape[1], np.int64)
    rec_P = np.empty(MAX_RECORD, np.uint64)
    rec_O = np.empty(MAX_RECORD, np.uint64)
    rec_mover = np.empty(MAX_RECORD, np.int64)
    n = 0
    for _ in range(games):
        count, _, result = self_play_game(P0, O0, 0.0, epsilon, rng, phase_of_discs, t, weights,
                                          features, learnable, reversed_rules, indices, counts,
                                          rec_P, rec_O, rec_mover)
        for i in range(count):
            out_P[n], out_O[n] = rec_P[i], rec_O[i]
            out_target[n] = result if rec_mover[i] == 0 else -result
            n += 1
    return n


@njit(cache=True)
def fit(order, P, O, target, alpha, phase_of_discs, t, weights, features, learnable):
    """One pass of SGD over the positions in ``order``; returns the mean squared error."""
    indices = np.empty(t.offset.shape[0], np.int64)
    counts = np.zeros(weights.shape[1], np.int64)
    squared = 0.0
    for i in order:
        error = td_step(P[i], O[i], target[i], alpha, phase_of_discs, t, weights, features,
                        learnable, indices, counts)
        squared += error * error
    return squared / max(len(order), 1)


def texel_chunks(game, cfg, seed: int):
    """A step of ``experiments.efficiency_inprocess.learn``: one round (module docstring)."""
    from engine.kernels.ntuple_td import td_rng

    rng_state = td_rng(np.random.SeedSequence([seed, 7]))
    shuffle = np.random.default_rng(np.random.SeedSequence([seed, 8]))
    start = Position.start()
    data = {"P": np.empty(0, np.uint64), "O": np.empty(0, np.uint64), "y": np.empty(0),
            "games": 0}

    def step(genome):
        weights = game.weights(genome)
        phase_of_discs, t, w, f = weights.numba_arrays()
        w, f = w.copy(), f.copy()
        learnable = np.zeros(f.shape[1], np.bool_)
        learnable[[CATALOGUE_INDEX[n] for n in weights.feature_names]] = True
        size = GAMES_PER_ROUND * (MAX_RECORD - 4)
        P, O, y = np.empty(size, np.uint64), np.empty(size, np.uint64), np.empty(size)
        n = record_games(GAMES_PER_ROUND, np.uint64(start.player), np.uint64(start.opponent),
                         float(cfg.ga.td_epsilon), rng_state, phase_of_discs, t, w, f,
                         learnable, game.variant.is_reversed, P, O, y)
        data["P"] = np.concatenate([data["P"], P[:n]])[-KEEP:]
        data["O"] = np.concatenate([data["O"], O[:n]])[-KEEP:]
        data["y"] = np.concatenate([data["y"], y[:n]])[-KEEP:]
        data["games"] += GAMES_PER_ROUND
        for _ in range(EPOCHS):
            fit(shuffle.permutation(len(data["y"])), data["P"], data["O"], data["y"],
                float(cfg.ga.td_alpha), phase_of_discs, t, w, f, learnable)
        fitted = type(weights)(weights.layout, weights.phase_bounds, w,
                               f[:, [CATALOGUE_INDEX[n] for n in weights.feature_names]],
                               weights.feature_groups, weights.name, weights.metadata,
                               weights.spec, weights.symmetry)
        return fitted.to_genome(), f"{data['games']} self-play games, Texel rounds"

    return step
