"""One conformance test for every registered game (OpenSpiel's ``games_sim_test`` idea): a game
is covered the moment it is listed in ``engine.core.registry``.

Random legal play-outs end in a valid outcome; openings are legal, seeded and distinct; a random
in-bounds genome plays legal games; a champion file round-trips; the same seed replays the same
game; texts and views round-trip.
"""

import json

import numpy as np
import pytest

from engine.core import DRAW, Champion, GenomeSpec, SearchSettings, game_names, get_game
from engine.core.game import moves_text, parse_moves
from engine.core.matches import specs
from engine.core.matches.runner import play_game, random_openings, replay

FAST = SearchSettings(depth=1, endgame_empties=2)
GAMES = game_names()


def random_playout(game, rng, max_plies=10_000):
    state, moves = game.initial_state(), []
    while not game.is_terminal(state):
        legal = game.legal_moves(state)
        assert legal, f"{game.name}: no legal move in a state that is not terminal"
        assert len(set(legal)) == len(legal)
        move = legal[int(rng.integers(len(legal)))]
        state = game.apply(state, move)
        moves.append(move)
        assert len(moves) < max_plies
    return state, moves


def check_outcome(game, outcome, moves):
    assert outcome.winner in (0, 1, DRAW)
    assert outcome.plies == len(moves) == len(outcome.moves)
    assert list(outcome.moves) == list(moves)
    assert set(outcome.details) == set(game.result_columns)
    sign = np.sign(outcome.margin)
    assert sign == {0: 1, 1: -1, DRAW: 0}[outcome.winner] or game.margin_unit == "win" and (
        outcome.winner == DRAW) == (outcome.margin == 0)


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_end_in_a_valid_outcome(name):
    game = get_game(name)
    rng = np.random.default_rng(0)
    for _ in range(20):
        state, moves = random_playout(game, rng)
        check_outcome(game, game.outcome(state, moves), moves)
        assert game.legal_moves(state) == []


@pytest.mark.parametrize("name", GAMES)
def test_moves_and_states_round_trip_through_text(name):
    game = get_game(name)
    rng = np.random.default_rng(1)
    state, moves = random_playout(game, rng)
    text = moves_text(game, moves)
    assert parse_moves(game, text) == tuple(moves)
    position = game.initial_state()
    for move in moves:
        assert "," not in game.move_text(move)
        assert game.parse_move(game.move_text(move), position) == move
        again = game.parse_state(game.state_text(position))
        assert game.state_text(again) == game.state_text(position)
        assert game.legal_moves(again) == game.legal_moves(position)
        json.dumps(game.state_view(position))  # JSON-able for the web app
        assert game.state_view(position)["to_move"] == game.to_move(position)
        position = game.apply(position, move)


@pytest.mark.parametrize("name", GAMES)
def test_bad_text_and_illegal_moves_are_value_errors(name):
    game = get_game(name)
    with pytest.raises(ValueError):
        game.parse_state("not a board")
    with pytest.raises(ValueError):
        game.parse_move("zz top", game.initial_state())
    state = game.initial_state()
    legal = set(game.legal_moves(state))
    illegal = next(m for m in range(100_000) if m not in legal)
    with pytest.raises(ValueError):
        game.apply(state, illegal)


@pytest.mark.parametrize("name", GAMES)
def test_openings_are_legal_seeded_and_distinct(name):
    game = get_game(name)
    ss = np.random.SeedSequence(7)
    openings = game.random_openings(6, ss, 2, 4)
    assert openings == game.random_openings(6, np.random.SeedSequence(7), 2, 4)
    assert openings != game.random_openings(6, np.random.SeedSequence(8), 2, 4)
    finals = {game.state_text(replay(game, o)) for o in openings}
    assert len(finals) == 6
    for opening in openings:
        assert 2 <= len(opening) <= 4
        assert not game.is_terminal(replay(game, opening))


@pytest.mark.parametrize("name", GAMES)
def test_genome_spec_is_consistent(name):
    game = get_game(name)
    spec = game.genome_spec()
    assert isinstance(spec, GenomeSpec) and spec.size > 0
    assert len(set(spec.names)) == spec.size
    covered = sorted(i for s in spec.blocks.values() for i in range(spec.size)[s])
    assert covered == list(range(spec.size))  # blocks partition the genome
    low, high = spec.default_bounds()
    assert low.shape == high.shape == (spec.size,) and np.all(low < high)
    for reference in game.seed_references:
        assert game.reference_genome(reference).shape == (spec.size,)
    assert get_game(name, game.settings()).genome_spec().names == spec.names


@pytest.mark.parametrize("name", GAMES)
def test_a_random_genome_plays_legal_reproducible_games(name):
    game = get_game(name)
    low, high = game.genome_spec().default_bounds()
    genome = np.random.default_rng(3).uniform(low, high)
    opening = game.random_openings(1, 5, 2, 4)[0]

    def one_game(seed):
        evolved = game.make_agent(genome, FAST, seed=1, name="evolved")
        rival = game.make_panel_agent("random", FAST, seed=2)
        return game.play(evolved, rival, opening, seed)

    first = one_game(11)
    check_outcome(game, first, first.moves)
    assert tuple(first.moves[:len(opening)]) == tuple(opening)
    assert one_game(11) == first
    generic = play_game(game, game.make_agent(genome, FAST, name="evolved"),
                        game.make_panel_agent("random", FAST), opening, 11)
    check_outcome(game, generic, generic.moves)


@pytest.mark.parametrize("name", GAMES)
def test_every_listed_agent_spec_is_accepted_and_garbage_is_refused(name):
    game = get_game(name)
    assert "random" in game.agent_specs()
    for spec in game.default_panel:  # the panel may use the core's @d<N> / @d+<K> depths
        specs.check_spec(game, spec)
        assert specs.make_agent(game, spec, FAST, seed=0) is not None
    with pytest.raises(ValueError):
        game.check_spec("no-such-agent-xyz")


@pytest.mark.parametrize("name", GAMES)
def test_a_champion_file_round_trips(name, tmp_path):
    from engine.core.champions.files import champion_game

    game = get_game(name)
    low, high = game.genome_spec().default_bounds()
    genome = np.random.default_rng(4).uniform(low, high) * 0.5
    path = tmp_path / "champion.json"
    game.save_champion(path, genome, "probe", {"search": FAST.to_dict()})
    assert champion_game(path) == name
    champion = game.load_champion(path)
    assert isinstance(champion, Champion)
    assert champion.game == name and champion.name == "probe"
    assert np.allclose(champion.genome, genome, rtol=0, atol=1e-12)
    assert champion.metadata["search"] == FAST.to_dict()
    again = get_game(name, champion.settings)
    assert again.genome_spec().names == game.genome_spec().names
    agent = game.make_panel_agent(str(path), FAST, seed=0)
    outcome = game.play(agent, game.make_panel_agent("random", FAST, seed=1), (), 3)
    check_outcome(game, outcome, outcome.moves)


@pytest.mark.parametrize("name", GAMES)
def test_the_generic_runner_and_openings_work_through_the_state_interface(name):
    game = get_game(name)
    openings = random_openings(game, 3, 9, 1, 3)
    assert len(openings) == 3
    a, b = game.make_panel_agent("random", FAST), game.make_panel_agent("random", FAST)
    assert play_game(game, a, b, openings[0], 5) == play_game(game, a, b, openings[0], 5)
