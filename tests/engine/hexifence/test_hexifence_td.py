"""TD self-play of Hexifence's ``ntuple`` genomes: a board whose values are known exactly,
reproducibility, the contract, and that it learns what a zero network does not know."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core import SearchSettings, get_game
from engine.core.matches.runner import play_game
from engine.hexifence.td import selfplay as td

GAME = get_game("hexifence")


def ntuple(size, **genome):
    return GAME.with_settings({"size": size, "genome": {"kind": "ntuple", **genome}})


def test_the_one_cell_board_learns_its_exact_values():
    """N=1: one cell, six boundary edges, one node counting the drawn ones. Nobody can capture
    before the sixth edge, so the players alternate and the player drawing the sixth (red, the
    second) takes the cell whatever anyone plays: with k edges drawn the side to move ends
    +1 cell ahead if k is odd, -1 if even. The margin is 0 all game, so the network alone must
    hold those values."""
    game = ntuple(1, layout="cell", phases=1)
    net, _, errors, results = td.learn(game, np.zeros(game.genome_spec().size), 300, 0,
                                       0.5, 0.3)
    assert set(results) == {-1.0}
    assert net[0, :6] == pytest.approx([-1, 1, -1, 1, -1, 1], abs=1e-6)
    assert net[0, 6] == 0.0  # six drawn edges: the game is over, never a position to learn
    assert errors[-1] < 1e-9 < errors[0]


def test_learning_is_reproducible_from_the_seed_and_leaves_its_input_alone():
    game = ntuple(2, phases=2)
    genome = np.zeros(game.genome_spec().size)
    a = game.td_learn(genome, 20, 5, 0.1, 0.1)
    assert not genome.any() and a.any() and a.shape == genome.shape
    assert np.array_equal(a, game.td_learn(genome, 20, 5, 0.1, 0.1))
    assert not np.array_equal(a, game.td_learn(genome, 20, 6, 0.1, 0.1))
    assert not GAME.learns_by_td() and game.learns_by_td()
    with pytest.raises(ValueError, match="games"):
        game.td_learn(genome, -1, 0, 0.1, 0.1)


def test_with_features_the_network_learns_around_fixed_feature_weights():
    game = ntuple(2, phases=2, features=True)
    genome = game.reference_genome("reference")
    net, feat = game.network.split(game.td_learn(genome, 10, 0, 0.1, 0.1))
    assert np.array_equal(feat, game.network.split(genome)[1]) and net.any()


def test_a_few_thousand_games_beat_the_zero_network_at_one_turn():
    """N=2, same search (1 turn, no exact endgame), same openings, both colours: the zero
    network is the margin alone."""
    game = ntuple(2, phases=1)
    zero = np.zeros(game.genome_spec().size)
    learnt = game.td_learn(zero, 2000, 0, 0.1, 0.1)
    search = SearchSettings(depth=1, endgame_empties=0)
    score, openings = 0.0, game.random_openings(15, 1, 2, 4)
    for i, opening in enumerate(openings):
        for side in (0, 1):
            ours, theirs = game.make_agent(learnt, search), game.make_agent(zero, search)
            pair = (ours, theirs) if side == 0 else (theirs, ours)
            score += play_game(game, *pair, opening, i).score_for(side)
    assert score / (2 * len(openings)) >= 0.6
