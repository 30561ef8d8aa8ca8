"""Hexifence agents, game settings, champion files and the CLIs."""

import json
import re

import numpy as np
import pytest

from engine.core import GameSettingsError, SearchSettings, get_game
from engine.core.matches.runner import play_pairs
from engine.hexifence.agents.chain import ChainAgent
from engine.hexifence.game import GAME
from engine.hexifence.rules.state import from_text
from engine.hexifence.search import searcher as searcher_module
from tests.engine.kernels.work_clock import node_clock

FAST = SearchSettings(depth=1, endgame_empties=8)

# N=2, red to move. Blue has opened the 3-chain (0,0)-(1,0)-(2,1) at the (0,0) end; the 3-chain
# (0,1)-(1,2)-(2,2) is closed; blue owns the centre. Taking all three leaves red to open the
# other chain (red 3, blue 4); taking one and handing back two keeps control (red 4, blue 3).
OPENED_CHAIN = """2
B B + B - - -
B - B - B - -
B + B B + B -
B - B b B - B
- B + B B + B
- - + - B - +
- - - B B B B
red"""


def score(outcomes, first_is_a=True):
    return sum(o.score_for(0 if (i % 2 == 0) == first_is_a else 1)
               for i, o in enumerate(outcomes))


@pytest.mark.parametrize("spec", ["random", "greedy", "safe", "chain", "reference", "margin"])
def test_every_agent_plays_legal_games_at_both_course_sizes(spec):
    for size in (2, 3):
        game = GAME.with_settings({"size": size})
        agent = game.make_panel_agent(spec, FAST, seed=1)
        outcomes = play_pairs(game, agent, game.make_panel_agent("random", FAST, 2),
                              game.random_openings(1, 3, 0, 2), seed=4)
        for o in outcomes:
            assert o.details["blue_cells"] + o.details["red_cells"] == len(game.board.cells)


def test_greedy_takes_a_capture_and_safe_avoids_offering_cells():
    game = GAME.with_settings({"size": 2})
    state = from_text(OPENED_CHAIN)
    for spec in ("greedy", "safe", "chain"):
        move = game.make_panel_agent(spec, FAST, 0).select_move(state)
        assert state.play(move).to_move == state.to_move  # it captured
    empty = game.initial_state()
    safe = game.make_panel_agent("safe", FAST, 0)
    for _ in range(5):
        after = empty.play(safe.select_move(empty))
        from engine.hexifence.agents.tactics import IMMEDIATE, table_of
        assert table_of(after)[:, IMMEDIATE].max() == 0  # nothing offered to the opponent


def test_the_hand_built_agents_are_ordered_by_strength():
    game = GAME.with_settings({"size": 3})
    openings = game.random_openings(10, 9, 0, 2)
    results = {}
    for a, b in (("greedy", "random"), ("chain", "safe")):
        outcomes = play_pairs(game, game.make_panel_agent(a, FAST, 1),
                              game.make_panel_agent(b, FAST, 2), openings, seed=5)
        results[a] = score(outcomes) / len(outcomes)
    assert results["greedy"] >= 0.9 and results["chain"] >= 0.6, results


def test_the_chain_agent_double_deals_when_keeping_control_wins():
    """Red takes one cell and hands the last two back: whoever opens the other chain loses it."""
    state = from_text(OPENED_CHAIN)
    agent = ChainAgent(0)
    moves = []
    while state.to_move == 1 and not state.is_terminal():
        move = agent.select_move(state)
        moves.append(move)
        state = state.play(move)
    assert state.scores[1] == 1, state.to_text()  # took one cell, declined the last two
    from engine.hexifence.genome.evaluation import N_FEATURES
    from engine.hexifence.search.searcher import Searcher
    solver = Searcher(np.zeros((1, N_FEATURES)), 2, tt_bits=16, shared=False)
    assert solver.solve(from_text(OPENED_CHAIN)).value == -solver.solve(state).value


def test_perfect_agent_is_n2_only_and_always_gets_at_least_the_solved_value():
    from engine.core.matches.runner import replay
    from engine.hexifence.genome.evaluation import N_FEATURES
    from engine.hexifence.search.searcher import Searcher

    with pytest.raises(ValueError, match="N=2"):
        GAME.check_spec("perfect")
    game = GAME.with_settings({"size": 2})
    assert "perfect" not in GAME.agent_specs() and "perfect" in game.agent_specs()
    solver = Searcher(np.zeros((1, N_FEATURES)), 2, tt_bits=16, shared=False)
    perfect = game.make_panel_agent("perfect", FAST)
    openings = game.random_openings(3, 1, 10, 12)
    outcomes = play_pairs(game, perfect, game.make_panel_agent("chain", FAST, 3), openings, 2)
    for i, outcome in enumerate(outcomes):
        start = replay(game, openings[i // 2])
        value = solver.solve(start).value  # for the side to move there
        blue_value = value if start.to_move == 0 else -value
        perfect_is_blue = i % 2 == 0
        assert (outcome.margin - blue_value) * (1 if perfect_is_blue else -1) >= 0


@pytest.mark.parametrize("settings, key", [
    ({"size": 0}, "game.size=0"), ({"size": "3"}, "game.size"),
    ({"genome": {"phases": 0}}, "game.genome.phases=0"),
    ({"genome": {"phases": 3, "x": 1}}, "game.genome.x"), ({"colour": 1}, "game.colour"),
])
def test_bad_settings_name_their_key(settings, key):
    with pytest.raises(GameSettingsError, match=key.replace(".", r"\.")):
        get_game("hexifence", settings)


def test_settings_round_trip_and_size_two_works():
    game = get_game("hexifence", {"size": 2, "genome": {"phases": 4}})
    assert game.settings() == {"size": 2, "genome": {"phases": 4}}
    assert game.genome_spec().size == 4 * 11 and len(game.board.edges) == 30
    assert game.phase_of(game.initial_state()) == 0


def test_unknown_spec_lists_the_allowed_ones():
    with pytest.raises(ValueError, match="random, greedy, safe, chain"):
        GAME.check_spec("minimax")


@pytest.mark.parametrize("doc, word", [
    ({"game": "othello"}, "game"), ({"game": "hexifence", "schema_version": 9}, "schema"),
    ({"game": "hexifence", "schema_version": 1, "features": ["x"]}, "features"),
])
def test_bad_champion_files_are_refused_by_field(tmp_path, doc, word):
    from engine.core import ChampionFileError

    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ChampionFileError, match=word):
        GAME.load_champion(path)


def test_play_cli_plays_a_game_from_typed_moves(capsys):
    import io

    from engine.hexifence.play import main

    game = GAME.with_settings({"size": 1})
    typed = "\n".join(["9 9", "0 0", "0 1", "1 0", "1 2", "2 1", "2 2"]) + "\n"
    out = io.StringIO()
    assert main(["--size", "1", "--opponent", "random"], io.StringIO(typed), out) == 0
    text = out.getvalue()
    assert "move 9 9: not an edge of the N=1 board; legal moves: 0 0, 0 1, 1 0, 1 2, 2 1, 2 2\n" \
        in text
    last = text.strip().splitlines()[-1]
    match = re.fullmatch(r"game over: blue (\d)  red (\d); (blue|red) wins: you (win|lose)", last)
    assert match, last
    blue, red, winner, verdict = match.groups()
    assert int(blue) + int(red) == 1 and winner == ("blue" if blue == "1" else "red")
    assert verdict == ("win" if winner == "blue" else "lose")
    assert game.board.n_edges == 6


def test_clis_refuse_bad_input_with_exit_two(tmp_path, capsys):
    from engine.core.commands.cli import dispatch

    assert dispatch("play", ["--game", "hexifence", "--size", "3", "--opponent", "perfect"]) == 2
    assert "N=2" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("7\n")
    assert dispatch("solve", ["--game", "hexifence", "--file", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("error:")


def test_alphabeta_deepens_within_a_time_limit_and_reports_its_eval(monkeypatch):
    """On a clock that only the nodes searched move, so the depth reached is the same on any
    machine."""
    node_clock(monkeypatch, searcher_module, rate=1e5)  # a slow machine
    game = GAME.with_settings({"size": 3})
    agent = game.make_panel_agent("reference", SearchSettings(depth=1, endgame_empties=4,
                                                              time_limit=0.05))
    state = game.initial_state()
    result = agent.searcher.search(state, time_limit=0.2)
    assert result.depth >= 2 and result.move in state.legal_moves()
    assert agent.select_move(state) in state.legal_moves() and "eval" in agent.last_info


def test_games_replay_exactly_whatever_other_searches_left_in_the_shared_table():
    """Exact table entries are shared by every search in a process; the root's fixed move order
    keeps the chosen move (the first optimal one) independent of them."""
    game = GAME.with_settings({"size": 2})
    search = SearchSettings(depth=2, endgame_empties=20)
    first, other = game.random_openings(2, 8, 2, 4)

    def one(opening, seed):
        return game.play(game.make_panel_agent("reference", search),
                         game.make_panel_agent("chain", search, 1), opening, seed)

    before = one(first, 3)
    one(other, 4)
    assert one(first, 3) == before


def test_play_cli_plays_the_committed_champion_at_its_recorded_search(capsys):
    """The README's Hexifence champion in the terminal: depth 3, exact from 24 edges, the play
    search its file records (its README row's); the run's own champion file records only the
    search it was evolved with, depth 2 and 20; a flag overrides one field."""
    import io

    from engine.hexifence.play import main

    champion = "experiments/results/champions/hexifence.json"
    out = io.StringIO()
    assert main(["--opponent", champion], stdin=io.StringIO("quit\n"), stdout=out) == 0
    assert "searches depth 3, exact endgame from 24 (champion file's play search)." in \
        out.getvalue()
    evolved = "experiments/runs/hexifence/champion.json"
    out = io.StringIO()
    assert main(["--opponent", evolved], stdin=io.StringIO("quit\n"), stdout=out) == 0
    assert "searches depth 2, exact endgame from 20 (champion file)." in out.getvalue()
    out = io.StringIO()
    main(["--opponent", evolved, "--endgame-empties", "24"], stdin=io.StringIO("quit\n"),
         stdout=out)
    assert ("searches depth 2, exact endgame from 24 (exact endgame set; the champion file "
            "records exact endgame 20).") in out.getvalue()
