"""Whole-game time controls (engine.core.matches.clock): parsing, the allocation rule, and a clocked
agent that keeps within its time over a real game (on a clock its search's own work moves)."""

from __future__ import annotations

import pytest

from engine.core import SearchSettings, get_game
from engine.core.matches.clock import (
    MAX_SHARE,
    MIN_MOVES_LEFT,
    Clock,
    ClockedAgent,
    TimeControl,
    mean_weight_from,
    midgame_weight,
)
from engine.kernels.search.mcts import TIMED_CHUNK
from engine.pentago.agents import mcts as pentago_mcts
from engine.reversi.agents import mcts as reversi_mcts
from engine.reversi.search import searcher as reversi_search
from tests.engine.kernels.work_clock import WorkClock, node_clock


@pytest.mark.parametrize(("text", "want"), [("60+1", (60, 1)), ("300", (300, 0)),
                                            (" 0.5 + 0.05 ", (0.5, 0.05))])
def test_time_controls_parse(text, want):
    control = TimeControl.parse(text)
    assert (control.base, control.increment) == want
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize("text", ["", "0", "-1+1", "60+", "1+x", "1:00"])
def test_a_bad_time_control_says_what_is_allowed(text):
    with pytest.raises(ValueError, match=r"expected <seconds>\[\+<increment>\]"):
        TimeControl.parse(text)


def test_a_single_legal_move_gets_no_time_and_a_choice_gets_its_share():
    clock = Clock(TimeControl(60))
    assert clock.budget(20, 0.5, 1) == 0.0
    middle, early = clock.budget(20, 0.5, 5), clock.budget(20, 0.0, 5)
    assert middle > early  # more at mid-game
    assert middle <= MAX_SHARE * 60
    assert clock.budget(1, 0.99, 5) <= 60 / MIN_MOVES_LEFT  # never all of it on one move


def test_the_midgame_weights_average_out_over_the_rest_of_the_game():
    for a in (0.0, 0.3, 0.7, 0.95):
        grid = [a + (1 - a) * (k + 0.5) / 10_000 for k in range(10_000)]
        assert mean_weight_from(a) == pytest.approx(sum(map(midgame_weight, grid)) / 10_000,
                                                    rel=1e-6)


@pytest.mark.parametrize("increment", [0.0, 0.5])
def test_spending_every_budget_over_a_long_game_never_runs_out(increment):
    """Moves that use exactly their budget, on a game longer than the estimate said."""
    clock = Clock(TimeControl(10, increment))
    for ply in range(100):
        moves_left = max(1, 30 - ply)  # the estimate runs out before the game does
        clock.charge(clock.budget(moves_left, min(1.0, ply / 30), 4))
        assert not clock.flagged
    assert clock.moves == 100


def test_a_clocked_alpha_beta_plays_a_whole_game_within_its_time(monkeypatch):
    """On a clock that only the nodes searched move (1M a second), so the game and what each
    move is charged are the same on any machine."""
    node_clock(monkeypatch, reversi_search)
    game = get_game("reversed_reversi")
    control = TimeControl(3.0, 0.02)
    players = [ClockedAgent(game.make_panel_agent("course", SearchSettings(60, 0, 1.0)),
                            control, game) for _ in range(2)]
    budgets = []
    state = game.initial_state()
    while not game.is_terminal(state):
        agent = players[game.to_move(state)]
        move = agent.select_move(state)
        budgets.append(agent.last_info["budget"])
        state = game.apply(state, move)
    for agent in players:
        assert not agent.clock.flagged
        used = control.base + agent.clock.moves * control.increment - agent.clock.remaining
        assert 0.5 * control.base < used <= control.base + agent.clock.moves * control.increment
    assert 0.0 in budgets or all(b > 0 for b in budgets)  # forced moves (if any) took none


def test_an_agent_without_a_time_limit_plays_as_it_would_and_is_charged():
    game = get_game("reversed_reversi")
    agent = ClockedAgent(game.make_panel_agent("greedy", SearchSettings(2, 0)), TimeControl(5),
                         game)
    state = game.initial_state()
    move = agent.select_move(state)
    assert move in game.legal_moves(state) and agent.clock.moves == 1
    assert agent.clock.remaining < 5


@pytest.mark.parametrize(("name", "module"), [("reversed_reversi", reversi_mcts),
                                              ("pentago_twist", pentago_mcts)])
def test_a_clocked_mcts_spends_its_budgets(monkeypatch, name, module):
    """MCTS under the same interface: built timed, its clock sets each move's time. On a clock
    that only the play-outs move, so each move takes its budget and at most one chunk more on
    any machine."""
    rate = 1e4
    clock = WorkClock(rate).drive(monkeypatch, module, "mcts_run", lambda ran: ran)
    game = get_game(name)
    agent = ClockedAgent(game.make_panel_agent("mcts", SearchSettings(2, 0, 1.0), seed=1),
                         TimeControl(2.0), game)
    state = game.initial_state()
    for _ in range(4):
        start = clock.now
        move = agent.select_move(state)
        took, budget = clock.now - start, agent.last_info["budget"]
        assert budget - 1e-3 <= took < budget + TIMED_CHUNK / rate + 1e-3  # budget: to the ms
        state = game.apply(state, move)
