"""Pentago Twist agents: tactics, reproducibility, legal moves, time budgets."""

from __future__ import annotations

import re

import numpy as np
import pytest

from engine.core import SearchSettings
from engine.kernels.search import mcts as uct
from engine.pentago.agents import mcts as pentago_mcts
from engine.pentago.agents import tactics
from engine.pentago.agents.mcts import MCTSAgent
from engine.pentago.agents.simple import GreedyAgent
from engine.pentago.game import GAME
from engine.pentago.rules.state import parse_state
from engine.pentago.search import searcher as search_module
from tests.engine.kernels.work_clock import WorkClock, node_clock
from tests.engine.pentago.test_pentago_rules import random_reachable

WIN_IN_ONE = parse_state("WWWW..\n......\n......\n......\n......\nBBB.B.\nW")
MUST_BLOCK = parse_state("WWWW..\n......\n......\n......\n....B.\nBB....\nB")
SEARCH = SearchSettings(depth=2, endgame_empties=6)


@pytest.mark.parametrize("spec", ["greedy", "mcts:200", "mcts_h:100", "reference"])
def test_agents_take_a_win_in_one(spec):
    agent = GAME.make_panel_agent(spec, SEARCH, seed=3)
    assert WIN_IN_ONE.after(agent.select_move(WIN_IN_ONE)).winner() == 0


@pytest.mark.parametrize("spec", ["greedy", "mcts:200", "mcts_h:100", "reference"])
def test_agents_never_hand_over_a_win_in_one_when_they_can_avoid_it(spec):
    agent = GAME.make_panel_agent(spec, SEARCH, seed=4)
    child = MUST_BLOCK.after(agent.select_move(MUST_BLOCK))
    assert tactics.winning_move(*child.boards()) == -1


def test_greedy_picks_among_safe_moves_at_random():
    moves = {GreedyAgent(seed).select_move(MUST_BLOCK) for seed in range(10)}
    assert len(moves) > 1


def test_mcts_with_a_playout_budget_is_reproducible():
    state = random_reachable(5, 8)
    first = MCTSAgent(playouts=500, seed=11).select_move(state)
    again = MCTSAgent(playouts=500, seed=11)
    assert [again.select_move(state) for _ in range(1)] == [first]
    agent = MCTSAgent(playouts=500, seed=11)
    assert agent.select_move(state) == first and agent.last_playouts == 500


def test_timed_alphabeta_spends_its_limit_and_stops_within_it(monkeypatch):
    """On a clock that only the nodes searched move, so it holds on any machine."""
    clock = node_clock(monkeypatch, search_module)
    state = random_reachable(6, 6)
    agent = GAME.make_panel_agent("reference", SearchSettings(depth=2, endgame_empties=6,
                                                              time_limit=0.2), seed=1)
    assert agent.select_move(state) in state.legal_moves()
    assert 0.1 < clock.now <= 0.2


def test_timed_mcts_looks_at_its_clock_every_chunk_and_stops_past_the_limit(monkeypatch):
    """On a clock that only the play-outs move (``rate`` a second), so it holds on any
    machine: the search stops at the first chunk that ends at or past the limit."""
    rate = 1e4
    clock = WorkClock(rate).drive(monkeypatch, pentago_mcts, "mcts_run", lambda ran: ran)
    state = random_reachable(6, 6)
    agent = GAME.make_panel_agent("mcts", SearchSettings(depth=2, time_limit=0.2), seed=1)
    assert agent.select_move(state) in state.legal_moves()
    chunks = int(np.ceil(0.2 * rate / uct.TIMED_CHUNK))
    assert agent.last_playouts == chunks * uct.TIMED_CHUNK
    assert 0.2 <= clock.now < 0.2 + uct.TIMED_CHUNK / rate


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:50", "mcts_h:30", "alphabeta"])
def test_every_agent_plays_legal_moves_to_the_end(spec):
    rng = np.random.default_rng(0)
    agent = GAME.make_panel_agent(spec, SearchSettings(depth=1, endgame_empties=4), seed=2)
    state = GAME.initial_state()
    while not state.is_over():
        if state.to_move == 0:
            move = agent.select_move(state)
        else:
            legal = state.legal_moves()
            move = legal[int(rng.integers(len(legal)))]
        assert move in state.legal_moves()
        state = state.apply(move)


# --- the play command --------------------------------------------------------------------------

def test_play_cli_refuses_bad_moves_and_plays_typed_ones():
    import io

    from engine.pentago.play import main

    out = io.StringIO()
    code = main(["--opponent", "random", "--seed", "2"], io.StringIO("1 1\n1 1 0 0\nquit\n"), out)
    text = out.getvalue()
    assert code == 0
    assert "move '1 1': expected \"x y a b\"" in text and "type 'moves' for the legal moves" in text
    assert re.search(r"B \(black\) \(random\) plays \d \d \d \d \(x\d y\d, (rotate|flip) ", text)
    assert text.endswith("\nyou quit the game\n")


def test_play_cli_colour_black_lets_the_agent_open(capsys):
    import io

    from engine.pentago.play import main

    out = io.StringIO()
    assert main(["--opponent", "greedy", "--colour", "b"], io.StringIO(""), out) == 0
    first_moves = out.getvalue().split("your move")[0]
    assert "W (white) (greedy) plays" in first_moves


@pytest.mark.parametrize("argv, message", [
    (["--depth", "0"], "--depth must be >= 1, got 0"),
    (["--time-limit", "-2"], "--time-limit must be > 0 seconds, got -2"),
    (["--opponent", "nope"], "unknown agent spec 'nope'"),
])
def test_play_cli_bad_options_are_one_line_errors(argv, message, capsys):
    from engine.pentago.play import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
