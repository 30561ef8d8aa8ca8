"""Texel-style tuning of a Reversi n-tuple genome: the engine authors' usual alternative to
evolution, as the learning-efficiency baseline.

In rounds: the current network plays ``GAMES_PER_ROUND`` self-play games at 1 ply,
epsilon-greedy (the TD games' sampling, without learning); their positions join a data set
labelled with each game's result from the mover's view (+1, 0, -1); then ``EPOCHS`` passes of
stochastic gradient descent in a shuffled order fit ``tanh(s(x))`` to those labels (squared
error of the tanh: a logistic-style regression of outcomes on positions), with the same
normalised step as TD (``engine.reversi.td.step.td_step``; a Monte Carlo target instead of
TD's bootstrap). The set keeps the newest ``KEEP`` positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.reversi.genome.layout import CATALOGUE_INDEX
from engine.reversi.td.step import td_step

GAMES_PER_ROUND = 500
EPOCHS = 2
KEEP = 300_000


def labelled(record: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The positions of ``Game.td_play``'s record, each labelled with its game's result from
    its mover's view."""
    results = np.repeat(record["results"], record["lengths"])
    y = np.where(record["movers"] == 0, results, -results)
    return record["players"], record["opponents"], y


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
    """A step of ``experiments.learning.efficiency_inprocess.learn``: one round (module
    docstring)."""
    shuffle = np.random.default_rng(np.random.SeedSequence([seed, 8]))
    data = {"P": np.empty(0, np.uint64), "O": np.empty(0, np.uint64), "y": np.empty(0),
            "games": 0, "rounds": 0}

    def step(genome):
        weights = game.weights(genome)
        phase_of_discs, t, w, f = weights.numba_arrays()
        w, f = w.copy(), f.copy()
        learnable = np.zeros(f.shape[1], np.bool_)
        learnable[[CATALOGUE_INDEX[n] for n in weights.feature_names]] = True
        record = game.td_play(genome, GAMES_PER_ROUND, np.random.SeedSequence(
            [seed, 7, data["rounds"]]), float(cfg.ga.td_epsilon))
        P, O, y = labelled(record)
        data["rounds"] += 1
        data["P"] = np.concatenate([data["P"], P])[-KEEP:]
        data["O"] = np.concatenate([data["O"], O])[-KEEP:]
        data["y"] = np.concatenate([data["y"], y])[-KEEP:]
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
