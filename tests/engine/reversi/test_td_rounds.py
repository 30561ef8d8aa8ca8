"""TD in rounds (``td_play`` + ``td_learn_games``) and the 1-ply choice it plays by
(``best_child``): the same games and weights as online TD where the policy cannot differ, the
same moves as valuing every child exactly, reproducible, and bad records refused."""

from __future__ import annotations

import numpy as np
import pytest

from engine.reversi.genome.network_eval import best_child, greedy_move, new_child_scratch
from engine.reversi.td.rounds import joined, start_boards
from engine.reversi.td.selfplay import MAX_RECORD
from engine.reversi.td.step_rules import largest_weights
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
    from engine.reversi.rules import bitboard as bb

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


def record_of(lengths, positions=None, games=None) -> dict:
    """A record of ``lengths`` games (zero boards and results) with ``positions`` players,
    opponents and movers (default: ``sum(lengths)``) and ``games`` results."""
    n = int(np.sum(lengths)) if positions is None else positions
    return {"players": np.zeros(n, np.uint64), "opponents": np.zeros(n, np.uint64),
            "movers": np.zeros(n, np.int8), "lengths": np.array(lengths, np.int64),
            "results": np.zeros(len(lengths) if games is None else games)}


def _shorter(key):
    return lambda r: {**r, key: r[key][:-1]}


@pytest.mark.parametrize("change, message", [
    (_shorter("movers"), "players, opponents and movers of one length, got [64, 64, 63]"),
    (_shorter("opponents"), "players, opponents and movers of one length"),
    (_shorter("results"), "one result per game: 1 results, 2 lengths"),
    (lambda r: {**r, "results": np.zeros(3)}, "one result per game: 3 results, 2 lengths"),
    # the sum is right, yet game 0 would read past the positions
    (lambda r: {**r, "lengths": np.array([70, -6])}, f"game lengths from 0 to {MAX_RECORD}"),
    (lambda r: {**r, "lengths": np.array([-1, 65])}, f"game lengths from 0 to {MAX_RECORD}"),
    (lambda r: {**r, "lengths": np.array([np.nan, 64.0])}, "game lengths from 0"),
    (lambda r: {**r, "lengths": np.array(["0", "64"])}, "game lengths from 0"),
    (lambda r: {**r, "results": np.zeros((2, 1))}, "1-D arrays, not results"),
    (lambda r: {**r, "lengths": np.array([1, 64])}, "sum(lengths) positions: lengths sum to 65"),
    (lambda r: {k: v for k, v in r.items() if k != "movers"}, "must hold exactly players"),
    # a square in both boards would be a state the tables do not have
    (lambda r: {**r, "players": r["players"] | np.uint64(8), "opponents": r["opponents"]
                | np.uint64(24)}, "must not hold a square in both"),
])
def test_a_record_that_disagrees_with_itself_is_refused_before_numba_reads_it(change, message):
    """The kernel indexes the record unchecked: every count must agree before it runs."""
    sound = record_of([0, MAX_RECORD])
    assert len(joined([sound])["players"]) == MAX_RECORD
    with pytest.raises(ValueError) as err:
        joined([sound, change(sound)])
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_record_with_a_game_too_long_is_refused_by_td_learn_games():
    game = network_game("othello")
    genome = np.zeros(game.genome_spec().size)
    with pytest.raises(ValueError, match="game lengths from 0 to"):
        game.td_learn_games(genome, [record_of([MAX_RECORD + 1])], 0.1)
    with pytest.raises(ValueError, match="one result per game"):
        game.td_learn_games(genome, [record_of([3, 4], games=1)], 0.1)
