"""What an agent the search settings do not change searches (``Game.fixed_search``), said by
the front ends in the words they use for an alpha-beta agent's search: ``wpc1`` searches depth
1, greedy."""

from __future__ import annotations

import io

import pytest

from engine.core.registry import get_game, usable_game_names
from evolve.arena.searches import PlayerSearch


@pytest.mark.parametrize("name", ["reversed_reversi", "othello", "pentago_twist", "hexifence"])
def test_every_listed_agent_that_does_not_search_by_the_settings_says_what_it_searches(name):
    game = get_game(name)
    fixed = [s for s in game.agent_specs() if "<" not in s and not game.spec_searches(s)]
    assert fixed
    for spec in fixed:
        words = game.fixed_search(spec)
        assert words and "\n" not in words, spec


def test_wpc1_searches_one_ply_greedily_in_the_words_of_a_search():
    game = get_game("reversed_reversi")
    assert game.fixed_search("wpc1") == ("depth 1, greedy by its positional weights, no exact "
                                         "endgame")
    assert game.fixed_search("eps0.1:wpc1").endswith(", a random move with probability 0.1")
    assert game.fixed_search("mcts:500") == "Monte Carlo tree search, 500 play-outs per move"
    assert game.fixed_search("course") is None  # it searches by the settings


def test_the_unequal_match_line_names_both_searches_alike():
    wpc1 = PlayerSearch("wpc1", False, 4, 8, fixed=get_game("othello").fixed_search("wpc1"))
    random = PlayerSearch("random", False, 4, 8, fixed=get_game("othello").fixed_search("random"))
    champion = PlayerSearch("a.json", True, 4, 8)
    assert wpc1.short() == "searches depth 1, greedy by its positional weights, no exact endgame"
    assert champion.short() == "searches depth 4, exact endgame from 8 empties"
    assert random.short() == "does not search (a random legal move)"
    assert PlayerSearch("x", False, 4, 8).short() == "plays by its own rule"  # a game not saying


def test_engine_play_says_the_fixed_agents_search_in_its_first_lines():
    from engine.reversi.play import main

    out = io.StringIO()
    assert main(["--opponent", "wpc1", "--variant", "othello"], io.StringIO("quit\n"), out) == 0
    assert ("wpc1 searches depth 1, greedy by its positional weights, no exact endgame (its own "
            "search; the depth and exact endgame settings do not apply).") in out.getvalue()


def test_a_plug_in_game_on_the_defaults_says_nothing_it_does_not_know():
    names = usable_game_names()
    if "connect_four" not in names:
        pytest.skip("the plug-in game is not installed")
    game = get_game("connect_four")
    assert game.fixed_search("random") == "no search, a random legal move"


def test_a_random_mover_is_said_not_to_search():
    from engine.core.commands.play import FixedSearch

    assert FixedSearch("no search, a random legal move").sentence("random") == \
        "random does not search (a random legal move)."
