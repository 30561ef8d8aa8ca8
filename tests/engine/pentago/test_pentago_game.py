"""Pentago Twist through the game-neutral contract: states, moves, outcomes, files, CLIs."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

from engine.core import DRAW, ChampionFileError, GameSettingsError, SearchSettings, get_game
from engine.core.matches.runner import play_game, replay
from engine.pentago.perft import distinct, sequences
from engine.pentago.perft import main as perft_main
from engine.pentago.rules import reference as ref
from engine.pentago.rules.state import State, move_text, parse_move

GAME = get_game("pentago_twist")
SEARCH = SearchSettings(depth=1, endgame_empties=4)


def test_registered_with_the_fixed_interface():
    assert GAME.players == ("white", "black") and GAME.margin_unit == "win"
    assert set(GAME.default_panel) >= {"random", "greedy", "mcts"}
    assert GAME.state_view(GAME.initial_state()) == {"board": ["......"] * 6, "to_move": 0,
                                                     "quadrants": 4, "stones": 0}


@pytest.mark.parametrize("seed", range(5))
def test_random_games_through_the_contract_end_with_a_consistent_outcome(seed):
    first, second = (GAME.make_panel_agent("random", SEARCH, s) for s in (seed, seed + 100))
    outcome = GAME.play(first, second, (), seed)
    state = replay(GAME, outcome.moves)
    assert GAME.is_terminal(state) and outcome.plies == len(outcome.moves) == state.stones
    expected = {"W": 0, "B": 1, "draw": DRAW}[ref.winner(ref.from_text(GAME.state_text(state)))]
    assert outcome.winner == expected
    assert outcome.margin == {0: 1.0, 1: -1.0, DRAW: 0.0}[expected]
    assert outcome.details == {"stones": state.stones}
    again = GAME.play(*(GAME.make_panel_agent("random", SEARCH, s) for s in (seed, seed + 100)),
                      (), seed)
    assert again == outcome


def test_every_move_id_round_trips_through_its_text():
    assert [parse_move(move_text(m)) for m in range(288)] == list(range(288))
    assert move_text(GAME.parse_move("2 5 3 1")) == "2 5 3 1"
    assert "," not in "".join(move_text(m) for m in range(288))


@pytest.mark.parametrize("text", ["", "1 2 3", "6 0 0 0", "0 0 4 0", "0 0 0 2", "a b c d"])
def test_bad_move_text_is_a_value_error(text):
    with pytest.raises(ValueError, match="move"):
        GAME.parse_move(text)


def test_illegal_moves_are_value_errors_saying_why():
    state = GAME.apply(GAME.initial_state(), GAME.parse_move("1 1 0 0"))  # centre stays put
    with pytest.raises(ValueError, match="taken"):
        GAME.parse_move("1 1 2 1", state)
    with pytest.raises(ValueError, match="out of range"):
        GAME.apply(state, 288)


def test_perft_counts_sequences_and_distinct_positions():
    # no game can end within 8 plies, so sequences = prod(8 * empties); every arrangement of
    # the right colour counts is reachable: distinct = C(36, whites) * C(36 - whites, blacks)
    for depth in (1, 2, 3):
        assert sequences(State(), depth) == int(np.prod([8 * (36 - k) for k in range(depth)]))
        whites, blacks = (depth + 1) // 2, depth // 2
        assert distinct(State(), depth) == comb(36, whites) * comb(36 - whites, blacks)


def test_perft_cli_prints_both_counts_and_rejects_bad_input(capsys):
    assert perft_main(["--depth", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["sequences"], out["distinct"]) == (80640, 1260)
    assert perft_main(["--depth", "1", "--position", "WW/B"]) == 2
    assert "error:" in capsys.readouterr().err


def test_champion_files_round_trip_and_bad_files_name_the_field(tmp_path):
    game = GAME.with_settings({"genome": {"phases": 2}})
    genome = np.random.default_rng(0).uniform(-1, 1, game.genome_spec().size)
    path = tmp_path / "champ.json"
    game.save_champion(path, genome, name="c1", metadata={"generation": 3})
    champion = GAME.load_champion(path)
    assert champion.settings == {"genome": {"phases": 2}} and champion.name == "c1"
    assert np.array_equal(champion.genome, genome)
    agent = GAME.make_panel_agent(str(path), SEARCH, seed=0)
    assert agent.select_move(GAME.initial_state()) in range(288)
    data = json.loads(path.read_text())
    data["weights"].pop("p0.own.win4")
    path.write_text(json.dumps(data))
    with pytest.raises(ChampionFileError, match="weights"):
        GAME.load_champion(path)
    path.write_text(json.dumps({**data, "game": "othello"}))
    with pytest.raises(ChampionFileError, match="game"):
        GAME.check_spec(str(path))


@pytest.mark.parametrize("settings, key", [({"genome": {"phases": 0}}, "game.genome.phases"),
                                           ({"genome": {"phases": 37}}, "game.genome.phases"),
                                           ({"genome": {"bounds": 1}}, "game.genome.bounds"),
                                           ({"size": 3}, "game.size")])
def test_bad_settings_name_the_full_key(settings, key):
    with pytest.raises(GameSettingsError, match=key.replace(".", r"\.")):
        GAME.with_settings(settings)


def test_settings_and_genome_layout_follow_the_phases():
    game = GAME.with_settings({"genome": {"phases": 4}})
    assert game.settings() == {"genome": {"phases": 4}}
    spec = game.genome_spec()
    assert spec.size == 4 * 18 == len(game.reference_genome("reference"))
    assert [game.phase_of(State(w, 0)) for w in (0, (1 << 36) - 1)] == [0, 3]


def test_unknown_spec_lists_the_allowed_ones():
    with pytest.raises(ValueError, match="allowed: random, greedy, mcts"):
        GAME.check_spec("minimax")


def test_generic_match_runner_plays_mixed_agents():
    opening = GAME.random_openings(1, 3, 2, 4)[0]
    outcome = play_game(GAME, GAME.make_panel_agent("greedy", SEARCH, 1),
                        GAME.make_panel_agent("mcts:100", SEARCH, 2), opening, seed=9)
    assert outcome.moves[: len(opening)] == opening and outcome.winner in (0, 1, DRAW)


def test_genome_figure_is_a_figure():
    fig = GAME.genome_figure(GAME.reference_genome("reference"), "reference")
    assert fig is not None and len(fig.axes) >= 2
