"""TD(0) self-play of a network: online learning during a game equals the kernel's TD(0) step
over that game at the normalised rate, a step moves the sum by alpha times the error (its
entries and features as the formula says), runs replay from their seed, and what is learnt
plays better than random (and, in the slow set, than the WPC) at 1 ply."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from engine.core.records import SearchSettings
from engine.kernels import ntuple as nt
from engine.kernels.rng import new_state
from engine.reversi.genome.evaluation import feature_vector
from engine.reversi.genome.layout import CATALOGUE_INDEX
from engine.reversi.rules.state import Position
from engine.reversi.td.selfplay import MAX_RECORD, needed_features, new_scratch, self_play_game
from engine.reversi.td.step import td_step
from engine.reversi.td.step_rules import FEATURE_SCALE, largest_weights, no_rule
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_ntuple import network_game, random_network

ONE_PLY = SearchSettings(depth=1, endgame_empties=0)


def entries_of(w, P, O) -> list[int]:
    """The weight index every instance of ``w``'s layout reads in ``(P, O)``, in plain Python
    (first cell the most significant digit: 0 empty, 1 side to move, 2 opponent)."""
    return [w.layout.lut_offsets[lut] + sum(
        ((int(P) >> c & 1) + 2 * (int(O) >> c & 1)) * 3 ** (len(cells) - 1 - j)
        for j, c in enumerate(cells)) for lut, cells in w.layout.instances]


def squared_counts(entries: list[int]) -> int:
    """Sum over the entries read of (instances reading it) ** 2: NLMS's normaliser."""
    return sum(n * n for n in Counter(entries).values())


def play_one(w, epsilon: float, seed: int, alpha: float = 0.5):
    """One self-play game on copies of ``w``'s arrays: (weights after, records, result)."""
    phase_of_discs, t, weights, features = (a.copy() if isinstance(a, np.ndarray) else a
                                            for a in w.numba_arrays())
    learnable = np.zeros(features.shape[1], np.bool_)
    learnable[[CATALOGUE_INDEX[n] for n in w.feature_names]] = True
    records = (np.empty(MAX_RECORD, np.uint64), np.empty(MAX_RECORD, np.uint64),
               np.empty(MAX_RECORD, np.int64))
    start = Position.start()
    scratch = new_scratch(t, weights.shape[1])
    count, _, result = self_play_game(
        np.uint64(start.player), np.uint64(start.opponent), alpha, epsilon,
        new_state(np.random.default_rng(seed)), phase_of_discs, t, weights, features, learnable,
        needed_features(features, learnable), largest_weights(weights), False, scratch, *records,
        -1, phase_of_discs, t, weights, features, scratch[0], no_rule())  # -1: no opponent
    return weights, features, [r[:count] for r in records], result


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_online_learning_during_random_play_is_the_kernels_td0_over_the_game(seed):
    """With epsilon = 1 the moves do not depend on the weights, so the game is fixed and
    learning during it must equal the kernel's TD(0) over its positions afterwards: forwards,
    each target read with the current weights, each step ``td_step_bits`` at the per-entry rate
    ``alpha / sum(count ** 2)`` of its position (normalised LMS)."""
    game = network_game()
    w = random_network(game, seed, scale=0.05)
    learnt, _, (players, opponents, mover), result = play_one(w, 1.0, seed, alpha=0.5)
    assert 50 <= len(players) <= 60 and result in (-1.0, 0.0, 1.0)
    reference = w.weights[0].copy()
    for k in range(len(players)):
        if k + 1 < len(players):
            after = nt.value_bits(players[k + 1], opponents[k + 1], w.tables, reference, True)
            target = after if mover[k + 1] == mover[k] else -after
        else:
            target = result if mover[k] == 0 else -result
        rate = 0.5 / squared_counts(entries_of(w, players[k], opponents[k]))
        nt.td_step_bits(players[k], opponents[k], target, rate, True, w.tables, reference)
    assert np.array_equal(learnt[0], reference)
    assert not np.array_equal(reference, w.weights[0])


def test_a_step_moves_the_sum_by_alpha_times_the_error_shared_as_nlms_does():
    game = network_game(phases=2, features=["mobility", "stability"])
    w = random_network(game, 3, scale=0.1)
    phase_of_discs, t, weights, features = (np.array(a) if isinstance(a, np.ndarray) else a
                                            for a in w.numba_arrays())
    learnable = np.zeros(12, np.bool_)
    learnable[:6] = True
    p = random_reachable(4, 40)
    P, O = p.boards
    phase = int(phase_of_discs[64 - p.empties])
    counts = feature_vector(P, O)
    entries = entries_of(w, P, O)
    total = sum(weights[phase, k] for k in entries) + features[phase] @ counts
    value = math.tanh(total)
    moved = 0.3 * (0.5 - value) * (1 - value**2)  # what the sum must move by
    norm = squared_counts(entries) + sum((counts[:6] / FEATURE_SCALE) ** 2)
    assert norm > len(entries)  # entries shared by instances: a plain step would differ
    step = moved / norm
    want_w, want_f = weights.copy(), features.copy()
    for k in entries:
        want_w[phase, k] += step
    want_f[phase, :6] += step * counts[:6] / FEATURE_SCALE**2
    error = td_step(P, O, 0.5, 0.3, phase_of_discs, t, weights, features, learnable,
                    np.empty(len(t.offset), np.int64), np.zeros(weights.shape[1], np.int64))
    assert error == pytest.approx(0.5 - value, abs=1e-12)
    after = sum(weights[phase, k] for k in entries) + features[phase] @ counts
    assert after - total == pytest.approx(moved, rel=1e-9)
    assert np.allclose(weights, want_w, rtol=0, atol=1e-12)
    assert np.allclose(features, want_f, rtol=0, atol=1e-12)
    assert np.array_equal(weights[1 - phase], w.weights[1 - phase])  # other phase untouched


def test_td_learn_replays_from_its_seed_and_leaves_its_input_alone():
    game = network_game("reversed_reversi", phases=2, features=["mobility"])
    genome = random_network(game, 1, scale=0.01).to_genome()
    before = genome.copy()
    a = game.td_learn(genome, 30, 7, 0.07, 0.1)
    assert np.array_equal(a, game.td_learn(genome, 30, np.random.SeedSequence(7), 0.07, 0.1))
    assert not np.array_equal(a, game.td_learn(genome, 30, 8, 0.07, 0.1))
    assert np.array_equal(genome, before) and a.shape == genome.shape
    assert np.array_equal(game.td_learn(genome, 0, 7, 0.07, 0.1), genome)
    assert not np.array_equal(a[game.genome_spec().blocks["p0.mobility"]],
                              genome[game.genome_spec().blocks["p0.mobility"]])


@pytest.mark.parametrize("args, message", [
    ((-1, 0, 0.01, 0.1), "games=-1 must be an integer >= 0"),
    ((1.5, 0, 0.01, 0.1), "games=1.5 must be an integer >= 0"),
    ((1, 0, 0.0, 0.1), "alpha=0.0 must satisfy 0 < alpha <= 1 (the share of the TD error "
                       "a step moves the position's value by)"),
    ((1, 0, 1.5, 0.1), "alpha=1.5 must satisfy 0 < alpha <= 1 (the share of the TD error "
                       "a step moves the position's value by)"),
    ((1, 0, 0.01, 1.5), "epsilon=1.5 must satisfy 0 <= epsilon <= 1"),
])
def test_bad_arguments_are_one_line_errors(args, message):
    game = network_game()
    with pytest.raises(ValueError) as err:
        game.td_learn(np.zeros(game.genome_spec().size), *args)
    assert str(err.value) == message


def score(game, genome, opponent: str, pairs: int, epsilon: float = 0.0) -> float:
    """Points per game of ``genome`` at 1 ply against ``opponent``, colour-swapped pairs on
    seeded random openings (both sides epsilon-random when ``epsilon``)."""
    from engine.core.matches.agents import EpsilonAgent

    points = 0.0
    for k, opening in enumerate(game.random_openings(pairs, 11)):
        for side in (0, 1):
            ours = game.make_agent(genome, ONE_PLY, seed=k, name="td")
            theirs = game.make_panel_agent(opponent, ONE_PLY, seed=1000 + k)
            if epsilon:
                ours, theirs = (EpsilonAgent(a, epsilon, game.legal_moves, seed=s)
                                for a, s in ((ours, 2 * k), (theirs, 2 * k + 1)))
            first, second = (ours, theirs) if side == 0 else (theirs, ours)
            points += game.play(first, second, opening, k).score_for(side)
    return points / (2 * pairs)


def wilson_low(p: float, n: int, z: float = 1.96) -> float:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    return centre - z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)


# alpha 0.7 and 0.07 below: the per-entry rates 0.001 and 0.0001 these tests used before alpha
# became the share of the error (docs/patterns.md, "One meaning of alpha")
def test_td_from_zero_learns_to_beat_random_play():
    game = network_game()
    genome = game.td_learn(np.zeros(game.genome_spec().size), 3000, 1, 0.7, 0.1)
    result = score(game, genome, "random", 50)
    assert wilson_low(result, 100) > 0.5, result


@pytest.mark.slow
def test_td_from_zero_beats_the_wpc_at_one_ply_under_the_league_protocol():
    game = network_game()
    genome = game.td_learn(np.zeros(game.genome_spec().size), 100_000, 1, 0.07, 0.1)
    result = score(game, genome, "wpc1", 200, epsilon=0.1)
    assert wilson_low(result, 400) > 0.5, result
