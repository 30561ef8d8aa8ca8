"""TD in rounds (``td_play`` + ``td_learn_games``) and the 1-ply choice it plays by
(``best_child``): the same games and weights as online TD where the policy cannot differ, the
same moves as valuing every child exactly, reproducible, and bad records refused."""

from __future__ import annotations

import numpy as np
import pytest

from engine.reversi.network_eval import best_child, greedy_move, new_child_scratch
from engine.reversi.td import largest_weights
from engine.reversi.td_rounds import start_boards
from tests.engine.reversi.helpers_ntuple import network_game, random_network

SETTINGS = ({"layout": "straight2", "phases": 2, "features": []},
            {"layout": "square2", "phases": 3, "features": ["mobility", "stability"]},
            {"layout": "corner3+edge2x", "phases": 1, "features": ["parity", "corners"]})


@pytest.mark.parametrize("genome", SETTINGS)
def test_rounds_learn_what_online_td_learns_when_every_move_is_random(genome):
    """With epsilon 1 the moves do not depend on the weights, so a round of games played by a
    fixed network is the online run's games, and learning from them in order is online TD."""
    game = network_game("othello", **genome)
    start = random_network(game, 3, scale=0.1).to_genome()
    online = game.td_learn(start, 120, 9, 0.05, 1.0)
    record = game.td_play(start, 120, 9, 1.0)
    learnt, errors = game.td_learn_games(start, [record], 0.05)
    np.testing.assert_array_equal(learnt, online)
    assert len(errors) == 120 and not np.array_equal(learnt, start)


def test_records_learn_the_same_in_one_call_or_one_after_another():
    game = network_game("reversed_reversi", phases=2, features=["mobility"])
    start = random_network(game, 4, scale=0.1).to_genome()
    a, b = game.td_play(start, 30, 1, 0.1), game.td_play(start, 20, 2, 0.1)
    both, _ = game.td_learn_games(start, [a, b], 0.07)
    first, _ = game.td_learn_games(start, [a], 0.07)
    np.testing.assert_array_equal(both, game.td_learn_games(first, [b], 0.07)[0])


def test_play_is_reproducible_from_its_seed_and_starts_from_the_openings():
    game = network_game("othello")
    genome = random_network(game, 5).to_genome()
    one, again = game.td_play(genome, 25, 7, 0.1), game.td_play(genome, 25, 7, 0.1)
    for key in one:
        np.testing.assert_array_equal(one[key], again[key])
    assert not np.array_equal(one["players"], game.td_play(genome, 25, 8, 0.1)["players"])
    openings = game.random_openings(25, 3, 4, 8)
    played = game.td_play(genome, 25, 7, 0.1, openings)
    firsts = np.concatenate([[0], np.cumsum(played["lengths"])[:-1]])
    P, O = start_boards(openings)
    np.testing.assert_array_equal(played["players"][firsts], P)
    np.testing.assert_array_equal(played["opponents"][firsts], O)
    assert set(np.unique(played["results"])) <= {-1.0, 0.0, 1.0}
    assert int(played["lengths"].sum()) == len(played["players"])


@pytest.mark.parametrize("genome", SETTINGS)
@pytest.mark.parametrize("weights", ["random", "integer", "zero"])
def test_best_child_moves_as_valuing_every_child_exactly(genome, weights):
    """Integer and zero weights make ties common: the exact values must still decide them."""
    game = network_game("othello", **genome)
    w = random_network(game, 6, integer=weights == "integer",
                       scale=0.0 if weights == "zero" else 1.0)
    phase_of_discs, t, net, features = w.numba_arrays()
    positions = game.td_play(w.to_genome(), 40, 2, 0.3)
    indices, scratch = np.empty(len(t.offset), np.int64), new_child_scratch(t)
    largest = largest_weights(net)
    from engine.reversi import bitboard as bb

    for P, O in zip(positions["players"], positions["opponents"], strict=True):
        moves = np.uint64(bb.legal_moves(P, O))
        want = greedy_move(P, O, moves, phase_of_discs, t, net, features, False, indices)
        assert best_child(P, O, moves, phase_of_discs, t, net, features, False, indices,
                          scratch, largest) == want


def test_a_malformed_record_is_refused():
    game = network_game("othello")
    genome = np.zeros(game.genome_spec().size)
    record = game.td_play(genome, 3, 1, 0.1)
    with pytest.raises(ValueError, match="a TD record must hold"):
        game.td_learn_games(genome, [{**record, "lengths": record["lengths"] + 1}], 0.1)
    with pytest.raises(ValueError, match="alpha"):
        game.td_learn_games(genome, [record], 0.0)
    with pytest.raises(ValueError, match="TD self-play in rounds is not available"):
        network_game("othello").with_settings({"genome": {"kind": "weights"}}).td_play(
            genome, 1, 0, 0.1)
